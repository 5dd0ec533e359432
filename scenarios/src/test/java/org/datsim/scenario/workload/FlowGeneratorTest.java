package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.datsim.core.random.RandomStreams;
import org.junit.jupiter.api.Test;

/** Poisson arrivals at a load, the destination patterns, and determinism. */
class FlowGeneratorTest {

    private static final long MS = 1_000_000_000L;

    private static long[] rates(int n, long bps) {
        long[] r = new long[n];
        Arrays.fill(r, bps);
        return r;
    }

    private static List<Flow> uniform(long seed, double load, long durationPs) {
        return FlowGenerator.generate(FlowSizeCdf.named("FbHdp"), FlowGenerator.Pattern.UNIFORM,
                rates(32, 100_000_000_000L), load, 0, durationPs, -1, 0, new RandomStreams(seed));
    }

    @Test
    void sameSeedSameFlowsOtherSeedOtherFlows() {
        List<Flow> a = uniform(5, 0.3, 2 * MS);
        assertEquals(a, uniform(5, 0.3, 2 * MS));
        assertNotEquals(a, uniform(6, 0.3, 2 * MS));
    }

    @Test
    void offeredBytesMatchTheLoadAndFlowsAreInStartOrder() {
        for (double load : new double[] {0.3, 0.7}) {
            long duration = 1000 * MS;
            List<Flow> flows = FlowGenerator.generate(FlowSizeCdf.named("WebSearch"), FlowGenerator.Pattern.UNIFORM,
                    rates(32, 100_000_000_000L), load, 0, duration, -1, 0, new RandomStreams(11));
            long bytes = 0;
            long last = -1;
            for (Flow f : flows) {
                assertTrue(f.src() != f.dst());
                assertTrue(f.startPs() >= last && f.startPs() <= duration);
                last = f.startPs();
                bytes += f.sizeBytes();
            }
            double capacity = 32 * 100e9 / 8 * (duration / 1e12); // bytes the 32 host links carry in the duration
            // 70,000 to 160,000 WebSearch flows (sizes' deviation 2.3 x their mean, so a standard error under 1%):
            // the offered load within 3% of the target
            assertEquals(load, bytes / capacity, load * 0.03, "load " + load);
            // and the number of flows as HPCC's estimate: duration / mean gap x hosts
            double expected = duration / (FlowSizeCdf.named("WebSearch").mean() * 8 / (100e9 * load) * 1e12) * 32;
            assertEquals(expected, flows.size(), expected * 0.02);
        }
    }

    @Test
    void permutationGivesEveryHostOneOtherDestination() {
        List<Flow> flows = FlowGenerator.generate(FlowSizeCdf.named("WebSearch"), FlowGenerator.Pattern.PERMUTATION,
                rates(16, 100_000_000_000L), 0.5, 0, 5 * MS, -1, 0, new RandomStreams(3));
        int[] dst = new int[16];
        Arrays.fill(dst, -1);
        for (Flow f : flows) {
            assertTrue(f.src() != f.dst());
            assertTrue(dst[f.src()] == -1 || dst[f.src()] == f.dst(), "one destination per source");
            dst[f.src()] = f.dst();
        }
        boolean[] hit = new boolean[16];
        for (int d : dst) {
            if (d >= 0) {
                assertTrue(!hit[d], "a permutation: no destination twice");
                hit[d] = true;
            }
        }
    }

    @Test
    void incastSendsFromNSendersToTheTargetAtTheTargetsLoad() {
        long duration = 1000 * MS; // about 150,000 flows
        List<Flow> flows = FlowGenerator.generate(FlowSizeCdf.named("AliStorage2019"), FlowGenerator.Pattern.INCAST,
                rates(32, 100_000_000_000L), 0.5, 0, duration, 7, 4, new RandomStreams(9));
        java.util.Set<Integer> senders = new java.util.TreeSet<>();
        long bytes = 0;
        for (Flow f : flows) {
            assertEquals(7, f.dst());
            senders.add(f.src());
            bytes += f.sizeBytes();
        }
        assertEquals(4, senders.size());
        assertTrue(!senders.contains(7));
        assertEquals(0.5, bytes / (100e9 / 8 * duration / 1e12), 0.5 * 0.04);
    }

    @Test
    void derangementHasNoFixedPoint() {
        for (int n = 2; n < 40; n++) {
            int[] p = FlowGenerator.derangement(n, new org.apache.commons.math3.random.Well512a(n));
            boolean[] seen = new boolean[n];
            for (int i = 0; i < n; i++) {
                assertTrue(p[i] != i);
                assertTrue(!seen[p[i]]);
                seen[p[i]] = true;
            }
        }
    }
}
