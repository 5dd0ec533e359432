package org.datsim.scenario.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * scripts/trace-literals.py, the codemod the coordinator re-runs after merging: it rewrites each form of trace
 * literal that TraceLiteralScanTest finds into the schema's constants, adds the imports, wraps a line it made
 * longer than 120 characters, leaves parameter values and other switches alone, reports an undeclared name, and a second run changes nothing. Skipped where there is no
 * python3.
 */
class TraceLiteralsScriptTest {

    private static final String BEFORE = String.join("\n",
            "package org.datsim.fabric.sw;",
            "",
            "import java.util.Map;",
            "import org.datsim.core.trace.TraceEvent;",
            "",
            "final class Sample {",
            "    static final String PFC = \"pfc\";",
            "    void f(TraceEvent e, String kind, String topology) {",
            "        trace.fire(TraceEvent.of(sim.now(), \"ecn_mark\", name).attr(\"port\", p).attr(\"bytes\", 1L));",
            "        long q = e.attrLong(\"queue_bytes\", 0) + (e.hasAttr(\"paused\") ? 1 : 0);",
            "        if (\"port_queue\".equals(e.kind()) || kind.equals(\"pfc\")) {}",
            "        if (\"pfc\".equals(p.choice(FLOW_CONTROL))) {}",
            "        switch (e.kind()) {",
            "            case \"port_sample\":",
            "                switch (packet) { case \"cm\": break; }",
            "                break;",
            "            case \"start\", \"tx_start\" -> {}",
            "        }",
            "        switch (topology) { case \"fat_tree\": break; }",
            "        Map<String, Object> a = e.attrs();",
            "        Object o = a.get(\"opcode\");",
            "        e.attr(\"no_such_key\", 1L);",
            "        trace.fire(TraceEvent.of(sim.now(), \"cno_notify\", evd.ia.host.name).attr(\"cno\", cno.name())"
                    + ".attr(\"waiters\", 1L));",
            "    }",
            "}",
            "");

    private static final String AFTER = String.join("\n",
            "package org.datsim.fabric.sw;",
            "",
            "import java.util.Map;",
            "import org.datsim.core.trace.TraceEvent;",
            "import org.datsim.core.trace.TraceKey;",
            "import org.datsim.core.trace.TraceKind;",
            "",
            "final class Sample {",
            "    static final String PFC = TraceKind.PFC;",
            "    void f(TraceEvent e, String kind, String topology) {",
            "        trace.fire(TraceEvent.of(sim.now(), TraceKind.ECN_MARK, name).attr(TraceKey.PORT, p)"
                    + ".attr(TraceKey.BYTES, 1L));",
            "        long q = e.attrLong(TraceKey.QUEUE_BYTES, 0) + (e.hasAttr(TraceKey.PAUSED) ? 1 : 0);",
            "        if (TraceKind.PORT_QUEUE.equals(e.kind()) || kind.equals(TraceKind.PFC)) {}",
            "        if (\"pfc\".equals(p.choice(FLOW_CONTROL))) {}",
            "        switch (e.kind()) {",
            "            case TraceKind.PORT_SAMPLE:",
            "                switch (packet) { case \"cm\": break; }",
            "                break;",
            "            case TraceKind.START, TraceKind.TX_START -> {}",
            "        }",
            "        switch (topology) { case \"fat_tree\": break; }",
            "        Map<String, Object> a = e.attrs();",
            "        Object o = a.get(TraceKey.OPCODE);",
            "        e.attr(\"no_such_key\", 1L);",
            "        trace.fire(TraceEvent.of(sim.now(), TraceKind.CNO_NOTIFY, evd.ia.host.name)"
                    + ".attr(TraceKey.CNO, cno.name())",
            "                .attr(TraceKey.WAITERS, 1L));",
            "    }",
            "}",
            "");

    private static String[] run(Path file, Path tmp) throws Exception {
        Path script = ScenarioTreeRoot.find().resolve("scripts/trace-literals.py");
        Path outFile = tmp.resolve("out.txt");
        Path errFile = tmp.resolve("err.txt");
        List<String> cmd = new ArrayList<>(List.of("python3", script.toString(), file.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(outFile.toFile()).redirectError(errFile.toFile()).start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the script ends");
        assertEquals(0, p.exitValue(), () -> read(errFile));
        return new String[] {read(outFile), read(errFile)};
    }

    private static String read(Path f) {
        try {
            return Files.readString(f, StandardCharsets.UTF_8);
        } catch (IOException e) {
            return e.toString();
        }
    }

    private static boolean python() {
        try {
            Process p = new ProcessBuilder("python3", "--version").redirectErrorStream(true).start();
            return p.waitFor(20, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }

    @Test
    void rewritesEachFormOnceAndReportsTheUndeclared(@TempDir Path tmp) throws Exception {
        assumeTrue(python(), "python3 is needed to run the codemod");
        Path file = tmp.resolve("Sample.java");
        Files.writeString(file, BEFORE, StandardCharsets.UTF_8);

        String[] first = run(file, tmp);
        assertEquals(AFTER, Files.readString(file, StandardCharsets.UTF_8));
        assertTrue(first[1].contains("key \"no_such_key\" is not declared in TraceKey"), first[1]);
        assertTrue(first[0].contains("1 file(s) rewritten"), first[0]);

        String[] second = run(file, tmp);
        assertEquals(AFTER, Files.readString(file, StandardCharsets.UTF_8), "a second run changes nothing");
        assertTrue(second[0].contains("0 file(s) rewritten"), second[0]);
        assertEquals(List.of(), TraceLiteralScanTest.literals(AFTER).stream()
                .filter(l -> !l.contains("no_such_key")).toList(), "the scan finds nothing the script left");
    }
}
