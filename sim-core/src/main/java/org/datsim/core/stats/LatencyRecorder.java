package org.datsim.core.stats;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.MathContext;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * A named latency recorder in picoseconds. The count, minimum, maximum and mean are always exact (the sum is kept in
 * 128 bits, so it cannot overflow). Percentiles are exact while at most {@value #EXACT_LIMIT} values have been
 * recorded: the recorder keeps every value in a primitive {@code long[]} (at most 8 MiB per recorder, grown by
 * doubling) and ranks them. Past that bound it frees the array and answers percentiles from an auto-resizing
 * HdrHistogram with 3 significant decimal digits, which keeps every value to within 0.1% of its true value over the
 * whole range from 1 ps to {@code Long.MAX_VALUE}; {@link #percentilesExact()} says which, and {@link
 * #percentilePrecision()} names the precision in words for reports. {@link #record(long)} costs O(1) amortised and
 * allocates only when the array doubles or the histogram grows to a new magnitude.
 */
public final class LatencyRecorder {

    /** The most values whose percentiles are given exactly (2^20: 8 MiB of values per recorder). */
    public static final int EXACT_LIMIT = 1 << 20;

    /** {@link #percentilePrecision()} while percentiles are exact. */
    public static final String EXACT = "exact";

    /** {@link #percentilePrecision()} once the values no longer fit: HdrHistogram with 3 significant digits. */
    public static final String WITHIN_0_1_PERCENT = "within 0.1% (HdrHistogram, 3 significant digits)";

    private final String name;
    private final int exactLimit;
    private final Histogram histogram = new Histogram(3);
    private long[] values = new long[16];
    private boolean sorted = true;
    private long count;
    private long min = Long.MAX_VALUE;
    private long max;
    private long sumLow; // the sum, unsigned low 64 bits
    private long sumHigh; // and its high 64 bits

    /**
     * Creates an empty recorder.
     *
     * @param name the name shown in reports
     */
    public LatencyRecorder(String name) {
        this(name, EXACT_LIMIT);
    }

    /**
     * Creates an empty recorder that keeps exact percentiles up to a given number of values (for tests).
     *
     * @param name the name shown in reports
     * @param exactLimit the most values kept for exact percentiles, {@code >= 0}
     */
    LatencyRecorder(String name, int exactLimit) {
        this.name = name;
        this.exactLimit = exactLimit;
    }

    /**
     * Returns the name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Records one latency.
     *
     * @param ps the latency in picoseconds, {@code >= 0}
     * @throws IllegalArgumentException if {@code ps < 0}
     */
    public void record(long ps) {
        if (ps < 0) {
            throw new IllegalArgumentException("a latency must not be negative, found " + ps + " ps");
        }
        histogram.recordValue(ps);
        if (values != null) {
            if (count >= exactLimit) {
                values = null; // past the bound: percentiles from the histogram from now on
            } else {
                if (count == values.length) {
                    values = Arrays.copyOf(values, (int) Math.min((long) exactLimit, 2L * values.length));
                }
                if (count > 0 && ps < values[(int) count - 1]) {
                    sorted = false;
                }
                values[(int) count] = ps;
            }
        }
        count++;
        min = Math.min(min, ps);
        max = Math.max(max, ps);
        long s = sumLow + ps;
        if (Long.compareUnsigned(s, sumLow) < 0) {
            sumHigh++;
        }
        sumLow = s;
    }

    /**
     * Returns the number of recorded values.
     *
     * @return the count
     */
    public long count() {
        return count;
    }

    /**
     * Returns whether {@link #percentile(double)} is exact: at most {@value #EXACT_LIMIT} values were recorded.
     *
     * @return true if percentiles are exact, false if they are to within 0.1%
     */
    public boolean percentilesExact() {
        return values != null;
    }

    /**
     * Returns the precision of {@link #percentile(double)} in words: {@value #EXACT}, or {@value
     * #WITHIN_0_1_PERCENT}.
     *
     * @return the precision
     */
    public String percentilePrecision() {
        return percentilesExact() ? EXACT : WITHIN_0_1_PERCENT;
    }

    /**
     * Returns the value at a percentile: the smallest recorded value such that at least {@code p} percent of the
     * values are less than or equal to it (the nearest rank, {@code ceil(p / 100 x n)}, at least the first). Exact
     * while {@link #percentilesExact()}; otherwise to within 0.1% (the histogram's bucket).
     *
     * @param p the percentile, from 0 to 100 (for example 99.9)
     * @return the value in picoseconds, or 0 if nothing was recorded
     * @throws IllegalArgumentException if {@code p} is outside 0..100
     */
    public long percentile(double p) {
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("a percentile must be between 0 and 100, found " + p);
        }
        if (count == 0) {
            return 0;
        }
        if (values == null) {
            return histogram.getValueAtPercentile(p);
        }
        if (!sorted) {
            Arrays.sort(values, 0, (int) count);
            sorted = true;
        }
        long rank = (long) Math.ceil(p / 100.0 * count);
        return values[(int) Math.max(0, Math.min(count, rank) - 1)];
    }

    /**
     * Returns the smallest recorded value, exactly.
     *
     * @return the minimum in picoseconds, or 0 if nothing was recorded
     */
    public long min() {
        return count == 0 ? 0 : min;
    }

    /**
     * Returns the largest recorded value, exactly.
     *
     * @return the maximum in picoseconds, or 0 if nothing was recorded
     */
    public long max() {
        return count == 0 ? 0 : max;
    }

    /**
     * Returns the exact sum of the recorded values.
     *
     * @return the sum in picoseconds (a {@link BigInteger}: it may pass {@code Long.MAX_VALUE})
     */
    public BigInteger sum() {
        return new BigInteger(Long.toUnsignedString(sumHigh)).shiftLeft(64)
                .add(new BigInteger(Long.toUnsignedString(sumLow)));
    }

    /**
     * Returns the mean of the recorded values, from the exact sum (to the precision of a double).
     *
     * @return the mean in picoseconds, or NaN if nothing was recorded
     */
    public double mean() {
        if (count == 0) {
            return Double.NaN;
        }
        if (sumHigh == 0 && sumLow >= 0) {
            return (double) sumLow / count; // exact whenever sum / count is a whole number below 2^53
        }
        return new BigDecimal(sum()).divide(BigDecimal.valueOf(count), MathContext.DECIMAL64).doubleValue();
    }

    /**
     * Returns the mean rounded to a whole picosecond, exactly (half up).
     *
     * @return the rounded mean in picoseconds, or 0 if nothing was recorded
     */
    public long meanRounded() {
        if (count == 0) {
            return 0;
        }
        BigInteger[] qr = sum().divideAndRemainder(BigInteger.valueOf(count));
        long q = qr[0].longValueExact();
        return qr[1].shiftLeft(1).compareTo(BigInteger.valueOf(count)) >= 0 ? q + 1 : q;
    }

    /**
     * Returns a short description with the count and some percentiles.
     *
     * @return the description
     */
    @Override
    public String toString() {
        return name
                + "[n="
                + count()
                + ", p50="
                + percentile(50)
                + "ps, p99="
                + percentile(99)
                + "ps, max="
                + max()
                + "ps]";
    }
}
