package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Map;

/**
 * The outcomes a scenario allows or forbids ({@code "outcomes"} at its top level), validated: each entry maps
 * observation names (the {@code "observe"} names of its steps, {@code NAME[3]} for an indexed one,
 * {@code PROCESS/NAME} in a template) to a value or {@code {"one_of": [...]}}.
 *
 * @param allowed the allowed joint outcomes, or null when the scenario gives none (then every outcome is allowed
 *     that no forbidden entry matches)
 * @param forbidden the forbidden joint outcomes (empty when none)
 * @param kinds what each observation name (without index or process) records, by name in file order
 */
public record Outcomes(List<ObjectNode> allowed, List<ObjectNode> forbidden, Map<String, ObserveKind> kinds) {

    /** No outcomes section: nothing is checked. */
    public static final Outcomes NONE = new Outcomes(null, List.of(), Map.of());

    /** Returns true if the scenario states allowed or forbidden outcomes. */
    public boolean any() {
        return allowed != null || !forbidden.isEmpty();
    }
}
