package org.datsim.fabric.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * TIMELY's rate rules as HPCC's UpdateRateTimely, with HPCC's attributes (alpha 0.875, beta 0.8, T_low 50 us,
 * T_high 500 us, minRTT 20 us) and run.py's steps at 100 Gb/s (AI 100 Mb/s, HAI 500 Mb/s).
 */
class TimelyTest {

    static final long US = 1_000_000L;
    static final long LINE = 100_000_000_000L;
    static final long MIN = 1_000_000_000L;
    static final long AI = 100_000_000L;
    static final long HAI = 500_000_000L;
    static final Timely.Config HPCC = new Timely.Config(MIN, 0.875, 0.8, 50 * US, 500 * US, 20 * US, AI, HAI);

    /** Feeds ACKs that are each a full RTT of feedback (beyond the sequence sent at the previous update). */
    private static final class Feed {
        final Timely t = new Timely(LINE, HPCC);
        long seq;
        long now = 100_000 * US;

        /** An ACK arriving now + 10 us whose echoed send time is rtt before its arrival. */
        void ack(long rttPs) {
            now += 10 * US;
            long ackSeq = seq + 1000;
            seq += 10_000;
            t.onAck(now, ackSeq, seq, false, null, now - rttPs);
        }
    }

    @Test
    void startsAtLineRateWithoutAWindowAndTheFirstFullAckOnlyRecordsItsRtt() {
        Feed f = new Feed();
        assertEquals(LINE, f.t.rateBps());
        assertEquals(RateController.NO_WINDOW, f.t.windowBytes());
        f.ack(700 * US); // above T_high: would cut if it were not the first
        assertEquals(LINE, f.t.rateBps(), "the first RTT only records");
        assertEquals(700 * US, f.t.lastRttPs());
        assertEquals(0, f.t.incStage());
        f.ack(700 * US); // second sample, equal: gradient 0 but above T_high -> decrease
        assertTrue(f.t.rateBps() < LINE);
    }

    @Test
    void belowTLowIncreasesByRateAiThenByRateHaiAfterFiveIncreases() {
        Feed f = new Feed();
        f.ack(100 * US);
        f.ack(1_000 * US); // above T_high: c = 1 - 0.8 (1 - 500/1000) = 0.6
        long r = (long) (LINE * (1 - 0.8 * (1 - 500.0 / 1000)));
        assertEquals(r, f.t.rateBps());
        for (int i = 1; i <= 5; i++) {
            f.ack(10 * US); // below T_low, whatever the (here hugely negative) gradient
            r += AI;
            assertEquals(r, f.t.rateBps(), "increase " + i + " adds rate_ai");
            assertEquals(i, f.t.incStage());
        }
        for (int i = 6; i <= 8; i++) {
            f.ack(10 * US);
            r += HAI;
            assertEquals(r, f.t.rateBps(), "increase " + i + " adds rate_hai");
        }
        f.ack(1_000 * US);
        assertEquals(0, f.t.incStage(), "a decrease resets the count");
        f.ack(10 * US);
        assertEquals(1, f.t.incStage());
    }

    @Test
    void aboveTHighDecreasesByOneMinusBetaTimesOneMinusTHighOverRtt() {
        Feed f = new Feed();
        f.ack(600 * US);
        f.ack(2_000 * US); // c = 1 - 0.8 (1 - 0.25) = 0.4
        long r = (long) (LINE * (1 - 0.8 * (1 - 500.0 / 2000)));
        assertEquals(40e9, r, 1);
        assertEquals(r, f.t.rateBps());
        f.ack(1_000 * US); // a falling RTT (negative gradient) above T_high still decreases: c = 0.6
        r = (long) (r * (1 - 0.8 * (1 - 500.0 / 1000)));
        assertEquals(r, f.t.rateBps());
    }

