package org.datsim.fabric.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** DCQCN's reaction and notification points against Zhu et al. 2015 and HPCC's rdma-hw.cc (Mlx version). */
class DcqcnTest {

    static final long US = 1_000_000L;
    static final long LINE = 100_000_000_000L;
    static final double G = 1.0 / 256;

    /** HPCC run.py --cc dcqcn --bw 100 (config-dcqcn.txt). */
    static Dcqcn.Config hpccConfig() {
        return new Dcqcn.Config(1_000_000_000L, 1 * US, 4 * US, 300 * US, G, 1, 20_000_000L, 200_000_000L, false, 0);
    }

    private static Dcqcn make(Dcqcn.Config c, ManualTimers t) {
        Dcqcn d = new Dcqcn(LINE, c, t);
        t.attach(d);
        d.start(0);
        return d;
    }

    @Test
    void firstCnpCutsAtTheNextDecreaseCheckToRateTimesOneMinusHalfAlpha() {
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(hpccConfig(), t);
        d.onCnp(0);
        assertEquals(LINE, d.rateBps(), "a CNP only sets flags; the cut waits for the decrease check");
        assertEquals(1 * US, t.due(Dcqcn.TIMER_ALPHA));
        assertEquals(4 * US + 1_000, t.due(Dcqcn.TIMER_RATE_DECREASE));
        t.advanceTo(4 * US + 1_000);
        // alpha starts at 1 and decays at 1, 2, 3 and 4 us (no CNP since the first)
        double alpha = Math.pow(1 - G, 4);
        assertEquals(alpha, d.alpha(), 1e-15);
        assertEquals((long) (LINE * (1 - alpha / 2)), d.rateBps());
        assertEquals(LINE, d.targetRateBps(), "no clamp: the first cut keeps the target at the old rate");
        assertTrue(t.pending(Dcqcn.TIMER_RATE_INCREASE));
        assertEquals(4 * US + 1_000 + 300 * US, t.due(Dcqcn.TIMER_RATE_INCREASE));
    }

    @Test
    void alphaRisesByGOnACnpAndDecaysByOneMinusGWithout() {
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(hpccConfig(), t);
        d.onCnp(0);
        t.advanceTo(1 * US);
        assertEquals(1 - G, d.alpha(), 1e-15);
        d.onCnp(t.now() + 500_000);
        t.advanceTo(2 * US);
        assertEquals((1 - G) * (1 - G) + G, d.alpha(), 1e-15);
        double a = d.alpha();
        t.advanceTo(102 * US);
        assertEquals(a * Math.pow(1 - G, 100), d.alpha(), 1e-12);
    }

    @Test
    void atMostOneCutPerRateDecreaseInterval() {
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(hpccConfig(), t);
        d.onCnp(0);
        t.advanceTo(4 * US + 1_000);
        long afterFirst = d.rateBps();
        for (long x = 4 * US + 2_000; x < 8 * US; x += 100_000) {
            t.advanceTo(x);
            d.onCnp(x);
        }
        assertEquals(afterFirst, d.rateBps(), "CNPs within one interval wait for the next check");
        t.advanceTo(8 * US + 1_000);
        double alpha = d.alpha(); // updated at 8 us, 1 ns before the check
        assertEquals((long) (afterFirst * (1 - alpha / 2)), d.rateBps(), "one cut for all of them");
        assertEquals(LINE, d.targetRateBps(), "no increase since the last cut: the target is not clamped");
    }

    @Test
    void fastRecoveryThenAdditiveThenHyperIncreaseWithHpccsStages() {
        // F = 5 as the paper, timer only (HPCC's Mlx version): stages 0..4 fast recovery, 5 additive, 6.. hyper
        Dcqcn.Config c = new Dcqcn.Config(1_000_000_000L, 1 * US, 4 * US, 55 * US, G, 5, 40_000_000L,
                400_000_000L, false, 0);
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(c, t);
        d.onCnp(0);
        long cut = 4 * US + 1_000;
        t.advanceTo(cut);
        long rate = d.rateBps();
        long target = d.targetRateBps();
        for (int stage = 0; stage < 9; stage++) {
            t.advanceTo(cut + (stage + 1) * 55 * US);
            if (stage < 5) {
                // fast recovery: halfway to the target, target unchanged
            } else if (stage == 5) {
                target = Math.min(LINE, target + 40_000_000L);
            } else {
                target = Math.min(LINE, target + 400_000_000L);
            }
            rate = rate / 2 + target / 2;
            assertEquals(target, d.targetRateBps(), "target after increase event " + (stage + 1));
            assertEquals(rate, d.rateBps(), "rate after increase event " + (stage + 1));
            assertEquals(stage + 1, d.timeStage());
        }
    }

