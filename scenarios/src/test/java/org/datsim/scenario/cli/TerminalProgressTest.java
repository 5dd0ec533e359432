package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * The progress line never reaches a file or a pipe: under the test runner standard error is not a terminal, so no
 * display starts and a run's standard error stays empty; --quiet and -q are accepted; the line's words.
 */
class TerminalProgressTest {

    @Test
    void noDisplayOffATerminalOrWhenQuiet() {
        StringWriter err = new StringWriter();
        assertTrue(!TerminalProgress.stderrIsTerminal() || System.console() != null, "surefire pipes stderr");
        if (!TerminalProgress.stderrIsTerminal()) {
            assertNull(TerminalProgress.start(false, new PrintWriter(err), () -> "x"));
        }
        assertNull(TerminalProgress.start(true, new PrintWriter(err), () -> "x"), "--quiet");
        assertEquals("", err.toString());
    }

    @Test
    void theLineSaysSimulatedTimeEventsAndMore() {
        String s = TerminalProgress.simulation(() -> 1_500_000_000L, () -> 2_000_000L, () -> "3 of 4 flows done").get();
        assertTrue(s.startsWith("simulated 1.5ms, 2,000,000 events ("), s);
        assertTrue(s.endsWith("/s), 3 of 4 flows done"), s);
    }

    @Test
    void runAcceptsQuietAndWritesNothingToStandardErrorOffATerminal() throws Exception {
        java.nio.file.Path out = java.nio.file.Files.createTempDirectory("datsim-quiet");
        for (String q : new String[] {"-q", "--quiet", null}) {
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of("run",
                    org.datsim.scenario.ScenarioJson.examplesDir().resolve("write-then-send.json").toString(), "--out",
                    out.toString(), "--no-perfetto"));
            if (q != null) {
                args.add(q);
            }
            assertEquals(0, DatsimCli.execute(args.toArray(new String[0]), new PrintWriter(o), new PrintWriter(e)),
                    e::toString);
            assertEquals("", e.toString(), "nothing on standard error");
        }
    }

    @Test
    void theTimeLeftIsExtrapolatedFromTheShareDoneAndSaidOnlyWhenSomethingIsKnown() {
        assertEquals(", about 30 s left", TerminalProgress.eta(0.25, 10, false));
        assertEquals(", about 1 min 30 s left", TerminalProgress.eta(0.4, 60, false));
        assertEquals(", at most about 2 h 0 min left", TerminalProgress.eta(0.5, 7200, true));
        assertEquals("", TerminalProgress.eta(0.005, 100, false), "under 1% done: nothing to extrapolate");
        assertEquals("", TerminalProgress.eta(0.5, 1, false), "under 2 s of wall time");
        assertEquals("", TerminalProgress.eta(1.0, 10, false), "done");
        assertEquals("", TerminalProgress.eta(Double.NaN, 10, false), "unknown share");
    }

    @Test
    void exploreAcceptsQuietAndReportsItsProgressWords() throws Exception {
        java.nio.file.Path f = org.datsim.scenario.ScenarioJson.examplesDir().resolve("write-then-send.json");
        org.datsim.scenario.load.Scenario s = org.datsim.scenario.load.ScenarioLoader.load(f);
        org.datsim.scenario.explore.Explorer x = new org.datsim.scenario.explore.Explorer(s,
                new org.datsim.scenario.explore.Explorer.Settings(10, 0, 1, true, 0, 100));
        assertEquals("0 executions (depth-first), 0 distinct outcomes", x.progress());
        assertEquals(0.0, x.progressShare());
        org.datsim.scenario.explore.Explorer.Report r = x.explore();
        assertEquals(r.executions() + " executions (depth-first), " + r.outcomes().size() + " distinct outcomes",
                x.progress());
        assertTrue(x.progressShare() > 0 && x.progressShare() <= 1, "share " + x.progressShare());
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"explore", f.toString(), "--quiet", "--max-executions", "5"},
                new PrintWriter(o), new PrintWriter(e));
        assertEquals(0, code, e.toString());
        assertEquals("", e.toString());
    }
}
