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

    /** An argument the call does not take (a record shared by calls that differ in one argument). */
    public static final Arg NONE = new Arg(null, null);

    /**
     * Reads an argument of a call step, checking that the call declares it: a typed call that names an argument the
     * catalogue no longer has fails when the first scenario is loaded, instead of reading a silent default: the
     * loader reports it at the step's path in its file ({@link CallReader}).
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param stepPath the step's JSON path
     * @param name the argument's name
     * @return the argument
     */
    static Arg of(CallSpec spec, ObjectNode step, String stepPath, String name) {
        if (!spec.args().containsKey(name)) {
            throw new Undeclared(stepPath + "." + name, "the typed " + spec.name() + " reads \"" + name
                    + "\", an argument the call does not declare (its arguments are " + spec.args().keySet() + ")");
        }
        return new Arg(step.get(name), stepPath + "." + name);
    }

    /** A typed call read an argument its call does not declare: a message for the step's JSON path. */
    static final class Undeclared extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        /** The JSON path of the argument read. */
        final String path;
        /** What is wrong, without the path. */
        final String detail;

        Undeclared(String path, String detail) {
            super(path + ": " + detail);
            this.path = path;
            this.detail = detail;
        }
    }

    /** Whether the step gives the argument. */
    public boolean present() {
        return node != null;
    }
}
