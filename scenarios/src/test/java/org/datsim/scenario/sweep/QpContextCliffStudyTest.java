package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The base scenario of {@code studies/throughput-vs-qps.json} shows the QP-context cache cliff, in a shortened
 * sweep: with an 8-entry cache, 4 and 8 queue pairs served round-robin never miss and run at the send engine's
 * message rate, 16 miss on most lookups and lose more than half the throughput; with 32 entries, 16 are flat again.
 */
class QpContextCliffStudyTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void throughputIsFlatWhileTheQueuePairsFitTheCacheAndFallsPastIt() throws Exception {
        Path studies = ScenarioJson.examplesDir().resolve("../../studies").normalize();
        JsonNode real = MAPPER.readTree(studies.resolve("throughput-vs-qps.json").toFile());
        assertEquals("scenarios/qp-round-robin.json", real.get("scenario").asText());
        Path base = studies.resolve("scenarios/qp-round-robin.json");
        Files.writeString(tmp.resolve("study.json"), "{\"study\": \"cliff\", \"scenario\": \""
                + base.toString().replace("\\", "\\\\") + "\", \"set\": {\"/vars/batches\": 96},"
                + " \"axes\": [{\"name\": \"qps\", \"path\": \"/vars/qps\", \"values\": [4, 8, 16]},"
                + " {\"name\": \"qpc_entries\", \"path\": \"/fabric/params/hca.qpc_entries\", \"values\": [8, 32]}]}");
        Study s = StudyLoader.load(tmp.resolve("study.json"));
        Path out = tmp.resolve("out");
        assertEquals(new SweepRunner.Outcome(6, 6, 0, 0, List.of()),
                SweepRunner.run(s, out, 2, 1, 1, Progress.silent()));
        double[][] gbps = new double[3][2];
        double[][] misses = new double[3][2];
        for (Point p : s.runs()) {
            int q = List.of(4, 8, 16).indexOf(p.values().get("qps").asInt());
            int e = List.of(8, 32).indexOf(p.values().get("qpc_entries").asInt());
            Map<String, Double> m = Metrics.extract(MAPPER.readTree(
                    SweepRunner.dir(out, p).resolve("summary.json").toFile()));
            assertEquals(96 * 16, m.get("rdma_write.count"), p.describe());
            gbps[q][e] = m.get("throughput_gbps");
            misses[q][e] = m.get("hca_caches.qpc.misses");
        }
        // 64-byte inline writes, one every hca.wqe_interval (140 ns in ib-edr; the consumer posts one every 120 ns,
        // cpu.post_overhead and cpu.doorbell_occupancy): 64 * 8 / 140 = 3.66 Gb/s
        assertEquals(64 * 8 / 140.0, gbps[0][0], 0.1, "the send engine's message rate");
        for (int q = 0; q < 3; q++) {
            for (int e = 0; e < 2; e++) {
                if (q < 2 || e == 1) { // the queue pairs fit in the cache
                    assertEquals(0, misses[q][e], "qps index " + q + ", entries index " + e);
                    assertEquals(gbps[0][0], gbps[q][e], gbps[0][0] * 0.01, "flat while the contexts fit");
                }
            }
        }
        assertTrue(misses[2][0] > 96 * 16, "16 queue pairs through 8 entries: most lookups miss, " + misses[2][0]);
        assertTrue(gbps[2][0] < 0.5 * gbps[0][0], "past the cache the throughput falls: " + gbps[2][0] + " vs "
                + gbps[0][0] + " Gb/s");
    }
}
