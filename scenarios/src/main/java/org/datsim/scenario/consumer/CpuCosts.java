package org.datsim.scenario.consumer;

import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.fabric.FabricParams;

/**
 * The CPU times of one consumer, read once from the run's parameters: what a call of each {@link CallCost} costs
 * before it runs and after it returns, and what taking an event costs. Scenario processes and bridged programs ask
 * here, so the same call costs the same simulated time whichever way it was made.
 */
public final class CpuCosts {

    private final long call;
    private final long post;
    private final long doorbell;
    private final long poll;
    private final DataRate memoryRate;

    /**
     * Reads the costs.
     *
     * @param params the run's parameters
     */
    public CpuCosts(Params params) {
        this.call = params.get(FabricParams.CPU_CALL_OVERHEAD);
        this.post = params.get(FabricParams.CPU_POST_OVERHEAD);
        this.doorbell = params.get(FabricParams.CPU_DOORBELL_OCCUPANCY);
        this.poll = params.get(FabricParams.CPU_POLL_OVERHEAD);
        this.memoryRate = params.rate(FabricParams.CPU_MEMORY_BANDWIDTH);
    }

    /**
     * Returns the CPU time spent before a call runs.
     *
     * @param cost the call's cost class
     * @return picoseconds
     */
    public long before(CallCost cost) {
        return switch (cost) {
            case NONE -> 0;
            case CALL -> call;
            case POST_RECEIVE, POST_REQUEST -> post;
        };
    }

    /**
     * Returns the CPU time spent after a call returned, before the consumer's next call: the doorbell write of a
     * request the provider accepted.
     *
     * @param cost the call's cost class
     * @param accepted whether the provider accepted the call (it returned DAT_SUCCESS)
     * @return picoseconds
     */
    public long after(CallCost cost, boolean accepted) {
        return accepted && cost.ringsDoorbell() ? doorbell : 0;
    }

    /** Returns the CPU time of taking one event ({@code cpu.poll_overhead}), paid after a wait or dequeue took one. */
    public long poll() {
        return poll;
    }

    /** Returns the rate at which the CPU reads and writes memory ({@code cpu.memory_bandwidth}). */
    public DataRate memoryRate() {
        return memoryRate;
    }
}
