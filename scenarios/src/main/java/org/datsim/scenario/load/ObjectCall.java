package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed call that creates, changes or frees a DAT object other than an endpoint or service point (IA, PZ, EVD,
 * LMR, RMR, CNO, SRQ), or a call of the registry or provider. Calls that take the same arguments share a record
 * (for example {@link OneHandle} for the frees); the interpreter switches over {@link #kind()}, every kind a case
 * and no default, and reads the record's fields, never an argument by name.
 */
public sealed interface ObjectCall extends TypedCall {

    /** The object calls, each with its name. */
    enum Kind implements CallKind {
        /** dat_ia_open: {@link IaOpen}. */
        IA_OPEN("dat_ia_open"),
        /** dat_ia_close: {@link IaClose}. */
        IA_CLOSE("dat_ia_close"),
        /** dat_pz_create: {@link OneHandle} of the IA. */
        PZ_CREATE("dat_pz_create"),
        /** dat_pz_free: {@link OneHandle}. */
        PZ_FREE("dat_pz_free"),
        /** dat_evd_create: {@link EvdCreate}. */
        EVD_CREATE("dat_evd_create"),
        /** dat_evd_free: {@link OneHandle}. */
        EVD_FREE("dat_evd_free"),
        /** dat_evd_set_unwaitable: {@link OneHandle}. */
        EVD_SET_UNWAITABLE("dat_evd_set_unwaitable"),
        /** dat_evd_clear_unwaitable: {@link OneHandle}. */
        EVD_CLEAR_UNWAITABLE("dat_evd_clear_unwaitable"),
        /** dat_evd_enable: {@link OneHandle}. */
        EVD_ENABLE("dat_evd_enable"),
        /** dat_evd_disable: {@link OneHandle}. */
        EVD_DISABLE("dat_evd_disable"),
        /** dat_evd_resize: {@link HandleNumber} (evd, evd_min_qlen). */
        EVD_RESIZE("dat_evd_resize"),
        /** dat_evd_post_se: {@link HandleNumber} (evd, pointer). */
        EVD_POST_SE("dat_evd_post_se"),
        /** dat_evd_modify_cno: {@link EvdModifyCno}. */
        EVD_MODIFY_CNO("dat_evd_modify_cno"),
        /** dat_lmr_create: {@link LmrCreate}. */
        LMR_CREATE("dat_lmr_create"),
        /** dat_lmr_free: {@link OneHandle}. */
        LMR_FREE("dat_lmr_free"),
        /** dat_rmr_create: {@link OneHandle} of the PZ. */
        RMR_CREATE("dat_rmr_create"),
        /** dat_rmr_free: {@link OneHandle}. */
        RMR_FREE("dat_rmr_free"),
        /** dat_cno_create: {@link CnoAgent} (ia, agent). */
        CNO_CREATE("dat_cno_create"),
        /** dat_cno_free: {@link OneHandle}. */
        CNO_FREE("dat_cno_free"),
        /** dat_cno_modify_agent: {@link CnoAgent} (cno, agent). */
        CNO_MODIFY_AGENT("dat_cno_modify_agent"),
        /** dat_srq_create: {@link SrqCreate}. */
        SRQ_CREATE("dat_srq_create"),
        /** dat_srq_free: {@link OneHandle}. */
        SRQ_FREE("dat_srq_free"),
        /** dat_srq_resize: {@link HandleNumber} (srq, srq_max_recv_dto). */
        SRQ_RESIZE("dat_srq_resize"),
        /** dat_srq_set_lw: {@link HandleNumber} (srq, low_watermark). */
        SRQ_SET_LW("dat_srq_set_lw"),
        /** dat_registry_add_provider: {@link Provider}. */
        REGISTRY_ADD_PROVIDER("dat_registry_add_provider"),
        /** dat_registry_remove_provider: {@link Provider}. */
        REGISTRY_REMOVE_PROVIDER("dat_registry_remove_provider"),
        /** dat_provider_init: {@link Provider}. */
        PROVIDER_INIT("dat_provider_init"),
        /** dat_provider_fini: {@link Provider}. */
        PROVIDER_FINI("dat_provider_fini");

        private final String call;

        Kind(String call) {
            this.call = call;
        }

        @Override
        public String call() {
            return call;
        }

        /** Returns the kind of a call, or null if it is no object call. */
        public static Kind of(String call) {
            return CallKind.of(values(), call);
        }
    }

    /** Returns which call this is. */
    Kind kind();

    /**
     * A call of one handle: a free, an EVD's (un)waitable and enable/disable, and the creates whose only argument
     * is their parent (dat_pz_create of an IA, dat_rmr_create of a PZ).
     *
     * @param kind which call
     * @param handle the handle (ia, pz, evd, lmr, rmr, cno or srq as the call names it)
     */
    record OneHandle(Kind kind, Arg handle) implements ObjectCall {
    }

    /**
     * A call of a handle and a number: dat_evd_resize, dat_evd_post_se, dat_srq_resize, dat_srq_set_lw.
     *
     * @param kind which call
     * @param handle the EVD or SRQ
     * @param number evd_min_qlen, pointer, srq_max_recv_dto or low_watermark (default 0)
     */
    record HandleNumber(Kind kind, Arg handle, Arg number) implements ObjectCall {
    }

    /**
     * A call of a CNO's agent: dat_cno_create (of an IA) or dat_cno_modify_agent (of a CNO).
     *
     * @param kind which call
     * @param handle the IA or the CNO
     * @param agent the proxy agent (absent or DAT_OS_WAIT_PROXY_AGENT_NULL: none)
     */
    record CnoAgent(Kind kind, Arg handle, Arg agent) implements ObjectCall {
    }

    /**
     * A call of the registry or a provider by IA name.
     *
     * @param kind which call
     * @param iaName the IA's name
     */
    record Provider(Kind kind, Arg iaName) implements ObjectCall {
    }

    /**
     * A typed dat_ia_open.
     *
     * @param iaName the IA's name (default the host's)
     * @param asyncEvdQlen the async EVD's queue length (default 8)
     */
    record IaOpen(Arg iaName, Arg asyncEvdQlen) implements ObjectCall {
        @Override
        public Kind kind() {
            return Kind.IA_OPEN;
        }
    }

    /**
     * A typed dat_ia_close.
     *
     * @param ia the IA
     * @param flags the close flags
     */
    record IaClose(Arg ia, Arg flags) implements ObjectCall {
        @Override
        public Kind kind() {
            return Kind.IA_CLOSE;
        }
    }

    /**
     * A typed dat_evd_create.
     *
     * @param ia the IA
     * @param evdMinQlen the queue length (default 0)
     * @param cno the CNO, or absent
     * @param evdFlags the EVD's flags
     */
    record EvdCreate(Arg ia, Arg evdMinQlen, Arg cno, Arg evdFlags) implements ObjectCall {
        @Override
        public Kind kind() {
            return Kind.EVD_CREATE;
        }
    }

    /**
     * A typed dat_evd_modify_cno.
     *
     * @param evd the EVD
     * @param cno the CNO, or absent
     */
    record EvdModifyCno(Arg evd, Arg cno) implements ObjectCall {
        @Override
        public Kind kind() {
            return Kind.EVD_MODIFY_CNO;
        }
    }

    /**
     * A typed dat_lmr_create.
     *
     * @param ia the IA
     * @param address the region's address (default -1: the provider places it)
     * @param length its length (default 0)
     * @param pz the PZ
     * @param privileges its privileges (absent: all)
     */
    record LmrCreate(Arg ia, Arg address, Arg length, Arg pz, Arg privileges) implements ObjectCall {
        @Override
        public Kind kind() {
            return Kind.LMR_CREATE;
        }
    }

    /**
     * A typed dat_srq_create.
     *
     * @param ia the IA
     * @param pz the PZ
     * @param srqAttr the DAT_SRQ_ATTR object (absent fields are 0)
     */
    record SrqCreate(Arg ia, Arg pz, Arg srqAttr) implements ObjectCall {
        @Override
        public Kind kind() {
            return Kind.SRQ_CREATE;
        }
    }

    /**
     * Types a validated step.
     *
     * @return the typed call, or null if the call is no object call
     */
    static ObjectCall of(CallSpec spec, ObjectNode step, String path) {
        Kind k = Kind.of(spec.name());
        if (k == null) {
            return null;
        }
        return switch (k) {
            case IA_OPEN -> new IaOpen(Arg.of(spec, step, path, "ia_name"),
                    Arg.of(spec, step, path, "async_evd_qlen"));
            case IA_CLOSE -> new IaClose(Arg.of(spec, step, path, "ia"), Arg.of(spec, step, path, "flags"));
            case PZ_CREATE -> new OneHandle(k, Arg.of(spec, step, path, "ia"));
            case PZ_FREE, RMR_CREATE -> new OneHandle(k, Arg.of(spec, step, path, "pz"));
            case EVD_CREATE -> new EvdCreate(Arg.of(spec, step, path, "ia"), Arg.of(spec, step, path, "evd_min_qlen"),
                    Arg.of(spec, step, path, "cno"), Arg.of(spec, step, path, "evd_flags"));
            case EVD_FREE, EVD_SET_UNWAITABLE, EVD_CLEAR_UNWAITABLE, EVD_ENABLE, EVD_DISABLE ->
                    new OneHandle(k, Arg.of(spec, step, path, "evd"));
            case EVD_RESIZE -> new HandleNumber(k, Arg.of(spec, step, path, "evd"),
                    Arg.of(spec, step, path, "evd_min_qlen"));
            case EVD_POST_SE -> new HandleNumber(k, Arg.of(spec, step, path, "evd"),
                    Arg.of(spec, step, path, "pointer"));
            case EVD_MODIFY_CNO -> new EvdModifyCno(Arg.of(spec, step, path, "evd"), Arg.of(spec, step, path, "cno"));
            case LMR_CREATE -> new LmrCreate(Arg.of(spec, step, path, "ia"), Arg.of(spec, step, path, "address"),
                    Arg.of(spec, step, path, "length"), Arg.of(spec, step, path, "pz"),
                    Arg.of(spec, step, path, "privileges"));
            case LMR_FREE -> new OneHandle(k, Arg.of(spec, step, path, "lmr"));
            case RMR_FREE -> new OneHandle(k, Arg.of(spec, step, path, "rmr"));
            case CNO_CREATE -> new CnoAgent(k, Arg.of(spec, step, path, "ia"), Arg.of(spec, step, path, "agent"));
            case CNO_FREE -> new OneHandle(k, Arg.of(spec, step, path, "cno"));
            case CNO_MODIFY_AGENT -> new CnoAgent(k, Arg.of(spec, step, path, "cno"),
                    Arg.of(spec, step, path, "agent"));
            case SRQ_CREATE -> new SrqCreate(Arg.of(spec, step, path, "ia"), Arg.of(spec, step, path, "pz"),
                    Arg.of(spec, step, path, "srq_attr"));
            case SRQ_FREE -> new OneHandle(k, Arg.of(spec, step, path, "srq"));
            case SRQ_RESIZE -> new HandleNumber(k, Arg.of(spec, step, path, "srq"),
                    Arg.of(spec, step, path, "srq_max_recv_dto"));
            case SRQ_SET_LW -> new HandleNumber(k, Arg.of(spec, step, path, "srq"),
                    Arg.of(spec, step, path, "low_watermark"));
            case REGISTRY_ADD_PROVIDER, REGISTRY_REMOVE_PROVIDER, PROVIDER_INIT, PROVIDER_FINI ->
                    new Provider(k, Arg.of(spec, step, path, "ia_name"));
        };
    }
}
