package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Packets queued at the port hold their payload by reference (no buffer each), and RDMA Write packets keep holding
 * it on the wire until the target places them, yet carry the bytes as they were when their DMA finished: a change of
 * the source buffer while they wait or travel does not reach the target, and a change after the DMA of some packets
 * but before that of others shows only in the later ones.
 */
class PayloadByReferenceTest {

    private static final int LEN = 64 * 1024;

    private static final class Setup {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final Hca a;
        final Hca b;
        final long src;
        final long dst;
        final WorkRequest wr;

        Setup(String coherence) {
            this(coherence, "50ns");
        }

        Setup(String coherence, String latency) {
            this(coherence, latency, false);
        }

        /** With {@code shared}, payloads are kept as a partitioned fabric keeps them (Hca#setPayloadByValue). */
        Setup(String coherence, String latency, boolean shared) {
            fabric = new Fabric(sim, TopologyBuilder.backToBack("h").build(new ArrayList<>()),
                    TestFabric.params("link.bandwidth", "10Gbps", "memory.coherence", coherence, "link.latency",
                            latency), Map.of(),
                    new RandomStreams(1), new TraceSource<TraceEvent>("t"));
            a = fabric.hosts().get(0).hca();
            b = fabric.hosts().get(1).hca();
            if (shared) {
                a.setPayloadByValue();
                b.setPayloadByValue();
            }
            QueuePair qa = a.createQueuePair("a");
            QueuePair qb = b.createQueuePair("b");
            TestFabric.connectPair(qa, qb, w -> { }, status -> { });
            src = a.memory().allocate(LEN);
            dst = b.memory().allocate(LEN);
            a.memory().cpuFill(src, LEN, (byte) 1);
            wr = new WorkRequest(1, WorkRequest.RDMA_WRITE, qa, 1, 0, new long[] {src}, new long[] {LEN}, dst, 1);
            a.postRequest(wr);
        }

        byte[] landed() {
            byte[] out = new byte[LEN];
            b.memory().dmaRead(dst, out, 0, LEN); // as the HCA sees it (the CPU of an I/O non-coherent host may not)
            return out;
        }
    }

    @Test
    void aChangeWhileThePacketsWaitAtThePortDoesNotReachTheTarget() {
        Setup s = new Setup("coherent");
        // All 16 packets are read by 7 us; at 10 Gb/s the last one starts on the wire after about 50 us.
        s.sim.scheduleAt(20_000_000L, () -> s.a.memory().cpuFill(s.src, LEN, (byte) 2));
        s.sim.run();
        assertEquals(WcStatus.SUCCESS, s.wr.status());
        byte[] ones = new byte[LEN];
        Arrays.fill(ones, (byte) 1);
        assertArrayEquals(ones, s.landed());
        assertTrue(s.fabric.packetPool().created() < 30);
    }

    @Test
    void aChangeWhileThePacketsAreOnTheirWayDoesNotReachTheTarget() {
        for (String coherence : new String[] {"coherent", "cpu_noncoherent"}) {
            Setup s = new Setup(coherence, "100us");
            s.a.memory().syncForRdmaRead(s.src, LEN); // the CPU's first bytes reach memory before the DMA reads
            // At 10 Gb/s the 16 packets have all left the port by about 55 us; the first lands after 100 us. The
            // change (the CPU's bytes, written back to memory on a non-coherent host) comes between.
            s.sim.scheduleAt(70_000_000L, () -> {
                s.a.memory().cpuFill(s.src, LEN, (byte) 2);
                s.a.memory().syncForRdmaRead(s.src, LEN);
            });
            long[] landedAtChange = new long[1];
            s.sim.scheduleAt(70_000_001L, () -> landedAtChange[0] = s.landed()[0]);
            s.sim.run();
            assertEquals(0, landedAtChange[0], coherence + ": nothing had landed when the source changed");
            assertEquals(WcStatus.SUCCESS, s.wr.status());
            byte[] ones = new byte[LEN];
            Arrays.fill(ones, (byte) 1);
            assertArrayEquals(ones, s.landed(), coherence);
        }
    }

    @Test
    void withoutAChangeTheBytesLandAsRead() {
        Setup s = new Setup("coherent", "100us");
        s.sim.run();
        byte[] ones = new byte[LEN];
        Arrays.fill(ones, (byte) 1);
        assertArrayEquals(ones, s.landed());
        // and the source may change afterwards without effect on what landed
        s.a.memory().cpuFill(s.src, LEN, (byte) 3);
        assertArrayEquals(ones, s.landed());
    }

    @Test
    void aChangeDuringTheDmaShowsOnlyInThePacketsReadAfterIt() {
        for (String coherence : new String[] {"coherent", "io_noncoherent"}) {
            Setup s = new Setup(coherence);
            // The payload DMA starts about 0.9 us after the post and reads a 4 KiB packet every 256 ns.
            s.sim.scheduleAt(2_000_000L, () -> s.a.memory().cpuFill(s.src, LEN, (byte) 2));
            s.sim.run();
            byte[] got = s.landed();
            int firstTwo = -1;
            for (int i = 0; i < LEN; i++) {
                if (got[i] == 2) {
                    firstTwo = i;
                    break;
                }
            }
            assertTrue(firstTwo > 0 && firstTwo % 4096 == 0, coherence + ": new bytes from a packet boundary on, at "
                    + firstTwo);
            for (int i = 0; i < LEN; i++) {
                assertEquals(i < firstTwo ? 1 : 2, got[i], coherence + " byte " + i);
            }
        }
    }

    /**
     * As a partitioned fabric keeps them (the target placing them in another thread): an RDMA Write's packets hold
     * the source's memory pages, shared copy-on-write, without a copy or a buffer. A change of the source while they
     * wait, travel, or before the DMA of the later packets behaves as by reference: the target gets the bytes of each
     * packet's DMA read, and the source the new bytes.
     */
    @Test
    void sharedPagesKeepTheBytesOfTheDmaReadWhateverTheSourceDoesAfter() {
        for (long changeAt : new long[] {20_000_000L, 70_000_000L}) {
            Setup s = new Setup("coherent", "100us", true);
            s.sim.scheduleAt(changeAt, () -> s.a.memory().cpuFill(s.src, LEN, (byte) 2));
            s.sim.run();
            assertEquals(WcStatus.SUCCESS, s.wr.status());
            byte[] ones = new byte[LEN];
            Arrays.fill(ones, (byte) 1);
            assertArrayEquals(ones, s.landed(), "changed at " + changeAt);
            byte[] twos = new byte[LEN];
            Arrays.fill(twos, (byte) 2);
            byte[] src = new byte[LEN];
            s.a.memory().dmaRead(s.src, src, 0, LEN);
            assertArrayEquals(twos, src, "the source changed (to a copy of each shared page)");
            assertEquals(0, s.fabric.packetPool().buffersCreated(), "no payload buffer");
        }
        Setup s = new Setup("coherent", "50ns", true);
        s.sim.scheduleAt(2_000_000L, () -> s.a.memory().cpuFill(s.src, LEN, (byte) 2)); // during the DMA
        s.sim.run();
        byte[] got = s.landed();
        int firstTwo = -1;
        for (int i = 0; i < LEN && firstTwo < 0; i++) {
            firstTwo = got[i] == 2 ? i : -1;
        }
        assertTrue(firstTwo > 0 && firstTwo % 4096 == 0, "new bytes from a packet boundary on, at " + firstTwo);
        for (int i = 0; i < LEN; i++) {
            assertEquals(i < firstTwo ? 1 : 2, got[i], "byte " + i);
        }
    }
}
