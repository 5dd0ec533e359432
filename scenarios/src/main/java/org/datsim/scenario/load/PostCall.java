package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed endpoint post, built once by the loader from a validated step: which post it is ({@link Kind}) and its
 * arguments by field, so that the interpreter switches over the kind (every kind handled, no default) and never
 * looks an argument up by name. The arguments a kind does not take are {@link Arg}s with no node.
 *
 * @param kind which post
 * @param ep the endpoint
 * @param localIov the local segments
 * @param userCookie the cookie (default 0)
 * @param completionFlags the completion flags
 * @param remoteIov the remote buffer (RDMA and atomics)
 * @param immediateData the immediate data (write with immediate)
 * @param addValue the value added (fetch and add)
 * @param cmpValue the value compared (compare and swap)
 * @param swapValue the value stored (compare and swap)
 */
public record PostCall(Kind kind, Arg ep, Arg localIov, Arg userCookie, Arg completionFlags, Arg remoteIov,
        Arg immediateData, Arg addValue, Arg cmpValue, Arg swapValue) implements DtoCall {

    @Override
    public Form form() {
        return Form.POST;
    }

    /** The endpoint posts, each with the call it is. */
    public enum Kind implements CallKind {
        /** dat_ep_post_send. */
        SEND("dat_ep_post_send"),
        /** dat_ep_post_recv. */
        RECV("dat_ep_post_recv"),
        /** dat_ep_post_rdma_write. */
        RDMA_WRITE("dat_ep_post_rdma_write"),
        /** dat_ep_post_rdma_read. */
        RDMA_READ("dat_ep_post_rdma_read"),
        /** dat_ib_post_rdma_write_immed. */
        RDMA_WRITE_IMMED("dat_ib_post_rdma_write_immed"),
        /** dat_ib_post_fetch_and_add. */
        FETCH_AND_ADD("dat_ib_post_fetch_and_add"),
        /** dat_ib_post_cmp_and_swap. */
        CMP_AND_SWAP("dat_ib_post_cmp_and_swap");

        private final String call;

        Kind(String call) {
            this.call = call;
        }

        @Override
        public String call() {
            return call;
        }

        /** Returns the kind of a call, or null if the call is no endpoint post. */
        public static Kind of(String call) {
            return CallKind.of(values(), call);
        }
    }

    private static final Arg NONE = new Arg(null, null);

    /**
     * Types a validated step.
     *
     * @param spec the call's declaration
     * @param step the step's JSON object
     * @param path the step's JSON path
     * @return the post, or null if the call is no endpoint post
     */
    static PostCall of(CallSpec spec, ObjectNode step, String path) {
        Kind kind = Kind.of(spec.name());
        if (kind == null) {
            return null;
        }
        boolean remote = kind != Kind.SEND && kind != Kind.RECV;
        return new PostCall(kind, Arg.of(spec, step, path, "ep"), Arg.of(spec, step, path, "local_iov"),
                Arg.of(spec, step, path, "user_cookie"), Arg.of(spec, step, path, "completion_flags"),
                remote ? Arg.of(spec, step, path, "remote_iov") : NONE,
                kind == Kind.RDMA_WRITE_IMMED ? Arg.of(spec, step, path, "immediate_data") : NONE,
                kind == Kind.FETCH_AND_ADD ? Arg.of(spec, step, path, "add_value") : NONE,
                kind == Kind.CMP_AND_SWAP ? Arg.of(spec, step, path, "cmp_value") : NONE,
                kind == Kind.CMP_AND_SWAP ? Arg.of(spec, step, path, "swap_value") : NONE);
    }
}
