package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code datsim run --threads}: every example and every study scenario writes the same files, byte for byte, on the
 * default engine, on 2 threads and on 4 threads with 4 partitions. A workload without consumer processes runs
 * partitioned (its trace merged in the sequential order, docs/parallel.md); a scenario with processes runs on one
 * thread and says so when more were asked for. Bad thread counts get one message and exit 2; the output guard stops a
 * partitioned run as it stops a sequential one.
 */
class RunThreadsTest {


    private static CliRun datsim(String... args) {
        return CliRun.of(args);
    }

    static Stream<Path> scenarios() throws IOException {
        List<Path> all = new ArrayList<>();
        for (Path dir : new Path[] {ScenarioJson.examplesDir(),
            ScenarioJson.examplesDir().resolve("../../studies/scenarios").normalize()}) {
            try (Stream<Path> files = Files.list(dir)) {
                all.addAll(files.filter(p -> p.getFileName().toString().endsWith(".json")).sorted()
                        .collect(Collectors.toList()));
            }
        }
        return all.stream();
    }

    private static List<String> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().collect(Collectors.toList());
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyScenarioWritesTheSameFilesOnOneTwoAndFourThreads(Path scenario, @TempDir Path tmp) throws IOException {
        boolean workload = ScenarioJson.readJson(scenario).path("processes").isEmpty()
                && ScenarioJson.readJson(scenario).has("workload");
        Path one = tmp.resolve("one");
        CliRun r1 = datsim("run", scenario.toString(), "--out", one.toString(), "--quiet", "--threads", "1");
        String[][] engines = {{"--threads", "2", "--partitions", "2"}, {"--threads", "4", "--partitions", "4"}};
        for (String[] engine : engines) {
            Path many = tmp.resolve("t" + engine[1]);
            List<String> args = new ArrayList<>(List.of("run", scenario.toString(), "--out", many.toString(),
                    "--quiet"));
            args.addAll(List.of(engine));
            CliRun r = datsim(args.toArray(new String[0]));
            assertEquals(r1.code(), r.code(), r.all());
            if (workload) {
                assertTrue(r.out().contains("engine: " + engine[1] + " thread(s), " + engine[3] + " partitions"),
                        r.all());
            } else {
                assertTrue(r.err().contains("datsim: note: this scenario runs on one thread: its consumer processes"),
                        r.all());
                assertTrue(!r.out().contains("engine: "), r.all());
            }
            assertEquals(files(one), files(many), String.join(" ", engine));
            for (String f : files(one)) {
                assertArrayEquals(Files.readAllBytes(one.resolve(f)), Files.readAllBytes(many.resolve(f)),
                        f + " with " + String.join(" ", engine));
            }
        }
    }

    @Test
    void theFatTreeWorkloadRunsPartitionedAndItsTraceIsNotEmpty(@TempDir Path tmp) throws IOException {
        Path s = ScenarioJson.examplesDir().resolve("../../studies/scenarios/fct-fat-tree.json").normalize();
        CliRun r = datsim("run", s.toString(), "--out", tmp.toString(), "--quiet", "--threads", "2", "--partitions",
                "2");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.err().contains("too small to gain from 2 threads") && r.err().contains("runs as asked"), r.all());
        assertTrue(ScenarioJson.readTrace(tmp.resolve("events.jsonl")).size() > 10_000, "the merged trace");
        // 10 ns links: a few events a window, and the run says that one thread is likely faster
        assertTrue(r.out().contains("engine: 2 thread(s), 2 partitions, ") && r.out().contains(" windows of ")
                && r.out().contains("--threads 1 is likely faster"), r.all());
        // the default is one thread: no engine line, no note
        CliRun dflt = datsim("run", s.toString(), "--out", tmp.resolve("default").toString(), "--quiet");
        assertEquals(0, dflt.code(), dflt.all());
        assertTrue(!dflt.out().contains("engine: ") && dflt.err().isEmpty(), dflt.all());
        // without --partitions, a fabric this small runs on one thread and says so
        CliRun small = datsim("run", s.toString(), "--out", tmp.resolve("small").toString(), "--quiet", "--threads",
                "2");
        assertEquals(0, small.code(), small.all());
        assertTrue(small.err().contains("it runs on one thread") && !small.out().contains("engine: "), small.all());
    }

    @Test
    void badThreadCountsGetOneMessage(@TempDir Path tmp) {
        for (String t : new String[] {"0", "-2"}) {
            CliRun r = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", tmp.toString(), "--threads", t);
            assertEquals(2, r.code(), r.all());
            assertEquals("datsim: --threads must be at least 1, found " + t, r.err().strip(), r.all());
        }
        Path workload = ScenarioJson.examplesDir().resolve("../../studies/scenarios/fct-fat-tree.json").normalize();
        CliRun r = datsim("run", workload.toString(), "--out", tmp.toString(), "--threads", "2", "--partitions", "999");
        assertEquals(2, r.code(), r.all());
        assertEquals("datsim: --partitions must be from 1 to 16, found 999", r.err().strip(), r.all());
        r = datsim("run", workload.toString(), "--out", tmp.toString(), "--threads", "2", "--partitions", "2",
                "--param", "link.latency=1ps");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("\ndatsim: --threads 2 --partitions 2: ") && r.err().contains("at least 2 ps")
                && !r.err().contains("\tat "), r.all());
        r = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", tmp.toString(), "--partitions", "0");
        assertEquals(2, r.code(), r.all());
        assertEquals("datsim: --partitions must be at least 1, found 0", r.err().strip(), r.all());
    }

    @Test
    void theOutputGuardStopsAPartitionedRun(@TempDir Path tmp) {
        Path s = ScenarioJson.examplesDir().resolve("../../studies/scenarios/fct-fat-tree.json").normalize();
        CliRun r = datsim("run", s.toString(), "--out", tmp.toString(), "--quiet", "--threads", "2", "--partitions",
                "2", "--max-output", "200KiB");
        assertEquals(1, r.code(), r.all());
        assertTrue(r.out().contains("stopped by the output guard"), r.all());
    }
}
