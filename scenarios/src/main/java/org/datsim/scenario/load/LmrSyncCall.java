package org.datsim.scenario.load;

/**
 * A typed dat_lmr_sync_rdma_read or dat_lmr_sync_rdma_write.
 *
 * @param write whether it is dat_lmr_sync_rdma_write
 * @param ia the interface adapter
 * @param localSegments the segments to make visible
 */
public record LmrSyncCall(boolean write, Arg ia, Arg localSegments) implements DtoCall {

    @Override
    public Form form() {
        return Form.LMR_SYNC;
    }
}
