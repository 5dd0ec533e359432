package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.junit.jupiter.api.Test;

/** The telemetry stamper alone: one hop record per egress, with the port's rate, at most HPCC's five. */
class IntStamperTest {

    @Test
    void stampsTheHopWithTheEgressRateAndKeepsAtMostFiveHops() {
        IntStamper s = new IntStamper(new long[] {100_000_000_000L, 400_000_000_000L});
        Packet p = new PacketPool().acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0);
        s.stamp(p, 1, 5_000, 123_456, 7_000);
        assertEquals(1, p.intHops);
        assertEquals(5_000, p.intTimePs(0));
        assertEquals(123_456, p.intTxBytes(0));
        assertEquals(7_000, p.intQueueBytes(0));
        assertEquals(400_000_000_000L, p.intRateBps(0));
        for (int k = 0; k < 10; k++) {
            s.stamp(p, 0, 6_000 + k, 0, 0);
        }
        assertEquals(Packet.INT_MAX_HOPS, p.intHops);
        assertEquals(100_000_000_000L, s.rate(0));
    }
}
