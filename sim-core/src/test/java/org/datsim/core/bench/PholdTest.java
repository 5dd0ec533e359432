package org.datsim.core.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class PholdTest {

    @Test
    void sameSeedGivesSameResult() {
        Phold.Result a = Phold.run(64, 4, 200_000, 11);
        Phold.Result b = Phold.run(64, 4, 200_000, 11);
        assertEquals(200_000, a.events());
        assertEquals(a.checksum(), b.checksum());
        assertEquals(a.finalTimePs(), b.finalTimePs());
        assertTrue(a.finalTimePs() > 0);
        Phold.Result c = Phold.run(64, 4, 200_000, 12);
        assertNotEquals(a.checksum(), c.checksum());
    }

    @Test
    void engineAndBaselineExecuteTheSameEvents() {
        for (long seed : new long[] {1, 2, 3}) {
            Phold.Result engine = Phold.run(256, 3, 300_000, seed);
            Phold.Result baseline = Phold.runPriorityQueueBaseline(256, 3, 300_000, seed);
            assertEquals(engine.events(), baseline.events());
            assertEquals(engine.checksum(), baseline.checksum());
            assertEquals(engine.finalTimePs(), baseline.finalTimePs());
            assertEquals("datsim", engine.engine());
        }
    }

    @Test
    void tinyRunsWithManyTies() {
        // a single LP with many initial events: still identical sequences
        Phold.Result engine = Phold.run(1, 50, 10_000, 5);
        Phold.Result baseline = Phold.runPriorityQueueBaseline(1, 50, 10_000, 5);
        assertEquals(engine.checksum(), baseline.checksum());
        assertEquals(0, Phold.run(4, 1, 0, 5).events());
    }
}
