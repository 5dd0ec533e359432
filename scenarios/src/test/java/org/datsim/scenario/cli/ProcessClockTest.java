package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Issue 15: {@code process_wall_s} is the process's wall time, checked against a measurement from outside the
 * process. It came from ProcessHandle's start instant, whose boot time is in whole seconds: up to a second too long.
 */
class ProcessClockTest {

    @Test
    void parsesTheKernelsStartTickAndUptime() {
        // a command name with spaces and parentheses; starttime (field 22) = 12345 ticks
        String stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194304 100 0 0 0 5 6 0 0 20 0 9 0 12345 1000 200 18";
        ProcessClock.Wall w = ProcessClock.fromProcText(stat, "130.45 999.00\n");
        assertNotNull(w);
        assertEquals(13045 - 12345, Math.round(w.seconds() * 100));
        assertEquals(0.01, w.precisionSeconds());
        assertNull(ProcessClock.fromProcText("no parenthesis", "1.00 1.00"));
        assertNull(ProcessClock.fromProcText("1 (x) S 1", "1.00 1.00"));
        assertNull(ProcessClock.fromProcText(stat, "100.00 1.00"), "a start after now is no answer");
    }

    @Test
    void processWallIsAtMostWhatAnOutsideClockMeasuredAndCloseToIt() throws Exception {
        Assumptions.assumeTrue(Files.isReadable(Path.of("/proc/self/stat")), "Linux /proc");
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = List.of(java, "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                DatsimCli.class.getName(), "bench", "stream", "--writes", "200");
        for (int attempt = 0; attempt < 2; attempt++) {
            long t0 = System.nanoTime(); // before the child exists
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
            String wallLine = null;
            List<String> all = new ArrayList<>();
            long t1 = 0;
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    all.add(line);
                    if (line.startsWith("process_wall_s=")) {
                        t1 = System.nanoTime(); // the child has measured itself by now
                        wallLine = line;
                    }
                }
            }
            assertEquals(0, p.waitFor(), String.join("\n", all));
            assertNotNull(wallLine, String.join("\n", all));
            double inside = Double.parseDouble(wallLine.substring("process_wall_s=".length()));
            double outside = (t1 - t0) / 1e9;
            // the kernel's account is truncated to its 10 ms tick at both ends
            assertTrue(inside <= outside + 0.01, "process_wall_s " + inside + " > outside " + outside);
            if (outside - inside < 0.5 || attempt == 1) {
                // fork and exec, and the pipe, take far less than half a second (one retry on a loaded machine)
                assertTrue(outside - inside < 0.5, "process_wall_s " + inside + " vs outside " + outside);
                return;
            }
        }
    }
}
