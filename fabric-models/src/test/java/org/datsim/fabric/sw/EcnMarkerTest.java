package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.commons.math3.random.AbstractRandomGenerator;
import org.junit.jupiter.api.Test;

/** The ECN marker alone: RED between the thresholds, DCTCP's step, thresholds scaled per port rate. */
class EcnMarkerTest {

    /** A stream that returns a fixed value and counts its draws. */
    private static final class Fixed extends AbstractRandomGenerator {
        double value;
        int draws;

        Fixed(double value) {
            this.value = value;
        }

        @Override
        public void setSeed(long seed) {
        }

        @Override
        public double nextDouble() {
            draws++;
            return value;
        }
    }

    @Test
    void drawsOnlyBetweenTheThresholdsAndMarksWithProbabilityRisingToPmax() {
        Fixed r = new Fixed(0.09);
        EcnMarker m = new EcnMarker(r, new long[] {1000}, new long[] {3000}, 0.2);
        assertFalse(m.mark(0, 1000), "at kmin: never");
        assertEquals(0, r.draws);
        assertTrue(m.mark(0, 3001), "above kmax: always");
        assertEquals(0, r.draws, "no draw outside (kmin, kmax]");
        // halfway: probability 0.1; 0.09 < 0.1 marks, 0.11 does not
        assertTrue(m.mark(0, 2000));
        r.value = 0.11;
        assertFalse(m.mark(0, 2000));
        assertEquals(2, r.draws);
        assertEquals(2, m.marks());
        m.reset();
        assertEquals(0, m.marks());
    }

    @Test
    void equalThresholdsAreDctcpsStepAtK() {
        EcnMarker m = new EcnMarker(new Fixed(0.0), new long[] {300_000}, new long[] {300_000}, 1.0);
        assertFalse(m.mark(0, 300_000));
        assertTrue(m.mark(0, 300_001));
    }

    @Test
    void thresholdsGivenAt100GScaleWithEachPortsRate() {
        EcnMarker m = EcnMarker.scaled(new Fixed(0.5), 400_000, 1_600_000, 0.2,
                new long[] {100_000_000_000L, 400_000_000_000L, 25_000_000_000L});
        assertEquals(400_000, m.kmin(0));
        assertEquals(1_600_000, m.kmin(1));
        assertEquals(6_400_000, m.kmax(1));
        assertEquals(100_000, m.kmin(2));
        assertEquals(1_600_000, EcnMarker.threshold(400_000, 400_000_000_000L));
        assertThrows(IllegalArgumentException.class, () -> EcnMarker.scaled(new Fixed(0), 2, 1, 0.5, new long[1]));
        assertThrows(IllegalArgumentException.class, () -> new EcnMarker(new Fixed(0), new long[] {1},
                new long[] {2}, 1.5));
    }
}
