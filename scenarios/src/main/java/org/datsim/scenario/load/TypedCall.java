package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A call step typed by the loader (issue 26's typed calls): one sealed family per group of calls the interpreter
 * executes together, and every call is in one: the data transfer calls ({@link DtoCall}), the calls that take
 * events ({@link EventCall}), the object calls ({@link ObjectCall}), the queries ({@link QueryCall}), the
 * connection calls ({@link ConnectionCall}) and the CPU calls ({@link CpuCall}). A family's records carry the
 * call's arguments as fields ({@link Arg}); the interpreter reads those, never an argument by name.
 */
public sealed interface TypedCall permits DtoCall, EventCall, ObjectCall, QueryCall, ConnectionCall,
        CpuCall {

    /**
     * Types a validated step.
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param path the step's JSON path
     * @return the typed call, or null if the call is in no family (only the repeat pseudo-call)
     * @throws IllegalStateException if a family reads an argument the call does not declare (a located message)
     */
    static TypedCall of(CallSpec spec, ObjectNode step, String path) {
        TypedCall c = DtoCall.of(spec, step, path);
        if (c == null) {
            c = EventCall.of(spec, step, path);
        }
        if (c == null) {
            c = ObjectCall.of(spec, step, path);
        }
        if (c == null) {
            c = QueryCall.of(spec, step, path);
        }
        if (c == null) {
            c = ConnectionCall.of(spec, step, path);
        }
        return c != null ? c : CpuCall.of(spec, step, path);
    }
}
