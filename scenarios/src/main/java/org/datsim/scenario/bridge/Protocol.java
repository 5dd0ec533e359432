package org.datsim.scenario.bridge;

/**
 * The bridge's wire protocol between {@code datsim serve} and the provider library {@code provider/libdatsim.so}
 * (docs/bridge.md). Every message is a frame: a 32-bit length (of what follows), a 32-bit code, then the payload,
 * all little-endian. The numbers here are those of {@code provider/datsim_provider.c}.
 */
final class Protocol {

    private Protocol() {
    }

    /** Server to library: the reply to the pending request (DAT_RETURN, then the call's outputs). */
    static final int S_REPLY = 0;
    /** Server to library: send me these bytes of your memory (u64 address, u32 length). */
    static final int S_MEMREAD = 1;
    /** Server to library: write these bytes into your memory (u64 address, u32 length, bytes); no answer. */
    static final int S_MEMWRITE = 2;
    /** Server to library's side channel: answer once every write sent before is applied (an empty MEMDATA). */
    static final int S_SYNC = 3;
    /**
     * {@code datsim exec} to server, on a connection of its own: which dat.conf, provider library and hosts this
     * server has (the reply: u64 time, u32 DAT_SUCCESS, then the dat.conf's and the library's paths and the host
     * names, each a u32 length and UTF-8 bytes, the names after a u32 count). A number far from the call codes.
     */
    static final int C_INFO = 0x4001;
    /**
     * A further thread of an attached program, on a connection of its own (u64 CPU time, the 16-byte token the hello
     * reply gave, u32 rings: {@link Handshake}): a consumer process of the same program and host (docs/bridge.md).
     */
    static final int C_THREAD = 0x4002;
    /** Library to server: the bytes a {@link #S_MEMREAD} asked for. */
    static final int P_MEMDATA = 0x8001;

    /** The most bytes one frame may carry (a corrupt length is refused instead of allocated). */
    static final int MAX_FRAME = 64 << 20;

    /** Request codes, in the order of the library's enum (from 1). */
    static final String[] CALLS = {null, "hello", "dat_ia_open", "dat_ia_close", "dat_ia_query", "dat_*_query",
        "dat_set_consumer_context", "dat_get_consumer_context", "dat_get_handle_type", "dat_pz_create", "dat_pz_free",
        "dat_evd_create", "dat_evd_free", "dat_evd_wait", "dat_evd_dequeue", "dat_evd_set_unwaitable",
        "dat_evd_enable", "dat_evd_resize", "dat_evd_post_se", "dat_evd_modify_cno", "dat_cno_create",
        "dat_cno_free", "dat_cno_wait", "dat_cno_modify_agent", "dat_lmr_create", "dat_lmr_free",
        "dat_lmr_sync_rdma", "dat_rmr_create", "dat_rmr_free", "dat_rmr_bind", "dat_ep_create", "dat_ep_free",
        "dat_ep_connect", "dat_ep_dup_connect", "dat_ep_disconnect", "dat_ep_reset", "dat_ep_get_status",
        "dat_ep_post_send", "dat_ep_post_recv", "dat_ep_post_rdma_read", "dat_ep_post_rdma_write",
        "dat_psp_create", "dat_psp_create_any", "dat_psp_free", "dat_rsp_create", "dat_rsp_free", "dat_cr_accept",
        "dat_cr_reject", "dat_cr_handoff", "dat_srq_create", "dat_srq_free", "dat_srq_post_recv",
        "dat_srq_resize", "dat_srq_set_lw", "dat_ep_recv_query", "dat_ep_set_watermark", "unsupported", "side",
        "dat_ib_post_rdma_write_immed", "dat_ib_post_atomic"};

    static final int C_HELLO = 1;
    static final int C_IA_OPEN = 2;
    static final int C_IA_CLOSE = 3;
    static final int C_IA_QUERY = 4;
    static final int C_QUERY = 5;
    static final int C_SET_CTX = 6;
    static final int C_GET_CTX = 7;
    static final int C_HANDLE_TYPE = 8;
    static final int C_PZ_CREATE = 9;
    static final int C_PZ_FREE = 10;
    static final int C_EVD_CREATE = 11;
    static final int C_EVD_FREE = 12;
    static final int C_EVD_WAIT = 13;
    static final int C_EVD_DEQUEUE = 14;
    static final int C_EVD_UNWAITABLE = 15;
    static final int C_EVD_ENABLE = 16;
    static final int C_EVD_RESIZE = 17;
    static final int C_EVD_POST_SE = 18;
    static final int C_EVD_MODIFY_CNO = 19;
    static final int C_CNO_CREATE = 20;
    static final int C_CNO_FREE = 21;
    static final int C_CNO_WAIT = 22;
    static final int C_CNO_MODIFY_AGENT = 23;
    static final int C_LMR_CREATE = 24;
    static final int C_LMR_FREE = 25;
    static final int C_LMR_SYNC = 26;
    static final int C_RMR_CREATE = 27;
    static final int C_RMR_FREE = 28;
    static final int C_RMR_BIND = 29;
    static final int C_EP_CREATE = 30;
    static final int C_EP_FREE = 31;
    static final int C_EP_CONNECT = 32;
    static final int C_EP_DUP_CONNECT = 33;
    static final int C_EP_DISCONNECT = 34;
    static final int C_EP_RESET = 35;
    static final int C_EP_GET_STATUS = 36;
    static final int C_POST_SEND = 37;
    static final int C_POST_RECV = 38;
    static final int C_POST_READ = 39;
    static final int C_POST_WRITE = 40;
    static final int C_PSP_CREATE = 41;
    static final int C_PSP_CREATE_ANY = 42;
    static final int C_PSP_FREE = 43;
    static final int C_RSP_CREATE = 44;
    static final int C_RSP_FREE = 45;
    static final int C_CR_ACCEPT = 46;
    static final int C_CR_REJECT = 47;
    static final int C_CR_HANDOFF = 48;
    static final int C_SRQ_CREATE = 49;
    static final int C_SRQ_FREE = 50;
    static final int C_SRQ_POST_RECV = 51;
    static final int C_SRQ_RESIZE = 52;
    static final int C_SRQ_SET_LW = 53;
    static final int C_EP_RECV_QUERY = 54;
    static final int C_EP_SET_WATERMARK = 55;
    static final int C_UNSUPPORTED = 56;
    /** The first frame of a program's second socket, the side channel (the 16-byte token: {@link Handshake}). */
    static final int C_SIDE = 57;
    /** dat_ib_post_rdma_write_immed (dat_extension_op DAT_IB_RDMA_WRITE_IMMED_OP). */
    static final int C_POST_WRITE_IMMED = 58;
    /** dat_ib_post_fetch_and_add (u32 0) or dat_ib_post_cmp_and_swap (u32 1), through dat_extension_op. */
    static final int C_POST_ATOMIC = 59;

    /** Returns a request code's call name. */
    static String name(int code) {
        return code > 0 && code < CALLS.length ? CALLS[code] : "request " + code;
    }

    /** The IA address of the host with this id: 127.0.1.(id + 1). */
    static int ipOf(int hostId) {
        return (127 << 24) | (1 << 8) | (hostId + 1);
    }

    /** The host id of an IA address, or -1 when it is not one of {@link #ipOf}'s. */
    static int hostOf(int ip) {
        return (ip >>> 8) == ((127 << 16) | 1) ? (ip & 0xff) - 1 : -1;
    }

    /** The dotted form of {@link #ipOf}. */
    static String dotted(int hostId) {
        return "127.0.1." + (hostId + 1);
    }
}
