package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The shared buffer alone: HPCC's dynamic thresholds, headroom, resume hysteresis, and its sizing rules. */
class SharedBufferTest {

    @Test
    void headroomIsThreeRateDelayProductsAtLeastTheMinimumUnlessFixed() {
        // 100 Gb/s x 1 us x 3 = 37500 bytes
        assertEquals(37_500, SharedBuffer.headroomOf(0, 2000, 100_000_000_000L, 1_000_000));
        assertEquals(2000, SharedBuffer.headroomOf(0, 2000, 100_000_000_000L, 1000), "at least the minimum");
        assertEquals(9000, SharedBuffer.headroomOf(9000, 2000, 100_000_000_000L, 1_000_000), "pfc.headroom");
    }

    @Test
    void alphaDoublesWithEachDoublingOfThePortRateOverTheHosts() {
        long g100 = 100_000_000_000L;
        assertEquals(3, SharedBuffer.alphaShiftOf(3, g100, g100));
        assertEquals(2, SharedBuffer.alphaShiftOf(3, 2 * g100, g100));
        assertEquals(1, SharedBuffer.alphaShiftOf(3, 4 * g100, g100));
        assertEquals(0, SharedBuffer.alphaShiftOf(1, 16 * g100, g100), "never below 0");
    }

    @Test
    void pausesAtTheDynamicThresholdUsesHeadroomThenDropsAndResumesWithHysteresis() {
        // 100000 B, 2 inputs of 20000 B headroom and 4096 B reserve: a pool of 51808 B; alpha 1/8
        SharedBuffer b = new SharedBuffer(100_000, 4096, 3072, new long[] {20_000, 20_000}, new int[] {3, 3});
        assertEquals(51_808 >> 3, b.dynamicThreshold(0));
        for (int k = 1; k <= 9; k++) {
            assertEquals(SwitchBuffer.ADMIT, b.admit(0, 1000), "packet " + k);
        }
        assertEquals(4904, b.sharedUsed());
        assertEquals(SwitchBuffer.ADMIT_AND_PAUSE, b.admit(0, 1000), "over alpha x free: to the headroom");
        assertEquals(1000, b.headroomBytes(0));
        assertEquals(1, b.pauses());
        assertTrue(b.exactDepartures());
        assertEquals(SwitchBuffer.KEEP, b.release(0, 1000), "the headroom empties, still over");
        assertEquals(SwitchBuffer.KEEP, b.release(0, 1000));
        assertEquals(SwitchBuffer.RESUME, b.release(0, 1000), "2904 + 3072 <= (51808 - 2904) / 8");
        assertFalse(b.pausing(0));
        assertEquals(7000, b.held(0));
        assertEquals(10_000, b.maxHeld(0));
        b.reset();
        assertEquals(0, b.sharedUsed());
        assertEquals(0, b.pauses());
        assertEquals(0, b.held(0));
    }

    @Test
    void aPacketFittingNeitherHeadroomNorThresholdIsRefused() {
        SharedBuffer b = new SharedBuffer(63_000, 4096, 3072, new long[] {1500, 1500}, new int[] {3, 3});
        for (int k = 1; k <= 10; k++) {
            assertTrue(b.admit(0, 1000) != SwitchBuffer.DROP, "packet " + k);
        }
        assertEquals(SwitchBuffer.DROP, b.admit(0, 1000));
        assertEquals(10_000, b.held(0));
    }
}
