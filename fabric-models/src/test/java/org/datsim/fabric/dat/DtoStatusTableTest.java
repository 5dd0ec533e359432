package org.datsim.fabric.dat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;
import org.junit.jupiter.api.Test;

/** The provider's one translation table from what the HCA reports into DAT. */
class DtoStatusTableTest {

    /**
     * dapl 2.1.10 openib_common/cq.c, {@code ib_status_map}: each {@code enum ibv_wc_status} value (by its number in
     * ibverbs' verbs.h) and the DAT_DTO_COMPLETION_STATUS dapls_ib_get_dto_status returns for it.
     */
    private static final String[][] CQ_C = {
        {"0", "IBV_WC_SUCCESS", "DAT_DTO_SUCCESS"},
        {"1", "IBV_WC_LOC_LEN_ERR", "DAT_DTO_ERR_LOCAL_LENGTH"},
        {"2", "IBV_WC_LOC_QP_OP_ERR", "DAT_DTO_ERR_LOCAL_EP"},
        {"3", "IBV_WC_LOC_EEC_OP_ERR", "DAT_DTO_ERR_TRANSPORT"},
        {"4", "IBV_WC_LOC_PROT_ERR", "DAT_DTO_ERR_LOCAL_PROTECTION"},
        {"5", "IBV_WC_WR_FLUSH_ERR", "DAT_DTO_ERR_FLUSHED"},
        {"6", "IBV_WC_MW_BIND_ERR", "DAT_RMR_OPERATION_FAILED"},
        {"7", "IBV_WC_BAD_RESP_ERR", "DAT_DTO_ERR_BAD_RESPONSE"},
        {"8", "IBV_WC_LOC_ACCESS_ERR", "DAT_DTO_ERR_LOCAL_PROTECTION"},
        {"9", "IBV_WC_REM_INV_REQ_ERR", "DAT_DTO_ERR_REMOTE_RESPONDER"},
        {"10", "IBV_WC_REM_ACCESS_ERR", "DAT_DTO_ERR_REMOTE_ACCESS"},
        {"11", "IBV_WC_REM_OP_ERR", "DAT_DTO_ERR_REMOTE_RESPONDER"},
        {"12", "IBV_WC_RETRY_EXC_ERR", "DAT_DTO_ERR_TRANSPORT"},
        {"13", "IBV_WC_RNR_RETRY_EXC_ERR", "DAT_DTO_ERR_RECEIVER_NOT_READY"},
        {"14", "IBV_WC_LOC_RDD_VIOL_ERR", "DAT_DTO_ERR_LOCAL_PROTECTION"},
        {"15", "IBV_WC_REM_INV_RD_REQ_ERR", "DAT_DTO_ERR_REMOTE_RESPONDER"},
        {"16", "IBV_WC_REM_ABORT_ERR", "DAT_DTO_ERR_REMOTE_RESPONDER"},
        {"17", "IBV_WC_INV_EECN_ERR", "DAT_DTO_ERR_TRANSPORT"},
        {"18", "IBV_WC_INV_EEC_STATE_ERR", "DAT_DTO_ERR_TRANSPORT"},
        {"19", "IBV_WC_FATAL_ERR", "DAT_DTO_ERR_TRANSPORT"},
        {"20", "IBV_WC_RESP_TIMEOUT_ERR", "DAT_DTO_ERR_RECEIVER_NOT_READY"},
        {"21", "IBV_WC_GENERAL_ERR", "DAT_DTO_ERR_TRANSPORT"},
    };

    @Test
    void everyWorkCompletionStatusMapsAsDaplCqCDoes() {
        for (String[] row : CQ_C) {
            int wc = Integer.parseInt(row[0]);
            assertEquals(row[1], WcStatus.name(wc), "WcStatus has ibverbs' value for " + row[1]);
            assertEquals(row[2], Dat.DTO_STATUS.name(DtoStatusTable.datStatus(wc)), row[1]);
        }
        assertEquals(-1, DtoStatusTable.datStatus(-1), "no status yet stays so");
        // cq.c returns DAT_DTO_FAILURE (DAT_DTO_ERR_FLUSHED's value, 1) for a status not in its map.
        assertEquals(Dat.DTO_FAILURE, DtoStatusTable.datStatus(22));
        assertEquals(1, Dat.DTO_FAILURE);
        assertThrows(IllegalArgumentException.class, () -> WcStatus.name(22));
    }

    @Test
    void remoteOperationalErrorIsRemoteResponderAsInCqCNotTransport() {
        assertEquals(Dat.DTO_ERR_REMOTE_RESPONDER, DtoStatusTable.datStatus(WcStatus.REM_OP_ERR));
        assertEquals(Dat.DTO_ERR_REMOTE_RESPONDER, DtoStatusTable.datStatus(WcStatus.REM_INV_REQ_ERR));
        assertEquals(Dat.DTO_ERR_TRANSPORT, DtoStatusTable.datStatus(WcStatus.RETRY_EXC_ERR));
    }

    @Test
    void operationsTranslateBackToDatDtos() {
        assertEquals(Dat.DTO_SEND, DtoStatusTable.datOperation(WorkRequest.SEND));
        assertEquals(Dat.DTO_RDMA_WRITE, DtoStatusTable.datOperation(WorkRequest.RDMA_WRITE));
        assertEquals(Dat.DTO_RDMA_READ, DtoStatusTable.datOperation(WorkRequest.RDMA_READ));
        assertEquals(Dat.DTO_RECEIVE, DtoStatusTable.datOperation(WorkRequest.RECV));
        assertEquals(Dat.DTO_BIND_MW, DtoStatusTable.datOperation(WorkRequest.BIND));
        assertEquals(Dat.IB_DTO_FETCH_ADD, DtoStatusTable.datOperation(WorkRequest.FETCH_ADD));
        assertEquals(Dat.IB_DTO_CMP_SWAP, DtoStatusTable.datOperation(WorkRequest.CMP_SWAP));
    }

    @Test
    void theHcaReadsTheFenceAndSolicitedFlagsOnly() {
        assertEquals(WorkRequest.SEND_FENCE, DtoStatusTable.sendFlags(Dat.COMPLETION_BARRIER_FENCE_FLAG));
        assertEquals(WorkRequest.SEND_SOLICITED, DtoStatusTable.sendFlags(Dat.COMPLETION_SOLICITED_WAIT_FLAG));
        assertEquals(0, DtoStatusTable.sendFlags(Dat.COMPLETION_SUPPRESS_FLAG | Dat.COMPLETION_UNSIGNALLED_FLAG));
    }
}
