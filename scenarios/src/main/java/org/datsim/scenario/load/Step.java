package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One validated call of a process.
 *
 * @param index the call's index in its process
 * @param path the JSON path of the call in the file, for messages
 * @param spec the call's declaration
 * @param node the call's JSON object, already validated against the declaration
 */
public record Step(int index, String path, CallSpec spec, ObjectNode node) {
}
