package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed data transfer call, built once by the loader from a validated step (issue 26's typed calls, begun with
 * this family): an endpoint post ({@link PostCall}), a receive posted to an SRQ ({@link SrqPostRecvCall}),
 * dat_rmr_bind ({@link RmrBindCall}) or an LMR sync ({@link LmrSyncCall}). The interpreter switches over
 * {@link #form()} with every form a case and no default (Java 17 has no pattern switch over a sealed type) and reads
 * the record's fields, never an argument by name.
 */
public sealed interface DtoCall extends TypedCall permits PostCall, SrqPostRecvCall, RmrBindCall, LmrSyncCall {

    /** Which record a call is. */
    enum Form {
        /** {@link PostCall}. */
        POST,
        /** {@link SrqPostRecvCall}. */
        SRQ_POST_RECV,
        /** {@link RmrBindCall}. */
        RMR_BIND,
        /** {@link LmrSyncCall}. */
        LMR_SYNC
    }

    /** Returns which record this is. */
    Form form();

    /**
     * Types a validated step.
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param path the step's JSON path
     * @return the typed call, or null if the call is not a data transfer call
     */
    static DtoCall of(CallSpec spec, ObjectNode step, String path) {
        PostCall post = PostCall.of(spec, step, path);
        if (post != null) {
            return post;
        }
        switch (spec.name()) {
            case "dat_srq_post_recv":
                return new SrqPostRecvCall(Arg.of(spec, step, path, "srq"), Arg.of(spec, step, path, "local_iov"),
                        Arg.of(spec, step, path, "user_cookie"));
            case "dat_rmr_bind":
                return new RmrBindCall(Arg.of(spec, step, path, "rmr"), Arg.of(spec, step, path, "lmr"),
                        Arg.of(spec, step, path, "offset"), Arg.of(spec, step, path, "length"),
                        Arg.of(spec, step, path, "mem_priv"), Arg.of(spec, step, path, "ep"),
                        Arg.of(spec, step, path, "user_cookie"), Arg.of(spec, step, path, "completion_flags"));
            case "dat_lmr_sync_rdma_read":
            case "dat_lmr_sync_rdma_write":
                return new LmrSyncCall(spec.name().endsWith("_write"), Arg.of(spec, step, path, "ia"),
                        Arg.of(spec, step, path, "local_segments"));
            default:
                return null; // another family's call: not typed yet, read by name
        }
    }
}
