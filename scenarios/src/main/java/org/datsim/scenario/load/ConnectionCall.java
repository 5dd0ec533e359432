package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * A typed call of endpoints and their connections: endpoints created, changed, reset and freed, the service points
 * that listen (PSP, RSP), the connection requests that arrive (accept, reject, hand off), connect and disconnect, and
 * an endpoint's status. Calls that take the same arguments share a record; the interpreter switches over
 * {@link #kind()}, every kind a case and no default, and reads the record's fields, never an argument by name.
 */
public sealed interface ConnectionCall extends TypedCall {

    /** The connection calls, each with its name. */
    enum Kind implements CallKind {
        /** dat_ep_create: {@link EpCreate} without an SRQ. */
        EP_CREATE("dat_ep_create"),
        /** dat_ep_create_with_srq: {@link EpCreate}. */
        EP_CREATE_WITH_SRQ("dat_ep_create_with_srq"),
        /** dat_ep_free: {@link OneHandle}. */
        EP_FREE("dat_ep_free"),
        /** dat_ep_connect: {@link EpConnect}. */
        EP_CONNECT("dat_ep_connect"),
        /** dat_ep_dup_connect: {@link EpDupConnect}. */
        EP_DUP_CONNECT("dat_ep_dup_connect"),
        /** dat_ep_disconnect: {@link HandleFlags}. */
        EP_DISCONNECT("dat_ep_disconnect"),
        /** dat_ep_get_status: {@link OneHandle}. */
        EP_GET_STATUS("dat_ep_get_status"),
        /** dat_ep_reset: {@link OneHandle}. */
        EP_RESET("dat_ep_reset"),
        /** dat_ep_modify: {@link EpModify}. */
        EP_MODIFY("dat_ep_modify"),
        /** dat_ep_set_watermark: {@link EpSetWatermark}. */
        EP_SET_WATERMARK("dat_ep_set_watermark"),
        /** dat_psp_create: {@link PspCreate}. */
        PSP_CREATE("dat_psp_create"),
        /** dat_psp_create_any: {@link PspCreate} without a connection qualifier. */
        PSP_CREATE_ANY("dat_psp_create_any"),
        /** dat_psp_free: {@link OneHandle}. */
        PSP_FREE("dat_psp_free"),
        /** dat_rsp_create: {@link RspCreate}. */
        RSP_CREATE("dat_rsp_create"),
        /** dat_rsp_free: {@link OneHandle}. */
        RSP_FREE("dat_rsp_free"),
        /** dat_cr_accept: {@link CrAccept}. */
        CR_ACCEPT("dat_cr_accept"),
        /** dat_cr_handoff: {@link CrHandoff}. */
        CR_HANDOFF("dat_cr_handoff"),
        /** dat_cr_reject: {@link OneHandle}. */
        CR_REJECT("dat_cr_reject");

        private final String call;

        Kind(String call) {
            this.call = call;
        }

        @Override
        public String call() {
            return call;
        }

        /** Returns the kind of a call, or null if it is no connection call. */
        public static Kind of(String call) {
            return CallKind.of(values(), call);
        }
    }

    /** Returns which call this is. */
    Kind kind();

    /**
     * A call of one handle: the frees, dat_ep_reset, dat_ep_get_status, dat_cr_reject.
     *
     * @param kind which call
     * @param handle the endpoint, PSP, RSP or CR
     */
    record OneHandle(Kind kind, Arg handle) implements ConnectionCall {
    }

    /**
     * A call of a handle and its close flags: dat_ep_disconnect.
     *
     * @param kind which call
     * @param handle the endpoint
     * @param flags the close flags
     */
    record HandleFlags(Kind kind, Arg handle, Arg flags) implements ConnectionCall {
    }

    /**
     * A typed dat_ep_create or dat_ep_create_with_srq.
     *
     * @param kind which call
     * @param ia the IA
     * @param pz the PZ
     * @param recvEvd the receive EVD
     * @param requestEvd the request EVD
     * @param connectEvd the connection EVD
     * @param srq the SRQ (an Arg with no node for dat_ep_create)
     * @param epAttr the attributes (absent: the defaults)
     */
    record EpCreate(Kind kind, Arg ia, Arg pz, Arg recvEvd, Arg requestEvd, Arg connectEvd, Arg srq, Arg epAttr)
            implements ConnectionCall {
    }

    /**
     * A typed dat_ep_connect.
     *
     * @param ep the endpoint
     * @param remoteIaAddress the remote host (a name or {"host_index": n})
     * @param remoteConnQual the remote connection qualifier (default 0)
     * @param timeout the timeout (default infinite)
     * @param privateData the private data (absent: none)
     */
    record EpConnect(Arg ep, Arg remoteIaAddress, Arg remoteConnQual, Arg timeout, Arg privateData)
            implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.EP_CONNECT;
        }
    }

    /**
     * A typed dat_ep_dup_connect.
     *
     * @param ep the endpoint
     * @param dupEp the connected endpoint whose peer it connects to
     * @param timeout the timeout (default infinite)
     * @param privateData the private data (absent: none)
     */
    record EpDupConnect(Arg ep, Arg dupEp, Arg timeout, Arg privateData) implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.EP_DUP_CONNECT;
        }
    }

    /**
     * A typed dat_ep_modify.
     *
     * @param ep the endpoint
     * @param epParam the attributes changed (over the endpoint's)
     */
    record EpModify(Arg ep, Arg epParam) implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.EP_MODIFY;
        }
    }

    /**
     * A typed dat_ep_set_watermark.
     *
     * @param ep the endpoint
     * @param softHighWatermark the soft watermark (default -1)
     * @param hardHighWatermark the hard watermark (default -1)
     */
    record EpSetWatermark(Arg ep, Arg softHighWatermark, Arg hardHighWatermark) implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.EP_SET_WATERMARK;
        }
    }

    /**
     * A typed dat_psp_create or dat_psp_create_any.
     *
     * @param kind which call
     * @param ia the IA
     * @param connQual the connection qualifier (an Arg with no node for dat_psp_create_any)
     * @param evd the EVD of connection requests
     * @param pspFlags the PSP's flags
     */
    record PspCreate(Kind kind, Arg ia, Arg connQual, Arg evd, Arg pspFlags) implements ConnectionCall {
    }

    /**
     * A typed dat_rsp_create.
     *
     * @param ia the IA
     * @param connQual the connection qualifier (default 0)
     * @param ep the endpoint that takes the connection
     * @param evd the EVD of connection requests
     */
    record RspCreate(Arg ia, Arg connQual, Arg ep, Arg evd) implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.RSP_CREATE;
        }
    }

    /**
     * A typed dat_cr_accept.
     *
     * @param cr the connection request
     * @param ep the endpoint that accepts it
     * @param privateData the private data (absent: none)
     */
    record CrAccept(Arg cr, Arg ep, Arg privateData) implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.CR_ACCEPT;
        }
    }

    /**
     * A typed dat_cr_handoff.
     *
     * @param cr the connection request
     * @param handoff the connection qualifier it is handed to (default 0)
     */
    record CrHandoff(Arg cr, Arg handoff) implements ConnectionCall {
        @Override
        public Kind kind() {
            return Kind.CR_HANDOFF;
        }
    }

    /**
     * Types a validated step.
     *
     * @return the typed call, or null if the call is no connection call
     */
    static ConnectionCall of(CallSpec spec, ObjectNode step, String path) {
        Kind k = Kind.of(spec.name());
        if (k == null) {
            return null;
        }
        return switch (k) {
            case EP_CREATE, EP_CREATE_WITH_SRQ -> new EpCreate(k, Arg.of(spec, step, path, "ia"),
                    Arg.of(spec, step, path, "pz"), Arg.of(spec, step, path, "recv_evd"),
                    Arg.of(spec, step, path, "request_evd"), Arg.of(spec, step, path, "connect_evd"),
                    k == Kind.EP_CREATE_WITH_SRQ ? Arg.of(spec, step, path, "srq") : Arg.NONE,
                    Arg.of(spec, step, path, "ep_attr"));
            case EP_FREE, EP_GET_STATUS, EP_RESET -> new OneHandle(k, Arg.of(spec, step, path, "ep"));
            case EP_CONNECT -> new EpConnect(Arg.of(spec, step, path, "ep"),
                    Arg.of(spec, step, path, "remote_ia_address"), Arg.of(spec, step, path, "remote_conn_qual"),
                    Arg.of(spec, step, path, "timeout"), Arg.of(spec, step, path, "private_data"));
            case EP_DUP_CONNECT -> new EpDupConnect(Arg.of(spec, step, path, "ep"), Arg.of(spec, step, path, "dup_ep"),
                    Arg.of(spec, step, path, "timeout"), Arg.of(spec, step, path, "private_data"));
            case EP_DISCONNECT -> new HandleFlags(k, Arg.of(spec, step, path, "ep"), Arg.of(spec, step, path, "flags"));
            case EP_MODIFY -> new EpModify(Arg.of(spec, step, path, "ep"), Arg.of(spec, step, path, "ep_param"));
            case EP_SET_WATERMARK -> new EpSetWatermark(Arg.of(spec, step, path, "ep"),
                    Arg.of(spec, step, path, "soft_high_watermark"), Arg.of(spec, step, path, "hard_high_watermark"));
            case PSP_CREATE, PSP_CREATE_ANY -> new PspCreate(k, Arg.of(spec, step, path, "ia"),
                    k == Kind.PSP_CREATE ? Arg.of(spec, step, path, "conn_qual") : Arg.NONE,
                    Arg.of(spec, step, path, "evd"), Arg.of(spec, step, path, "psp_flags"));
            case PSP_FREE -> new OneHandle(k, Arg.of(spec, step, path, "psp"));
            case RSP_CREATE -> new RspCreate(Arg.of(spec, step, path, "ia"), Arg.of(spec, step, path, "conn_qual"),
                    Arg.of(spec, step, path, "ep"), Arg.of(spec, step, path, "evd"));
            case RSP_FREE -> new OneHandle(k, Arg.of(spec, step, path, "rsp"));
            case CR_ACCEPT -> new CrAccept(Arg.of(spec, step, path, "cr"), Arg.of(spec, step, path, "ep"),
                    Arg.of(spec, step, path, "private_data"));
            case CR_HANDOFF -> new CrHandoff(Arg.of(spec, step, path, "cr"), Arg.of(spec, step, path, "handoff"));
            case CR_REJECT -> new OneHandle(k, Arg.of(spec, step, path, "cr"));
        };
    }
}
