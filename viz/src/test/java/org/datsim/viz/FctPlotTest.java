package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** The FCT plot: its vertical axis names what the FCT is divided by. */
class FctPlotTest {

    @Test
    void theVerticalAxisSaysWhichIdeal() {
        LinePlot p = FctPlot.plot("t", "FCT / FCT alone, congestion control off", new long[] {1, 2},
                new double[] {1.5, 2}, 5);
        assertEquals("FCT / FCT alone, congestion control off", p.yLabel());
    }
}
