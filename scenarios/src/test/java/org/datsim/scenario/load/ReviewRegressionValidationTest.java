package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs a code review showed crashing a run or breaking determinism, now rejected before the run with a message:
 * references where an object or array is required, expect.ep naming something other than an endpoint, durations
 * beyond what the clock can hold; and a waiter on an EVD destroyed by an abrupt dat_ia_close returns DAT_ABORT.
 */
class ReviewRegressionValidationTest {

    @TempDir
    Path dir;

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", json)).problems();
    }

    @Test
    void aReferenceIsNotAnIovARemoteTargetOrData() {
        List<String> p = problems(withCalls(
                "{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"data\": \"$buf\"}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": 4}"));
        assertEquals(List.of("t.json: $.processes[0].calls[4].data: expected an object with one of \"text\", \"hex\""
                + " or \"fill\" (with \"length\"), found \"$buf\""), p);
    }

    @Test
    void expectEpMustNameAnEndpoint() {
        List<String> p = problems(withCalls(
                "{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\": {\"ret\": \"any\", \"ep\": \"$buf\"}}"));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("t.json: $.processes[0].calls[4].expect.ep: expected a reference to an"
                + " endpoint"), p.get(0));
        assertTrue(p.get(0).endsWith("which is a lmr"), p.get(0));
    }

    @Test
    void durationsBeyondAMillionSecondsAreRejected() {
        List<String> p = problems(withCalls("{\"call\": \"sleep\", \"time\": \"5000000s\"}"));
        assertEquals(List.of("t.json: $.processes[0].calls[4].time: expected a time of at most 1000000s, found"
                + " \"5000000s\""), p);
    }

    @Test
    void aWaiterOnAnEvdClosedUnderItReturnsDatAbort() throws Exception {
        String json = org.datsim.scenario.ScenarioJson.scenario(
                "{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                org.datsim.scenario.ScenarioJson.process("p", "A", List.of(
                        "{\"call\": \"dat_ia_open\", \"out\": \"ia\"}",
                        "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 4,"
                                + " \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"evd\"}",
                        "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"expect\": {\"ret\": \"DAT_ABORT\"}}")),
                org.datsim.scenario.ScenarioJson.process("q", "A", List.of(
                        "{\"call\": \"sleep\", \"time\": \"5us\"}",
                        "{\"call\": \"dat_ia_close\", \"ia\": \"$p/ia\", \"flags\": \"DAT_CLOSE_ABRUPT_FLAG\"}")));
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.parse("t.json", json)).run(dir, List.of());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }
}
