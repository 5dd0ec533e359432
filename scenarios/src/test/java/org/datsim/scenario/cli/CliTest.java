package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code datsim} command line through {@link DatsimCli#execute(String[], PrintWriter, PrintWriter)}: exit codes
 * (0 ok, 1 a failed run, 2 invalid input), what goes to standard output and standard error for {@code run},
 * {@code validate}, {@code params}, {@code bench phold}, {@code bench stream}, {@code bench fattree} and {@code --help}, and that invalid input is reported as
 * plain problem lines without a Java stack trace.
 */
class CliTest {

    @TempDir
    Path tmp;

    /** What one invocation returned and printed. */

    private static CliRun datsim(String... args) {
        return CliRun.of(args);
    }

    private static void assertNoStackTrace(CliRun r) {
        assertFalse(r.err().contains("Exception"), r.all());
        assertFalse(r.err().contains("\tat "), r.all());
        assertFalse(r.out().contains("\tat "), r.all());
    }

    private static Path fixture(String name) throws URISyntaxException {
        return Paths.get(CliTest.class.getResource("/fixtures/" + name).toURI());
    }

    private Path write(String name, String text) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    // ------------------------------------------------------------------ run

    @Test
    void runTheExample() {
        Path outDir = tmp.resolve("out");
        CliRun r = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", outDir.toString());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().startsWith("scenario write-then-send (seed 1): simulated "), r.all());
        assertTrue(r.outLines().stream().anyMatch(l -> l.startsWith("OK: 0 failed expectation(s)")), r.all());
        assertTrue(r.out().contains(outDir.toString()), r.all());
        assertEquals("", r.err());
        assertTrue(Files.isRegularFile(outDir.resolve("events.jsonl")));
        assertTrue(Files.isRegularFile(outDir.resolve("summary.json")));
    }

    @Test
    void runWithSeedOverride() {
        Path outDir = tmp.resolve("seeded");
        CliRun r = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", outDir.toString(), "--seed", "7");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().startsWith("scenario write-then-send (seed 7)"), r.all());
        assertEquals(7, ScenarioJson.readJson(outDir.resolve("summary.json")).path("seed").asLong());
    }

    @Test
    void validateNotesSiSizesWithoutRefusingThem() throws Exception {
        Path f = write("si.json", ScenarioJson.withCalls("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\","
                + " \"length\": \"4KB\", \"out\": \"b2\"}"));
        CliRun r = datsim("validate", f.toString());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains(f + ": valid"), r.all());
        assertTrue(r.out().contains(f + ": $.processes[0].calls[4].length: note: \"4KB\" is 4,000 bytes (SI units);"
                + " for 4 KiB (4,096 bytes) write \"4KiB\""), r.all());
        CliRun plain = datsim("validate", ScenarioJson.writeThenSend().toString());
        assertTrue(!plain.out().contains("note:"), plain.all());
    }

    @Test
    void aFailedRunLeadsWithItsFirstFailureAndGroupsTheKnockOnOnes() throws Exception {
        // The LMR create fails (a size of 0 is refused); the later calls that use its name fail as a consequence.
        Path f = write("knock.json", ScenarioJson.withCalls(
                "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 0, \"out\": \"b2\"}",
                "{\"call\": \"dat_lmr_free\", \"lmr\": \"$b2\"}",
                "{\"call\": \"dat_pz_free\", \"pz\": \"$evd\"}",
                "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\"}"));
        CliRun r = datsim("run", f.toString(), "--out", tmp.resolve("knock").toString());
        assertEquals(1, r.code(), r.all());
        List<String> lines = r.outLines();
        int first = lines.indexOf(lines.stream().filter(l -> l.startsWith("FAILED ")).findFirst().orElseThrow());
        assertTrue(lines.get(first).contains("$.processes[0].calls[4] (dat_lmr_create)"), r.all());
        assertTrue(lines.get(first + 1).contains("the first failure"), r.all());
        assertTrue(lines.get(first + 2).contains("$.processes[0].calls[6] (dat_pz_free)"), r.all());
        assertTrue(lines.get(first + 3).startsWith("knock-on failures (1)"), r.all());
        assertTrue(lines.get(first + 4).contains("$.processes[0].calls[5] (dat_lmr_free)")
                && lines.get(first + 4).contains("is not bound"), r.all());
        assertTrue(lines.get(first + 5).startsWith("unfinished (1)"), r.all());
        assertTrue(lines.get(first + 6).startsWith("process p did not finish"), r.all());
        assertTrue(lines.get(0).endsWith("calls (2 returned errors: none expected)"), r.all());
    }

    @Test
    void aPassingRunCountsTheErrorsItExpectedApart() {
        CliRun r = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", tmp.resolve("wts").toString());
        assertEquals(0, r.code(), r.all());
        assertTrue(r.outLines().get(0).endsWith("calls (1 returned errors: all expected)"), r.all());
    }

    @Test
    void runAFailingScenarioExitsOne() throws Exception {
        Path f = write("blocked.json", ScenarioJson.withCalls("{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\"}"));
        CliRun r = datsim("run", f.toString(), "--out", tmp.resolve("blocked").toString());
        assertEquals(1, r.code(), r.all());
        assertTrue(r.out().contains("process p did not finish: it was still in dat_evd_wait at"
                + " $.processes[0].calls[4]"), r.all());
        assertTrue(r.outLines().stream().anyMatch(l -> l.startsWith("FAILED: 0 failed expectation(s)")), r.all());
    }

    @Test
    void runAMalformedFilePrintsEveryProblemAndRunsNothing() throws Exception {
        Path f = fixture("three-problems.json");
        Path outDir = tmp.resolve("never");
        CliRun r = datsim("run", f.toString(), "--out", outDir.toString());
        assertEquals(DatsimCli.EXIT_INVALID, r.code(), r.all());
        List<String> lines = r.err().lines().toList();
        assertEquals(4, lines.size(), r.all());
        assertTrue(lines.get(0).startsWith(f + ": $.colour: unknown field"), r.all());
        assertTrue(lines.get(1).startsWith(f + ": $.fabric.links[0].bandwidth: "), r.all());
        assertTrue(lines.get(2).startsWith(f + ": $.processes[0].calls[1].pz: dangling reference \"$nope\""),
                r.all());
        assertEquals("3 problem(s) in " + f + "; nothing was run", lines.get(3));
        assertEquals("", r.out());
        assertNoStackTrace(r);
        assertFalse(Files.exists(outDir), "nothing is written for an invalid scenario");
    }

    @Test
    void runBadJsonNamesLineAndColumn() throws Exception {
        Path f = write("broken.json", "{\n  \"scenario\": \"x\",\n  \"fabric\": [\n}\n");
        CliRun r = datsim("run", f.toString(), "--out", tmp.resolve("x").toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith(f + ":4:1: invalid JSON: "), r.all());
        assertTrue(r.err().contains("1 problem(s) in " + f + "; nothing was run"), r.all());
        assertNoStackTrace(r);
    }

    @Test
    void runAMissingFile() {
        Path missing = tmp.resolve("no-such.json");
        CliRun r = datsim("run", missing.toString(), "--out", tmp.resolve("x").toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith(missing + ": no such file"), r.all());
        assertTrue(r.err().contains("nothing was run"), r.all());
        assertNoStackTrace(r);
    }

    @Test
    void runADirectory() {
        CliRun r = datsim("run", tmp.toString(), "--out", tmp.resolve("x").toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().startsWith(tmp + ": is a directory"), r.all());
        assertNoStackTrace(r);
    }

    // ------------------------------------------------------------------ validate

    @Test
    void validateGoodFile() {
        Path f = ScenarioJson.writeThenSend();
        CliRun r = datsim("validate", f.toString());
        assertEquals(0, r.code(), r.all());
        assertEquals(f + ": valid", r.out().strip());
        assertEquals("", r.err());
    }

    @Test
    void validateBadFile() throws Exception {
        Path f = fixture("three-problems.json");
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code(), r.all());
        assertEquals("", r.out());
        assertTrue(r.err().contains("3 problem(s) in " + f + "; nothing was run"), r.all());
        assertNoStackTrace(r);
    }

    @Test
    void validateGoodAndBadTogetherFails() throws Exception {
        Path good = ScenarioJson.writeThenSend();
        Path bad = fixture("three-problems.json");
        CliRun r = datsim("validate", good.toString(), bad.toString());
        assertEquals(2, r.code(), r.all());
        assertEquals(good + ": valid", r.out().strip());
        assertTrue(r.err().contains(bad + ": $.colour"), r.all());
    }

    // ------------------------------------------------------------------ usage

    @Test
    void unknownOptionIsAnInputError() {
        CliRun r = datsim("run", "--frobnicate", ScenarioJson.writeThenSend().toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("--frobnicate"), r.all());
        assertNoStackTrace(r);
        assertEquals(2, datsim("--frobnicate").code());
        assertEquals(2, datsim("validate").code(), "validate needs a file");
    }

    @Test
    void paramsListsTheCatalogue() {
        CliRun r = datsim("params");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.outLines().stream().anyMatch(l -> l.startsWith("link.bandwidth ") && l.contains("100Gbps")),
                r.all());
        assertTrue(r.out().contains("cpu.call_overhead"), r.all());
        assertEquals(org.datsim.fabric.FabricParams.ALL.size(), r.outLines().size(), r.all());
    }

    @Test
    void benchPholdEndsWithEventsPerSecond() {
        CliRun r = datsim("bench", "phold", "--lps", "64", "--initial", "2", "--events", "20000", "--warmup", "0");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.outLines();
        assertTrue(lines.get(lines.size() - 1).matches("events_per_second=\\d+"), r.all());
        assertTrue(lines.contains("lps=64"), r.all());
        assertTrue(lines.contains("events=20000"), r.all());
    }

    @Test
    void benchPholdOnThePartitionedEnginePrintsItsWindowsAndAgreesWithTheSequentialOne() {
        CliRun r = datsim("bench", "phold", "--lps", "64", "--initial", "2", "--events", "20000", "--warmup", "0",
                "--threads", "2", "--partitions", "4");
        assertEquals(0, r.code(), r.all());
        List<String> lines = r.outLines();
        assertTrue(lines.get(lines.size() - 1).matches("events_per_second=\\d+"), r.all());
        for (String key : new String[] {"threads=2", "partitions=4", "engine=partitioned", "lookahead_ps=100000000000",
                "same_result_as_sequential=true"}) {
            assertTrue(lines.contains(key), key + "\n" + r.all());
        }
        for (String key : new String[] {"windows=", "events_per_window=", "max_window_events=", "barrier_wait_ms=",
                "cross_partition_events="}) {
            assertTrue(lines.stream().anyMatch(l -> l.startsWith(key)), key + "\n" + r.all());
        }
    }

    @Test
    void benchPholdRefusesNoThreadsWithOneMessage() {
        for (String t : new String[] {"0", "-3"}) {
            CliRun r = datsim("bench", "phold", "--threads", t, "--warmup", "0");
            assertEquals(2, r.code(), r.all());
            assertEquals("datsim: --threads must be at least 1, found " + t, r.err().strip(), r.all());
            assertEquals("", r.out(), r.all());
        }
        CliRun r = datsim("bench", "phold", "--threads", "4", "--partitions", "2", "--warmup", "0");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("--partitions must be from --threads (4)"), r.all());
    }

    @Test
    void benchFattreeGivesTheSameAnswerOnEveryThreadCountAndPartitioning() {
        String[] keys = {"completed=", "packets=", "events=", "simulated_end_ps=", "max_port_stall_ps="};
        List<String> first = null;
        for (String[] tp : new String[][] {{"1", "1"}, {"2", "2"}, {"2", "4"}, {"1", "3"}}) {
            CliRun r = datsim("bench", "fattree", "--k", "4", "--peers", "5", "--bytes", "20000", "--quiet",
                    "--threads", tp[0], "--partitions", tp[1]);
            assertEquals(0, r.code(), r.all());
            List<String> lines = r.outLines();
            boolean sequential = tp[1].equals("1");
            assertTrue(lines.contains(sequential ? "engine=sequential" : "engine=partitioned")
                    && lines.contains("partitions=" + tp[1]), r.all());
            assertEquals(!sequential, lines.stream().anyMatch(l -> l.startsWith("windows=")), r.all());
            if (!sequential) { // how the work split: one count per partition, one wait per thread
                String split = lines.stream().filter(l -> l.startsWith("events_by_partition=")).findFirst()
                        .orElseThrow();
                long[] byPartition = java.util.Arrays.stream(split.substring(split.indexOf('=') + 1).split(","))
                        .mapToLong(Long::parseLong).toArray();
                long events = Long.parseLong(lines.stream().filter(l -> l.startsWith("events=")).findFirst()
                        .orElseThrow().substring(7));
                assertEquals(Integer.parseInt(tp[1]), byPartition.length, r.all());
                assertTrue(java.util.Arrays.stream(byPartition).sum() >= events, r.all()); // handovers too
                String waits = lines.stream().filter(l -> l.startsWith("barrier_wait_ms_by_thread=")).findFirst()
                        .orElseThrow();
                assertEquals(Integer.parseInt(tp[0]), waits.substring(waits.indexOf('=') + 1).split(",").length,
                        r.all());
                assertTrue(lines.stream().anyMatch(l -> l.matches("partition_imbalance=[1-9][0-9]*\\.[0-9]{3}")),
                        r.all());
            }
            List<String> answer = lines.stream().filter(l -> java.util.Arrays.stream(keys).anyMatch(l::startsWith))
                    .toList();
            assertEquals(keys.length, answer.size(), r.all());
            if (first == null) {
                first = answer;
            } else {
                assertEquals(first, answer, tp[0] + " threads, " + tp[1] + " partitions");
            }
        }
        CliRun two = datsim("bench", "fattree", "--k", "4", "--peers", "5", "--bytes", "20000", "--quiet",
                "--threads", "2");
        assertTrue(two.err().contains("too small to gain from 2 threads") && two.outLines().contains("threads=1")
                && two.outLines().contains("engine=sequential"), two.all());
        CliRun dflt = datsim("bench", "fattree", "--k", "4", "--peers", "5", "--bytes", "20000", "--quiet");
        assertTrue(dflt.outLines().contains("threads=1") && dflt.outLines().contains("threads_from=default")
                && dflt.err().isEmpty(), dflt.all());
        assertEquals(first, dflt.outLines().stream()
                .filter(l -> java.util.Arrays.stream(keys).anyMatch(l::startsWith)).toList());
    }

    @Test
    void benchFattreeRefusesBadThreadsAndWhatCannotRunPartitioned() {
        for (String t : new String[] {"0", "-3"}) {
            CliRun r = datsim("bench", "fattree", "--k", "4", "--peers", "4", "--threads", t);
            assertEquals(2, r.code(), r.all());
            assertEquals("datsim: --threads must be at least 1, found " + t, r.err().strip(), r.all());
            assertEquals("", r.out(), r.all());
        }
        CliRun r = datsim("bench", "fattree", "--k", "4", "--peers", "4", "--threads", "2", "--partitions", "2",
                "--param", "link.latency=1ps");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("needs at least 2 ps"), r.all());
        r = datsim("bench", "fattree", "--k", "4", "--peers", "4", "--threads", "1", "--partitions", "2",
                "--param", "trace.port_sample_interval=1us");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("cannot be sampled by a partitioned run yet"), r.all());
    }

    @Test
    void benchStreamPrintsAMatchingPrediction() {
        CliRun r = datsim("bench", "stream", "--writes", "300");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.outLines().contains("prediction_holds=true"), r.all());
        assertTrue(r.outLines().contains("completed=300"), r.all());
        assertTrue(r.outLines().contains("packets=1500"), r.all());
    }

    @Test
    void benchFatTreeSmallVariantCompletesEveryWrite() {
        CliRun r = datsim("bench", "fattree", "--k", "4", "--peers", "3", "--bytes", "8192", "--param",
                "link.flow_control=pfc");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.outLines().contains("writes=48"), r.all());
        assertTrue(r.outLines().contains("completed=48"), r.all());
        assertTrue(r.outLines().contains("flow_control=pfc"), r.all());
    }

    @Test
    void benchFatTreeNamesTheOptionOutOfRange() {
        CliRun r = datsim("bench", "fattree", "--k", "4"); // 16 hosts, and 64 peers a host by default
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("--peers must be from 1 to 15"), r.all());
        assertTrue(r.err().contains("found 64"), r.all());
        assertFalse(r.err().contains("--k must"), r.all());
    }

    @Test
    void benchFatTreeRejectsAnOddRadixAndABadParameter() {
        CliRun r = datsim("bench", "fattree", "--k", "5");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("--k must be even"), r.all());
        CliRun p = datsim("bench", "fattree", "--k", "4", "--peers", "3", "--param", "link.flow_control=xon");
        assertEquals(2, p.code(), p.all());
        assertTrue(p.err().contains("link.flow_control"), p.all());
    }

    @Test
    void benchRejectsNonPositiveSizes() {
        CliRun r = datsim("bench", "phold", "--lps", "0", "--warmup", "0");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("must be positive"), r.all());
    }

    @Test
    void help() {
        CliRun r = datsim("--help");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("Usage: datsim"), r.all());
        for (String sub : new String[] {"run", "validate", "params", "bench"}) {
            assertTrue(r.out().contains(sub), r.all());
        }
        CliRun runHelp = datsim("run", "--help");
        assertEquals(0, runHelp.code(), runHelp.all());
        assertTrue(runHelp.out().contains("--out"), runHelp.all());
    }

    @Test
    void theUsageListsEverySubcommandInOrder() {
        // Subcommands are registered lazily (only the one named); the usage must still list all of them.
        String out = datsim("--help").out();
        int last = -1;
        for (Class<?> c : DatsimCli.SUBCOMMANDS) {
            String name = c.getAnnotation(picocli.CommandLine.Command.class).name();
            int at = out.indexOf("\n  " + name + " ");
            assertTrue(at > last, name + " missing or out of order in:\n" + out);
            last = at;
        }
        assertEquals(18, DatsimCli.SUBCOMMANDS.size()); // with help
    }

    @Test
    void theUsageOfACommandWithSubcommandsListsThemAllInOrderAndEachRuns() {
        assertEquals(2, DatsimCli.NESTED.size());
        for (var e : DatsimCli.NESTED.entrySet()) {
            String parent = e.getKey().getAnnotation(picocli.CommandLine.Command.class).name();
            String out = datsim(parent, "--help").out();
            int last = -1;
            for (Class<?> c : e.getValue()) {
                String name = c.getAnnotation(picocli.CommandLine.Command.class).name();
                int at = out.indexOf("\n  " + name + " ");
                assertTrue(at > last, parent + " " + name + " missing or out of order in:\n" + out);
                last = at;
                CliRun help = datsim(parent, name, "--help");
                assertEquals(0, help.code(), help.all());
                assertTrue(help.out().startsWith("Usage: datsim " + parent + " " + name), help.all());
            }
        }
        CliRun wrong = datsim("bench", "strem");
        assertEquals(DatsimCli.EXIT_INVALID, wrong.code(), wrong.all());
        assertTrue(wrong.err().contains("'strem'") && wrong.err().contains("datsim bench --help"), wrong.all());
    }

    /** A command that fails as only a bug would. */
    @picocli.CommandLine.Command(name = "broken")
    static final class Broken implements Runnable {
        @Override
        public void run() {
            throw new IllegalStateException("invariant broken");
        }
    }

    @Test
    void anExceptionNoCommandHandledExitsThreeAsABug() {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        picocli.CommandLine cl = new picocli.CommandLine(new DatsimCli());
        cl.addSubcommand(Broken.class);
        int code = DatsimCli.configure(cl, new PrintWriter(o, true), new PrintWriter(e, true))
                .execute("broken");
        assertEquals(DatsimCli.EXIT_INTERNAL, code);
        assertTrue(e.toString().startsWith("datsim: internal error in 'datsim broken' (a bug in datsim, not in your"
                + " input"), e::toString);
        assertTrue(e.toString().contains("IllegalStateException: invariant broken"), e::toString);
    }

    @Test
    void anUnknownSubcommandOrOptionNamesTheHelpToRead() {
        CliRun r = datsim("bnch");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("'bnch'"), r.all());
        assertTrue(r.err().contains("(see: datsim --help)"), r.all());
        CliRun nested = datsim("bench", "stream", "--writs", "3");
        assertEquals(2, nested.code(), nested.all());
        assertTrue(nested.err().contains("(see: datsim bench stream --help)"), nested.all());
        assertNoStackTrace(nested);
    }
}
