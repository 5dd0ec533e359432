package org.datsim.fabric.hca;

/**
 * The work-completion statuses the HCA reports, as an InfiniBand HCA reports them (ibverbs' {@code enum
 * ibv_wc_status}, same names and values). The HCA speaks the transport's language; the DAT provider translates a
 * status into a DAT_DTO_COMPLETION_STATUS in one table (the provider's DtoStatusTable), as dapl's
 * openib_common/cq.c does. Plain {@code int} constants: the packet path carries them without boxing.
 */
public final class WcStatus {

    /** IBV_WC_SUCCESS: the operation completed. */
    public static final int SUCCESS = 0;
    /** IBV_WC_LOC_LEN_ERR: a receive too short for the Send that arrived. */
    public static final int LOC_LEN_ERR = 1;
    /** IBV_WC_LOC_QP_OP_ERR: the local queue pair was put in error (e.g. by the consumer). */
    public static final int LOC_QP_OP_ERR = 2;
    /** IBV_WC_LOC_EEC_OP_ERR: a local EE context error (reliable datagram only; not produced by this HCA). */
    public static final int LOC_EEC_OP_ERR = 3;
    /** IBV_WC_LOC_PROT_ERR: a local protection error. */
    public static final int LOC_PROT_ERR = 4;
    /** IBV_WC_WR_FLUSH_ERR: flushed, its queue pair being in the error state. */
    public static final int WR_FLUSH_ERR = 5;
    /** IBV_WC_MW_BIND_ERR: a memory window bind failed. */
    public static final int MW_BIND_ERR = 6;
    /** IBV_WC_BAD_RESP_ERR: an unexpected response opcode (not produced by this HCA). */
    public static final int BAD_RESP_ERR = 7;
    /** IBV_WC_LOC_ACCESS_ERR: a local access error on an incoming RDMA Write with immediate (not produced). */
    public static final int LOC_ACCESS_ERR = 8;
    /**
     * IBV_WC_REM_INV_REQ_ERR: the responder refused the request as invalid with a NAK-Invalid Request (a Send longer
     * than the receive it took, a misaligned atomic, more RDMA Reads or atomics than its read credits).
     */
    public static final int REM_INV_REQ_ERR = 9;
    /** IBV_WC_REM_ACCESS_ERR: the responder refused the remote key, range or rights. */
    public static final int REM_ACCESS_ERR = 10;
    /**
     * IBV_WC_REM_OP_ERR: the responder could not perform the request, a NAK-Remote Operational Error (here: its
     * queue pair no longer active, flushed by a disconnect or an error).
     */
    public static final int REM_OP_ERR = 11;
    /** IBV_WC_RETRY_EXC_ERR: the local ACK timer's retries were exhausted without progress. */
    public static final int RETRY_EXC_ERR = 12;
    /** IBV_WC_RNR_RETRY_EXC_ERR: the RNR NAK retries were exhausted. */
    public static final int RNR_RETRY_EXC_ERR = 13;
    /** IBV_WC_LOC_RDD_VIOL_ERR: a reliable-datagram domain violation (not produced by this HCA). */
    public static final int LOC_RDD_VIOL_ERR = 14;
    /** IBV_WC_REM_INV_RD_REQ_ERR: an invalid reliable-datagram request (not produced by this HCA). */
    public static final int REM_INV_RD_REQ_ERR = 15;
    /** IBV_WC_REM_ABORT_ERR: the responder aborted the operation (not produced by this HCA). */
    public static final int REM_ABORT_ERR = 16;
    /** IBV_WC_INV_EECN_ERR: an invalid EE context number (not produced by this HCA). */
    public static final int INV_EECN_ERR = 17;
    /** IBV_WC_INV_EEC_STATE_ERR: an invalid EE context state (not produced by this HCA). */
    public static final int INV_EEC_STATE_ERR = 18;
    /** IBV_WC_FATAL_ERR: a fatal HCA error (not produced by this HCA). */
    public static final int FATAL_ERR = 19;
    /** IBV_WC_RESP_TIMEOUT_ERR: a response timeout (not produced by this HCA). */
    public static final int RESP_TIMEOUT_ERR = 20;
    /** IBV_WC_GENERAL_ERR: another error (not produced by this HCA). */
    public static final int GENERAL_ERR = 21;

    private static final String[] NAMES = {"IBV_WC_SUCCESS", "IBV_WC_LOC_LEN_ERR", "IBV_WC_LOC_QP_OP_ERR",
        "IBV_WC_LOC_EEC_OP_ERR", "IBV_WC_LOC_PROT_ERR", "IBV_WC_WR_FLUSH_ERR", "IBV_WC_MW_BIND_ERR",
        "IBV_WC_BAD_RESP_ERR", "IBV_WC_LOC_ACCESS_ERR", "IBV_WC_REM_INV_REQ_ERR", "IBV_WC_REM_ACCESS_ERR",
        "IBV_WC_REM_OP_ERR", "IBV_WC_RETRY_EXC_ERR", "IBV_WC_RNR_RETRY_EXC_ERR", "IBV_WC_LOC_RDD_VIOL_ERR",
        "IBV_WC_REM_INV_RD_REQ_ERR", "IBV_WC_REM_ABORT_ERR", "IBV_WC_INV_EECN_ERR", "IBV_WC_INV_EEC_STATE_ERR",
        "IBV_WC_FATAL_ERR", "IBV_WC_RESP_TIMEOUT_ERR", "IBV_WC_GENERAL_ERR"};

    private WcStatus() {
    }

    /**
     * Returns the ibverbs name of a status the HCA reports.
     *
     * @param status a status of this class
     * @return its name, e.g. {@code IBV_WC_SUCCESS}
     */
    public static String name(int status) {
        if (status < 0 || status >= NAMES.length) {
            throw new IllegalArgumentException("not a work-completion status: " + status);
        }
        return NAMES[status];
    }
}
