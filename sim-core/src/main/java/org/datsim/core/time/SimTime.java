package org.datsim.core.time;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Constants and conversions for simulated time, which datsim represents as a plain {@code long}
 * number of picoseconds.
 *
 * <p>A signed 64-bit picosecond count covers about 106 days of simulated time, far beyond any
 * scenario. The conversion helpers ({@link #ns(long)} and friends) check for overflow and throw
 * {@link ArithmeticException} rather than wrapping silently. Text conversions use exact decimal
 * arithmetic, so {@code parse("1.5us")} is exactly {@code 1_500_000} and never suffers binary
 * floating-point rounding.
 *
 * <p>This class has static members only.
 */
public final class SimTime {

    /** One picosecond, the resolution of simulated time. */
    public static final long PS = 1;
    /** One nanosecond in picoseconds. */
    public static final long NS = 1_000;
    /** One microsecond in picoseconds. */
    public static final long US = 1_000_000;
    /** One millisecond in picoseconds. */
    public static final long MS = 1_000_000_000L;
    /** One second in picoseconds. */
    public static final long S = 1_000_000_000_000L;

    private static final String EXPECTED = "a time such as \"250ns\" or \"1.5us\"";
    private static final String[] UNIT_NAMES = {"s", "ms", "us", "ns", "ps"};
    private static final long[] UNIT_PS = {S, MS, US, NS, PS};

    private SimTime() {}

    /**
     * Converts nanoseconds to picoseconds. Costs one checked multiplication.
     *
     * @param ns a duration in nanoseconds
     * @return the same duration in picoseconds
     * @throws ArithmeticException if the result does not fit in a {@code long}
     */
    public static long ns(long ns) {
        return Math.multiplyExact(ns, NS);
    }

    /**
     * Converts microseconds to picoseconds. Costs one checked multiplication.
     *
     * @param us a duration in microseconds
     * @return the same duration in picoseconds
     * @throws ArithmeticException if the result does not fit in a {@code long}
     */
    public static long us(long us) {
        return Math.multiplyExact(us, US);
    }

    /**
     * Converts milliseconds to picoseconds. Costs one checked multiplication.
     *
     * @param ms a duration in milliseconds
     * @return the same duration in picoseconds
     * @throws ArithmeticException if the result does not fit in a {@code long}
     */
    public static long ms(long ms) {
        return Math.multiplyExact(ms, MS);
    }

    /**
     * Converts seconds to picoseconds. Costs one checked multiplication.
     *
     * @param s a duration in seconds
     * @return the same duration in picoseconds
     * @throws ArithmeticException if the result does not fit in a {@code long}
     */
    public static long s(long s) {
        return Math.multiplyExact(s, S);
    }

    /**
     * Parses a time such as {@code "250ns"}, {@code "1.5us"}, {@code "10000ps"} or {@code "0.25 ms"}.
     *
     * <p>The accepted form is a non-negative decimal number, an optional single space and one of the
     * units {@code ps}, {@code ns}, {@code us}, {@code ms} or {@code s}; leading and trailing
     * whitespace is ignored. The bare number {@code "0"} (in any spelling of zero, such as {@code
     * "0.0"}) is accepted without a unit, since zero is zero in every unit. Arithmetic is exact
     * decimal ({@link BigDecimal}), and the result must be a whole number of picoseconds: {@code
     * "0.5ps"} is rejected rather than rounded. This method allocates and is meant for
     * configuration, not for hot paths.
     *
     * @param text the text to parse
     * @return the time in picoseconds, {@code >= 0}
     * @throws UnitParseException if the text is malformed, lacks a unit, is negative, is not a whole
     *     number of picoseconds or does not fit in a {@code long}
     */
    public static long parse(String text) {
        Object[] parts = Quantities.split(text);
        if (parts == null) {
            throw UnitParseException.expected(EXPECTED, text, null);
        }
        BigDecimal number = (BigDecimal) parts[0];
        String unit = (String) parts[1];
        long multiplier;
        if (unit.isEmpty()) {
            if (number.signum() == 0) {
                return 0;
            }
            throw UnitParseException.expected(
                    EXPECTED, text, "the unit is missing (one of ps, ns, us, ms, s)");
        }
        multiplier = unitPs(unit);
        if (multiplier == 0) {
            throw UnitParseException.expected(
                    EXPECTED, text, "unknown unit \"" + unit + "\" (use one of ps, ns, us, ms, s)");
        }
        if (number.signum() < 0) {
            throw UnitParseException.expected(EXPECTED, text, "a time must not be negative");
        }
        if (!Quantities.isWhole(number, multiplier)) {
            throw UnitParseException.expected(
                    EXPECTED, text, "the time is not a whole number of picoseconds");
        }
        Long ps = Quantities.exactLong(number, multiplier);
        if (ps == null) {
            throw UnitParseException.expected(
                    EXPECTED, text, "the time is too large (the maximum is about 106 days)");
        }
        return ps;
    }

    private static long unitPs(String unit) {
        switch (unit) {
            case "ps":
                return PS;
            case "ns":
                return NS;
            case "us":
                return US;
            case "ms":
                return MS;
            case "s":
                return S;
            default:
                return 0;
        }
    }

    /**
     * Formats a time in a short human form: the largest unit in which the magnitude is at least 1, at
     * most three decimals (rounded half-up), trailing zeros stripped. Examples: {@code 1_500_000 ->
     * "1.5us"}, {@code 2_310_000 -> "2.31us"}, {@code 812_000 -> "812ns"}, {@code 40 -> "40ps"},
     * {@code 0 -> "0ps"}, {@code 1_234_567_000_000 -> "1.235s"}. If rounding reaches 1000 of a unit,
     * the next larger unit is used ({@code 999_999_600 -> "1ms"}). The result may lose precision; use
     * {@link #formatExact(long)} where the text must be parsed back. Negative values are formatted
     * with a leading minus sign. Allocates; meant for reports and messages.
     *
     * @param ps a time or duration in picoseconds
     * @return the short text form
     */
    public static String format(long ps) {
        int i = unitIndex(ps);
        BigDecimal v =
                BigDecimal.valueOf(ps)
                        .divide(BigDecimal.valueOf(UNIT_PS[i]))
                        .setScale(3, RoundingMode.HALF_UP);
        if (i > 0 && v.abs().compareTo(BigDecimal.valueOf(1000)) >= 0) {
            i--;
            v = BigDecimal.valueOf(ps)
                    .divide(BigDecimal.valueOf(UNIT_PS[i]))
                    .setScale(3, RoundingMode.HALF_UP);
        }
        return plain(v) + UNIT_NAMES[i];
    }

    /**
     * Formats a time exactly, in the largest unit in which the magnitude is at least 1, with as many
     * decimals as needed ({@code 1_234_567_000_001 -> "1.234567000001s"}). For every {@code ps >= 0},
     * {@code parse(formatExact(ps)) == ps}. Allocates; meant for configuration files and logs.
     *
     * @param ps a time or duration in picoseconds
     * @return the exact text form
     */
    public static String formatExact(long ps) {
        int i = unitIndex(ps);
        return plain(BigDecimal.valueOf(ps).divide(BigDecimal.valueOf(UNIT_PS[i]))) + UNIT_NAMES[i];
    }

    private static int unitIndex(long ps) {
        for (int i = 0; i < UNIT_PS.length - 1; i++) {
            if (Quantities.absAtLeast(ps, UNIT_PS[i])) {
                return i;
            }
        }
        return UNIT_PS.length - 1;
    }

    private static String plain(BigDecimal v) {
        if (v.signum() == 0) {
            return "0";
        }
        return v.stripTrailingZeros().toPlainString();
    }
}
