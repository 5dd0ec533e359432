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
            }, status -> {
                throw new AssertionError("broken " + status);
            });
        }

        /** Posts an RDMA Write of {@code bytes} from {@code src} to {@code dst} at {@code atPs}. */
        void write(long src, long dst, long bytes, long atPs) {
            WorkRequest wr = new WorkRequest(completed + 1000, WorkRequest.RDMA_WRITE, qa, 0, 0, new long[] {src},
                    new long[] {bytes}, dst, 1);
            sim.scheduleAt(atPs, () -> a.postRequest(wr));
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
        double cached = freshWriteGbps(new Run());
        double off = freshWriteGbps(new Run("hca.mtt_entries", "0", "hca.qpc_entries", "0"));
        System.out.printf("fresh 10 MB write: caches on %.2f Gb/s, caches off %.2f Gb/s%n", cached, off);
        assertTrue(cached >= 0.95 * off, "caches on " + cached + " Gb/s against " + off + " with them off");
    }
}
