package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Determinism of runs: the write-then-send example run twice with the same seed, by two separate runners into two
 * directories, writes byte-identical {@code events.jsonl}, {@code summary.json} and {@code trace.json}, and
 * {@code datsim view} byte-identical timelines and plots; and the trace is written in
 * non-decreasing simulated time.
 */
class DeterminismTest {

    @Test
    void sameSeedGivesByteIdenticalOutputs(@TempDir Path first, @TempDir Path second) throws Exception {
        Scenario s = ScenarioLoader.load(ScenarioJson.writeThenSend());
        assertEquals(0, new ScenarioRunner(s).run(first, List.of()).exitCode());
        assertEquals(0, new ScenarioRunner(ScenarioLoader.load(ScenarioJson.writeThenSend())).run(second, List.of())
                .exitCode());
        org.datsim.viz.RunViews.write(first);
        org.datsim.viz.RunViews.write(second);
        for (String name : new String[] {"events.jsonl", "summary.json", "trace.json", "timeline.html",
            "latency-histogram.svg", "latency-cdf.svg"}) {
            assertTrue(Files.size(first.resolve(name)) > 0, name + " is not empty");
            assertEquals(-1L, Files.mismatch(first.resolve(name), second.resolve(name)),
                    name + " differs between two runs with the same seed");
        }
    }

    @Test
    void seedOverrideIsRecordedAndStillDeterministic(@TempDir Path first, @TempDir Path second) throws Exception {
        Scenario s = ScenarioLoader.load(ScenarioJson.writeThenSend()).withSeed(42);
        assertEquals(0, new ScenarioRunner(s).run(first, List.of()).exitCode());
        assertEquals(0, new ScenarioRunner(s).run(second, List.of()).exitCode());
        assertEquals(42L, ScenarioJson.readJson(first.resolve("summary.json")).path("seed").asLong());
        assertEquals(-1L, Files.mismatch(first.resolve("events.jsonl"), second.resolve("events.jsonl")));
        assertEquals(-1L, Files.mismatch(first.resolve("summary.json"), second.resolve("summary.json")));
    }

    @Test
    void traceIsInNonDecreasingTimeOrder(@TempDir Path out) throws Exception {
        new ScenarioRunner(ScenarioLoader.load(ScenarioJson.writeThenSend())).run(out, List.of());
        List<JsonNode> trace = ScenarioJson.readTrace(out.resolve("events.jsonl"));
        assertTrue(trace.size() > 10, "the trace has " + trace.size() + " lines");
        long previous = Long.MIN_VALUE;
        for (int i = 0; i < trace.size(); i++) {
            JsonNode t = trace.get(i).get("t_ps");
            assertTrue(t != null && t.isIntegralNumber(), "line " + (i + 1) + " has an integral t_ps");
            long now = t.asLong();
            assertTrue(now >= previous, "line " + (i + 1) + " goes back in time: " + now + " < " + previous);
            previous = now;
        }
        assertTrue(trace.get(trace.size() - 1).get("t_ps").asLong() > trace.get(0).get("t_ps").asLong(),
                "simulated time advances during the run");
    }
}
