package org.datsim.scenario.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;

/**
 * One run of a study: a combination of axis values (a point) and a repetition.
 *
 * @param point the point's number, from 0, in plan order
 * @param rep the repetition, from 0
 * @param seed the scenario seed of this run, derived from the study seed, the point and the repetition
 * @param values the axis values by axis name, in axis order
 * @param scenarioJson the complete scenario of this run (canonical JSON: keys sorted, seed set)
 * @param id the run's identity: the first 20 hex digits of the SHA-256 of {@code scenarioJson}; names its directory
 */
public record Point(int point, int rep, long seed, Map<String, JsonNode> values, String scenarioJson, String id) {

    /** Returns the axis values as text, as in the tables: strings without quotes, other values as JSON. */
    public static String text(JsonNode v) {
        return v.isTextual() ? v.asText() : v.toString();
    }

    /** Returns a short description such as {@code point 3 rep 0 (hca.mtu=1KiB, size=64)}. */
    public String describe() {
        StringBuilder b = new StringBuilder("point " + point + " rep " + rep + " (");
        boolean first = true;
        for (Map.Entry<String, JsonNode> e : values.entrySet()) {
            b.append(first ? "" : ", ").append(e.getKey()).append('=').append(text(e.getValue()));
            first = false;
        }
        return b.append(')').toString();
    }
}
