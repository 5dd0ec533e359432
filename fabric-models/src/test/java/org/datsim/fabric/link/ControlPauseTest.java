package org.datsim.fabric.link;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.junit.jupiter.api.Test;

/**
 * An HCA's control class (ACKs first) under a PFC pause of its link: not held by default (HPCC's NIC under
 * ACK_HIGH_PRIO 1), held with {@link Port#pauseControl} (ACK_HIGH_PRIO 0: its ACK queue has the data's priority), and
 * still sent before the data once the pause ends.
 */
class ControlPauseTest {

    private static final DataRate RATE = DataRate.ofBitsPerSecond(100_000_000_000L); // 80 ps per byte
    private static final long PROP_PS = 1_000_000;

    /** Records what arrives and when. */
    private static final class Sink implements NetworkNode {
        final Simulator sim;
        final List<Integer> kinds = new ArrayList<>();
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
            kinds.add(packet.kind);
            at.add(sim.now());
        }
    }

    /** Pauses the port at 0, queues a data packet and an ACK at 10 ns, resumes at 500 ns. */
    private static Sink run(boolean heldByPause) {
        Simulator sim = new Simulator();
        PacketPool pool = new PacketPool();
        Port port = new Port(sim, RATE, PROP_PS);
        port.setFlowControl(FlowControl.PFC, 0);
        port.prioritiseControl();
        if (heldByPause) {
            port.pauseControl();
        }
        Sink sink = new Sink(sim);
        port.connect(sink, 0);
        sim.scheduleAt(0, x -> port.receivePfc(PfcFrame.pause(3)), 0);
        sim.scheduleAt(10_000, x -> {
            port.send(pool.acquire().set(Packet.SEND, 0, 1, 1000, null, 0, 1, 0, 0, 7));
            port.send(pool.acquire().set(Packet.ACK, 0, 1, 60, null, 0, 1, 0, 0, 7));
        }, 0);
        sim.scheduleAt(500_000, x -> port.receivePfc(PfcFrame.resume(3)), 0);
        sim.run();
        return sink;
    }

    @Test
    void aPauseHoldsTheDataButNotTheAcksByDefault() {
        Sink s = run(false);
        assertEquals(List.of(Packet.ACK, Packet.SEND), s.kinds);
        assertEquals(10_000 + RATE.transmitTimePs(60) + PROP_PS, s.at.get(0), "the ACK leaves at once");
        assertEquals(500_000 + RATE.transmitTimePs(1000) + PROP_PS, s.at.get(1), "the data waits for the resume");
    }

    @Test
    void withPauseControlThePauseHoldsTheAcksTooWhichStillGoFirst() {
        Sink s = run(true);
        assertEquals(List.of(Packet.ACK, Packet.SEND), s.kinds, "the ACK still goes before the data");
        assertEquals(500_000 + RATE.transmitTimePs(60) + PROP_PS, s.at.get(0), "the ACK waits for the resume");
        assertEquals(500_000 + RATE.transmitTimePs(60) + RATE.transmitTimePs(1000) + PROP_PS, s.at.get(1));
    }
}
