package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * summary.json counts what a reader of the run cares about: fence waits, stale reads, errors (asynchronous error
 * events, completions in error, calls returning errors, failed expectations) and the throughput from the first post
 * to the last completion, next to the per-kind latency percentiles that were there before.
 */
class SummaryCountsTest {

    @TempDir
    Path tmp;

    private JsonNode run(String example) throws Exception {
        Path out = tmp.resolve(example);
        new ScenarioRunner(ScenarioLoader.load(ScenarioJson.examplesDir().resolve(example))).perfetto(false)
                .run(out, List.of());
        return ScenarioJson.readJson(out.resolve("summary.json"));
    }

    @Test
    void theFencedSendCountsOneFenceWaitAndTheThroughputOfThreeOperations() throws Exception {
        JsonNode s = run("send-after-read-fence.json");
        assertEquals(1, s.path("fence_waits").asLong());
        assertEquals(0, s.path("stale_reads").asLong());
        assertEquals(0, s.path("errors").path("error_completions").asLong());
        JsonNode tp = s.path("throughput");
        assertEquals(3, tp.path("operations_completed").asLong());
        assertEquals(128, tp.path("bytes_completed").asLong(), "the Read's 64 B and the Send's 64 B, not the recv");
        long window = tp.path("window_ps").asLong();
        assertTrue(window > 0);
        assertEquals(Math.round(3 * 1e12 / window), tp.path("operations_per_s").asLong());
        JsonNode read = s.path("operations").path("rdma_read");
        for (String k : new String[] {"count", "p50_ps", "p90_ps", "p99_ps", "max_ps"}) {
            assertTrue(read.has(k), "operations.rdma_read." + k + " is kept");
        }
    }

    @Test
    void theStaleReadIsCounted() throws Exception {
        JsonNode s = run("stale-read-cpu-noncoherent.json");
        assertEquals(1, s.path("stale_reads").asLong());
    }

    @Test
    void aBrokenConnectionCountsItsErrorsAndFlushedCompletions() throws Exception {
        JsonNode s = run("rmr-context-too-early.json");
        assertEquals(2, s.path("errors").path("error_events").asLong());
        assertEquals(4, s.path("errors").path("error_completions").asLong());
        assertEquals(0, s.path("errors").path("failed_expectations").asLong());
        assertEquals(0, s.path("throughput").path("bytes_completed").asLong());
    }
}
