package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed call that takes events: dat_evd_wait ({@link EvdWaitCall}), dat_cno_wait ({@link CnoWaitCall}),
 * dat_evd_dequeue ({@link DequeueCall}). The interpreter switches over {@link #form()}, every form a case.
 */
public sealed interface EventCall extends TypedCall permits EvdWaitCall, CnoWaitCall, DequeueCall {

    /** Which record a call is. */
    enum Form {
        /** {@link EvdWaitCall}. */
        EVD_WAIT,
        /** {@link CnoWaitCall}. */
        CNO_WAIT,
        /** {@link DequeueCall}. */
        DEQUEUE
    }

    /** Returns which record this is. */
    Form form();

    /**
     * Types a validated step.
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param path the step's JSON path
     * @return the typed call, or null if the call takes no events
     */
    static EventCall of(CallSpec spec, ObjectNode step, String path) {
        switch (spec.name()) {
            case "dat_evd_wait":
                return new EvdWaitCall(Arg.of(spec, step, path, "evd"), Arg.of(spec, step, path, "timeout"),
                        Arg.of(spec, step, path, "threshold"));
            case "dat_cno_wait":
                return new CnoWaitCall(Arg.of(spec, step, path, "cno"), Arg.of(spec, step, path, "timeout"));
            case "dat_evd_dequeue":
                return new DequeueCall(Arg.of(spec, step, path, "evd"));
            default:
                return null;
        }
    }
}
