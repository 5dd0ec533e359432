package org.datsim.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.junit.jupiter.api.Test;

/**
 * The port's queue and credit rings across their growth (more entries than their first 16, with the head wrapped):
 * packets leave in FIFO order, back to back at the link's rate, and arrive the propagation delay after their last
 * bit; credit returned while stalled is absorbed in order.
 */
class PortQueueTest {

    private static final DataRate RATE = DataRate.ofBitsPerSecond(100_000_000_000L); // 80 ps per byte
    private static final long PROP_PS = 1_000_000;

    /** A node that records what it receives and when. */
    private static final class Sink implements NetworkNode {
        final Simulator sim;
        final List<Packet> got = new ArrayList<>();
        final List<Long> at = new ArrayList<>();

        Sink(Simulator sim) {
            this.sim = sim;
        }

        @Override
        public String name() {
            return "sink";
        }

        @Override
        public void receive(Packet packet, int inPort) {
            got.add(packet);
            at.add(sim.now());
        }
    }

    @Test
    void packetsQueuedBeyondTheRingsFirstSizeLeaveInOrderBackToBack() {
        Simulator sim = new Simulator();
        PacketPool pool = new PacketPool();
        Port port = new Port(sim, RATE, PROP_PS);
        Sink sink = new Sink(sim);
        port.connect(sink, 0);
        List<Packet> sent = new ArrayList<>();
        // 10 packets, then 30 more once 6 have left: the ring's head has moved when it grows past 16 entries
        for (int i = 0; i < 10; i++) {
            Packet p = pool.acquire().set(Packet.SEND, 0, 1, 1000 + i, null, i, 40, 0, 0, 7);
            sent.add(p);
            port.send(p);
        }
        long tenth = 0;
        for (int i = 0; i < 6; i++) {
            tenth += RATE.transmitTimePs(1000 + i);
        }
        sim.scheduleAt(tenth, a -> {
            for (int i = 10; i < 40; i++) {
                Packet p = pool.acquire().set(Packet.SEND, 0, 1, 1000 + i, null, i, 40, 0, 0, 7);
                sent.add(p);
                port.send(p);
            }
        }, 0);
        sim.run();
        assertEquals(sent, sink.got, "FIFO order");
        long end = 0;
        long bytes = 0;
        for (int i = 0; i < 40; i++) {
            end += RATE.transmitTimePs(1000 + i); // back to back: the queue never empties
            bytes += 1000 + i;
            assertEquals(end + PROP_PS, sink.at.get(i), "arrival of packet " + i);
        }
        assertEquals(40, port.counters().packets());
        assertEquals(bytes, port.counters().bytes());
        // the deepest queue: after the 6th left, 3 of the first 10 and the 30 new ones wait behind the one on the wire
        assertEquals(33, port.counters().maxQueuePackets());
    }

    @Test
    void creditReturnedInManyPiecesWhileStalledIsAbsorbedInOrder() {
        Simulator sim = new Simulator();
        PacketPool pool = new PacketPool();
        Port port = new Port(sim, RATE, PROP_PS);
        Sink sink = new Sink(sim);
        port.connect(sink, 0);
        port.setFlowControl(FlowControl.IB_CREDITS, 1000);
        List<Packet> sent = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            Packet p = pool.acquire().set(Packet.SEND, 0, 1, 1000, null, i, 3, 0, 0, 7);
            sent.add(p);
            port.send(p);
        }
        // the first packet takes all the credit; 40 returns of 50 bytes, 10 ns apart, arrive from 1 us on (more than
        // the credit ring's first 16 entries): the second packet starts at the 20th, the third at the 40th
        sim.scheduleAt(1, a -> {
            for (int i = 0; i < 40; i++) {
                final long delay = 1_000_000 + 10_000L * i;
                sim.scheduleAt(1 + i, b -> port.returnCredit(50, delay - (sim.now() - 1)), 0);
            }
        }, 0);
        sim.run();
        assertEquals(sent, sink.got);
        long tx = RATE.transmitTimePs(1000);
        assertEquals(tx + PROP_PS, sink.at.get(0));
        long second = 1 + 1_000_000 + 10_000L * 19; // the 20th return's arrival
        assertEquals(second + tx + PROP_PS, sink.at.get(1));
        long third = 1 + 1_000_000 + 10_000L * 39;
        assertEquals(third + tx + PROP_PS, sink.at.get(2));
        assertEquals(0, port.credits());
    }
}
