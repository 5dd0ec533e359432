package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A step's {@code "observe"} is typed once by the loader ({@link Observe}); the runner reads only that. */
class ObserveTypingTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static Step step(String json) throws Exception {
        ObjectNode n = (ObjectNode) JSON.readTree(json);
        return new Step(0, "$.processes[0].calls[0]", CallCatalog.get(n.get("call").asText()), n);
    }

    @Test
    void oneNameKeepsItsIndexExpressionForTheRun() throws Exception {
        Observe o = step("{\"call\": \"dat_evd_wait\", \"evd\": \"e\", \"observe\": \"seen[$i]\"}").observe();
        assertEquals("seen[$i]", o.name());
        assertEquals(List.of(), o.fields());
    }

    @Test
    void namedFieldsKeepTheirFileOrder() throws Exception {
        Observe o = step("{\"call\": \"dat_evd_dequeue\", \"evd\": \"e\", \"observe\": {\"c\": \"cookie\","
                + " \"s\": \"status\", \"a[2]\": \"ep\"}}").observe();
        assertNull(o.name());
        assertEquals(List.of(new Observe.Field("c", "cookie"), new Observe.Field("s", "status"),
                new Observe.Field("a[2]", "ep")), o.fields());
    }

    @Test
    void aStepWithoutObserveHasNone() throws Exception {
        assertNull(step("{\"call\": \"dat_evd_dequeue\", \"evd\": \"e\"}").observe());
    }
}
