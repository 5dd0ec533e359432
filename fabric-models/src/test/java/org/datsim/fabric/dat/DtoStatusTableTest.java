package org.datsim.fabric.dat;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;
import org.junit.jupiter.api.Test;

/** The provider's one translation table from what the HCA reports into DAT. */
class DtoStatusTableTest {

    @Test
    void workCompletionStatusesMapAsDaplCqCDoesExceptRemoteOperationalError() {
        assertEquals(Dat.DTO_SUCCESS, DtoStatusTable.datStatus(WcStatus.SUCCESS));
        assertEquals(Dat.DTO_ERR_LOCAL_LENGTH, DtoStatusTable.datStatus(WcStatus.LOC_LEN_ERR));
        assertEquals(Dat.DTO_ERR_LOCAL_EP, DtoStatusTable.datStatus(WcStatus.LOC_QP_OP_ERR));
        assertEquals(Dat.DTO_ERR_LOCAL_PROTECTION, DtoStatusTable.datStatus(WcStatus.LOC_PROT_ERR));
        assertEquals(Dat.DTO_ERR_FLUSHED, DtoStatusTable.datStatus(WcStatus.WR_FLUSH_ERR));
        assertEquals(Dat.RMR_OPERATION_FAILED, DtoStatusTable.datStatus(WcStatus.MW_BIND_ERR));
        assertEquals(Dat.DTO_ERR_REMOTE_RESPONDER, DtoStatusTable.datStatus(WcStatus.REM_INV_REQ_ERR));
        assertEquals(Dat.DTO_ERR_REMOTE_ACCESS, DtoStatusTable.datStatus(WcStatus.REM_ACCESS_ERR));
        assertEquals(Dat.DTO_ERR_TRANSPORT, DtoStatusTable.datStatus(WcStatus.RETRY_EXC_ERR));
        assertEquals(Dat.DTO_ERR_RECEIVER_NOT_READY, DtoStatusTable.datStatus(WcStatus.RNR_RETRY_EXC_ERR));
        // The one row that differs from cq.c (DAT_DTO_ERR_REMOTE_RESPONDER there): kept as the model reported it.
        assertEquals(Dat.DTO_ERR_TRANSPORT, DtoStatusTable.datStatus(WcStatus.REM_OP_ERR));
        assertEquals(-1, DtoStatusTable.datStatus(-1), "no status yet stays so");
        assertThrows(IllegalArgumentException.class, () -> DtoStatusTable.datStatus(99));
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
