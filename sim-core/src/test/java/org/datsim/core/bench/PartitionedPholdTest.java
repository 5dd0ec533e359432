package org.datsim.core.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.core.engine.PartitionedSimulator;
import org.junit.jupiter.api.Test;

/** {@link PartitionedPhold}: its configuration, its stop time, and that its answer depends on the seed. */
class PartitionedPholdTest {

    private static PartitionedPhold.Config config(long seed, long quantum) {
        PartitionedPhold.Config probe = new PartitionedPhold.Config(32, 3, 0, seed, 50_000_000_000L, 1e12, quantum);
        return new PartitionedPhold.Config(32, 3, probe.endForEvents(30_000), seed, 50_000_000_000L, 1e12, quantum);
    }

    @Test
    void runsAboutTheEventsAskedForAndDependsOnTheSeed() {
        PartitionedPhold.Result a = PartitionedPhold.runSequential(config(1, 1));
        assertTrue(a.events() > 25_000 && a.events() < 35_000, "events " + a.events());
        assertTrue(a.lastEventPs() <= config(1, 1).endPs());
        assertNull(a.windows());
        long sum = 0;
        for (long e : a.perLpEvents()) {
            sum += e;
        }
        assertEquals(a.events(), sum);
        assertNotEquals(a.checksum(), PartitionedPhold.runSequential(config(2, 1)).checksum());
        assertEquals(a.checksum(), PartitionedPhold.runPartitioned(config(1, 1), 3, 2).checksum());
    }

    @Test
    void theEngineMustFitTheConfiguration() {
        PartitionedPhold.Config c = config(1, 1);
        assertThrows(IllegalArgumentException.class, () -> PartitionedPhold.runOn(c,
                new PartitionedSimulator(PartitionedSimulator.blocks(31, 2), 2, c.lookaheadPs(), 1)));
        assertThrows(IllegalArgumentException.class, () -> PartitionedPhold.runOn(c,
                new PartitionedSimulator(PartitionedSimulator.blocks(32, 2), 2, c.lookaheadPs() + 1, 1)));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedPhold.Config(0, 1, 1, 1, 1, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedPhold.Config(1, 1, 1, 1, 0, 1, 1));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedPhold.Config(1, 1, 1, 1, 1, 1, 0));
    }
}
