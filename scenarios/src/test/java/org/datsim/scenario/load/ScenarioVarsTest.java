package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Scenario variables ({@code "vars"}): whole numbers or sizes usable as {@code $name} in the expressions and counts
 * of every process, and the validation of their names and values.
 */
class ScenarioVarsTest {

    @TempDir
    Path dir;

    private static String withVars(String vars, String... calls) {
        String s = ScenarioJson.withCalls(calls);
        return s.replaceFirst("\\{", "{\"vars\": " + vars + ",");
    }

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", json)).problems();
    }

    @Test
    void varsAreNumbersInExpressionsRepeatCountsAndReferences() throws Exception {
        String json = withVars("{\"n\": 3, \"size\": \"1KiB\"}",
                "{\"repeat\": \"$n\", \"as\": \"i\", \"calls\": [{\"call\": \"mem_write\", \"lmr\": \"$buf\","
                        + " \"offset\": \"= $i * $size\", \"data\": {\"fill\": 5, \"length\": 16}}]}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": \"$size\"}");
        Scenario s = ScenarioLoader.parse("t.json", json);
        assertEquals(3L, s.vars().get("n"));
        assertEquals(1024L, s.vars().get("size"));
        RunResultSummary r = new ScenarioRunner(s).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        long writes = 0;
        long lastAddress = -1;
        for (JsonNode e : ScenarioJson.readTrace(dir.resolve("events.jsonl"))) {
            if ("mem_write".equals(e.get("kind").asText())) {
                writes++;
                lastAddress = e.get("address").asLong();
            }
        }
        assertEquals(3, writes, "the repeat ran $n times");
        assertTrue(lastAddress % 1024 == 0 && lastAddress > 0, "the last write is at offset 2 * $size");
    }

    @Test
    void aFlagsArgumentMayBeAReferenceToANumber() throws Exception {
        // The loader accepts a reference for every scalar argument; flags used to reach the run unresolved (exit 3).
        String json = withVars("{\"f\": 16}",
                "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 4, \"evd_flags\": \"$f\","
                        + " \"out\": \"cr\"}",
                "{\"call\": \"dat_psp_create\", \"ia\": \"$ia\", \"conn_qual\": 7, \"evd\": \"$cr\"}");
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        String bad = withVars("{\"f\": 16}",
                "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 4, \"evd_flags\": \"$buf\"}");
        RunResultSummary b = new ScenarioRunner(ScenarioLoader.parse("t.json", bad)).run(dir.resolve("bad"),
                List.of());
        String all = String.join("\n", b.lines());
        assertEquals(1, b.exitCode(), all);
        assertTrue(all.contains("evd_flags: \"$buf\" is not a number"), all);
    }

    @Test
    void badVarsAreReportedWithTheirPaths() {
        List<String> p = problems(withVars("{\"index\": 1, \"x\": \"lots\", \"y\": [1], \"9z\": 2}"));
        assertTrue(p.contains("t.json: $.vars.index: \"index\" is reserved for the process's $index and $count"),
                p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("t.json: $.vars.x: expected a whole number or a size")),
                p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("t.json: $.vars.y: expected a whole number or a size")),
                p.toString());
        assertTrue(p.stream().anyMatch(m -> m.startsWith("t.json: $.vars.9z: expected a variable name")),
                p.toString());
        assertTrue(problems(withVars("[1]")).get(0).startsWith("t.json: $.vars: expected an object"));
    }

    @Test
    void aVarCannotBeShadowedByAnOutOrALoopVariable() {
        List<String> p = problems(withVars("{\"ia\": 1}"));
        assertTrue(p.stream().anyMatch(m -> m.contains("$.processes[0].calls[0].out: \"ia\" is a scenario variable")),
                p.toString());
        List<String> q = problems(withVars("{\"i\": 1}", "{\"repeat\": 2, \"as\": \"i\", \"calls\": []}"));
        assertTrue(q.stream().anyMatch(m -> m.contains("$.processes[0].calls[4].as")), q.toString());
    }

    @Test
    void anUndeclaredVariableIsADanglingReference() {
        List<String> p = problems(ScenarioJson.withCalls("{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"offset\":"
                + " \"= $size\", \"data\": {\"fill\": 1, \"length\": 1}}"));
        assertTrue(p.stream().anyMatch(m -> m.contains("$size")), p.toString());
    }
}
