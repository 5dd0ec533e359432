package org.datsim.fabric.cc;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The algorithms' dynamics on {@link BottleneckHarness}: no datsim network, just the classes, a 100 Gb/s bottleneck
 * queue with HPCC's RED marking for 100 Gb/s (kmin 400 KB, kmax 1600 KB, pmax 0.2) and 1 us links.
 */
class CcDynamicsTest {

    static final long US = 1_000_000L;
    static final long LINE = 100_000_000_000L;
    static final long KMIN = 400_000;
    static final long KMAX = 1_600_000;
    /** Payload share of the wire at 1000 B payload in 1048 B packets: the goodput of a saturated link. */
    static final double GOODPUT = LINE * 1000.0 / 1048;

    /** HPCC run.py --cc dcqcn_paper: the paper's timers (alpha 50 us, decrease 50 us, increase 55 us). */
    static final Dcqcn.Config PAPER = new Dcqcn.Config(1_000_000_000L, 50 * US, 50 * US, 55 * US, 1.0 / 256, 1,
            20_000_000L, 200_000_000L, false, 0);

    private static double[] goodputOverWindows(BottleneckHarness h, long fromPs, long toPs, long windowPs) {
        int windows = (int) ((toPs - fromPs) / windowPs);
        double[] out = new double[windows * h.n];
        h.runUntil(fromPs, Long.MAX_VALUE / 4, null);
        long[] last = h.deliveredBytes.clone();
        int[] w = {0};
        h.runUntil(toPs, windowPs, x -> {
            if (w[0] < windows) {
                for (int i = 0; i < h.n; i++) {
                    out[w[0] * h.n + i] = (h.deliveredBytes[i] - last[i]) * 8 / (windowPs * 1e-12);
                    last[i] = h.deliveredBytes[i];
                }
            }
            w[0]++;
            return null;
        });
        return out;
    }

    @Test
    void twoDcqcnFlowsConvergeToFairShares() {
        BottleneckHarness h = new BottleneckHarness(2, LINE, 1 * US, KMIN, KMAX, 0.2, 0,
                (i, t) -> new Dcqcn(LINE, PAPER, t));
        h.start(0, 0);
        long join = 2_000 * US;
        h.start(1, join);
        h.maxQueueAfterPs = 0;
        // 1 ms windows from the join to 40 ms after it
        double[] g = goodputOverWindows(h, join, join + 40_000 * US, 1_000 * US);
        int converged = -1;
        for (int w = 0; w < g.length / 2; w++) {
            double a = g[2 * w];
            double b = g[2 * w + 1];
            assertTrue(a + b > 0.9 * GOODPUT, "the bottleneck stays busy: window " + w + ": " + (a + b));
            boolean fair = Math.abs(a - b) <= 0.1 * (a + b);
            if (fair && converged < 0) {
                converged = w;
            } else if (!fair) {
                converged = -1;
            }
        }
        assertTrue(converged >= 0, "the two flows end within 10% of each other");
        // measured: from 11 ms on. 15 ms is this harness's bound, not a figure derived from the paper.
        assertTrue(converged <= 15, "and stay there from at most 15 ms after the second joined: " + converged);
        assertTrue(h.maxQueueAfter > KMIN && h.maxQueueAfter < KMAX, "the queue is marked but never reaches kmax: "
                + h.maxQueueAfter);
    }

    @Test
    void dcqcnIncastOf16SettlesWithTheQueueBelowKmax() {
        // With HPCC's DCQCN parameters the first cuts take every sender to cc.min_rate within tens of microseconds,
        // the initial backlog (above kmax) drains while every packet is marked, and the rates recover only at the
        // 300 us increase timer: the queue overshoots kmax a few times in the first 2.5 ms (about 600 RTTs), and from
        // 3 ms on it stays below kmax.
        BottleneckHarness h = new BottleneckHarness(16, LINE, 1 * US, KMIN, KMAX, 0.2, 0,
                (i, t) -> new Dcqcn(LINE, DcqcnTest.hpccConfig(), t));
        for (int i = 0; i < 16; i++) {
            h.start(i, 0);
        }
        h.maxQueueAfterPs = 3_000 * US;
        h.runUntil(10_000 * US, Long.MAX_VALUE / 4, null);
        assertTrue(h.cnps > 0);
        assertTrue(h.maxQueueAfter < KMAX, "queue below kmax from 3 ms on: " + h.maxQueueAfter);
        long delivered = 0;
        for (long d : h.deliveredBytes) {
            delivered += d;
        }
        assertTrue(delivered * 8 / 10e-3 > 0.8 * GOODPUT, "and the link mostly busy: " + delivered * 8 / 10e-3);
    }

    @Test
    void withoutCongestionControlTheSameIncastQueueGrowsWithoutBound() {
        BottleneckHarness h = new BottleneckHarness(16, LINE, 1 * US, KMIN, KMAX, 0.2, 0, (i, t) -> new NoCc(LINE));
        for (int i = 0; i < 16; i++) {
            h.start(i, 0);
        }
        h.runUntil(200 * US, Long.MAX_VALUE / 4, null);
        assertTrue(h.queueBytes() > 10 * KMAX, "15 line rates of excess for 200 us: " + h.queueBytes());
    }

    @Test
    void hpccIncastOf16StopsTheQueueGrowingAfterOneRttAndThenKeepsItNearZero() {
        long rtt = new BottleneckHarness(1, LINE, 1 * US, 0, 1, 0, 0, (i, t) -> new NoCc(LINE)).baseRttPs();
        long bdp = rtt * LINE / 8 / 1_000_000_000_000L;
        Hpcc.Config cfg = new Hpcc.Config(1_000_000_000L, 0.95, 40_000_000L, 0, true);
        BottleneckHarness h = new BottleneckHarness(16, LINE, 1 * US, KMIN, KMAX, 0.2, 0,
                (i, t) -> new Hpcc(LINE, cfg, rtt, bdp));
        for (int i = 0; i < 16; i++) {
            h.start(i, 0);
        }
        // the first RTT: every sender puts its window (one BDP) on the wire before any feedback
        h.runUntil(2 * rtt, Long.MAX_VALUE / 4, null);
        long atTwoRtts = h.queueBytes();
        assertTrue(atTwoRtts <= 16 * bdp, "no more than the 16 initial windows: " + atTwoRtts);
        h.maxQueueAfterPs = 2 * rtt;
        // the backlog drains at line rate while the senders send at about eta of it in all
        long drain = 16 * bdp * 8 * 1_000_000_000_000L / LINE + 10 * rtt;
        h.runUntil(drain, Long.MAX_VALUE / 4, null);
        assertTrue(h.maxQueueAfter <= atTwoRtts + 2 * BottleneckHarness.WIRE,
                "after one RTT of feedback the queue no longer grows: " + h.maxQueueAfter + " vs " + atTwoRtts);
        h.maxQueueAfter = 0;
        h.maxQueueAfterPs = drain;
        long[] before = h.deliveredBytes.clone();
        h.runUntil(drain + 2_000 * US, Long.MAX_VALUE / 4, null);
        // measured: at most about 32 KB (30 packets, 2.6 us at 100 Gb/s), against 834 KB before the feedback
        assertTrue(h.maxQueueAfter <= bdp, "then the queue stays near zero (below one BDP, " + bdp + " B): "
                + h.maxQueueAfter);
        long delivered = 0;
        for (int i = 0; i < 16; i++) {
            delivered += h.deliveredBytes[i] - before[i];
        }
        double goodput = delivered * 8 / 2e-3;
        assertTrue(goodput > 0.9 * GOODPUT, "with the link busy: " + goodput);
    }
}
