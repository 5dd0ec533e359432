package org.datsim.core.stats;

import org.HdrHistogram.Histogram;

/**
 * A named latency histogram in picoseconds, backed by an auto-resizing HdrHistogram with 3
 * significant decimal digits: every recorded value is kept to within 0.1% of its true value, over
 * the whole range from 1 ps to {@code Long.MAX_VALUE}. {@link #record(long)} costs O(1) and
 * allocates only when the histogram must grow to cover a new magnitude; percentile queries cost
 * O(number of buckets), a few thousand.
 */
public final class LatencyRecorder {

    private final String name;
    private final Histogram histogram = new Histogram(3);

    /**
     * Creates an empty recorder.
     *
     * @param name the name shown in reports
     */
    public LatencyRecorder(String name) {
        this.name = name;
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
    }

    /**
     * Returns the number of recorded values.
     *
     * @return the count
     */
    public long count() {
        return histogram.getTotalCount();
    }

    /**
     * Returns the value at a percentile: the smallest recorded value (to histogram precision) such
     * that at least {@code p} percent of the values are less than or equal to it.
     *
     * @param p the percentile, from 0 to 100 (for example 99.9)
     * @return the value in picoseconds, or 0 if nothing was recorded
     * @throws IllegalArgumentException if {@code p} is outside 0..100
     */
    public long percentile(double p) {
        if (!(p >= 0 && p <= 100)) {
            throw new IllegalArgumentException("a percentile must be between 0 and 100, found " + p);
        }
        if (count() == 0) {
            return 0;
        }
        return histogram.getValueAtPercentile(p);
    }

    /**
     * Returns the smallest recorded value (to histogram precision).
     *
     * @return the minimum in picoseconds, or 0 if nothing was recorded
     */
    public long min() {
        return count() == 0 ? 0 : histogram.getMinValue();
    }

    /**
     * Returns the largest recorded value (to histogram precision).
     *
     * @return the maximum in picoseconds, or 0 if nothing was recorded
     */
    public long max() {
        return count() == 0 ? 0 : histogram.getMaxValue();
    }

    /**
     * Returns the mean of the recorded values (to histogram precision).
     *
     * @return the mean in picoseconds, or NaN if nothing was recorded
     */
    public double mean() {
        return count() == 0 ? Double.NaN : histogram.getMean();
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
