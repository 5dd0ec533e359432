package org.datsim.scenario.run;

import static org.datsim.scenario.ScenarioJson.FILE;
import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Expectations that allow several outcomes: {@code {"one_of": [...]}} for any expected value, the conditional
 * {@code "if"/"then"/"else"}, and joint outcomes ({@code "observe"} on steps and {@code "outcomes"} at the top
 * level), with the observation vector in summary.json and through {@link Observations} and {@link OutcomeCheck}.
 */
class AllowedOutcomesTest {

    @TempDir
    Path out;

    private record Run(int exitCode, String text, JsonNode summary, ScenarioRunner runner) {
        JsonNode failures() {
            return summary.path("expectations").path("failures");
        }
    }

    private Run run(String json) throws Exception {
        ScenarioRunner runner = new ScenarioRunner(ScenarioLoader.parse(FILE, json));
        RunResultSummary r = runner.run(out, List.of());
        return new Run(r.exitCode(), String.join("\n", r.lines()), ScenarioJson.readJson(out.resolve("summary.json")),
                runner);
    }

    /** A wait on the empty EVD that times out after 1 us, with the given expectation. */
    private static String timedOutWait(String expect) {
        return "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\": 1, \"out\": \"ev\", \"expect\": " + expect
                + "}";
    }

    private static final String WRITE_ONES = "{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"data\": {\"fill\": 1,"
            + " \"length\": 8}}";

