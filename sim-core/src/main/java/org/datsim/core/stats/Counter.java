package org.datsim.core.stats;

/** A named counter of occurrences or amounts, such as packets dropped or bytes sent. */
public final class Counter {

    private final String name;
    private final String unit;
    private long value;

    /**
     * Creates a counter at zero.
     *
     * @param name the name shown in reports
     * @param unit the unit of the counted amount, such as {@code "packets"} or {@code "bytes"}
     */
    public Counter(String name, String unit) {
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

    /** Adds one. Costs a field increment. */
    public void increment() {
        value++;
    }

    /**
     * Adds an amount. Costs a field addition; overflow wraps as for {@code long}.
     *
     * @param amount the amount to add, in this counter's unit (may be negative)
     */
    public void add(long amount) {
        value += amount;
    }

    /**
     * Returns the current total.
     *
     * @return the total, in this counter's unit
     */
    public long value() {
        return value;
    }

    /**
     * Returns {@code name=value unit}.
     *
     * @return a short description
     */
    @Override
    public String toString() {
        return name + "=" + value + (unit == null || unit.isEmpty() ? "" : " " + unit);
    }
}
