package org.datsim.fabric.dat;

import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;

/**
 * The one place the provider translates what the HCA reports into DAT: work-completion statuses into
 * DAT_DTO_COMPLETION_STATUS (dapl's openib_common/cq.c, dapls_ib_get_dto_status, does the same from
 * {@code ibv_wc_status}), the DAT operations into the HCA's opcodes and back.
 *
 * <p>The status rows are cq.c's {@code ib_status_map}, every one of them, with its fallback for a status not in it
 * (DAT_DTO_FAILURE, which is DAT_DTO_ERR_FLUSHED's value). The HCA model produces only some of these statuses; the
 * others are here so that the table is cq.c's and nothing else.
 */
public final class DtoStatusTable {

    private DtoStatusTable() {
    }

    /**
     * Translates an HCA work-completion status into a DAT_DTO_COMPLETION_STATUS.
     *
     * @param wcStatus a {@link WcStatus}, or a negative value (no status yet), returned as it is
     * @return the DAT status: cq.c's row for the status, DAT_DTO_FAILURE for one cq.c does not know
     */
    public static int datStatus(int wcStatus) {
        switch (wcStatus) {
            case WcStatus.SUCCESS: return Dat.DTO_SUCCESS;
            case WcStatus.LOC_LEN_ERR: return Dat.DTO_ERR_LOCAL_LENGTH;
            case WcStatus.LOC_QP_OP_ERR: return Dat.DTO_ERR_LOCAL_EP;
            case WcStatus.LOC_EEC_OP_ERR: return Dat.DTO_ERR_TRANSPORT;
            case WcStatus.LOC_PROT_ERR: return Dat.DTO_ERR_LOCAL_PROTECTION;
            case WcStatus.WR_FLUSH_ERR: return Dat.DTO_ERR_FLUSHED;
            case WcStatus.MW_BIND_ERR: return Dat.RMR_OPERATION_FAILED;
            case WcStatus.BAD_RESP_ERR: return Dat.DTO_ERR_BAD_RESPONSE;
            case WcStatus.LOC_ACCESS_ERR: return Dat.DTO_ERR_LOCAL_PROTECTION;
            case WcStatus.REM_INV_REQ_ERR: return Dat.DTO_ERR_REMOTE_RESPONDER;
            case WcStatus.REM_ACCESS_ERR: return Dat.DTO_ERR_REMOTE_ACCESS;
            case WcStatus.REM_OP_ERR: return Dat.DTO_ERR_REMOTE_RESPONDER;
            case WcStatus.RETRY_EXC_ERR: return Dat.DTO_ERR_TRANSPORT;
            case WcStatus.RNR_RETRY_EXC_ERR: return Dat.DTO_ERR_RECEIVER_NOT_READY;
            case WcStatus.LOC_RDD_VIOL_ERR: return Dat.DTO_ERR_LOCAL_PROTECTION;
            case WcStatus.REM_INV_RD_REQ_ERR: return Dat.DTO_ERR_REMOTE_RESPONDER;
            case WcStatus.REM_ABORT_ERR: return Dat.DTO_ERR_REMOTE_RESPONDER;
            case WcStatus.INV_EECN_ERR: return Dat.DTO_ERR_TRANSPORT;
            case WcStatus.INV_EEC_STATE_ERR: return Dat.DTO_ERR_TRANSPORT;
            case WcStatus.FATAL_ERR: return Dat.DTO_ERR_TRANSPORT;
            case WcStatus.RESP_TIMEOUT_ERR: return Dat.DTO_ERR_RECEIVER_NOT_READY;
            case WcStatus.GENERAL_ERR: return Dat.DTO_ERR_TRANSPORT;
            default:
                return wcStatus < 0 ? wcStatus : Dat.DTO_FAILURE; // cq.c: a status not in its map
        }
    }

    /**
     * The DAT operation (DAT_DTOS, or DAT_IB_DTOS for the atomics) of a work request's HCA opcode.
     *
     * @param opcode a {@link WorkRequest} opcode
     * @return the DAT operation
     */
    public static int datOperation(int opcode) {
        switch (opcode) {
            case WorkRequest.SEND: return Dat.DTO_SEND;
            case WorkRequest.RDMA_WRITE: return Dat.DTO_RDMA_WRITE;
            case WorkRequest.RDMA_READ: return Dat.DTO_RDMA_READ;
            case WorkRequest.RECV: return Dat.DTO_RECEIVE;
            case WorkRequest.BIND: return Dat.DTO_BIND_MW;
            case WorkRequest.FETCH_ADD: return Dat.IB_DTO_FETCH_ADD;
            case WorkRequest.CMP_SWAP: return Dat.IB_DTO_CMP_SWAP;
            default: throw new IllegalArgumentException("not a work-request opcode: " + opcode);
        }
    }

    /**
     * What the HCA reads of a post's DAT completion flags: DAT_COMPLETION_BARRIER_FENCE_FLAG as
     * {@link WorkRequest#SEND_FENCE}, DAT_COMPLETION_SOLICITED_WAIT_FLAG as {@link WorkRequest#SEND_SOLICITED}.
     *
     * @param datFlags the DAT_COMPLETION_FLAGS of a post
     * @return the work request's send flags
     */
    public static int sendFlags(int datFlags) {
        return ((datFlags & Dat.COMPLETION_BARRIER_FENCE_FLAG) != 0 ? WorkRequest.SEND_FENCE : 0)
                | ((datFlags & Dat.COMPLETION_SOLICITED_WAIT_FLAG) != 0 ? WorkRequest.SEND_SOLICITED : 0);
    }
}
