package org.datsim.fabric.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** HPCC's window and rate against hand-computed values of Li et al. 2019's formulas (as HPCC's UpdateRateHp). */
class HpccTest {

    static final long US = 1_000_000L;
    static final long LINE = 100_000_000_000L;
    static final long T = 10 * US;
    static final long W = 125_000; // 100 Gb/s x 10 us

    private static Hpcc make(int maxStage) {
        return new Hpcc(LINE, new Hpcc.Config(1_000_000_000L, 0.95, 40_000_000L, maxStage, true), T, W);
    }

    private static IntHops hop(long qlen, long tx, long ts) {
        IntHops h = new IntHops();
        h.add(qlen, tx, ts, LINE);
        return h;
    }

    @Test
    void utilisationWindowAndRateFollowThePapersFormulas() {
        Hpcc h = make(0);
        h.start(0);
        assertEquals(W, h.windowBytes(), "at line rate the window is the BDP");
        // first ACK: only remembers the INT records
        h.onAck(1 * US, 1000, 10_000, false, hop(0, 0, 0), -1);
        assertEquals(LINE, h.rateBps());
        // second ACK, within the first RTT's sequence: fast react. One hop fully busy, no queue on both samples.
        h.onAck(2 * US, 2000, 12_000, false, hop(50_000, 12_500, 1 * US), -1);
        double u1 = 12_500 * 8 / 1e-6 / LINE + 0; // txRate / B + min(q, q') / (B T): 1.0
        double uEwma = (1.0 * (T - US) + u1 * US) / T; // 1.0
        long expected = (long) (LINE / (uEwma / 0.95)) + 40_000_000L; // Rc / (U / eta) + W_AI / T
        assertEquals(expected, h.rateBps(), 2);
        assertEquals(LINE, h.referenceRateBps(), "fast react leaves the reference rate");
        // third ACK beyond the sequence sent at the first: a full update. The queue now counts: min(50000, 50000).
        h.onAck(3 * US, 11_000, 30_000, false, hop(50_000, 25_000, 2 * US), -1);
        double u2 = 1.0 + 50_000.0 / W; // 1.4
        uEwma = (uEwma * (T - US) + u2 * US) / T; // 1.04
        assertEquals(1.04, uEwma, 1e-12);
        expected = (long) (LINE / (uEwma / 0.95)) + 40_000_000L; // 91 386 153 846
        assertEquals(91_386_153_846L, expected, 2);
        assertEquals(expected, h.rateBps(), 2);
        assertEquals(h.rateBps(), h.referenceRateBps(), "a full update sets the reference rate");
        assertEquals(uEwma, h.utilisation(), 1e-12);
        assertEquals(W * h.rateBps() / LINE, h.windowBytes(), "W x rate / line rate (114 232 B)");
        assertEquals(114_232, h.windowBytes());
    }

    @Test
    void theMostUtilisedHopSetsUAndItsIntervalTheEwmaWeight() {
        Hpcc h = make(0);
        IntHops a = new IntHops();
        a.add(0, 0, 0, LINE);
        a.add(0, 0, 0, 4 * LINE);
        h.onAck(1 * US, 1000, 10_000, false, a, -1);
        IntHops b = new IntHops();
        b.add(0, 6_250, 1 * US, LINE); // half busy: u = 0.5 over 1 us
        b.add(100_000, 80_000, 4 * US, 4 * LINE); // 400 Gb/s hop: 80 KB in 4 us = 0.4 of its rate
        h.onAck(5 * US, 11_000, 20_000, false, b, -1);
        // second hop: 0.4, no queue term (min(100000, 0) = 0); the first hop's 0.5 is the larger, dt = 1 us
        double u = (1.0 * (T - US) + 0.5 * US) / T; // 0.95
        assertEquals(u, h.utilisation(), 1e-12);
        assertEquals(LINE, h.rateBps(), "Rc / (0.95/0.95) + W_AI is above line rate: clamped");
        IntHops c = new IntHops();
        c.add(0, 12_500, 2 * US, LINE); // first hop idle for 1 us: u = 0.5 again (6 250 B)
        c.add(200_000, 240_000, 8 * US, 4 * LINE); // second: 160 KB in 4 us = 0.8, queue min(200000,100000)
        h.onAck(9 * US, 21_000, 30_000, false, c, -1);
        double u2 = 0.8 + 100_000.0 * LINE / (4.0 * LINE) / W; // 0.8 + 0.2 = 1.0, the larger; dt = 4 us
        u = (u * (T - 4 * US) + u2 * 4 * US) / T;
        assertEquals(u, h.utilisation(), 1e-12);
        assertEquals((long) (LINE / (u / 0.95)) + 40_000_000L, h.rateBps(), 2);
    }

    @Test
    void belowEtaTheRateGrowsAdditivelyUntilMaxStage() {
        Hpcc h = make(2);
        h.onAck(0, 1000, 1000, false, hop(0, 0, 0), -1);
        // drive the rate down with a congested RTT first
        h.onAck(10 * US, 2000, 2000, false, hop(125_000, 125_000, 10 * US), -1);
        h.onAck(20 * US, 3000, 3000, false, hop(125_000, 250_000, 20 * US), -1);
        long rc = h.referenceRateBps();
        assertTrue(rc < LINE / 2, "two RTTs at U = 2 halve the rate twice: " + rc);
        // now lightly loaded RTTs (u = 0.1 over a whole RTT): U falls below eta; stages 0 and 1 add W_AI, stage 2
        // multiplies. (A hop with u = 0 exactly would leave U as it is: HPCC's loop keeps the hop with u > 0.)
        long ts = 20 * US;
        long seq = 3000;
        long tx = 250_000;
        for (int i = 0; i < 2; i++) {
            ts += 10 * US;
            seq += 1000;
            tx += 12_500;
            h.onAck(ts, seq, seq, false, hop(0, tx, ts), -1);
            assertEquals(0.1, h.utilisation(), 1e-9);
            rc += 40_000_000L;
            assertEquals(rc, h.referenceRateBps(), "additive step " + (i + 1));
            assertEquals(i + 1, h.incStage());
        }
        ts += 10 * US;
        seq += 1000;
        tx += 12_500;
        h.onAck(ts, seq, seq, false, hop(0, tx, ts), -1);
        assertEquals(0, h.incStage(), "maxStage reached: a multiplicative update");
        assertEquals(Math.min(LINE, (long) (rc / (h.utilisation() / 0.95)) + 40_000_000L), h.referenceRateBps(), 2);
    }

    @Test
    void aRateChangeMovesTheNextSendTimeByTheLastPacketsDifference() {
        Hpcc h = make(0);
        h.start(0);
        h.onPacketSent(0, 1000);
        assertEquals(80_000, h.nextSendTimePs(), "1000 B at 100 Gb/s: 80 ns");
        h.onAck(1 * US, 1000, 1000, false, hop(125_000, 0, 0), -1);
        // U = 2 over a whole RTT (a busy link and a BDP of queue on both records): rate = 100 G / (2 / 0.95) + 40 M = 47.54 Gb/s
        h.onAck(11 * US, 2000, 2000, false, hop(125_000, 125_000, 10 * US), -1);
        long r = h.rateBps();
        assertEquals((long) (LINE / (2.0 / 0.95)) + 40_000_000L, r, 2);
        assertEquals(RateController.txTimePs(1000, r), h.nextSendTimePs());
    }

    @Test
    void rateNeverLeavesMinAndLineRate() {
        Hpcc h = make(0);
        h.onAck(0, 1000, 1000, false, hop(0, 0, 0), -1);
        long ts = 0;
        long tx = 0;
        for (int i = 1; i < 200; i++) {
            ts += 10 * US;
            tx += 10 * 125_000; // ten times the link's capacity: an impossible, very congested record
            h.onAck(ts, 1000L * i + 1000, 1000L * i + 1000, false, hop(10_000_000, tx, ts), -1);
            assertTrue(h.rateBps() >= 1_000_000_000L && h.rateBps() <= LINE);
        }
        assertEquals(1_000_000_000L, h.rateBps());
    }

    @Test
    void intRecordsReadInHpccsUnitsRoundDownBytesAndQueueLengths() {
        // HPCC's IntHop keeps transmitted bytes in units of 128 and queue lengths in units of 80 (cc.hpcc.int_*_unit)
        Hpcc exact = make(0);
        Hpcc units = new Hpcc(LINE, new Hpcc.Config(1_000_000_000L, 0.95, 40_000_000L, 0, true, 128, 80), T, W);
        for (Hpcc h : new Hpcc[] {exact, units}) {
            h.start(0);
            h.onAck(1 * US, 1000, 10_000, false, hop(79, 127, 0), -1);
            // 12,500 bytes later and 1 us on: 12,500 - 127 exact; 12,544 - 0 = 12,544 in units of 128 (98 x 128)
            h.onAck(2 * US, 2000, 12_000, false, hop(50_000, 12_627, 1 * US), -1);
        }
        // exact: txRate 12,500 B/us = B, and min(q, q') = 79 B; in units: 12,544 B/us, and min(0, 49,920) = 0
        double uExact = (1.0 * (T - US) + (1.0 + 79.0 / W) * US) / T;
        double uUnits = (1.0 * (T - US) + (12_544.0 * 8 / 1e-6 / LINE) * US) / T;
        assertEquals((long) (LINE / (uExact / 0.95)) + 40_000_000L, exact.rateBps(), 2);
        assertEquals((long) (LINE / (uUnits / 0.95)) + 40_000_000L, units.rateBps(), 2);
        assertTrue(units.rateBps() != exact.rateBps());
    }
}
