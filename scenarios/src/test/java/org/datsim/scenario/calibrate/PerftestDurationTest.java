package org.datsim.scenario.calibrate;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.time.SimTime;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.calibrate.PerftestRun.BwRow;
import org.datsim.scenario.calibrate.PerftestRun.Options;
import org.datsim.scenario.calibrate.PerftestRun.Test;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.io.TempDir;

/**
 * perftest's timed run ({@code -D}, {@code -f}) in simulated time: its BW is the counted run's in steady state, its
 * sample window leaves the margins out, its latency is the counted run's, its loop stops at the first post at or
 * after the bound and is deterministic, its rows are perftest's duration-mode rows byte for byte, and what perftest
 * refuses is refused with perftest's words.
 *
 * <p>{@code perftest-duration-sample.txt} was printed by {@code perftest-duration-sample.c} (beside it), compiled
 * with gcc from perftest's own format strings (src/perftest_parameters.h at commit 00b55b6: RESULT_FMT_LAT_DUR,
 * REPORT_FMT_LAT_DUR, RESULT_FMT_G, REPORT_FMT) with the values of the rows below. The runs here last milliseconds
 * of simulated time (the options take picoseconds; the command line takes perftest's whole seconds).
 */
class PerftestDurationTest {

    private static final long MS = SimTime.MS;

    @TempDir
    Path dir;

    private static Options counted(Test t, long size, int iters) {
        return new Options(t, List.of(size), false, iters, 1, t.defaultTxDepth(), PerftestRun.DEF_CQ_MOD, 0,
                t.isRead() ? 0 : t.defaultInline(), false, true, "ib-edr", 0);
    }

    private static Options timed(Test t, long size, long durationPs, long marginPs) {
        return timed(t, size, 1, false, durationPs, marginPs);
    }

    private static Options timed(Test t, long size, int qps, boolean bidirectional, long durationPs, long marginPs) {
        return new Options(t, List.of(size), false, t.defaultIters(), qps, t.defaultTxDepth(), PerftestRun.DEF_CQ_MOD,
                0, t.isRead() ? 0 : t.defaultInline(), bidirectional, true, "ib-edr", 0, durationPs, marginPs);
    }

