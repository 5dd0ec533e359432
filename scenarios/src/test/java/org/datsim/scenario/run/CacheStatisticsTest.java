package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The HCA caches' statistics reach summary.json and every miss is in the trace: the many-clients example, whose
 * server holds 64 connections, on a server HCA that caches 8 QP contexts.
 */
class CacheStatisticsTest {

    @TempDir
    Path dir;

    private JsonNode[] run(String qpcEntries) throws Exception {
        ObjectMapper m = new ObjectMapper();
        ObjectNode s = (ObjectNode) m.readTree(ScenarioJson.examplesDir().resolve("many-clients.json").toFile());
        ObjectNode fabric = (ObjectNode) s.get("fabric");
        ObjectNode params = fabric.has("params") ? (ObjectNode) fabric.get("params") : fabric.putObject("params");
        params.put("hca.qpc_entries", qpcEntries);
        Path out = dir.resolve("q" + qpcEntries);
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("many.json", m.writeValueAsString(s)))
                .run(out, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        JsonNode summary = ScenarioJson.readJson(out.resolve("summary.json"));
        long missEvents = ScenarioJson.readTrace(out.resolve("events.jsonl")).stream()
                .filter(e -> "cache_miss".equals(e.path("kind").asText())).count();
        return new JsonNode[] {summary, m.valueToTree(missEvents)};
    }

    @Test
    void missesAreCountedInTheSummaryAndTracedOneByOne() throws Exception {
        JsonNode[] small = run("8");
        JsonNode qpc = small[0].path("hca_caches").path("qpc");
        assertTrue(qpc.path("misses").asLong() > 0, small[0].toPrettyString());
        assertTrue(qpc.path("hits").asLong() > 0, small[0].toPrettyString());
        assertTrue(qpc.path("evictions").asLong() > 0, small[0].toPrettyString());
        assertEquals(qpc.path("misses").asLong() + small[0].path("hca_caches").path("mtt").path("misses").asLong(),
                small[1].asLong(), "one cache_miss trace event per miss");
        assertEquals(small[1].asLong(), small[0].path("trace_events").path("cache_miss").asLong());

        JsonNode[] big = run("256");
        assertEquals(0, big[0].path("hca_caches").path("qpc").path("misses").asLong(), "64 connections fit in 256");
        assertTrue(big[0].path("end_time_ps").asLong() < small[0].path("end_time_ps").asLong(),
                "the misses cost time");
    }
}
