package org.datsim.fabric.cc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** DCTCP in rate form as HPCC's HandleAckDctcp. */
class DctcpTest {

    static final long LINE = 100_000_000_000L;

    @Test
    void alphaIsTheEwmaOfTheMarkedFractionAndAMarkCutsOncePerWindow() {
        Dctcp d = new Dctcp(LINE, new Dctcp.Config(1_000_000_000L, 1.0 / 16, 615_000_000L, 1000), 100_000);
        // first ACK: starts the first batch (sndNxt 10 000 B: 11 packets), no mark, rate stays (at line: the AI clamps)
        d.onAck(0, 1000, 10_000, false, null, -1);
        assertEquals(LINE, d.rateBps());
        // a marked ACK in the batch: cut by alpha/2 with alpha = 1 (its initial value), CWR until 20 000 is acked
        d.onAck(1, 2000, 20_000, true, null, -1);
        assertEquals(LINE / 2, d.rateBps());
        d.onAck(2, 3000, 20_000, true, null, -1);
        assertEquals(LINE / 2, d.rateBps(), "no second cut in CWR");
        // the ACK that ends the batch: 2 marks out of 11 -> alpha = 15/16 + 1/16 x 2/11
        d.onAck(3, 10_500, 30_000, false, null, -1);
        assertEquals(15.0 / 16 + 2.0 / 11 / 16, d.alpha(), 1e-12);
        assertEquals(LINE / 2, d.rateBps(), "still in CWR: no increase");
        // beyond 20 000: CWR ends; the next batch end adds the AI step
        d.onAck(4, 20_500, 40_000, false, null, -1);
        d.onAck(5, 30_500, 50_000, false, null, -1);
        assertEquals(LINE / 2 + 615_000_000L, d.rateBps());
        assertEquals(100_000 * d.rateBps() / LINE, d.windowBytes());
    }
}
