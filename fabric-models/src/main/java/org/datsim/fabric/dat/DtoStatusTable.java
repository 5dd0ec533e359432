package org.datsim.fabric.dat;

import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;

/**
 * The one place the provider translates what the HCA reports into DAT: work-completion statuses into
 * DAT_DTO_COMPLETION_STATUS (dapl's openib_common/cq.c, dapls_ib_get_dto_status, does the same from
 * {@code ibv_wc_status}), the DAT operations into the HCA's opcodes and back.
 *
 * <p>Where this table differs from cq.c (kept so that the model's DAT statuses stay what they were; a fix of the
 * error statuses belongs here): IBV_WC_REM_OP_ERR gives DAT_DTO_ERR_TRANSPORT (cq.c: DAT_DTO_ERR_REMOTE_RESPONDER).
 * The model reports it for a request that finds the responder's queue pair not ready, and for a Send longer than
 * the receive it took (a real HCA reports that one as IBV_WC_REM_INV_REQ_ERR at the requester). Every other row is
 * cq.c's.
 */
public final class DtoStatusTable {

    private DtoStatusTable() {
    }

    /**
     * Translates an HCA work-completion status into a DAT_DTO_COMPLETION_STATUS.
     *
     * @param wcStatus a {@link WcStatus}, or a negative value (no status yet), returned as it is
     * @return the DAT status
     */
    public static int datStatus(int wcStatus) {
        switch (wcStatus) {
            case WcStatus.SUCCESS: return Dat.DTO_SUCCESS;
            case WcStatus.LOC_LEN_ERR: return Dat.DTO_ERR_LOCAL_LENGTH;
            case WcStatus.LOC_QP_OP_ERR: return Dat.DTO_ERR_LOCAL_EP;
            case WcStatus.LOC_PROT_ERR: return Dat.DTO_ERR_LOCAL_PROTECTION;
            case WcStatus.WR_FLUSH_ERR: return Dat.DTO_ERR_FLUSHED;
            case WcStatus.MW_BIND_ERR: return Dat.RMR_OPERATION_FAILED;
            case WcStatus.REM_INV_REQ_ERR: return Dat.DTO_ERR_REMOTE_RESPONDER;
            case WcStatus.REM_ACCESS_ERR: return Dat.DTO_ERR_REMOTE_ACCESS;
            case WcStatus.REM_OP_ERR: return Dat.DTO_ERR_TRANSPORT; // cq.c: DAT_DTO_ERR_REMOTE_RESPONDER (see above)
            case WcStatus.RETRY_EXC_ERR: return Dat.DTO_ERR_TRANSPORT;
            case WcStatus.RNR_RETRY_EXC_ERR: return Dat.DTO_ERR_RECEIVER_NOT_READY;
            default:
                if (wcStatus < 0) {
                    return wcStatus;
                }
                throw new IllegalArgumentException("no DAT status for work-completion status " + wcStatus);
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
