package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every scenario under {@code scenarios/examples} (found afresh on each run, so new examples are covered without
 * touching this test) validates, runs to the end with exit code 0, every expectation holding and no process left
 * unfinished, and writes a non-empty {@code events.jsonl} and a {@code summary.json} for the right scenario.
 */
class ExampleScenariosTest {

    static Stream<Path> examples() throws IOException {
        try (Stream<Path> files = Files.list(ScenarioJson.examplesDir())) {
            List<Path> list = files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted()
                    .collect(Collectors.toList());
            return list.stream();
        }
    }

    @Test
    void theExamplesDirectoryIsFoundAndHoldsWriteThenSend() throws IOException {
        List<String> names = examples().map(p -> p.getFileName().toString()).collect(Collectors.toList());
        assertTrue(names.contains("write-then-send.json"), () -> "examples found: " + names);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void exampleValidatesAndRunsCleanly(Path example, @TempDir Path out) throws Exception {
        Scenario s = ScenarioLoader.load(example);
        assertFalse(s.processes().isEmpty(), "an example has at least one process");

        RunResultSummary r = new ScenarioRunner(s).run(out, List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        assertTrue(r.lines().get(r.lines().size() - 1).startsWith("OK: 0 failed expectation(s)"),
                () -> String.join("\n", r.lines()));

        Path events = out.resolve("events.jsonl");
        Path summary = out.resolve("summary.json");
        assertTrue(Files.isRegularFile(events), "events.jsonl is written");
        assertTrue(Files.isRegularFile(summary), "summary.json is written");
        List<JsonNode> trace = ScenarioJson.readTrace(events);
        assertFalse(trace.isEmpty(), "the trace has events");
        assertTrue(trace.stream().anyMatch(e -> "call".equals(e.path("kind").asText())), "the trace has calls");

        JsonNode sum = ScenarioJson.readJson(summary);
        assertEquals(s.name(), sum.path("scenario").asText());
        assertEquals(s.seed(), sum.path("seed").asLong());
        assertEquals("NO_EVENTS", sum.path("stop_reason").asText());
        assertEquals(0, sum.path("expectations").path("failed").asLong());
        assertEquals(0, sum.path("unfinished_processes").size());
        assertTrue(sum.path("calls").asLong() > 0);
        assertTrue(trace.get(trace.size() - 1).path("t_ps").asLong() <= sum.path("end_time_ps").asLong(),
                "no trace event is later than the end of the run");
    }
}
