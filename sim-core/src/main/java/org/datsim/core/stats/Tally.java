package org.datsim.core.stats;

import org.apache.commons.math3.stat.descriptive.SummaryStatistics;

/**
 * A named summary of sample values (count, mean, minimum, maximum, standard deviation) that keeps
 * no samples: it wraps commons-math3 {@link SummaryStatistics}, so memory is constant and each
 * {@link #add(double)} costs O(1).
 */
public final class Tally {

    private final String name;
    private final String unit;
    private final SummaryStatistics stats = new SummaryStatistics();

    /**
     * Creates an empty tally.
     *
     * @param name the name shown in reports
     * @param unit the unit of the samples, such as {@code "bytes"} or {@code "ps"}
     */
    public Tally(String name, String unit) {
        this.name = name;
        this.unit = unit;
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
     * Returns the unit.
     *
     * @return the unit
     */
    public String unit() {
        return unit;
    }

    /**
     * Adds a sample. Costs O(1), no allocation.
     *
     * @param value the sample, in this tally's unit
     */
    public void add(double value) {
        stats.addValue(value);
    }

    /**
     * Returns the number of samples.
     *
     * @return the count
     */
    public long count() {
        return stats.getN();
    }

    /**
     * Returns the arithmetic mean of the samples.
     *
     * @return the mean, or NaN if there are no samples
     */
    public double mean() {
        return stats.getMean();
    }

    /**
     * Returns the smallest sample.
     *
     * @return the minimum, or NaN if there are no samples
     */
    public double min() {
        return stats.getMin();
    }

    /**
     * Returns the largest sample.
     *
     * @return the maximum, or NaN if there are no samples
     */
    public double max() {
        return stats.getMax();
    }

    /**
     * Returns the sample standard deviation (with the n - 1 denominator).
     *
     * @return the standard deviation, 0 for one sample, NaN for none
     */
    public double stdDev() {
        return stats.getStandardDeviation();
    }

    /**
     * Returns a short description with the count and mean.
     *
     * @return the description
     */
    @Override
    public String toString() {
        return name + "[n=" + count() + ", mean=" + mean() + (unit == null ? "" : " " + unit) + "]";
    }
}
