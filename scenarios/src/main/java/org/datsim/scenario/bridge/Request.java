package org.datsim.scenario.bridge;

import org.datsim.scenario.consumer.CallCost;
import org.datsim.scenario.load.CallCatalog;
import org.datsim.scenario.load.CallSpec;

/**
 * The bridge's request codes, declared here once: the frame code a call of {@code provider/libdatsim.so} sends
 * (docs/bridge.md), the name the call is traced under, and the scenario call whose CPU cost it shares. The C side's
 * codes are generated from this enum into {@code provider/datsim_protocol.h} ({@link ProtocolHeader}); a test fails
 * when the header is stale. A code is never reused: a new request takes the next free number.
 */
enum Request {
    /** The first frame of a program's first connection: its host, its pid. */
    HELLO(1, "hello", null),
    IA_OPEN(2, "dat_ia_open"),
    IA_CLOSE(3, "dat_ia_close"),
    IA_QUERY(4, "dat_ia_query"),
    /** dat_ep_query, dat_evd_query and the others: a handle and its DAT_HANDLE_TYPE. */
    QUERY(5, "dat_*_query", "dat_ep_query"),
    SET_CTX(6, "dat_set_consumer_context"),
    GET_CTX(7, "dat_get_consumer_context"),
    HANDLE_TYPE(8, "dat_get_handle_type"),
    PZ_CREATE(9, "dat_pz_create"),
    PZ_FREE(10, "dat_pz_free"),
    EVD_CREATE(11, "dat_evd_create"),
    EVD_FREE(12, "dat_evd_free"),
    EVD_WAIT(13, "dat_evd_wait"),
    EVD_DEQUEUE(14, "dat_evd_dequeue"),
    /** dat_evd_set_unwaitable (u64 1) or dat_evd_clear_unwaitable (u64 0). */
    EVD_UNWAITABLE(15, "dat_evd_set_unwaitable"),
    /** dat_evd_enable (u64 1) or dat_evd_disable (u64 0). */
    EVD_ENABLE(16, "dat_evd_enable"),
    EVD_RESIZE(17, "dat_evd_resize"),
    EVD_POST_SE(18, "dat_evd_post_se"),
    EVD_MODIFY_CNO(19, "dat_evd_modify_cno"),
    CNO_CREATE(20, "dat_cno_create"),
    CNO_FREE(21, "dat_cno_free"),
    CNO_WAIT(22, "dat_cno_wait"),
    CNO_MODIFY_AGENT(23, "dat_cno_modify_agent"),
    LMR_CREATE(24, "dat_lmr_create"),
    LMR_FREE(25, "dat_lmr_free"),
    /** dat_lmr_sync_rdma_read (u32 0) or dat_lmr_sync_rdma_write (u32 1). */
    LMR_SYNC(26, "dat_lmr_sync_rdma", "dat_lmr_sync_rdma_read"),
    RMR_CREATE(27, "dat_rmr_create"),
    RMR_FREE(28, "dat_rmr_free"),
    RMR_BIND(29, "dat_rmr_bind"),
    /** dat_ep_create, or dat_ep_create_with_srq when an SRQ is given. */
    EP_CREATE(30, "dat_ep_create"),
    EP_FREE(31, "dat_ep_free"),
    EP_CONNECT(32, "dat_ep_connect"),
    EP_DUP_CONNECT(33, "dat_ep_dup_connect"),
    EP_DISCONNECT(34, "dat_ep_disconnect"),
    EP_RESET(35, "dat_ep_reset"),
    EP_GET_STATUS(36, "dat_ep_get_status"),
    POST_SEND(37, "dat_ep_post_send"),
    POST_RECV(38, "dat_ep_post_recv"),
    POST_READ(39, "dat_ep_post_rdma_read"),
    POST_WRITE(40, "dat_ep_post_rdma_write"),
    PSP_CREATE(41, "dat_psp_create"),
    PSP_CREATE_ANY(42, "dat_psp_create_any"),
    PSP_FREE(43, "dat_psp_free"),
    RSP_CREATE(44, "dat_rsp_create"),
    RSP_FREE(45, "dat_rsp_free"),
    CR_ACCEPT(46, "dat_cr_accept"),
    CR_REJECT(47, "dat_cr_reject"),
    CR_HANDOFF(48, "dat_cr_handoff"),
    SRQ_CREATE(49, "dat_srq_create"),
    SRQ_FREE(50, "dat_srq_free"),
    SRQ_POST_RECV(51, "dat_srq_post_recv"),
    SRQ_RESIZE(52, "dat_srq_resize"),
    SRQ_SET_LW(53, "dat_srq_set_lw"),
    EP_RECV_QUERY(54, "dat_ep_recv_query"),
    EP_SET_WATERMARK(55, "dat_ep_set_watermark"),
    /** A DAT call datsim does not implement (its name): answered DAT_NOT_IMPLEMENTED. */
    UNSUPPORTED(56, "unsupported", null),
    /** The first frame of a program's second socket, the side channel (u32 token from the hello reply). */
    SIDE(57, "side", null),
    /** dat_ib_post_rdma_write_immed (dat_extension_op DAT_IB_RDMA_WRITE_IMMED_OP). */
    POST_WRITE_IMMED(58, "dat_ib_post_rdma_write_immed"),
    /** dat_ib_post_fetch_and_add (u32 0) or dat_ib_post_cmp_and_swap (u32 1), through dat_extension_op. */
    POST_ATOMIC(59, "dat_ib_post_atomic", "dat_ib_post_fetch_and_add");

    private static final Request[] BY_CODE;

    static {
        int max = 0;
        for (Request r : values()) {
            max = Math.max(max, r.code);
        }
        BY_CODE = new Request[max + 1];
        for (Request r : values()) {
            if (BY_CODE[r.code] != null) {
                throw new ExceptionInInitializerError("request code " + r.code + " declared twice");
            }
            BY_CODE[r.code] = r;
        }
    }

    private final int code;
    private final String call;
    private final CallCost cost;

    Request(int code, String call) {
        this(code, call, call);
    }

    /**
     * @param code the frame code
     * @param call the name the call is traced under
     * @param costOf the scenario call whose CPU cost it has, or null for a frame that is no DAT call (no cost)
     */
    Request(int code, String call, String costOf) {
        this.code = code;
        this.call = call;
        CallSpec spec = costOf == null ? null : CallCatalog.get(costOf);
        if (costOf != null && spec == null) {
            throw new ExceptionInInitializerError("request " + call + " names an unknown call " + costOf);
        }
        this.cost = spec == null ? CallCost.NONE : spec.cost();
    }

    /** Returns the frame code. */
    int code() {
        return code;
    }

    /** Returns the name the call is traced under ("dat_ep_post_send"). */
    String call() {
        return call;
    }

    /** Returns what the call costs the program's CPU: the cost its scenario call declares ({@code CallCatalog}). */
    CallCost cost() {
        return cost;
    }

    /** Returns the request of a frame code, or null if there is none. */
    static Request of(int code) {
        return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
    }
}
