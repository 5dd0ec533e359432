package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A step's {@code "observe"}, typed once at load: either one name ({@code "observe": "NAME"} or {@code NAME[expr]},
 * recording what {@link ObserveKind#of} says the call records) or named fields of the event a wait or dequeue took
 * ({@code "observe": {"NAME": "FIELD", ...}}, in file order). Names stay as written: their index expressions are
 * evaluated when the step runs. The loader has validated the shape ({@code CallReader}); the runner never reads the
 * JSON.
 *
 * @param name the one name, or null when the step observes fields
 * @param fields the named fields, empty when the step observes one name
 */
public record Observe(String name, List<Field> fields) {

    /**
     * One observed field.
     *
     * @param name the observation's name, as written ({@code NAME} or {@code NAME[expr]})
     * @param field the event field it records (cookie, length, immediate_data, status, event, operation, ep)
     */
    public record Field(String name, String field) {
    }

    /**
     * Types a step's {@code "observe"}.
     *
     * @param node the step's {@code "observe"} value, or null
     * @return the typed form, or null when the step observes nothing
     */
    public static Observe of(JsonNode node) {
        if (node == null || node.isNull()) {
            return null;
        }
        if (!node.isObject()) {
            return new Observe(node.asText(), List.of());
        }
        List<Field> fields = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> f = it.next();
            fields.add(new Field(f.getKey(), f.getValue().asText()));
        }
        return new Observe(null, List.copyOf(fields));
    }
}
