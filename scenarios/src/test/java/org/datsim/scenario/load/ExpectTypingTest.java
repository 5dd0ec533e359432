package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;

/**
 * A step's {@code "expect"} is typed once by the loader ({@link Expect}): every key a call's declaration accepts has
 * its {@link ExpectKey} (a new key without one would be dropped, and this test fails), the checks come in the order
 * they are judged ({@code "ret"} first), the conditional form keeps its branches and its earlier step, and whether
 * {@code "ret"} is said anywhere is decided once.
 */
class ExpectTypingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void everyKeyTheCatalogueAcceptsHasAConstant() {
        for (CallSpec spec : CallCatalog.all().values()) {
            for (String k : spec.expectKeys()) {
                assertNotNull(ExpectKey.of(k), spec.name() + " accepts expect." + k + ", which has no ExpectKey");
            }
        }
        for (ExpectKey k : ExpectKey.values()) {
            assertEquals(k, ExpectKey.of(k.key()));
        }
    }

    @Test
    void checksComeRetFirstThenAsWritten() throws Exception {
        Expect e = Expect.of(JSON.readTree("{\"status\": \"DAT_DTO_SUCCESS\", \"cookie\": \">= 4\","
                + " \"ret\": {\"one_of\": [\"DAT_SUCCESS\", \"DAT_TIMEOUT_EXPIRED\"]}}"));
        assertEquals(List.of(ExpectKey.RET, ExpectKey.STATUS, ExpectKey.COOKIE),
                e.checks().stream().map(Expect.Check::key).toList());
        assertEquals(">= 4", e.check(ExpectKey.COOKIE).want().asText());
        assertTrue(e.mentionsRet());
        assertNull(e.condition());
        assertNull(Expect.of(null));
    }

    @Test
    void theConditionalFormKeepsItsBranches() throws Exception {
        Expect e = Expect.of(JSON.readTree("{\"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\": {\"event\":"
                + " \"DAT_DTO_COMPLETION_EVENT\"}, \"else\": {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}}"));
        assertTrue(e.checks().isEmpty());
        assertNull(e.condition().step());
        assertEquals(ExpectKey.RET, e.condition().checks().get(0).key());
        assertEquals(ExpectKey.EVENT, e.then().checks().get(0).key());
        assertTrue(e.otherwise().mentionsRet());
        assertTrue(e.mentionsRet(), "the \"if\" on this call's ret says which returns are expected");

        Expect other = Expect.of(JSON.readTree("{\"if\": {\"step\": \"w\", \"ret\": \"DAT_SUCCESS\"},"
                + " \"then\": {\"status\": \"DAT_DTO_SUCCESS\"}}"));
        assertEquals("w", other.condition().step());
        assertEquals(List.of(ExpectKey.RET), other.condition().checks().stream().map(Expect.Check::key).toList());
        assertFalse(other.mentionsRet(), "an \"if\" on an earlier step's ret says nothing of this call's");
    }

    @Test
    void theLoaderTypesEachStepsExpectation() throws Exception {
        String json = ScenarioJson.withCalls("{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\":"
                + " {\"ret\": \"DAT_QUEUE_EMPTY\"}}");
        Scenario s = ScenarioLoader.parse(ScenarioJson.FILE, json);
        List<Step> steps = s.processes().get(0).steps();
        assertNull(steps.get(0).expect());
        Expect e = steps.get(4).expect();
        assertEquals("DAT_QUEUE_EMPTY", e.check(ExpectKey.RET).want().asText());
    }

    @Test
    void anIfInsideAnIfIsAProblemAtLoadNotACrashWhenItRuns() {
        String json = ScenarioJson.withCalls("{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\", \"expect\":"
                + " {\"if\": {\"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\": {}}, \"then\": {\"ret\": \"any\"}}}");
        ScenarioException x = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(ScenarioJson.FILE,
                json));
        assertTrue(x.problems().stream().anyMatch(p -> p.contains("calls[4].expect.if: an \"if\" tests values of a"
                + " call; it cannot hold another \"if\"")), x.problems().toString());
    }
}
