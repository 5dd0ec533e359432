package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The Chrome trace's times: picoseconds as microseconds, formatted into a buffer exactly as into a string. */
class PerfettoTimesTest {

    @Test
    void microsecondsWithoutStrings() {
        char[] buf = new char[32];
        long[] values = {0, 1, 9, 10, 999_999, 1_000_000, 1_000_001, 1_500_000, 1_234_567_890_123L, -1, -1_500_000,
            Long.MAX_VALUE, Long.MIN_VALUE, Long.MIN_VALUE + 1, 120_000, 100_000_000};
        for (long v : values) {
            assertEquals(PerfettoTraceWriter.us(v), new String(buf, 0, PerfettoTraceWriter.us(v, buf)), "" + v);
        }
        SplittableRandom r = new SplittableRandom(3);
        for (int i = 0; i < 100_000; i++) {
            long v = r.nextLong() >> r.nextInt(64);
            assertEquals(PerfettoTraceWriter.us(v), new String(buf, 0, PerfettoTraceWriter.us(v, buf)), "" + v);
        }
        assertEquals("1.5", PerfettoTraceWriter.us(1_500_000));
        assertEquals("0.000001", PerfettoTraceWriter.us(1));
    }
}