    private static String read(String extra) {
        return "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": 8" + extra + "}";
    }

    private static String withOutcomes(String outcomes, String... calls) {
        String s = withCalls(calls).trim();
        return s.substring(0, s.length() - 1) + ",\n  \"outcomes\": " + outcomes + "\n}\n";
    }

    // ------------------------------------------------------------------ one_of

    @Test
    void oneOfAcceptsAnyOfTheReturns() throws Exception {
        Run ok = run(withCalls(timedOutWait("{\"ret\": {\"one_of\": [\"DAT_SUCCESS\", \"DAT_TIMEOUT_EXPIRED\"]}}")));
        assertEquals(0, ok.exitCode(), ok.text());
        Run bad = run(withCalls(timedOutWait("{\"ret\": {\"one_of\": [\"DAT_SUCCESS\", \"DAT_ABORT\"]}}")));
        assertEquals(1, bad.exitCode(), bad.text());
        String f = bad.failures().get(0).asText();
        assertTrue(f.contains("expected one of [DAT_SUCCESS, DAT_ABORT], the call returned DAT_TIMEOUT_EXPIRED"), f);
    }

    @Test
    void oneOfAcceptsOldOrNewBytes() throws Exception {
        Run ok = run(withCalls(WRITE_ONES, read(", \"expect\": {\"data\": {\"one_of\": [{\"fill\": 2, \"length\": 8},"
                + " {\"fill\": 1, \"length\": 8}]}}")));
        assertEquals(0, ok.exitCode(), ok.text());
        Run bad = run(withCalls(WRITE_ONES, read(", \"expect\": {\"data\": {\"one_of\": [{\"fill\": 2, \"length\":"
                + " 8}, {\"hex\": \"0001\"}]}}")));
        assertEquals(1, bad.exitCode(), bad.text());
        assertTrue(bad.failures().get(0).asText().contains("expected data one of [{\"fill\":2,\"length\":8},"
                + "{\"hex\":\"0001\"}], got {\"fill\":1,\"length\":8}"), bad.text());
    }

    @Test
    void oneOfWorksForAttributesAndNumbers() throws Exception {
        Run ok = run(withCalls("{\"call\": \"dat_lmr_query\", \"lmr\": \"$buf\", \"expect\": {\"attrs\":"
                + " {\"registered_size\": {\"one_of\": [64, 4096]}}}}"));
        assertEquals(0, ok.exitCode(), ok.text());
        Run bad = run(withCalls("{\"call\": \"dat_lmr_query\", \"lmr\": \"$buf\", \"expect\": {\"attrs\":"
                + " {\"registered_size\": {\"one_of\": [64, 128]}}}}"));
        assertTrue(bad.failures().get(0).asText().endsWith("expected registered_size one of [64, 128], got 4096"),
                bad.text());
    }

    // ------------------------------------------------------------------ if / then / else

    @Test
    void thenAppliesOnlyWhenTheIfHolds() throws Exception {
        String conditional = "{\"ret\": {\"one_of\": [\"DAT_SUCCESS\", \"DAT_TIMEOUT_EXPIRED\"]},"
                + " \"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\": {\"event\": \"DAT_DTO_COMPLETION_EVENT\"}, %s}";
        Run ok = run(withCalls(timedOutWait(String.format(conditional, "\"else\": {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}"))));
        assertEquals(0, ok.exitCode(), ok.text());
        Run bad = run(withCalls(timedOutWait(String.format(conditional, "\"else\": {\"ret\": \"DAT_ABORT\"}"))));
        assertEquals(1, bad.exitCode(), bad.text());
        String f = bad.failures().get(0).asText();
        assertTrue(f.contains("(else, as the \"if\" does not hold) expected DAT_ABORT, the call returned"
                + " DAT_TIMEOUT_EXPIRED"), f);
    }

    @Test
    void aRetOnlyInTheIfLiftsTheDefaultOfSuccess() throws Exception {
        Run ok = run(withCalls(timedOutWait("{\"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\": {\"status\":"
                + " \"DAT_DTO_SUCCESS\"}}")));
        assertEquals(0, ok.exitCode(), ok.text());
        Run holds = run(withCalls(WRITE_ONES, read(", \"expect\": {\"if\": {\"data\": {\"fill\": 1, \"length\":"
                + " 8}}, \"then\": {\"stale\": true}}")));
        assertEquals(1, holds.exitCode(), holds.text());
        assertTrue(holds.failures().get(0).asText().endsWith("(then, as the \"if\" holds) expected stale true, got"
                + " false"), holds.text());
    }

    // ------------------------------------------------------------------ observe and outcomes

    @Test
    void outcomesCheckTheObservationVector() throws Exception {
        String calls = read(", \"observe\": \"r1\"");
        Run ok = run(withOutcomes("{\"allowed\": [{\"r1\": {\"fill\": 1, \"length\": 8}, \"w\": \"DAT_SUCCESS\"},"
                + " {\"r1\": {\"one_of\": [{\"fill\": 0, \"length\": 8}, {\"hex\": \"0202020202020202\"}]}}]}",
                "{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"data\": {\"fill\": 1, \"length\": 8}, \"observe\":"
                        + " \"w\"}", calls));
        assertEquals(0, ok.exitCode(), ok.text());
        assertEquals("{\"w\":\"DAT_SUCCESS\",\"r1\":{\"fill\":1,\"length\":8}}",
                ok.summary().path("observations").toString());
        assertEquals("{\"w\":\"DAT_SUCCESS\",\"r1\":{\"fill\":1,\"length\":8}}", ok.runner().observations().toString());

        Run notAllowed = run(withOutcomes("{\"allowed\": [{\"r1\": {\"fill\": 9, \"length\": 8}}]}", calls));
        assertEquals(1, notAllowed.exitCode(), notAllowed.text());
        assertEquals("$.outcomes.allowed: the observed outcome {\"r1\":{\"fill\":0,\"length\":8}} is none of the 1"
                + " allowed", notAllowed.failures().get(0).asText());
        Run forbidden = run(withOutcomes("{\"forbidden\": [{\"r1\": {\"hex\": \"0000000000000000\"}}]}", calls));
        assertEquals(1, forbidden.exitCode(), forbidden.text());
        assertTrue(forbidden.failures().get(0).asText().startsWith("$.outcomes.forbidden[0]: the observed outcome"
                + " {\"r1\":{\"fill\":0,\"length\":8}} is forbidden"), forbidden.text());
        assertTrue(forbidden.text().contains("FAILED $.outcomes.forbidden[0]"), forbidden.text());
    }

    @Test
    void waitsObserveTheirStatusOrReturn() throws Exception {
        Run r = run(withOutcomes("{\"allowed\": [{\"wt\": {\"one_of\": [\"DAT_DTO_SUCCESS\","
                + " \"DAT_TIMEOUT_EXPIRED\"]}}]}", "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\": 1,"
                + " \"observe\": \"wt\", \"expect\": {\"ret\": \"any\"}}"));
        assertEquals(0, r.exitCode(), r.text());
        assertEquals("DAT_TIMEOUT_EXPIRED", r.summary().path("observations").path("wt").asText());
        assertTrue(OutcomeCheck.check(r.runner().observations(), List.of((com.fasterxml.jackson.databind.node.ObjectNode)
                ScenarioJson.readJson("{\"wt\": \"DAT_DTO_SUCCESS\"}")), List.of()).get(0)
                .contains("is none of the 1 allowed"));
    }

    // ------------------------------------------------------------------ bad input: located, one message each

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(FILE, json)).problems();
    }

    @Test
    void badAllowedOutcomesAreLocated() {
        assertEquals(List.of(FILE + ": $.processes[0].calls[4].expect.ret.one_of[1]: expected a DAT_RETURN name such"
                + " as \"DAT_SUCCESS\" or \"DAT_INVALID_STATE\", a subtype name, \"any\", or \"any_error\", found"
                + " \"DAT_NOPE\""),
                problems(withCalls(timedOutWait("{\"ret\": {\"one_of\": [\"DAT_SUCCESS\", \"DAT_NOPE\"]}}"))));
        assertEquals(List.of(FILE + ": $.processes[0].calls[4].expect.status.one_of: expected a non-empty array of"
                + " the values allowed, found []"), problems(withCalls(timedOutWait("{\"status\": {\"one_of\": []}}"))));
        assertEquals(List.of(FILE + ": $.processes[0].calls[4].expect.then: a \"then\" or \"else\" needs an \"if\":"
                + " write {\"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\": {...}}"),
                problems(withCalls(timedOutWait("{\"then\": {\"ret\": \"DAT_SUCCESS\"}}"))));
        List<String> p = problems(withOutcomes("{\"allowed\": [{\"r2\": \"DAT_SUCCESS\", \"r1\": {\"fill\": 300,"
                + " \"length\": 8}}]}", read(", \"observe\": \"r1\""), read(", \"observe\": \"r1\"")));
        assertEquals(List.of(
                FILE + ": $.processes[0].calls[5].observe: the observation name \"r1\" is already used at"
                        + " $.processes[0].calls[4]; give each observing step its own name",
                FILE + ": $.outcomes.allowed[0].r2: no step observes \"r2\"; the observation names are [r1]",
                FILE + ": $.outcomes.allowed[0].r1.fill: expected a byte value from 0 to 255, found 300"), p);
    }
}
