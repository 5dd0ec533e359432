package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * The translation-fetch model: a miss reads a block of hca.mtt_fetch_entries consecutive entries in one PCIe read,
 * and a DMA walking a region in order has the next hca.mtt_prefetch_blocks blocks read ahead of use.
 */
class TranslationFetchTest {

    private static final long MB10 = 10_000_000L;

    /** One run of RDMA Writes on two roce-100g hosts back to back. */
    static final class Run {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final Hca a;
        final Hca b;
        final QueuePair qa;
        final List<TraceEvent> misses = new ArrayList<>();
        long lastCompletion = -1;
        int completed;
        Runnable onCompletion = () -> { };

        Run(String... overrides) {
            Map<String, String> map = new LinkedHashMap<>(FabricPresets.get("roce-100g").values());
            for (int i = 0; i + 1 < overrides.length; i += 2) {
                map.put(overrides[i], overrides[i + 1]);
            }
            List<String> problems = new ArrayList<>();
            Params p = Params.defaults(FabricParams.ALL).with(map, problems);
            assertEquals(List.of(), problems);
            Topology topology = TopologyBuilder.backToBack("h").build(problems);
            TraceSource<TraceEvent> trace = new TraceSource<>("test");
            trace.subscribe(e -> {
                if (e.kind().equals(Hca.CACHE_MISS) && "mtt".equals(e.attrs().get("cache"))) {
                    misses.add(e);
                }
            });
            fabric = new Fabric(sim, topology, p, Map.of(), new RandomStreams(1), trace);
            a = fabric.hosts().get(0).hca();
            b = fabric.hosts().get(1).hca();
            qa = a.createQueuePair("a");
            QueuePair qb = b.createQueuePair("b");
            TestFabric.connectPair(qa, qb, wr -> {
                assertEquals(Dat.DTO_SUCCESS, wr.status());
                completed++;
                lastCompletion = sim.now();
                onCompletion.run();
            }, status -> {
                throw new AssertionError("broken " + status);
            });
        }

        /** Posts an RDMA Write of {@code bytes} from {@code src} to {@code dst} at {@code atPs}. */
        void write(long src, long dst, long bytes, long atPs) {
            WorkRequest wr = new WorkRequest(posted++, WorkRequest.RDMA_WRITE, qa, 0, 0, new long[] {src},
                    new long[] {bytes}, dst, 1);
            sim.scheduleAt(atPs, () -> a.postRequest(wr));
        }

        private long posted;

        /** The MTT misses traced on a host. */
        List<TraceEvent> missesOn(Hca h) {
            return misses.stream().filter(e -> e.host().equals(h.name())).toList();
        }

        /** The translation reads a host's misses issued (not the waits for a read under way). */
        List<TraceEvent> readsOn(Hca h) {
            return misses.stream().filter(e -> e.host().equals(h.name()) && e.attrs().containsKey("fetched"))
                    .toList();
        }
    }

    /**
     * A 10 MB RDMA Write between two buffers the HCAs have no translations of cached (as the flow runner's buffers,
     * which no registration preloads), posted at 0; returns its rate in Gb/s from the completion time.
     */
    private static double freshWriteGbps(Run r) {
        long src = r.a.memory().allocate(MB10);
        long dst = r.b.memory().allocate(MB10);
        r.write(src, dst, MB10, 0);
        r.sim.run();
        assertEquals(1, r.completed);
        return MB10 * 8.0 / (r.lastCompletion / 1000.0); // bits per ns = Gb/s
    }

    @Test
    void aFreshTenMegabyteWriteStreamsAtTheRateOfOneThatNeverMisses() {
        Run on = new Run();
        double cached = freshWriteGbps(on);
        double off = freshWriteGbps(new Run("hca.mtt_entries", "0", "hca.qpc_entries", "0"));
        assertTrue(cached >= 0.95 * off, "caches on " + cached + " Gb/s against " + off + " with them off");
        // Only the first block of each buffer stalls: the payload read at A and the placement at B. Its read brings
        // in the block's 8 entries; the later blocks were read ahead. At B the packets arriving while that first
        // read is under way wait for it too (traced as in_flight), within one read's time.
        long penalty = on.fabric.params().get(FabricParams.HCA_MTT_MISS_PENALTY);
        for (Hca h : new Hca[] {on.a, on.b}) {
            List<TraceEvent> reads = on.readsOn(h);
            assertEquals(1, reads.size(), h.name() + ": " + reads);
            assertEquals(8, ((Number) reads.get(0).attrs().get("fetched")).intValue());
            List<TraceEvent> m = on.missesOn(h);
            assertEquals(h.mttCache().misses(), m.size(), "one cache_miss line per miss");
            long stall = m.stream().mapToLong(e -> ((Number) e.attrs().get("penalty_ps")).longValue()).sum();
            assertTrue(stall <= 2 * penalty, h.name() + " stalled " + stall + " ps: " + m);
            assertTrue(h.mttCache().hits() >= MB10 / 4096 - 8, "every page after the first block hits");
        }
    }

    @Test
    void aFreshWriteStreamsAtTheSameRateUnderPacketArbitration() {
        double cached = freshWriteGbps(new Run("hca.arbitration", "packet"));
        double off = freshWriteGbps(new Run("hca.arbitration", "packet", "hca.mtt_entries", "0",
                "hca.qpc_entries", "0"));
        assertTrue(cached >= 0.95 * off, "caches on " + cached + " Gb/s against " + off + " with them off");
    }

