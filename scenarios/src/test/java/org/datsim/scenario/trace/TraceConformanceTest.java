package org.datsim.scenario.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.datsim.core.choice.VectorChoices;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSchema;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.ScenarioRunner;
import org.datsim.viz.RunViews;
import org.datsim.viz.TraceReader;
import org.datsim.viz.explain.Explainer;
import org.datsim.viz.explain.Explanation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every line every example, lesson (hazard and fix), litmus test and call-test scenario emits (also one with HCA
 * cache misses), and every line of a loaded fabric (a
 * fat-tree incast with switch queues, PFC pauses, ECN marks, port samples and a workload's flows), conforms to
 * {@link TraceSchema}: a declared kind, only keys declared for that kind, each value of its declared type. The files
 * are found afresh on each run, so a new example is covered without touching this test. viz then reads each real
 * run: explain tells it and the views (timeline, plots) are written (VizOnRealRunsTest checks what they show of a
 * loaded fabric).
 */
class TraceConformanceTest {

    /** The loaded fabric: a fat-tree incast with DCQCN, ECN, a small PFC threshold and port samples. */
    static final Path LOADED = Paths.get("src/test/resources/trace/loaded-fabric.json");

    static Stream<Path> scenarios() throws IOException {
        Path scenarios = ScenarioJson.examplesDir().getParent();
        List<Path> out = new ArrayList<>();
        out.addAll(jsonFiles(scenarios.resolve("examples")));
        out.addAll(jsonFiles(scenarios.resolve("litmus")));
        // the call tests' scenarios: the CNO, SRQ, RSP, registry, atomics and immediate-data lines
        out.addAll(jsonFiles(Paths.get("src/test/resources/calls")));
        out.add(Paths.get("src/test/resources/explain/cache-misses.json"));
        try (Stream<Path> lessons = Files.list(scenarios.resolve("lab"))) {
            lessons.filter(Files::isDirectory).sorted().forEach(d -> {
                out.add(d.resolve("hazard.json"));
                out.add(d.resolve("fix.json"));
            });
        }
        return out.stream();
    }

    private static List<Path> jsonFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted().toList();
        }
    }

    /** Runs a scenario; returns the kinds seen (with counts) and adds each nonconforming line to problems. */
    static Map<String, Integer> runAndCheck(Path scenario, Path out, List<String> problems) throws Exception {
        return runAndCheck(new ScenarioRunner(ScenarioLoader.load(scenario)), scenario, out, problems);
    }

    /** As {@link #runAndCheck(Path, Path, List)}, with a runner set up by the caller (choices, ...). */
    static Map<String, Integer> runAndCheck(ScenarioRunner runner, Path scenario, Path out, List<String> problems)
            throws Exception {
        runner.run(out, List.of());
        Path events = out.resolve("events.jsonl");
        assertTrue(Files.isRegularFile(events), "the run of " + scenario + " wrote its trace");
        Map<String, Integer> kinds = new TreeMap<>();
        try (BufferedReader r = Files.newBufferedReader(events, StandardCharsets.UTF_8)) {
            int n = 0;
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                n++;
                TraceEvent e = TraceReader.parse(line);
                kinds.merge(e.kind(), 1, Integer::sum);
                String problem = TraceSchema.check(e);
                if (problem != null && problems.size() < 5) {
                    problems.add(scenario.getFileName() + " events.jsonl:" + n + ": " + problem + ": "
                            + (line.length() > 300 ? line.substring(0, 300) + "..." : line));
                }
            }
        }
        return kinds;
    }

    @Test
    void theScenariosAreFound() throws IOException {
        List<String> names = scenarios().map(p -> p.getParent().getFileName() + "/" + p.getFileName()).toList();
        assertTrue(names.contains("examples/fat-tree-incast.json"), names::toString);
        assertTrue(names.contains("litmus/srq-two-senders.json"), names::toString);
        assertTrue(names.contains("01-send-after-read/hazard.json"), names::toString);
        assertTrue(names.contains("01-send-after-read/fix.json"), names::toString);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyLineOfTheRunIsDeclared(Path scenario, @TempDir Path out) throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> kinds = runAndCheck(scenario, out, problems);
        assertEquals(List.of(), problems);
        assertTrue(kinds.containsKey(TraceKind.CALL), "a scenario's trace has calls: " + kinds);
        // viz reads the same real trace: explain tells it and the views are written without a failure
        Explanation x = Explainer.explainRun(out);
        assertTrue(!x.header().isEmpty(), "explain has a header");
        assertTrue(kinds.containsKey(TraceKind.POST) == !x.stories().isEmpty(), "a story per posted operation");
        assertTrue(RunViews.write(out).stream().allMatch(Files::isRegularFile), "the views are written");
    }

    @Test
    void theChoiceLinesOfARunWithChoicesAreDeclared(@TempDir Path out) throws Exception {
        Path litmus = ScenarioJson.examplesDir().resolveSibling("litmus").resolve(
                "evd-order-two-endpoints-wait-at-once.json");
        List<String> problems = new ArrayList<>();
        Map<String, Integer> kinds = runAndCheck(new ScenarioRunner(ScenarioLoader.load(litmus))
                .choices(VectorChoices.replay(new int[] {1, 1})), litmus, out, problems);
        assertEquals(List.of(), problems);
        assertEquals(2, kinds.get(TraceKind.CHOICE), kinds::toString);
    }

    @Test
    void everyLineOfALoadedFabricIsDeclaredAndItHasEveryFabricKind(@TempDir Path out) throws Exception {
        List<String> problems = new ArrayList<>();
        Map<String, Integer> kinds = runAndCheck(LOADED, out, problems);
        assertEquals(List.of(), problems);
        Set<String> missing = new TreeSet<>(List.of(TraceKind.PORT_QUEUE, TraceKind.PFC, TraceKind.ECN_MARK,
                TraceKind.PORT_SAMPLE, TraceKind.START, TraceKind.TX_START, TraceKind.PLACE));
        missing.removeAll(kinds.keySet());
        assertEquals(Set.of(), missing, "the loaded fabric emits every kind of the fabric: " + kinds);
    }
}
