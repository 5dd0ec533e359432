package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.FlowControl;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.PfcFrame;
import org.datsim.fabric.link.Port;
import org.junit.jupiter.api.Test;

/**
 * PFC as frames: a PAUSE or RESUME leaves on the switch's own port of the input's link and takes effect at the
 * upstream port one propagation delay of that link later, not before.
 */
class PfcFrameTimingTest {

    private static final long PROP = 1_000_000; // 1 us
    private static final DataRate G100 = DataRate.ofBitsPerSecond(100_000_000_000L);

    private static NetworkNode sink() {
        return new NetworkNode() {
            @Override
            public String name() {
                return "sink";
            }

            @Override
            public void receive(Packet p, int inPort) {
                p.release();
            }
        };
    }

    @Test
    void framesCarryAPriorityAndAPauseOrResume() {
        long f = PfcFrame.pause(5);
        assertTrue(PfcFrame.isPause(f));
        assertEquals(5, PfcFrame.priority(f));
        assertFalse(PfcFrame.isPause(PfcFrame.resume(7)));
        assertEquals(7, PfcFrame.priority(PfcFrame.resume(7)));
        assertThrows(IllegalArgumentException.class, () -> PfcFrame.pause(8));
        assertThrows(IllegalStateException.class, () -> new Port(new Simulator(), G100, PROP).sendPfc(f));
    }

    @Test
    void thePauseAndTheResumeArriveOnePropagationDelayAfterTheSwitchSendsThem() {
        Simulator sim = new Simulator();
        TraceSource<TraceEvent> trace = new TraceSource<>("t");
        List<TraceEvent> pfc = new ArrayList<>();
        trace.subscribe(e -> {
            if (e.kind().equals(Port.PFC)) {
                pfc.add(e);
            }
        });
        // input 0's link: the switch's port s0 back to the upstream port up0; packets leave through port 1
        Port s0 = new Port(sim, G100, PROP);
        Port up0 = new Port(sim, G100, PROP);
        Port s1 = new Port(sim, G100, PROP);
        Port up1 = new Port(sim, G100, PROP);
        up0.setFlowControl(FlowControl.PFC, 0);
        up0.setName("A->S");
        up0.setTrace(trace, "A", false);
        // xoff 3000, xon 1000: the third 1000-byte packet pauses, the second departure resumes
        Switch sw = Switch.builder("S", sim).port(s0, up0).port(s1, up1)
                .buffer(StaticBuffer.uniform(FlowControl.PFC, 2, 100_000, 3000, 1000)).build();
        sw.routes().setRoutes(new int[] {0, 0}, new int[][] {{1}});
        s1.connect(sink(), 0);
        up0.connect(sw, 0);
        PacketPool pool = new PacketPool();
        long t0 = 5_000_000;
        sim.runUntil(t0);
        for (int k = 0; k < 3; k++) {
            sw.receive(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), 0);
        }
        assertTrue(sw.pausing(0), "the switch sent the PAUSE at " + t0);
        sim.runUntil(t0 + PROP - 1);
        assertFalse(up0.isPaused(), "still on the link");
        sim.runUntil(t0 + PROP);
        assertTrue(up0.isPaused(), "arrived one propagation delay later");
        // 1000 bytes at 100 Gb/s: 80 ns each; after the second departure (t0 + 160 ns) 1000 bytes remain: RESUME
        long resumeSent = t0 + 2 * 80_000;
        assertFalse(sw.pausing(0));
        sim.runUntil(resumeSent + PROP - 1);
        assertTrue(up0.isPaused(), "the RESUME is still on the link");
        sim.runUntil(resumeSent + PROP);
        assertFalse(up0.isPaused(), "the RESUME arrived one propagation delay after it was sent");
        assertEquals(2, pfc.size());
        assertEquals(t0 + PROP, pfc.get(0).tPs());
        assertEquals(1L, pfc.get(0).attrLong("paused", -1));
        assertEquals(resumeSent + PROP, pfc.get(1).tPs());
        assertEquals(0L, pfc.get(1).attrLong("paused", -1));
        assertEquals(resumeSent - t0, up0.pausedPs(), "paused from the PAUSE's arrival to the RESUME's");
    }

    @Test
    void aSizedFrameWaitsForThePacketOnTheWireThenTakesItsOwnTimeAsHpccsSimulatorSendsIt() {
        // HPCC's QbbNetDevice::SendPfc: a 43-byte packet in the port's highest-priority queue, sent after the packet
        // on the wire; at 25 Gb/s a 1000-byte packet takes 320 ns and the frame 13.76 ns, 13 in ns-3's clock
        DataRate g25 = DataRate.ofBitsPerSecond(25_000_000_000L);
        for (long frameBytes : new long[] {0, 43}) {
            Simulator sim = new Simulator();
            Port s0 = new Port(sim, g25, PROP); // the switch's port of input 0's link, back to the upstream port
            Port up0 = new Port(sim, g25, PROP);
            Port s1 = new Port(sim, g25, PROP);
            Port up1 = new Port(sim, g25, PROP);
            s0.setTimeResolution(1000);
            s0.setPfcFrameBytes(frameBytes);
            up0.setFlowControl(FlowControl.PFC, 0);
            Switch sw = Switch.builder("S", sim).port(s0, up0).port(s1, up1)
                    .buffer(StaticBuffer.uniform(FlowControl.PFC, 2, 100_000, 3000, 1000)).build();
            sw.routes().setRoutes(new int[] {0, 0}, new int[][] {{1}});
            s1.connect(sink(), 0);
            s0.connect(sink(), 0);
            up0.connect(sw, 0);
            PacketPool pool = new PacketPool();
            long t0 = 5_000_000;
            sim.runUntil(t0);
            // a packet leaves on the switch's port s0 (towards the upstream node) at t0, 320 ns on the wire
            s0.sendAt(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), t0);
            sim.runUntil(t0 + 100_000);
            for (int k = 0; k < 3; k++) { // the third pauses input 0, 100 ns into that packet
                sw.receive(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), 0);
            }
            assertTrue(sw.pausing(0));
            long arrives = frameBytes == 0 ? t0 + 100_000 + PROP : t0 + 320_000 + 13_000 + PROP;
            sim.runUntil(arrives - 1);
            assertFalse(up0.isPaused(), frameBytes + " B: still on its way");
            sim.runUntil(arrives);
            assertTrue(up0.isPaused(), frameBytes + " B: arrived at " + arrives);
        }
    }
}