    @Test
    void aCutAfterAnIncreaseClampsTheTargetToTheRateAndRestartsTheStages() {
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(hpccConfig(), t);
        d.onCnp(0);
        long cut = 4 * US + 1_000;
        t.advanceTo(cut + 300 * US); // one fast-recovery step
        assertEquals(1, d.timeStage());
        long rate = d.rateBps();
        d.onCnp(t.now());
        t.advanceTo(cut + 300 * US + 4 * US); // the next decrease check
        assertEquals(rate, d.targetRateBps());
        assertEquals(0, d.timeStage());
        assertTrue(d.rateBps() < rate);
    }

    @Test
    void theByteCounterDrivesIncreaseEventsToo() {
        Dcqcn.Config c = new Dcqcn.Config(1_000_000_000L, 1 * US, 4 * US, 300 * US, G, 2, 40_000_000L,
                400_000_000L, true, 10_000);
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(c, t);
        d.onPacketSent(0, 1000);
        assertEquals(0, d.byteStage(), "the byte counter runs only after a cut");
        d.onCnp(0);
        t.advanceTo(4 * US + 1_000);
        long firstCut = d.rateBps();
        d.onCnp(t.now());
        t.advanceTo(8 * US + 1_000);
        long rate = d.rateBps();
        long target = d.targetRateBps();
        assertEquals(firstCut, target, "clamped: the target is the rate before the cut");
        for (int i = 0; i < 9; i++) {
            d.onPacketSent(t.now(), 1000);
        }
        assertEquals(0, d.byteStage());
        d.onPacketSent(t.now(), 1000);
        assertEquals(1, d.byteStage());
        assertEquals(rate / 2 + target / 2, d.rateBps(), "fast recovery while both counters are below F");
        rate = d.rateBps();
        for (int i = 0; i < 20; i++) {
            d.onPacketSent(t.now(), 1000);
        }
        // byte stage 1 -> fast recovery (max 1 < 2), byte stage 2 -> additive (max 2 = F, min 0)
        assertEquals(3, d.byteStage());
        rate = rate / 2 + target / 2;
        target += 40_000_000L;
        rate = rate / 2 + target / 2;
        assertEquals(target, d.targetRateBps());
        assertEquals(rate, d.rateBps());
    }

    @Test
    void rateStaysBetweenMinRateAndLineRate() {
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(hpccConfig(), t);
        long now = 0;
        for (int i = 0; i < 2000; i++) {
            d.onCnp(now);
            now += 4 * US;
            t.advanceTo(now);
            assertTrue(d.rateBps() >= 1_000_000_000L, "at or above min rate");
        }
        assertEquals(1_000_000_000L, d.rateBps(), "sustained CNPs drive it to the min rate");
        for (int i = 0; i < 5000; i++) {
            now += 300 * US;
            t.advanceTo(now);
            assertTrue(d.rateBps() <= LINE && d.targetRateBps() <= LINE, "at or below line rate");
        }
        assertEquals(LINE, d.targetRateBps(), "without CNPs the target climbs back to line rate");
        assertTrue(d.rateBps() >= LINE - 2, "and the rate with it (halving truncates)");
    }

    @Test
    void stopCancelsEveryTimer() {
        ManualTimers t = new ManualTimers();
        Dcqcn d = make(hpccConfig(), t);
        d.onCnp(0);
        t.advanceTo(5 * US);
        d.stop();
        for (int id = 0; id < d.timerCount(); id++) {
            assertFalse(t.pending(id));
        }
    }

    @Test
    void notificationPointSendsAtMostOneCnpPerInterval() {
        DcqcnNotificationPoint np = new DcqcnNotificationPoint(50 * US);
        assertTrue(np.onMarkedPacket(10 * US));
        int sent = 1;
        for (long x = 10 * US + 100_000; x < 210 * US; x += 100_000) {
            if (np.onMarkedPacket(x)) {
                sent++;
            }
        }
        assertEquals(4, sent, "marks every 0.1 us for 200 us: CNPs at 10, 60, 110, 160 us");
        assertTrue(np.onMarkedPacket(210 * US));
        DcqcnNotificationPoint every = new DcqcnNotificationPoint(0);
        assertTrue(every.onMarkedPacket(5));
        assertTrue(every.onMarkedPacket(5), "interval 0: every marked packet (HPCC's simulator)");
    }
}
