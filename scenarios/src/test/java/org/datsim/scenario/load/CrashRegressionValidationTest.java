package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Inputs that crashed validation with a NullPointerException, now reported with a message: a wrong process
 * {@code "start"} (once per template; a template's instances all start at the time its first instance validated),
 * and {@code "expect": {"attrs": ...}} on a call that has no result.
 */
class CrashRegressionValidationTest {

    private static String scenario(String processes) {
        return "{\"scenario\": \"t\", \"fabric\": {\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\","
                + " \"b\": \"B\"}]}, \"processes\": [" + processes + "]}";
    }

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", json)).problems();
    }

    @Test
    void aStartThatIsNotATimeIsReportedNotThrown() {
        assertEquals(List.of("t.json: $.processes[0].start: expected a time such as \"250ns\" or \"1.5us\", found 1.5"),
                problems(scenario("{\"name\": \"p\", \"host\": \"A\", \"start\": 1.5, \"calls\": []}")));
    }

    @Test
    void aTemplateWithAWrongStartIsReportedOnce() {
        List<String> p = problems(scenario("{\"name\": \"p\", \"hosts\": \"*\", \"start\": \"soon\", \"calls\": []},"
                + "{\"name\": \"q\", \"hosts\": [\"A\", \"B\"], \"start\": \"2000000s\", \"calls\": []}"));
        assertEquals(2, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("t.json: $.processes[0].start: expected a time such as"), p.get(0));
        assertEquals("t.json: $.processes[1].start: expected a time of at most 1000000s, found \"2000000s\"", p.get(1));
    }

    @Test
    void everyInstanceOfATemplateStartsAtItsStart() throws Exception {
        Scenario s = ScenarioLoader.parse("t.json", scenario(
                "{\"name\": \"p\", \"hosts\": \"*\", \"start\": \"1.5us\", \"calls\": []}"));
        assertEquals(List.of(1_500_000L, 1_500_000L), s.processes().stream().map(ProcessDef::startPs).toList());
    }

    @Test
    void attributesExpectedOfACallWithoutAResultAreAnUnknownField() {
        assertEquals(List.of("t.json: $.processes[0].calls[4].expect.attrs: unknown field; expected one of [else, if, ret, then]"),
                problems(withCalls("{\"call\": \"dat_pz_free\", \"pz\": \"$pz\", \"expect\": {\"attrs\":"
                        + " {\"ia\": 1}}}")));
    }
}
