package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One argument of a typed call as the validated file gives it: a literal, a reference ({@code "$ep"}) or an
 * expression, evaluated when the call runs (loop variables change it), with its JSON path for messages.
 *
 * @param node the argument's JSON value, or null when the step leaves it out (the call's default applies)
 * @param path its JSON path, for example {@code $.processes[0].calls[3].user_cookie}
 */
public record Arg(JsonNode node, String path) {

    /**
     * Reads an argument of a call step, checking that the call declares it: a typed call that names an argument the
     * catalogue no longer has fails when the first scenario is loaded, instead of reading a silent default.
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param stepPath the step's JSON path
     * @param name the argument's name
     * @return the argument
     */
    static Arg of(CallSpec spec, ObjectNode step, String stepPath, String name) {
        if (!spec.args().containsKey(name)) {
            throw new IllegalStateException(spec.name() + " declares no argument \"" + name + "\"");
        }
        return new Arg(step.get(name), stepPath + "." + name);
    }

    /** Whether the step gives the argument. */
    public boolean present() {
        return node != null;
    }
}