    @Test
    void withOneEntryPerReadAndNoPrefetchEveryPageStallsAndTheStreamIsSlow() {
        Run perPage = new Run("hca.mtt_fetch_entries", "1", "hca.mtt_prefetch_blocks", "0");
        double slow = freshWriteGbps(perPage);
        double off = freshWriteGbps(new Run("hca.mtt_entries", "0", "hca.qpc_entries", "0"));
        assertTrue(slow < 0.7 * off, "one stall per page: " + slow + " Gb/s against " + off);
        long pages = (MB10 + 4095) / 4096;
        assertTrue(perPage.a.mttCache().misses() >= pages, "every page of the source misses");
        assertTrue(perPage.b.mttCache().misses() >= pages, "every page of the target misses");
    }

    @Test
    void blockReadsWithoutPrefetchStallOncePerBlock() {
        Run r = new Run("hca.mtt_prefetch_blocks", "0");
        long bytes = 1 << 20; // 256 pages, 32 blocks (33 when the buffer does not start on a block)
        long src = r.a.memory().allocate(bytes);
        long dst = r.b.memory().allocate(bytes);
        r.write(src, dst, bytes, 0);
        r.sim.run();
        for (Hca h : new Hca[] {r.a, r.b}) {
            long m = r.readsOn(h).size();
            assertTrue(m == 32 || m == 33, h.name() + " read " + m + " blocks");
        }
    }

    @Test
    void randomSinglePageAccessesOverARegionMuchLargerThanTheCacheMissOnNearlyEveryAccess() {
        long[] missed = new long[2];
        int writes = 500;
        for (int model = 0; model < 2; model++) {
            // model 0: block reads and prefetch (the defaults); model 1: one entry per read, no prefetch
            Run r = model == 0 ? new Run("hca.mtt_entries", "256")
                    : new Run("hca.mtt_entries", "256", "hca.mtt_fetch_entries", "1", "hca.mtt_prefetch_blocks", "0");
            long pages = 256 * 64;
            long region = r.b.memory().allocate(pages * 4096);
            long src = r.a.memory().allocate(4096);
            java.util.Random random = new java.util.Random(42);
            Runnable next = () -> {
                if (r.posted < writes) {
                    r.write(src, region + random.nextLong(pages) * 4096 + 64 * random.nextInt(63), 64, r.sim.now());
                }
            };
            r.onCompletion = next;
            next.run();
            r.sim.run();
            assertEquals(writes, r.completed);
            missed[model] = r.b.mttCache().misses();
            assertTrue(missed[model] >= 0.95 * writes, "model " + model + ": " + missed[model] + " of " + writes);
            assertTrue(r.b.mttCache().size() <= 256);
            for (TraceEvent e : r.missesOn(r.b)) {
                assertEquals(model == 0 ? 8 : 1, ((Number) e.attrs().get("fetched")).intValue(),
                        "a miss reads its block; nothing is read ahead of a single page, so nothing waits: " + e);
            }
        }
        assertTrue(Math.abs(missed[0] - missed[1]) <= 0.02 * writes, "as many misses as one read per page: "
                + missed[0] + " against " + missed[1]);
    }

    @Test
    void theReadAheadStaysWithinTheCacheAndNeedsRoomBesideTheBlockInUse() {
        long bytes = 1 << 20; // 256 pages
        long[] missesAt = new long[2];
        String[] capacity = {"24", "16"};
        for (int i = 0; i < 2; i++) {
            Run r = new Run("hca.mtt_entries", capacity[i], "hca.mtt_prefetch_blocks", "4");
            long src = r.a.memory().allocate(bytes);
            long dst = r.b.memory().allocate(bytes);
            r.write(src, dst, bytes, 0);
            r.sim.run();
            assertEquals(1, r.completed);
            assertTrue(r.a.mttCache().size() <= Integer.parseInt(capacity[i]));
            assertTrue(r.b.mttCache().size() <= Integer.parseInt(capacity[i]));
            missesAt[i] = r.a.mttCache().misses();
            assertEquals(missesAt[i], r.readsOn(r.a).size(), "A's reads never wait for a read ahead");
        }
        // 24 entries hold the block used last, the block in use and one block read ahead (not four): the walk
        // stalls once.
        assertEquals(1, missesAt[0]);
        // 16 hold no block read ahead besides the two (under LRU it would be evicted unused): a stall per block.
        assertTrue(missesAt[1] == 32 || missesAt[1] == 33, "missed " + missesAt[1]);
    }

    @Test
    void aReadAheadStillUnderWayWhenTheDmaGetsThereIsWaitedForAndTraced() {
        // A read takes 10 us, longer than the DMA takes over a block (8 pages, about 2.7 us): the DMA catches up with
        // the block read ahead and waits for the rest of its read.
        Run r = new Run("hca.mtt_miss_penalty", "10us");
        long bytes = 1 << 20;
        long src = r.a.memory().allocate(bytes);
        long dst = r.b.memory().allocate(bytes);
        r.write(src, dst, bytes, 0);
        r.sim.run();
        List<TraceEvent> m = r.missesOn(r.a);
        assertEquals(r.a.mttCache().misses(), m.size(), "one cache_miss line per miss");
        List<TraceEvent> waits = m.stream().filter(e -> Boolean.TRUE.equals(e.attrs().get("in_flight"))).toList();
        assertTrue(waits.size() >= 10, "the later blocks are waited for: " + m.size());
        for (TraceEvent e : waits) {
            long p = ((Number) e.attrs().get("penalty_ps")).longValue();
            assertTrue(p > 0 && p < 10_000_000L, "a wait is the rest of a read: " + e);
        }
    }
}
