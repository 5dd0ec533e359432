package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The expectation forms of calls/expectation-forms.json (comparisons, "any_error", "observe" objects recording an
 * event's fields): each holds there (CallScenariosTest runs the file), and here each fails when the run does not
 * match it, and is refused with one located message when it is malformed.
 */
class ExpectationFormsTest {

    private static final ObjectMapper M = new ObjectMapper();

    @TempDir
    Path out;

    private static ObjectNode scenario() throws Exception {
        return (ObjectNode) M.readTree(ExpectationFormsTest.class.getResource("/calls/expectation-forms.json"));
    }

    /** Call {@code i} of process b (the receiver). */
    private static ObjectNode b(ObjectNode s, int i) {
        return (ObjectNode) s.get("processes").get(0).get("calls").get(i);
    }

    private RunResultSummary run(ObjectNode s) throws Exception {
        return new ScenarioRunner(ScenarioLoader.parse("forms.json", s.toString())).run(out, List.of());
    }

    private static String onlyProblem(ObjectNode s) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("forms.json",
                s.toString()));
        assertEquals(1, e.problems().size(), e.problems().toString());
        return e.problems().get(0);
    }

    @Test
    void theFileHolds() throws Exception {
        RunResultSummary r = run(scenario());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
    }

    @Test
    void aComparisonThatDoesNotHoldFailsTheRunNamingItsOperator() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 15).get("expect")).put("cookie", "> 10");
        RunResultSummary r = run(s);
        assertEquals(1, r.exitCode());
        assertTrue(String.join("\n", r.lines()).contains("$.processes[0].calls[15] (dat_evd_wait)")
                && String.join("\n", r.lines()).contains("expected cookie > 10, got 10"), String.join("\n", r.lines()));
    }

    @Test
    void aComparisonOnAQueryAttributeThatDoesNotHoldFails() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 5).get("expect").get("attrs")).put("evd_qlen", "< 8");
        RunResultSummary r = run(s);
        assertEquals(1, r.exitCode());
        assertTrue(String.join("\n", r.lines()).contains("expected evd_qlen < 8, got"), String.join("\n", r.lines()));
    }

    @Test
    void anyErrorFailsOnASuccess() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 15).get("expect")).put("status", "any_error");
        RunResultSummary r = run(s);
        assertEquals(1, r.exitCode());
        assertTrue(String.join("\n", r.lines()).contains("expected status any_error, got DAT_DTO_SUCCESS"),
                String.join("\n", r.lines()));
        ObjectNode t = scenario();
        ((ObjectNode) b(t, 16).get("expect")).remove("event");
        ((ObjectNode) b(t, 16).get("expect")).put("ret", "any_error");
        RunResultSummary u = run(t);
        assertEquals(1, u.exitCode());
        assertTrue(String.join("\n", u.lines()).contains("expected any_error, the call returned DAT_SUCCESS"),
                String.join("\n", u.lines()));
    }

    @Test
    void observedEventFieldsAreJudgedByTheOutcomes() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) s.get("outcomes")).set("forbidden", M.readTree("[{\"r_ep\": \"B/ep\", \"r_length\": 64}]"));
        RunResultSummary r = run(s);
        assertEquals(1, r.exitCode());
        String text = String.join("\n", r.lines());
        assertTrue(text.contains("\"r_cookie\":10,\"r_ep\":\"B/ep\",\"r_length\":64,\"r_status\":\"DAT_DTO_SUCCESS\""
                + ",\"f_status\":\"DAT_DTO_ERR_FLUSHED\",\"empty\":\"DAT_QUEUE_EMPTY\""), text);
        ObjectNode t = scenario();
        ((ObjectNode) t.get("outcomes")).set("allowed", M.readTree("[{\"r_cookie\": 11}]"));
        assertEquals(1, run(t).exitCode());
    }

    @Test
    void anIfOnAnEarlierStepTestsThatStepsResult() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 17).get("expect")).set("then", M.readTree("{\"cookie\": 12}"));
        RunResultSummary r = run(s);
        assertEquals(1, r.exitCode());
        assertTrue(String.join("\n", r.lines()).contains("(then, as the \"if\" holds) expected cookie 12, got 11"),
                String.join("\n", r.lines()));
        ObjectNode t = scenario();
        ((ObjectNode) b(t, 17).get("expect").get("if")).put("cookie", 11); // recv took cookie 10: the else applies
        RunResultSummary u = run(t);
        assertEquals(1, u.exitCode());
        assertTrue(String.join("\n", u.lines()).contains("(else, as the \"if\" does not hold) expected cookie 10,"
                + " got 11"), String.join("\n", u.lines()));
        ObjectNode v = scenario();
        ((ObjectNode) b(v, 17).get("expect").get("if")).put("step", "nowhere");
        String p = onlyProblem(v);
        assertTrue(p.startsWith("forms.json: $.processes[0].calls[17].expect.if.step: expected the name"), p);
        ObjectNode w = scenario();
        ((ObjectNode) b(w, 17).get("expect").get("if")).put("colour", 1);
        String q = onlyProblem(w);
        assertTrue(q.startsWith("forms.json: $.processes[0].calls[17].expect.if.colour: unknown field"), q);
    }

    @Test
    void aComparisonOnANameIsRefusedWithItsPath() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 15).get("expect")).put("status", "!= DAT_DTO_SUCCESS");
        String p = onlyProblem(s);
        assertTrue(p.startsWith("forms.json: $.processes[0].calls[15].expect.status: a comparison"), p);
        assertTrue(p.contains("applies to numbers only") && p.contains("any_error"), p);
    }

    @Test
    void aMalformedComparisonIsRefusedWithItsPath() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 15).get("expect")).put("cookie", ">= $nobody");
        String p = onlyProblem(s);
        assertTrue(p.startsWith("forms.json: $.processes[0].calls[15].expect.cookie: "), p);
    }

    @Test
    void anUnknownObservedFieldIsRefusedWithItsPath() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) b(s, 15).get("observe")).put("r_colour", "colour");
        String p = onlyProblem(s);
        assertTrue(p.startsWith("forms.json: $.processes[0].calls[15].observe.r_colour: expected the event field"
                + " to observe, one of [status, event, operation, ep, cookie, length, immediate_data]"), p);
        ObjectNode t = scenario();
        b(t, 13).set("observe", M.readTree("{\"x\": \"cookie\"}"));
        String q = onlyProblem(t);
        assertTrue(q.startsWith("forms.json: $.processes[0].calls[13].observe: only dat_evd_wait and"
                + " dat_evd_dequeue observe an event's fields"), q);
    }

    @Test
    void anOutcomeValueOfTheWrongShapeIsRefused() throws Exception {
        ObjectNode s = scenario();
        ((ObjectNode) s.get("outcomes")).set("allowed", M.readTree("[{\"r_cookie\": [10]}]"));
        String p = onlyProblem(s);
        assertTrue(p.startsWith("forms.json: $.outcomes.allowed[0].r_cookie: expected the event field's value"), p);
    }

}
