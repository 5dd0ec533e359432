package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.fabric.link.FlowControl;
import org.junit.jupiter.api.Test;

/** The static buffer alone: a share per input, PFC thresholds per input, InfiniBand credit, or no bound. */
class StaticBufferTest {

    @Test
    void pfcPausesEachInputAtItsOwnXoffResumesAtItsXonAndDropsBeyondItsShare() {
        // input 0: share 5000, xoff 3000, xon 1000; input 1: share 10000, xoff 6000, xon 2000
        StaticBuffer b = new StaticBuffer(FlowControl.PFC, new long[] {5000, 10_000}, new long[] {3000, 6000},
                new long[] {1000, 2000});
        assertFalse(b.exactDepartures(), "nothing paused: departures may be reported late");
        assertEquals(SwitchBuffer.ADMIT, b.admit(0, 1000));
        assertEquals(SwitchBuffer.ADMIT, b.admit(0, 1000));
        assertEquals(SwitchBuffer.ADMIT_AND_PAUSE, b.admit(0, 1000), "3000 bytes: at xoff");
        assertTrue(b.pausing(0));
        assertTrue(b.exactDepartures(), "an input paused: its resume depends on departures' times");
        assertEquals(SwitchBuffer.ADMIT, b.admit(0, 1000), "paused once only");
        assertEquals(SwitchBuffer.ADMIT, b.admit(0, 1000), "5000: the share is full, not over");
        assertEquals(SwitchBuffer.DROP, b.admit(0, 1), "one byte over the share");
        assertEquals(5000, b.held(0), "a dropped packet is not held");
        for (int k = 0; k < 5; k++) {
            assertEquals(SwitchBuffer.ADMIT, b.admit(1, 1000), "input 1 is below its own xoff: " + k);
        }
        assertFalse(b.pausing(1));
        assertEquals(SwitchBuffer.ADMIT_AND_PAUSE, b.admit(1, 1000), "input 1 at its own xoff, 6000");
        assertEquals(SwitchBuffer.KEEP, b.release(0, 2000), "3000 > xon");
        assertEquals(SwitchBuffer.KEEP, b.release(0, 1000), "2000 > xon");
        assertEquals(SwitchBuffer.RESUME, b.release(0, 1000), "1000: at xon");
        assertFalse(b.pausing(0));
        assertTrue(b.exactDepartures(), "input 1 is still paused");
        assertEquals(SwitchBuffer.RESUME, b.release(1, 4000), "2000: input 1 at its xon");
        assertFalse(b.exactDepartures());
        assertEquals(5000, b.maxHeld(0));
        assertEquals(6000, b.maxHeld(1));
        b.reset();
        assertEquals(0, b.held(0));
        assertEquals(0, b.maxHeld(1));
        assertFalse(b.pausing(1));
    }

    @Test
    void infinibandCreditReturnsEveryDepartureAndNeverDrops() {
        StaticBuffer b = StaticBuffer.uniform(FlowControl.IB_CREDITS, 2, 4096, 0, 0);
        assertTrue(b.exactDepartures(), "credit goes back at each departure's instant");
        assertEquals(SwitchBuffer.ADMIT, b.admit(1, 4096));
        assertEquals(SwitchBuffer.ADMIT, b.admit(1, 4096), "the sender's credit is the bound, not the buffer");
        assertEquals(SwitchBuffer.CREDIT, b.release(1, 4096));
        assertEquals(4096, b.held(1));
        assertFalse(b.pausing(1));
    }

    @Test
    void withoutFlowControlTheBufferIsUnbounded() {
        StaticBuffer b = StaticBuffer.uniform(FlowControl.NONE, 1, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
        for (int k = 0; k < 1000; k++) {
            assertEquals(SwitchBuffer.ADMIT, b.admit(0, 100_000));
        }
        assertEquals(SwitchBuffer.KEEP, b.release(0, 100_000));
        assertFalse(b.exactDepartures());
        assertEquals(100_000_000L, b.maxHeld(0));
    }

    @Test
    void everyInputNeedsItsThresholds() {
        assertThrows(IllegalArgumentException.class, () -> new StaticBuffer(FlowControl.PFC, new long[] {1, 2},
                new long[] {1}, new long[] {1, 2}));
    }
}
