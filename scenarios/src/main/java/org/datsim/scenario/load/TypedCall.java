package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A call step typed by the loader (issue 26's typed calls): one sealed family per group of calls the interpreter
 * executes together, so far the data transfer calls ({@link DtoCall}) and the calls that take events
 * ({@link EventCall}). A family's records carry the call's arguments as fields ({@link Arg}); the interpreter reads
 * those, never an argument by name.
 */
public sealed interface TypedCall permits DtoCall, EventCall {

    /**
     * Types a validated step.
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param path the step's JSON path
     * @return the typed call, or null if the call's family is not typed yet
     */
    static TypedCall of(CallSpec spec, ObjectNode step, String path) {
        DtoCall dto = DtoCall.of(spec, step, path);
        return dto != null ? dto : EventCall.of(spec, step, path);
    }
}
