package org.datsim.fabric.hca;

import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Lmr;
import org.junit.jupiter.api.Test;

/**
 * A small study in the spirit of Kalia et al. (USENIX ATC 2016): host A spreads small RDMA Writes round-robin over
 * its queue pairs. While the queue pairs fit in the HCA's QP-context cache, throughput does not depend on the miss
 * penalty; with four times more queue pairs than cache entries every lookup misses (LRU against a cyclic scan) and
 * throughput falls, by an amount set by the miss penalty: each work request costs the send engine the penalty more.
 */
class QpContextCacheStudyTest {

    private static final int CACHE_ENTRIES = 4;
    private static final int WRITES = 240;
    private static final int BYTES = 64;
    private static final long T0 = 200_000_000L;

    /** The result of one run: the writes' throughput and the QP-context misses on A. */
    private record Run(double gbps, long spanPs, long misses, long missEvents) {
    }

    private static Run run(int queuePairs, String penalty) {
        TestFabric tf = TestFabric.backToBack("hca.qpc_entries", Integer.toString(CACHE_ENTRIES),
                "hca.qpc_miss_penalty", penalty);
        TestFabric.Node a = tf.open("A");
        TestFabric.Node b = tf.open("B");
        EpAttributes deep = new EpAttributes(1L << 30, 1L << 30, 64, WRITES, 4, 4, Dat.COMPLETION_DEFAULT_FLAG,
                Dat.COMPLETION_DEFAULT_FLAG);
        List<Ep> eps = new ArrayList<>();
        for (int i = 0; i < queuePairs; i++) {
            Ep ea = tf.ep(a, deep);
            tf.connect(a, ea, b, tf.ep(b, deep));
            eps.add(ea);
        }
        Lmr src = tf.lmr(a, BYTES, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(b, BYTES, Dat.MEM_PRIV_ALL);
        long missesBefore = a.host.hca().qpcCache().misses();
        int eventsBefore = tf.trace.size();
        tf.at(T0, () -> {
            for (int i = 0; i < WRITES; i++) {
                tf.write(eps.get(i % queuePairs), iov(src, 0, BYTES), i, remote(dst, 0, BYTES), 0);
            }
        });
        tf.run();
        assertEquals(WRITES, tf.drain(a.reqEvd).size());
        long last = 0;
        long missEvents = 0;
        for (TraceEvent e : tf.trace.subList(eventsBefore, tf.trace.size())) {
            if (e.kind().equals(TraceEvent.COMPLETE) && e.host().equals("A")) {
                last = Math.max(last, e.tPs());
            }
            if (e.kind().equals(Hca.CACHE_MISS) && e.host().equals("A") && "qpc".equals(e.attrs().get("cache"))) {
                missEvents++;
            }
        }
        long span = last - T0;
        return new Run((double) WRITES * BYTES * 8 / span * 1000, span, a.host.hca().qpcCache().misses() - missesBefore,
                missEvents);
    }

    @Test
    void throughputFallsWhenQueuePairsOutgrowTheCacheByAnAmountSetByTheMissPenalty() {
        String[] penalties = {"0ns", "150ns", "300ns", "600ns"};
        double[] few = new double[penalties.length];
        double[] many = new double[penalties.length];
        long[] manySpan = new long[penalties.length];
        for (int i = 0; i < penalties.length; i++) {
            Run f = run(2, penalties[i]);
            Run m = run(4 * CACHE_ENTRIES, penalties[i]);
            assertEquals(0, f.misses(), "two queue pairs stay cached: no misses");
            assertTrue(m.misses() >= WRITES, "sixteen queue pairs round-robin through four entries: every WQE misses");
            assertEquals(m.misses(), m.missEvents(), "every miss is traced as cache_miss");
            few[i] = f.gbps();
            many[i] = m.gbps();
            manySpan[i] = m.spanPs();
        }
        for (int i = 1; i < penalties.length; i++) {
            assertEquals(few[0], few[i], few[0] * 1e-9, "with few queue pairs the penalty does not matter");
            assertTrue(many[i] < many[i - 1], "the drop grows with the penalty: " + many[i] + " < " + many[i - 1]);
        }
        assertEquals(few[0], many[0], few[0] * 0.05, "misses that cost nothing cost no throughput");
        assertTrue(many[3] < 0.5 * few[3], "a 600 ns miss per WQE more than halves the throughput: " + many[3]
                + " vs " + few[3] + " Gb/s");
        // Each work request costs the send engine one penalty more: the run grows by about WRITES x penalty.
        for (int i = 1; i < penalties.length; i++) {
            long penaltyPs = org.datsim.core.time.SimTime.parse(penalties[i]);
            double extra = (double) (manySpan[i] - manySpan[0]) / (WRITES * penaltyPs);
            assertEquals(1.0, extra, 0.1, "extra time per write in penalties at " + penalties[i]);
        }
    }
}