    private static List<String> sample() throws IOException {
        try (InputStream in = PerftestDurationTest.class.getResourceAsStream("/perftest-duration-sample.txt")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    @org.junit.jupiter.api.Test
    void durationRowsAreByteForBytePerftests() throws IOException {
        List<String> s = sample();
        assertEquals(PerftestRun.RESULT_LINE, s.get(0));
        assertEquals(PerftestTimed.RESULT_FMT_LAT_DUR, s.get(1));
        assertEquals(s.get(2), PerftestTimed.format(new PerftestTimed.LatRow(2, 566074, 1.765, 566074.0)));
        assertEquals(s.get(3), PerftestTimed.format(new PerftestTimed.LatRow(8, 12, 1234.125, 9.5)),
                "C's rounding, half to even on the binary value");
        assertEquals(PerftestRun.RESULT_FMT_G, s.get(5));
        assertEquals(s.get(6), PerftestRun.format(new BwRow(65536, 529661, 0, 96.41, 0.176554), true),
                "duration mode prints BW peak 0.00");
    }

    /** Steady state: a timed Write stream's BW is the counted run's, with and without completion moderation. */
    @org.junit.jupiter.api.Test
    void aTimedRunsBandwidthIsTheCountedRunsInSteadyState() {
        for (long size : new long[] {65536, 4096}) {
            BwRow count = PerftestRun.bandwidth(counted(Test.WRITE_BW, size, 2000), size);
            BwRow timed = PerftestTimed.bandwidth(timed(Test.WRITE_BW, size, 12 * MS, MS));
            assertEquals(count.avg(), timed.avg(), 0.01 * count.avg(), size + " B: " + count + " vs " + timed);
            assertEquals(count.msgRate(), timed.msgRate(), 0.01 * count.msgRate(), size + " B");
            assertEquals(0.0, timed.peak(), "perftest measures no peak in duration mode");
        }
    }

    /** Every bandwidth test runs timed, and gives the counted run's figures (Reads, Sends, atomics, -q, -b). */
    @org.junit.jupiter.api.Test
    void everyBandwidthTestRunsTimed() {
        for (Test t : List.of(Test.READ_BW, Test.SEND_BW, Test.ATOMIC_BW)) {
            long size = t.isAtomic() ? 8 : 65536;
            long d = t.isAtomic() ? 12 * MS : 6 * MS;
            BwRow count = PerftestRun.bandwidth(counted(t, size, t.isAtomic() ? 5000 : 1000), size);
            BwRow timed = PerftestTimed.bandwidth(timed(t, size, d, MS));
            assertEquals(count.msgRate(), timed.msgRate(), 0.02 * count.msgRate(), t.command + ": " + count + " vs "
                    + timed);
        }
        BwRow oneQp = PerftestTimed.bandwidth(timed(Test.SEND_BW, 4096, 1, false, 6 * MS, MS));
        BwRow twoQps = PerftestTimed.bandwidth(timed(Test.SEND_BW, 4096, 2, false, 6 * MS, MS));
        assertTrue(twoQps.avg() >= 0.98 * oneQp.avg(), "two QPs of Sends keep the link as full: " + oneQp + " vs "
                + twoQps);
        BwRow one = PerftestTimed.bandwidth(timed(Test.WRITE_BW, 64, 1, false, 2 * MS, 0));
        BwRow both = PerftestTimed.bandwidth(timed(Test.WRITE_BW, 64, 1, true, 2 * MS, 0));
        assertEquals(2 * one.msgRate(), both.msgRate(), 0.05 * 2 * one.msgRate(), "-b sums both sides: " + one
                + " vs " + both);
    }

    /** The window is [margin, duration - margin): the count is the message rate times the window, margins out. */
    @org.junit.jupiter.api.Test
    void theSampleWindowLeavesTheMarginsOut() {
        BwRow count = PerftestRun.bandwidth(counted(Test.WRITE_BW, 65536, 2000), 65536);
        BwRow wide = PerftestTimed.bandwidth(timed(Test.WRITE_BW, 65536, 8 * MS, MS));
        BwRow narrow = PerftestTimed.bandwidth(timed(Test.WRITE_BW, 65536, 8 * MS, 3 * MS));
        double perSecond = count.msgRate() * 1e6;
        assertEquals(perSecond * 6e-3, wide.iters(), 0.005 * perSecond * 6e-3, "6 ms of messages: " + wide);
        assertEquals(perSecond * 2e-3, narrow.iters(), 0.005 * perSecond * 2e-3, "2 ms of messages: " + narrow);
        assertEquals(wide.avg(), narrow.avg(), 0.01 * wide.avg(), "the same BW over either window");
        // the avg is the counted bytes over the window, nothing else
        assertEquals(65536.0 * wide.iters() / 6e-3 / 125_000_000.0, wide.avg(), 1e-9 * wide.avg());
    }

    /** Latency tests: t_avg is the window over the iterations (halved for the ping-pong of Writes), as counted. */
    @org.junit.jupiter.api.Test
    void timedLatencyIsTheCountedRunsAverage() {
        for (Test t : List.of(Test.READ_LAT, Test.WRITE_LAT, Test.ATOMIC_LAT, Test.SEND_LAT)) {
            long size = t.isAtomic() ? 8 : 2;
            PerftestRun.LatRow count = PerftestRun.latency(counted(t, size, 200), size);
            PerftestTimed.LatRow timed = PerftestTimed.latency(timed(t, size, 3 * MS, MS));
            assertEquals(count.tAvg(), timed.tAvg(), 0.01 * count.tAvg(), t.command + ": " + count + " vs " + timed);
            assertEquals(1e-3 / (timed.tAvg() * 1e-6 * (t.isRead() ? 1 : 2)), timed.iters(), 1.0, t.command);
            assertEquals(timed.iters() / 1e-3, timed.tps(), 1e-6 * timed.tps(), t.command);
        }
    }

    /** The generated timed loop stops at the first post at or after its bound, and runs the same twice. */
    @org.junit.jupiter.api.Test
    void theTimedLoopStopsAtTheFirstPostAtOrAfterTheBoundAndIsDeterministic() throws Exception {
        long d = 50 * SimTime.US;
        String json = PerftestScenario.json(PerftestRun.resolve(timed(Test.READ_LAT, 2, d, 0)), 2);
        Path a = dir.resolve("a");
        Path b = dir.resolve("b");
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("perftest.json", json)).run(a, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        assertEquals(0, new ScenarioRunner(ScenarioLoader.parse("perftest.json", json)).run(b, List.of()).exitCode());
        assertArrayEquals(Files.readAllBytes(a.resolve("events.jsonl")), Files.readAllBytes(b.resolve("events.jsonl")));
        List<Long> posts = new ArrayList<>();
        for (JsonNode e : ScenarioJson.readTrace(a.resolve("events.jsonl"))) {
            if ("post".equals(e.path("kind").asText()) && "A".equals(e.path("host").asText())) {
                posts.add(e.path("t_ps").asLong());
            }
        }
        assertTrue(posts.size() > 10, posts.toString());
        long period = posts.get(1) - posts.get(0);
        long first = posts.get(0);
        long last = posts.get(posts.size() - 1);
        assertTrue(last - first < d, "the last post came before the bound: " + posts);
        assertTrue(last - first + period >= d, "the next would have come at or after it: " + posts);
        // the bandwidth loop: a fill, a timed body that begins with a post, and the outstanding completions reaped
        String bw = PerftestScenario.json(PerftestRun.resolve(timed(Test.WRITE_BW, 4096, d, 0)), 4096);
        JsonNode calls = ScenarioJson.readJson(bw).at("/processes/1/calls");
        JsonNode loop = calls.get(calls.size() - 2);
        assertEquals("50us", loop.path("for").asText(), loop.toString());
        assertTrue(loop.path("calls").get(0).toString().contains("dat_ep_post_rdma_write"), loop.toString());
        assertEquals("dat_evd_wait", calls.get(calls.size() - 1).at("/calls/0/call").asText());
    }

    /**
     * A timed ib_send_lat: the server answers every question the client asks in its loop, and stops with at most one
     * wait that times out (answered into the receive the client left posted), so the run ends cleanly.
     */
    @org.junit.jupiter.api.Test
    void aTimedSendLatencyServerStopsWithItsClient() throws Exception {
        for (long d : new long[] {40 * SimTime.US, 41 * SimTime.US, 3 * SimTime.MS}) {
            String json = PerftestScenario.json(PerftestRun.resolve(timed(Test.SEND_LAT, 2, d, 0)), 2);
            Path out = dir.resolve("send-lat-" + d);
            RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("perftest.json", json)).run(out, List.of());
            assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
            int questions = 0;
            int answers = 0;
            int timeouts = 0;
            for (JsonNode e : ScenarioJson.readTrace(out.resolve("events.jsonl"))) {
                String kind = e.path("kind").asText();
                if ("post".equals(kind) && "send".equals(e.path("opcode").asText())) {
                    if ("A".equals(e.path("host").asText())) {
                        questions++;
                    } else {
                        answers++;
                    }
                } else if ("call".equals(kind) && "DAT_TIMEOUT_EXPIRED".equals(e.path("ret").asText())) {
                    timeouts++;
                }
            }
            assertTrue(questions > 10, "questions " + questions);
            assertTrue(timeouts <= 1, "timeouts " + timeouts);
            assertEquals(questions + timeouts, answers, "every question answered, and one answer per timeout");
        }
    }

    /** The collector keeps numbers only: its memory does not grow with the run. */
    @org.junit.jupiter.api.Test
    void theCollectorKeepsCountsOnly() {
        for (Field f : PerftestTimed.Collector.class.getDeclaredFields()) {
            Class<?> c = f.getType();
            boolean fixed = c.isPrimitive() || c == String.class || c == PerftestTimed.Clock.class
                    || c == long[].class && Modifier.isFinal(f.getModifiers());
            assertTrue(fixed, f + ": a collector field that could grow with the run");
        }
    }

    /** The clock a progress line reads: simulated time since the client's first post, from the trace. */
    @org.junit.jupiter.api.Test
    void theProgressClockCountsFromTheClientsFirstPost() {
        PerftestTimed.Clock clock = new PerftestTimed.Clock();
        PerftestTimed.Collector c = new PerftestTimed.Collector(timed(Test.WRITE_BW, 4096, 5 * MS, MS), clock);
        c.accept(org.datsim.core.trace.TraceEvent.of(3 * SimTime.US, "post", "B").op(1)
                .attr(org.datsim.core.trace.TraceKey.OPCODE, "recv"));
        assertEquals(0, clock.sinceStartPs(), "the server's receives are not the client's loop");
        c.accept(org.datsim.core.trace.TraceEvent.of(10 * SimTime.US, "post", "A").op(2)
                .attr(org.datsim.core.trace.TraceKey.OPCODE, "rdma_write"));
        c.accept(org.datsim.core.trace.TraceEvent.of(MS, "tx_start", "A"));
        assertEquals(MS - 10 * SimTime.US, clock.sinceStartPs());
    }

    @org.junit.jupiter.api.Test
    void whatPerftestRefusesIsRefusedInItsWords() {
        String[][] cases = {
            {"-D with -a: perftest: \"Duration mode currently doesn't support running on all sizes.\"", "ib_write_bw",
                "-D", "5", "-a"},
            {"please check that DURATION > 2*MARGIN", "ib_write_bw", "-D", "2", "-f", "1"},
            {"the duration is a positive number of seconds", "ib_read_lat", "-D", "0"},
            {"please check that DURATION > 2*MARGIN\" (the sample is the time between the margins) (without -D,"
                + " perftest's default duration of 5 s)", "ib_write_bw", "-f", "3"},
            {"the margin is a number of seconds, 0 or more", "ib_write_bw", "-D", "5", "-f", "-1"}};
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("perftest"));
            args.addAll(List.of(c).subList(1, c.length));
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int rc = DatsimCli.execute(args.toArray(new String[0]), new PrintWriter(out), new PrintWriter(err));
            assertEquals(DatsimCli.EXIT_INVALID, rc, args.toString());
            assertEquals("", out.toString(), args.toString());
            assertTrue(err.toString().contains(c[0]), err.toString());
            assertEquals(1, err.toString().lines().count(), "one line: " + err);
        }
    }

    /** A whole command line: -n is said ignored, the table is perftest's duration-mode table. */
    @org.junit.jupiter.api.Test
    void aTimedCommandLinePrintsPerftestsDurationTable() throws IOException {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int rc = DatsimCli.execute(new String[] {"perftest", "ib_read_lat", "-D", "1", "-n", "50", "--quiet"},
                new PrintWriter(out), new PrintWriter(err));
        assertEquals(0, rc, err.toString());
        assertTrue(err.toString().contains("-n 50 ignored with -D"), err.toString());
        StringWriter err2 = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"perftest", "ib_read_lat", "-n", "20", "-f", "1"},
                new PrintWriter(new StringWriter()), new PrintWriter(err2)));
        assertTrue(err2.toString().contains("-f 1 ignored without -D"), err2.toString());
        List<String> lines = out.toString().lines().toList();
        assertTrue(lines.contains("                    RDMA_Read Latency Test"), out.toString());
        assertTrue(lines.contains(PerftestTimed.RESULT_FMT_LAT_DUR), out.toString());
        String[] row = lines.get(lines.size() - 2).trim().split("\\s+");
        assertEquals(sample().get(2).trim().split("\\s+").length, row.length, out.toString());
        assertEquals("2", row[0]);
        long iters = Long.parseLong(row[1]);
        assertEquals(1.0 / (iters * 1e-6), Double.parseDouble(row[2]), 0.01, "t_avg: the 1 s window over " + iters);
        assertEquals(iters, Double.parseDouble(row[3]), 0.01, "tps over a 1 s window (-D 1: margin 0)");
    }

    @org.junit.jupiter.api.Test
    void theDefaultMarginIsAQuarterInWholeSeconds() {
        assertEquals(1, PerftestTimed.defaultMargin(5));
        assertEquals(0, PerftestTimed.defaultMargin(3));
        assertEquals(2, PerftestTimed.defaultMargin(10));
    }
}
