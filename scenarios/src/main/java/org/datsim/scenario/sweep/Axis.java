package org.datsim.scenario.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;

/**
 * One parameter of a study: the values it takes and where they go in the scenario.
 *
 * @param name the axis name (a column of the tables)
 * @param pointer the JSON Pointer (RFC 6901) into the scenario JSON that the values replace
 * @param values the values, in order
 * @param group the cartesian dimension the axis belongs to; axes of one {@code "zip"} share a group and advance
 *     together
 */
public record Axis(String name, String pointer, List<JsonNode> values, int group) {
}
