package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Lmr;
import org.junit.jupiter.api.Test;

/** The MTT/MPT cache on the DMA paths, and inline Sends and Writes. */
class CacheAndInlineTest {

    private static final long T0 = 100_000_000L;

    /** Writes 16 KiB (four pages) from A to B and returns the place time at B; fills {@code misses} per host. */
    private static long write16k(TestFabric.Pair p, List<TraceEvent> missEvents) {
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 16384, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 16384, Dat.MEM_PRIV_ALL);
        TestFabric.cpuWrite(p.a, src, 0, TestFabric.randomBytes(16384, 9));
        long[] op = new long[1];
        int before = tf.trace.size();
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, 16384), 1, remote(dst, 0, 16384), 0));
        tf.run();
        for (TraceEvent e : tf.trace.subList(before, tf.trace.size())) {
            if (e.kind().equals(Hca.CACHE_MISS)) {
                missEvents.add(e);
            }
        }
        assertArrayEquals(TestFabric.cpuRead(p.a, src, 0, 16384), TestFabric.cpuRead(p.b, dst, 0, 16384));
        return tf.event(TraceEvent.PLACE, "B", op[0]).tPs();
    }

    @Test
    void mttMissesStallTheDmaOfPagesTheCacheDoesNotHold() {
        List<TraceEvent> none = new ArrayList<>();
        long unlimited = write16k(TestFabric.pair("hca.mtt_entries", "0"), none);
        assertEquals(List.of(), none, "an unlimited cache never misses");

        // One entry per translation read and no read-ahead: each page missed stalls on its own (the block reads and
        // the prefetch are TranslationFetchTest's).
        TestFabric.Pair p = TestFabric.pair("hca.mtt_entries", "2", "hca.mtt_miss_penalty", "400ns",
                "hca.mtt_fetch_entries", "1", "hca.mtt_prefetch_blocks", "0");
        List<TraceEvent> misses = new ArrayList<>();
        long small = write16k(p, misses);
        // Registration leaves the last two pages of each 4-page region cached; the DMA walks pages 0..3 in order,
        // and LRU over two entries misses all four on each side.
        long onA = misses.stream().filter(e -> e.host().equals("A")).count();
        long onB = misses.stream().filter(e -> e.host().equals("B")).count();
        assertEquals(4, onA);
        assertEquals(4, onB);
        assertEquals(4, p.a.host.hca().mttCache().misses());
        assertEquals(4, p.b.host.hca().mttCache().misses());
        for (TraceEvent e : misses) {
            assertEquals("mtt", e.attrs().get("cache"));
            assertEquals(400_000L, e.attrs().get("penalty_ps"));
            assertEquals(0L, (Long) e.attrs().get("key") % 4096, "the key is the page's address");
        }
        assertTrue(small - unlimited >= 4 * 400_000L, "the requester's four stalls delay the placement at least: "
                + (small - unlimited));
    }

    @Test
    void anInlineWriteSkipsTheWqeFetchAndThePayloadReadAndCarriesThePostTimeBytes() {
        long[] place = new long[2];
        for (int inline = 0; inline < 2; inline++) {
            TestFabric.Pair p = TestFabric.pair("hca.max_inline", inline == 1 ? "256B" : "0B");
            TestFabric tf = p.tf;
            Lmr src = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
            Lmr dst = tf.lmr(p.b, 64, Dat.MEM_PRIV_ALL);
            byte[] before = TestFabric.randomBytes(64, 1);
            byte[] after = TestFabric.randomBytes(64, 2);
            TestFabric.cpuWrite(p.a, src, 0, before);
            long[] op = new long[1];
            tf.at(T0, () -> {
                op[0] = tf.write(p.epA, iov(src, 0, 64), 1, remote(dst, 0, 64), 0);
                TestFabric.cpuWrite(p.a, src, 0, after); // the consumer reuses its buffer at once
            });
            tf.run();
            place[inline] = tf.event(TraceEvent.PLACE, "B", op[0]).tPs();
            // Inline: the CPU copied the bytes into the WQE at the post. Not inline: the HCA's DMA read them later.
            assertArrayEquals(inline == 1 ? before : after, TestFabric.cpuRead(p.b, dst, 0, 64));
        }
        long pcie = TestFabric.params().get(FabricParams.PCIE_LATENCY);
        // The WQE fetch and the payload read are two PCIe round trips; the WQE and payload bytes now ride the doorbell.
        assertEquals(4 * pcie, place[0] - place[1], 2);
    }

    @Test
    void inlineSendsAboveTheThresholdAreNotInline() {
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "32B");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 64, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 64, Dat.MEM_PRIV_ALL);
        byte[] after = TestFabric.randomBytes(64, 2);
        tf.at(T0, () -> {
            tf.write(p.epA, iov(src, 0, 64), 1, remote(dst, 0, 64), 0);
            TestFabric.cpuWrite(p.a, src, 0, after);
        });
        tf.run();
        assertArrayEquals(after, TestFabric.cpuRead(p.b, dst, 0, 64), "64 B > max_inline: read by DMA later");
    }

    @Test
    void aPlainDoorbellOvertakesAnInlineOnePostedJustBefore() {
        // An inline doorbell carries the WQE and payload, so it reaches the HCA later than a plain one posted at the
        // same moment: the plain one's work request is taken up first (and each doorbell finds its own request).
        TestFabric.Pair p = TestFabric.pair("hca.max_inline", "1KiB", "cpu.post_overhead", "0ns");
        TestFabric tf = p.tf;
        Lmr src = tf.lmr(p.a, 8192, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, 8192, Dat.MEM_PRIV_ALL);
        TestFabric.cpuWrite(p.a, src, 0, TestFabric.randomBytes(8192, 5));
        long[] op = new long[2];
        tf.at(T0, () -> {
            op[0] = tf.write(p.epA, iov(src, 0, 1024), 1, remote(dst, 0, 1024), 0);
            op[1] = tf.write(p.epA, iov(src, 1024, 4096), 2, remote(dst, 1024, 4096), 0);
        });
        tf.run();
        long inlineStart = tf.event(TraceEvent.START, "A", op[0]).tPs();
        long plainStart = tf.event(TraceEvent.START, "A", op[1]).tPs();
        long pcie = TestFabric.params().get(FabricParams.PCIE_LATENCY);
        assertEquals(T0 + pcie, plainStart, "the plain doorbell arrives a PCIe latency after the post");
        assertTrue(inlineStart > plainStart, "the inline doorbell (1 KiB + WQE at PCIe's rate) arrives later");
        assertArrayEquals(TestFabric.cpuRead(p.a, src, 0, 5120), TestFabric.cpuRead(p.b, dst, 0, 5120));
    }
}
