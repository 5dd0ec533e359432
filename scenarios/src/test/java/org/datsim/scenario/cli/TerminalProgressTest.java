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
}
