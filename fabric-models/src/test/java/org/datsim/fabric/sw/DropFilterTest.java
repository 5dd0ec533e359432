package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.junit.jupiter.api.Test;

/** The drop filter alone: takes nothing until a fault is injected, then what the predicate accepts. */
class DropFilterTest {

    @Test
    void takesWhatTheInjectedFaultAcceptsAndCountsIt() {
        DropFilter f = new DropFilter();
        PacketPool pool = new PacketPool();
        Packet ack = pool.acquire().set(Packet.ACK, 1, 0, 60, null, 0, 1, 0, 0, 0);
        Packet data = pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0);
        assertFalse(f.takes(ack), "nothing injected");
        f.set(p -> p.kind == Packet.ACK);
        assertTrue(f.takes(ack));
        assertFalse(f.takes(data));
        assertEquals(1, f.taken());
        f.set(null);
        assertFalse(f.takes(ack), "the fault ended");
        f.set(p -> true);
        f.reset();
        assertFalse(f.takes(data));
        assertEquals(0, f.taken());
    }
}
