package org.datsim.core.choice;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class VectorChoicesTest {

    private static final ChoicePoint P = new ChoicePoint("test.point", "rule 0", "a test");

    @Test
    void timingAlwaysTakesZeroAndDoesNotExplore() {
        assertEquals(0, ChoiceSource.TIMING.choose(P, 5, "h"));
        assertFalse(ChoiceSource.TIMING.exploring());
    }

    @Test
    void replayFollowsTheVectorThenTakesZeroAndRecordsBranching() {
        VectorChoices v = VectorChoices.replay(new int[] {2, 1});
        assertEquals(2, v.choose(P, 3, "h"));
        assertEquals(1, v.choose(P, 2, "h"));
        assertEquals(0, v.choose(P, 4, "h"));
        assertArrayEquals(new int[] {2, 1, 0}, v.vector());
        assertEquals(4, v.taken().get(2).alternatives());
        assertEquals(-1, v.mismatch());
    }

    @Test
    void anEntryThatDoesNotFitIsAMismatch() {
        VectorChoices v = VectorChoices.replay(new int[] {0, 5});
        v.choose(P, 2, "h");
        assertEquals(0, v.choose(P, 2, "h"));
        assertEquals(1, v.mismatch());
    }

    @Test
    void formatAndParseRoundTripWithRuns() {
        int[] v = {0, 0, 0, 0, 0, 1, 2, 2, 0};
        assertEquals("0*5.1.2.2.0", VectorChoices.format(v));
        assertArrayEquals(v, VectorChoices.parse("0*5.1.2.2.0"));
        assertEquals("-", VectorChoices.format(new int[0]));
        assertArrayEquals(new int[0], VectorChoices.parse("-"));
        assertThrows(IllegalArgumentException.class, () -> VectorChoices.parse("1.x"));
        assertThrows(IllegalArgumentException.class, () -> VectorChoices.parse("1*0"));
    }
}
