package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expressions everywhere a number is taken (expected cookies and lengths, data fill bytes and lengths, attributes)
 * and indexed names in repeat blocks ({@code "out": "buf[$i]"}, {@code "$buf[$i].address"}), so that N objects are
 * one block; bad indexes and mixed indexed and plain uses are located input errors.
 */
class IndexedNamesAndExpressionsTest {

    @TempDir
    Path dir;

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", json)).problems();
    }

    private RunResultSummary run(String json) throws Exception {
        return new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
    }

    private static String text(RunResultSummary r) {
        return String.join("\n", r.lines());
    }

    @Test
    void fillPatternsAndExpectedNumbersTakeExpressions() throws Exception {
        RunResultSummary r = run(withCalls(
                "{\"repeat\": 3, \"as\": \"i\", \"calls\": ["
                        + "{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"offset\": \"= $i * 8\","
                        + " \"data\": {\"fill\": \"= 100 + $i\", \"length\": \"= 4 + 4\"}},"
                        + "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"= $i * 8\", \"length\": 8,"
                        + " \"expect\": {\"data\": {\"fill\": \"= 100 + $i\", \"length\": \"= 2 * 4\"}}}]}",
                "{\"call\": \"dat_evd_post_se\", \"evd\": \"$evd\", \"pointer\": 42}",
                "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"cookie\": \"= 6 * 7\"}}",
                "{\"call\": \"dat_lmr_query\", \"lmr\": \"$buf\", \"expect\": {\"attrs\": {\"registered_size\":"
                        + " \"= $buf.length\"}}}"));
        assertEquals(0, r.exitCode(), text(r));
        RunResultSummary wrong = run(withCalls("{\"call\": \"dat_evd_post_se\", \"evd\": \"$evd\", \"pointer\": 42}",
                "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"cookie\": \"= 6 * 8\"}}"));
        assertEquals(1, wrong.exitCode(), text(wrong));
        RunResultSummary notAByte = run(withCalls("{\"repeat\": 1, \"as\": \"i\", \"calls\": [{\"call\":"
                + " \"mem_write\", \"lmr\": \"$buf\", \"data\": {\"fill\": \"= 300 + $i\", \"length\": 8}}]}"));
        assertEquals(1, notAByte.exitCode(), text(notAByte));
        assertEquals(true, text(notAByte).contains("$.processes[0].calls[4].calls[0].data.fill: = 300 + $i is 300, not"
                + " a byte value from 0 to 255"), text(notAByte));
    }

    @Test
    void indexedOutputsMakeOneObjectPerIteration() throws Exception {
        RunResultSummary r = run(withCalls(
                "{\"repeat\": 4, \"as\": \"i\", \"calls\": ["
                        + "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": \"= 64 * ($i + 1)\","
                        + " \"out\": \"b[$i]\"},"
                        + "{\"call\": \"mem_write\", \"lmr\": \"$b[$i]\", \"data\": {\"fill\": \"= $i + 1\", \"length\":"
                        + " \"$b[$i].length\"}}]}",
                "{\"repeat\": 4, \"as\": \"k\", \"calls\": ["
                        + "{\"call\": \"mem_read\", \"lmr\": \"$b[3 - $k]\", \"length\": \"= $b[3 - $k].length\","
                        + " \"expect\": {\"data\": {\"fill\": \"= 4 - $k\", \"length\": \"= 64 * (4 - $k)\"}}}]}",
                "{\"call\": \"dat_lmr_free\", \"lmr\": \"$b[0]\"}"));
        assertEquals(0, r.exitCode(), text(r));
        List<JsonNode> reads = ScenarioJson.readTrace(dir.resolve("events.jsonl")).stream()
                .filter(e -> e.path("kind").asText().equals("mem_read")).collect(Collectors.toList());
        assertEquals(List.of(256L, 192L, 128L, 64L), reads.stream().map(e -> e.path("bytes").asLong())
                .collect(Collectors.toList()));
    }

    @Test
    void anIndexNotBoundYetFailsTheCallNamingIt() throws Exception {
        RunResultSummary r = run(withCalls(
                "{\"repeat\": 2, \"as\": \"i\", \"calls\": [{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\":"
                        + " \"$pz\", \"length\": 64, \"out\": \"b[$i]\"}]}",
                "{\"call\": \"dat_lmr_free\", \"lmr\": \"$b[5]\"}"));
        assertEquals(1, r.exitCode(), text(r));
        assertEquals(true, text(r).contains("$.processes[0].calls[5].lmr: \"$b[5]\" (b[5]) is not bound"), text(r));
    }

    @Test
    void badIndexedNamesAreLocated() {
        List<String> p = problems(withCalls(
                "{\"repeat\": 2, \"as\": \"i\", \"calls\": [{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\":"
                        + " \"$pz\", \"length\": 64, \"out\": \"b[$j]\"}]}",
                "{\"call\": \"dat_lmr_free\", \"lmr\": \"$b\"}",
                "{\"call\": \"dat_lmr_free\", \"lmr\": \"$buf[0]\"}",
                "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 64, \"out\": \"b\"}",
                "{\"call\": \"dat_lmr_free\", \"lmr\": \"$b[0 +]\"}"));
        assertEquals(List.of(
                "t.json: $.processes[0].calls[4].calls[0].out: dangling reference \"$j\": no call of process \"p\""
                        + " binds \"j\" with \"out\"",
                "t.json: $.processes[0].calls[5].lmr: \"b\" is bound with an index (\"out\": \"b[...]\"): refer to one"
                        + " of them, as \"$b[$i]\"",
                "t.json: $.processes[0].calls[6].lmr: \"buf\" is bound without an index; refer to it as \"$buf\"",
                "t.json: $.processes[0].calls[7].out: \"b\" is bound with an index by an earlier call of this"
                        + " process; bind it with one (\"b[$i]\") everywhere",
                "t.json: $.processes[0].calls[8].lmr: the index [0 +]: expected a number, a size, a reference or"
                        + " \"(\" at position 5 of expression \"= 0 +\""), p);
    }
}
