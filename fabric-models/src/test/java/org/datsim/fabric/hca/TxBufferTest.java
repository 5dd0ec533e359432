package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.core.param.Params;
import org.datsim.fabric.bench.StreamBench;
import org.junit.jupiter.api.Test;

/**
 * hca.tx_buffer: behind a backlogged port the send engine stops taking up work requests once the packets waiting
 * for the link fill the buffer, so the HCA reads payloads shortly before they leave instead of the whole backlog at
 * once; the link stays busy, so the stream's timing does not change.
 */
class TxBufferTest {

    private static final int WRITES = 2000;
    private static final int BYTES = 4096;
    private static final int WINDOW = 256; // 1 MiB posted at time 0: four times the default buffer

    @Test
    void aBoundedBufferHoldsTheEngineBackWithoutSlowingTheLink() {
        Params bounded = StreamBench.params(); // the default, 256 KiB
        Params unbounded = StreamBench.params("hca.tx_buffer", "0B");
        StreamBench.Result b = StreamBench.run(bounded, WRITES, BYTES, WINDOW);
        StreamBench.Result u = StreamBench.run(unbounded, WRITES, BYTES, WINDOW);
        assertEquals(WRITES, b.completed());
        assertEquals(WRITES, u.completed());
        assertEquals(0, b.failed() + u.failed(), "every write lands with its bytes");
        assertEquals(u.simulatedLastArrivalPs(), b.simulatedLastArrivalPs(), "the link never waits for the engine");
        assertEquals(b.predictedLastArrivalPs(), b.simulatedLastArrivalPs());
        // Packets in existence at once: the 1 KiB packets waiting for the link plus a few in flight and ACKs.
        assertTrue(u.pooledPackets() > 900, "unbounded, the engine reads the whole window ahead: " + u.pooledPackets());
        assertTrue(b.pooledPackets() < 300, "bounded by 256 KiB of 1 KiB packets: " + b.pooledPackets());
    }

    @Test
    void aSmallerBufferHoldsFewerPackets() {
        StreamBench.Result small = StreamBench.run(StreamBench.params("hca.tx_buffer", "32KiB"), WRITES, BYTES,
                WINDOW);
        assertEquals(WRITES, small.completed());
        assertTrue(small.pooledPackets() < 60, "32 KiB of 1 KiB packets plus one write: " + small.pooledPackets());
        StreamBench.Result dflt = StreamBench.run(StreamBench.params(), WRITES, BYTES, WINDOW);
        assertEquals(dflt.simulatedLastArrivalPs(), small.simulatedLastArrivalPs(),
                "32 KiB still covers the engine's refill time (about 1 us of WQE and payload fetch)");
    }
}
