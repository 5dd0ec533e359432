package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Repeat blocks and integer expressions: nested loops with loop variables, expressions over loop variables,
 * references and sizes, and the validation messages for bad expressions, unknown names and clashing variables.
 */
class RepeatAndExpressionTest {

    @TempDir
    Path dir;

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", json)).problems();
    }

    private RunResultSummary run(String json) throws Exception {
        return new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
    }

    @Test
    void expressionsEvaluateWithPrecedenceSizesAndReferences() {
        Expr e = Expr.parse("= 2 + 3 * (4 - 1) % 5 - -1 + 1KiB / $n");
        assertEquals(List.of("$n"), e.refs());
        assertEquals(2 + (3 * 3) % 5 + 1 + 1024 / 4, e.eval(r -> 4));
        assertThrows(ArithmeticException.class, () -> Expr.parse("= 1 / $z").eval(r -> 0));
        assertThrows(ArithmeticException.class, () -> Expr.parse("= $x * $x").eval(r -> Long.MAX_VALUE));
    }

    @Test
    void nestedRepeatsRunEveryIterationWithTheirVariables() throws Exception {
        RunResultSummary r = run(withCalls(
                "{\"repeat\": 4, \"as\": \"i\", \"calls\": [{\"repeat\": \"= $i + 1\", \"as\": \"j\", \"calls\": ["
                        + "{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"offset\": \"= ($i * 4 + $j) * 16\","
                        + " \"data\": {\"fill\": 7, \"length\": 16}}]}]}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"= 12 * 16\", \"length\": 64,"
                        + " \"expect\": {\"data\": {\"fill\": 7, \"length\": 64}}}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"= 16 * 16\", \"length\": 16,"
                        + " \"expect\": {\"data\": {\"fill\": 0, \"length\": 16}}}",
                "{\"repeat\": 0, \"calls\": [{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": 1,"
                        + " \"expect\": {\"data\": {\"fill\": 99, \"length\": 1}}}]}"));
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        List<JsonNode> writes = new ArrayList<>();
        for (JsonNode e : ScenarioJson.readTrace(dir.resolve("events.jsonl"))) {
            if ("mem_write".equals(e.get("kind").asText())) {
                writes.add(e);
            }
        }
        assertEquals(1 + 2 + 3 + 4, writes.size());
        long base = writes.get(0).get("address").asLong();
        assertEquals(base + (3 * 4 + 3) * 16, writes.get(writes.size() - 1).get("address").asLong());
    }

    @Test
    void badExpressionsAndNamesAreReportedWithTheirPaths() {
        List<String> p = problems(withCalls(
                "{\"repeat\": \"= 2 +\", \"as\": \"i\", \"calls\": []}",
                "{\"repeat\": 2, \"as\": \"buf\", \"calls\": []}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"= $k * 2\", \"length\": 1}",
                "{\"repeat\": 2, \"as\": \"i\", \"calls\": [{\"call\": \"sleep\", \"time\": \"1us\"}],"
                        + " \"count\": 3}"));
        assertEquals(4, p.size(), String.join("\n", p));
        assertTrue(p.get(0).startsWith("t.json: $.processes[0].calls[4].repeat: expected a number"), p.get(0));
        assertTrue(p.get(1).contains("$.processes[0].calls[5].as: \"buf\" is already a name"), p.get(1));
        assertTrue(p.get(2).contains("$.processes[0].calls[6].offset: dangling reference \"$k\""), p.get(2));
        assertTrue(p.get(3).contains("$.processes[0].calls[7].count: unknown field"), p.get(3));
    }

    @Test
    void aLoopVariableIsOnlyKnownInsideItsBlock() {
        List<String> p = problems(withCalls(
                "{\"repeat\": 2, \"as\": \"i\", \"calls\": [{\"call\": \"sleep\", \"time\": \"1us\"}]}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"$i\", \"length\": 1}"));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("dangling reference \"$i\""), p.get(0));
    }

    @Test
    void aRepeatOfCallsThatTakeNoTimeIsStoppedAsRunaway() throws Exception {
        RunResultSummary r = run(withCalls("{\"repeat\": 100000000, \"calls\": [{\"call\": \"mem_read\","
                + " \"lmr\": \"$buf\", \"length\": 0}]}"));
        assertEquals(1, r.exitCode());
        assertTrue(String.join("\n", r.lines()).contains("without simulated time passing"), r.lines().toString());
    }
}