    @Test
    void betweenTheThresholdsAPositiveGradientDecreasesAndANonPositiveOneIncreases() {
        Feed f = new Feed();
        f.ack(100 * US);
        // rttDiff = 0.875 x 20 us = 17.5 us, gradient 0.875, c = 1 - 0.8 x 0.875 = 0.3
        f.ack(120 * US);
        assertEquals(17.5 * US, f.t.rttDiffPs(), 1e-6);
        assertEquals(0.875, f.t.lastGradient(), 1e-12);
        long r = (long) (LINE * (1 - 0.8 * 0.875));
        assertEquals(r, f.t.rateBps());
        // same RTT: rttDiff = 0.125 x 17.5 us = 2.1875 us, gradient 0.109375 > 0: c = 0.9125
        f.ack(120 * US);
        assertEquals(2.1875 * US, f.t.rttDiffPs(), 1e-6);
        r = (long) (r * (1 - 0.8 * 0.109375));
        assertEquals(r, f.t.rateBps());
        // falling RTT: rttDiff = 0.125 x 2.1875 - 0.875 x 20 us < 0: increase by rate_ai
        f.ack(100 * US);
        assertTrue(f.t.lastGradient() < 0);
        r += AI;
        assertEquals(r, f.t.rateBps());
        // gradient exactly 0 (rttDiff 0 needs a diff of 0 after a diff of 0): increase
        Feed g = new Feed();
        g.ack(200 * US);
        g.ack(200 * US);
        assertEquals(0.0, g.t.lastGradient());
        assertEquals(LINE, g.t.rateBps(), "an increase at line rate stays at line rate");
        assertEquals(1, g.t.incStage());
    }

    @Test
    void aSteepGradientFloorsTheRateAtMinRateAndIncreasesCapAtLineRate() {
        Feed f = new Feed();
        f.ack(100 * US);
        f.ack(400 * US); // gradient 0.875 x 300 / 20 = 13.125: c = 1 - 10.5 < 0 -> 0 -> min rate
        assertEquals(MIN, f.t.rateBps());
        Feed g = new Feed();
        g.ack(10 * US);
        for (int i = 0; i < 20; i++) {
            g.ack(10 * US);
            assertEquals(LINE, g.t.rateBps());
        }
        assertEquals(20, g.t.incStage());
    }

    @Test
    void onlyAnAckBeyondTheLastUpdatesMarkUpdatesAndOneWithoutATimestampIsIgnored() {
        Timely t = new Timely(LINE, HPCC);
        t.onAck(100 * US, 1000, 50_000, false, null, 0); // first: records rtt 100 us, mark 50 000
        t.onAck(200 * US, 50_000, 60_000, false, null, 0); // not beyond the mark: nothing (FastReactTimely is empty)
        assertEquals(LINE, t.rateBps());
        assertEquals(100 * US, t.lastRttPs());
        t.onAck(300 * US, 60_000, 70_000, false, null, RateController.NO_TIMESTAMP);
        assertEquals(LINE, t.rateBps(), "no RTT sample");
        assertEquals(100 * US, t.lastRttPs());
        t.onAck(1_300 * US, 50_001, 70_000, false, null, 0); // rtt 1.3 ms > T_high
        assertEquals((long) (LINE * (1 - 0.8 * (1 - 500.0 / 1300))), t.rateBps());
        assertEquals(1_300 * US, t.lastRttPs());
    }

    @Test
    void aRateChangeDoesNotMoveTheNextSendTime() {
        Timely t = new Timely(LINE, HPCC);
        t.start(0);
        t.onPacketSent(0, 1048);
        long next = RateController.txTimePs(1048, LINE);
        assertEquals(next, t.nextSendTimePs());
        t.onAck(100 * US, 1000, 1000, false, null, 0);
        t.onAck(200 * US, 1001, 2000, false, null, 0); // rtt 200 us after 100 us: gradient 4.375 -> min rate
        assertEquals(MIN, t.rateBps());
        assertEquals(next, t.nextSendTimePs(), "HPCC sets m_rate directly (no ChangeRate)");
        t.onPacketSent(300 * US, 1048);
        assertEquals(300 * US + RateController.txTimePs(1048, MIN), t.nextSendTimePs());
    }

    @Test
    void badParametersAreRefused() {
        assertThrows(IllegalArgumentException.class,
                () -> new Timely.Config(MIN, 0.875, 0.8, 500 * US, 500 * US, 20 * US, AI, HAI));
        assertThrows(IllegalArgumentException.class,
                () -> new Timely.Config(MIN, 0.875, 0.8, 50 * US, 500 * US, 0, AI, HAI));
        assertThrows(IllegalArgumentException.class, () -> new Timely(MIN / 2, HPCC));
    }
}
