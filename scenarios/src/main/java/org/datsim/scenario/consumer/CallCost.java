package org.datsim.scenario.consumer;

/**
 * What a DAT call costs the consumer's CPU, declared with each call (the scenario catalogue's
 * {@code CallCatalog} and the bridge's request codes take it from there), never derived from its name. The rule
 * follows the parameters' meanings (docs/calibration.md): {@code cpu.post_overhead} is building a work request up to
 * its doorbell write, so every post pays it, receives included; {@code cpu.doorbell_occupancy} is the MMIO doorbell
 * write that only a request on the send queue makes (a receive updates the doorbell record in host memory), paid
 * after the call once the provider accepted it; every other DAT call pays {@code cpu.call_overhead}; waits and
 * dequeues pay {@code cpu.poll_overhead} per event taken instead ({@link CpuCosts#poll}).
 */
public enum CallCost {
    /** Nothing before the call: waits and dequeues (their cost is the poll after an event), the CPU's own work. */
    NONE(false),
    /** {@code cpu.call_overhead} before the call. */
    CALL(false),
    /** {@code cpu.post_overhead} before the call, no doorbell: a receive (dat_ep_post_recv, dat_srq_post_recv). */
    POST_RECEIVE(false),
    /**
     * {@code cpu.post_overhead} before the call and, if the provider accepted it, {@code cpu.doorbell_occupancy}
     * after it: a request on the send queue (Send, RDMA Write and Read, the IB extensions, dat_rmr_bind).
     */
    POST_REQUEST(true);

    private final boolean ringsDoorbell;

    CallCost(boolean ringsDoorbell) {
        this.ringsDoorbell = ringsDoorbell;
    }

    /** Whether an accepted call writes the HCA's doorbell (and so costs {@code cpu.doorbell_occupancy} after it). */
    public boolean ringsDoorbell() {
        return ringsDoorbell;
    }
}
