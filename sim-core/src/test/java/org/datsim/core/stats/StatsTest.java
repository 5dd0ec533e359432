package org.datsim.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StatsTest {

    @Test
    void counter() {
        Counter c = new Counter("drops", "packets");
        c.increment();
        c.increment();
        c.add(40);
        assertEquals(42, c.value());
        assertEquals("drops", c.name());
        assertEquals("packets", c.unit());
        assertEquals("drops=42 packets", c.toString());
    }

    @Test
    void tally() {
        Tally t = new Tally("size", "bytes");
        assertTrue(Double.isNaN(t.mean()));
        for (double v : new double[] {2, 4, 4, 4, 5, 5, 7, 9}) {
            t.add(v);
        }
        assertEquals(8, t.count());
        assertEquals(5.0, t.mean(), 1e-12);
        assertEquals(2.0, t.min(), 0);
        assertEquals(9.0, t.max(), 0);
        assertEquals(Math.sqrt(32.0 / 7), t.stdDev(), 1e-12);
    }

    @Test
    void latencyRecorder() {
        LatencyRecorder r = new LatencyRecorder("rtt");
        assertEquals(0, r.count());
        assertEquals(0, r.percentile(50));
        for (long v = 1; v <= 1000; v++) {
            r.record(v * 1_000_000L); // 1us .. 1ms
        }
        r.record(5L * 1_000_000_000_000L); // a 5 s outlier: the histogram must resize itself
        assertEquals(1001, r.count());
        assertEquals(1_000_000, r.min(), 1_000_000 * 0.001);
        assertEquals(5e12, r.max(), 5e12 * 0.001);
        assertEquals(501_000_000, r.percentile(50), 501_000_000 * 0.001); // the 501st of 1001 values
        assertEquals(991_000_000, r.percentile(99), 991_000_000 * 0.001);
        assertEquals((500_500_000_000.0 + 5e12) / 1001, r.mean(), 5e12 * 0.001);
        assertThrows(IllegalArgumentException.class, () -> r.record(-1));
        assertThrows(IllegalArgumentException.class, () -> r.percentile(101));
    }

    @Test
    void registryKeepsOrderAndRejectsDuplicates() {
        StatsRegistry reg = new StatsRegistry();
        Counter b = reg.register("b", new Counter("b", "x"));
        Tally a = reg.register("a", new Tally("a", "y"));
        LatencyRecorder c = reg.register("c", new LatencyRecorder("c"));
        assertSame(a, reg.get("a"));
        assertEquals(List.of("b", "a", "c"), List.copyOf(reg.stats().keySet()));
        assertEquals(List.of(b, a, c), List.copyOf(reg.stats().values()));
        assertThrows(IllegalArgumentException.class, () -> reg.register("a", new Counter("a", "z")));
        assertThrows(UnsupportedOperationException.class, () -> reg.stats().clear());
    }
}
