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
    /** IBV_WC_LOC_PROT_ERR: a local protection error. */
    public static final int LOC_PROT_ERR = 4;
    /** IBV_WC_WR_FLUSH_ERR: flushed, its queue pair being in the error state. */
    public static final int WR_FLUSH_ERR = 5;
    /** IBV_WC_MW_BIND_ERR: a memory window bind failed. */
    public static final int MW_BIND_ERR = 6;
    /**
     * IBV_WC_REM_INV_REQ_ERR: the responder refused the request as invalid (a misaligned atomic, more RDMA Reads or
     * atomics than its read credits).
     */
    public static final int REM_INV_REQ_ERR = 9;
    /** IBV_WC_REM_ACCESS_ERR: the responder refused the remote key, range or rights. */
    public static final int REM_ACCESS_ERR = 10;
    /**
     * IBV_WC_REM_OP_ERR: the responder could not perform the request (its queue pair not ready; a Send longer than
     * the receive it took).
     */
    public static final int REM_OP_ERR = 11;
    /** IBV_WC_RETRY_EXC_ERR: the local ACK timer's retries were exhausted without progress. */
    public static final int RETRY_EXC_ERR = 12;
    /** IBV_WC_RNR_RETRY_EXC_ERR: the RNR NAK retries were exhausted. */
    public static final int RNR_RETRY_EXC_ERR = 13;

    private WcStatus() {
    }

    /**
     * Returns the ibverbs name of a status the HCA reports.
     *
     * @param status a status of this class
     * @return its name, e.g. {@code IBV_WC_SUCCESS}
     */
    public static String name(int status) {
        switch (status) {
            case SUCCESS: return "IBV_WC_SUCCESS";
            case LOC_LEN_ERR: return "IBV_WC_LOC_LEN_ERR";
            case LOC_QP_OP_ERR: return "IBV_WC_LOC_QP_OP_ERR";
            case LOC_PROT_ERR: return "IBV_WC_LOC_PROT_ERR";
            case WR_FLUSH_ERR: return "IBV_WC_WR_FLUSH_ERR";
            case MW_BIND_ERR: return "IBV_WC_MW_BIND_ERR";
            case REM_INV_REQ_ERR: return "IBV_WC_REM_INV_REQ_ERR";
            case REM_ACCESS_ERR: return "IBV_WC_REM_ACCESS_ERR";
            case REM_OP_ERR: return "IBV_WC_REM_OP_ERR";
            case RETRY_EXC_ERR: return "IBV_WC_RETRY_EXC_ERR";
            case RNR_RETRY_EXC_ERR: return "IBV_WC_RNR_RETRY_EXC_ERR";
            default: throw new IllegalArgumentException("not a work-completion status: " + status);
        }
    }
}
