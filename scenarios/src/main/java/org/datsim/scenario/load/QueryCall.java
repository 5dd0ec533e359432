package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed call that reads rather than changes: the {@code dat_*_query} calls, dat_ep_recv_query,
 * dat_registry_list_providers, the consumer context and handle type of a handle, and dat_strerror. The interpreter
 * switches over {@link #kind()}, every kind a case and no default, and reads the record's fields.
 */
public sealed interface QueryCall extends TypedCall {

    /** The query calls, each with its name and, for the calls of one handle, the argument that names it. */
    enum Kind implements CallKind {
        /** dat_ia_query. */
        IA_QUERY("dat_ia_query", "ia"),
        /** dat_ep_query. */
        EP_QUERY("dat_ep_query", "ep"),
        /** dat_evd_query. */
        EVD_QUERY("dat_evd_query", "evd"),
        /** dat_lmr_query. */
        LMR_QUERY("dat_lmr_query", "lmr"),
        /** dat_rmr_query. */
        RMR_QUERY("dat_rmr_query", "rmr"),
        /** dat_pz_query. */
        PZ_QUERY("dat_pz_query", "pz"),
        /** dat_psp_query. */
        PSP_QUERY("dat_psp_query", "psp"),
        /** dat_cr_query. */
        CR_QUERY("dat_cr_query", "cr"),
        /** dat_srq_query. */
        SRQ_QUERY("dat_srq_query", "srq"),
        /** dat_cno_query. */
        CNO_QUERY("dat_cno_query", "cno"),
        /** dat_rsp_query. */
        RSP_QUERY("dat_rsp_query", "rsp"),
        /** dat_ep_recv_query. */
        EP_RECV_QUERY("dat_ep_recv_query", "ep"),
        /** dat_get_consumer_context. */
        GET_CONSUMER_CONTEXT("dat_get_consumer_context", "handle"),
        /** dat_get_handle_type. */
        GET_HANDLE_TYPE("dat_get_handle_type", "handle"),
        /** dat_set_consumer_context: {@link SetConsumerContext}. */
        SET_CONSUMER_CONTEXT("dat_set_consumer_context", null),
        /** dat_registry_list_providers: {@link ListProviders}. */
        REGISTRY_LIST_PROVIDERS("dat_registry_list_providers", null),
        /** dat_strerror: {@link Strerror}. */
        STRERROR("dat_strerror", null);

        private final String call;
        private final String handleArg;

        Kind(String call, String handleArg) {
            this.call = call;
            this.handleArg = handleArg;
        }

        @Override
        public String call() {
            return call;
        }

        /** Returns the argument naming the one handle the call reads ({@link OneHandle}), or null. */
        public String handleArg() {
            return handleArg;
        }

        /** Returns the kind of a call, or null if it is no query. */
        public static Kind of(String call) {
            return CallKind.of(values(), call);
        }
    }

    /** Returns which call this is. */
    Kind kind();

    /**
     * A query of one handle: the {@code dat_*_query} calls, dat_ep_recv_query, dat_get_consumer_context and
     * dat_get_handle_type.
     *
     * @param kind which call
     * @param handle the handle ({@link Kind#handleArg()})
     */
    record OneHandle(Kind kind, Arg handle) implements QueryCall {
    }

    /**
     * A typed dat_set_consumer_context.
     *
     * @param handle the handle
     * @param context the context (default 0)
     */
    record SetConsumerContext(Arg handle, Arg context) implements QueryCall {
        @Override
        public Kind kind() {
            return Kind.SET_CONSUMER_CONTEXT;
        }
    }

    /**
     * A typed dat_registry_list_providers.
     *
     * @param maxToReturn how many names at most (default 0)
     */
    record ListProviders(Arg maxToReturn) implements QueryCall {
        @Override
        public Kind kind() {
            return Kind.REGISTRY_LIST_PROVIDERS;
        }
    }

    /**
     * A typed dat_strerror.
     *
     * @param value the DAT_RETURN, by name ("TYPE" or "TYPE/SUBTYPE") or number
     */
    record Strerror(Arg value) implements QueryCall {
        @Override
        public Kind kind() {
            return Kind.STRERROR;
        }
    }

    /**
     * Types a validated step.
     *
     * @return the typed call, or null if the call is no query
     */
    static QueryCall of(CallSpec spec, ObjectNode step, String path) {
        Kind k = Kind.of(spec.name());
        if (k == null) {
            return null;
        }
        return switch (k) {
            case IA_QUERY, EP_QUERY, EVD_QUERY, LMR_QUERY, RMR_QUERY, PZ_QUERY, PSP_QUERY, CR_QUERY, SRQ_QUERY,
                    CNO_QUERY, RSP_QUERY, EP_RECV_QUERY, GET_CONSUMER_CONTEXT, GET_HANDLE_TYPE ->
                    new OneHandle(k, Arg.of(spec, step, path, k.handleArg()));
            case SET_CONSUMER_CONTEXT -> new SetConsumerContext(Arg.of(spec, step, path, "handle"),
                    Arg.of(spec, step, path, "context"));
            case REGISTRY_LIST_PROVIDERS -> new ListProviders(Arg.of(spec, step, path, "max_to_return"));
            case STRERROR -> new Strerror(Arg.of(spec, step, path, "value"));
        };
    }
}
