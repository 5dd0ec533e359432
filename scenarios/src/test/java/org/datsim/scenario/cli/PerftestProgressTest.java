package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.datsim.scenario.calibrate.PerftestTimed;
import org.junit.jupiter.api.Test;

/** The progress words of a timed perftest run: the simulated time reached, the duration and the sample window. */
class PerftestProgressTest {

    @Test
    void aTimedRunSaysTheSimulatedTimeAndTheWindow() {
        PerftestTimed.Clock clock = new PerftestTimed.Clock();
        assertEquals("simulated 0ps of 5 s (sampling from 1 s to 4 s)", PerftestCommand.timedProgress(clock, 5, 1),
                "nothing posted yet");
    }
}
