package org.datsim.core.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Issue 15: min, max and mean are exact picoseconds; percentiles are exact up to the bound and say so past it. */
class LatencyRecorderExactTest {

    @Test
    void oneWriteIsReportedToThePicosecond() {
        LatencyRecorder r = new LatencyRecorder("rdma_write");
        r.record(1_879_440); // the Write: HdrHistogram's bucket said a mean of 1,879,552
        assertEquals(1_879_440, r.min());
        assertEquals(1_879_440, r.max());
        assertEquals(1_879_440.0, r.mean(), 0);
        assertEquals(1_879_440, r.meanRounded());
        assertEquals(1_879_440, r.percentile(50));
        assertEquals(1_879_440, r.percentile(99));
        assertTrue(r.percentilesExact());
        assertEquals(LatencyRecorder.EXACT, r.percentilePrecision());
    }

    @Test
    void maximumIsExactAmongOthers() {
        LatencyRecorder r = new LatencyRecorder("send");
        r.record(78_977_000); // the 78.977 us maximum, printed as 79.036 us from its bucket
        r.record(1_000_123);
        r.record(2_000_001);
        assertEquals(78_977_000, r.max());
        assertEquals(1_000_123, r.min());
        assertEquals(78_977_000, r.percentile(99));
        assertEquals(2_000_001, r.percentile(50));
        assertEquals((78_977_000L + 1_000_123 + 2_000_001) / 3.0, r.mean(), 1e-9);
        assertEquals(27_325_708, r.meanRounded()); // 81,977,124 / 3 = 27,325,708
    }

    @Test
    void percentilesAreNearestRankOfEveryValue() {
        SplittableRandom rnd = new SplittableRandom(7);
        LatencyRecorder r = new LatencyRecorder("x");
        long[] v = new long[10_001];
        for (int i = 0; i < v.length; i++) {
            v[i] = 1_000_000 + rnd.nextLong(1_000_000_000L);
            r.record(v[i]);
        }
        Arrays.sort(v);
        for (double p : new double[] {0, 1, 50, 90, 99, 99.9, 100}) {
            int rank = (int) Math.max(1, Math.ceil(p / 100 * v.length));
            assertEquals(v[rank - 1], r.percentile(p), "p" + p);
        }
        assertEquals(v[0], r.min());
        assertEquals(v[v.length - 1], r.max());
        // recording after a query keeps them exact
        r.record(5);
        assertEquals(5, r.percentile(0));
    }

    @Test
    void pastTheBoundPercentilesComeFromTheHistogramAndSaySo() {
        LatencyRecorder r = new LatencyRecorder("big", 100);
        for (long i = 1; i <= 1000; i++) {
            r.record(i * 1_000_003L);
        }
        assertFalse(r.percentilesExact());
        assertEquals(LatencyRecorder.WITHIN_0_1_PERCENT, r.percentilePrecision());
        assertEquals(500 * 1_000_003L, r.percentile(50), 500 * 1_000_003L * 0.001);
        // min, max and mean stay exact
        assertEquals(1_000_003L, r.min());
        assertEquals(1_000_003_000L, r.max());
        assertEquals(500_501_502L, r.meanRounded()); // 1,000,003 x 500.5 = 500,501,501.5, half up
    }

    @Test
    void theSumDoesNotOverflow() {
        LatencyRecorder r = new LatencyRecorder("long");
        r.record(Long.MAX_VALUE);
        r.record(Long.MAX_VALUE);
        r.record(1);
        assertEquals(BigInteger.valueOf(Long.MAX_VALUE).shiftLeft(1).add(BigInteger.ONE), r.sum());
        assertEquals((2.0 * Long.MAX_VALUE + 1) / 3, r.mean(), 1e4);
        assertEquals(Long.MAX_VALUE / 3 * 2 + 1, r.meanRounded()); // (2^64 - 1) / 3 = 6148914691236517205 exactly
    }
}
