package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;

/**
 * The HCA's DMA write channel into host memory: writes cross PCIe one after another at its data rate, then its
 * latency. The responder, the receive pipeline, the reliable transport (a duplicate's ACK goes after the writes
 * issued so far) and the completions (a CQE written this way lands after the data written before it) schedule
 * through it.
 */
final class DmaWriter {

    private final Simulator sim;
    private final long pcieLatency;
    private final DataRate pcieRate;
    /** When the writes scheduled so far have all crossed PCIe's data rate. */
    private long dmaWriteFree;

    DmaWriter(HcaContext c) {
        this.sim = c.sim;
        this.pcieLatency = c.pcieLatency;
        this.pcieRate = c.pcieRate;
    }

    /**
     * Schedules a DMA write of {@code len} bytes after an MTT stall. A CQE (len 0) written this way lands after the
     * data written before it.
     *
     * @return the delay from now until the bytes are in host memory
     */
    long dmaWriteDelay(int len, long stall) {
        long now = sim.now();
        long done = Math.max(now + stall, dmaWriteFree + stall) + pcieRate.transmitTimePs(len);
        dmaWriteFree = done;
        return done + pcieLatency - now;
    }
}
