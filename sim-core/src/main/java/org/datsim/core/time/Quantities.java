package org.datsim.core.time;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Shared helpers for parsing "number + unit" text; package-private. */
final class Quantities {

    /** A signed decimal number, an optional single space, then an optional unit token. */
    static final Pattern NUMBER_UNIT =
            Pattern.compile("([+-]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)) ?([A-Za-z/]*)");

    private Quantities() {}

    /**
     * Splits text into a number and a unit.
     *
     * @return a two-element array {number, unit} (unit may be empty), or null if the shape is wrong
     */
    static Object[] split(String text) {
        if (text == null) {
            return null;
        }
        Matcher m = NUMBER_UNIT.matcher(text.strip());
        if (!m.matches()) {
            return null;
        }
        return new Object[] {new BigDecimal(m.group(1)), m.group(2)};
    }

    /**
     * Converts {@code value * multiplier} to an exact long, or returns null if not whole or too large.
     */
    static Long exactLong(BigDecimal value, long multiplier) {
        BigDecimal v = value.multiply(BigDecimal.valueOf(multiplier));
        try {
            return v.setScale(0, RoundingMode.UNNECESSARY).longValueExact();
        } catch (ArithmeticException e) {
            return null;
        }
    }

    /** True if {@code value * multiplier} is a whole number. */
    static boolean isWhole(BigDecimal value, long multiplier) {
        BigDecimal v = value.multiply(BigDecimal.valueOf(multiplier));
        return v.signum() == 0 || v.stripTrailingZeros().scale() <= 0;
    }

    /** Formats {@code value / unit} with at most {@code decimals} decimals, trailing zeros stripped. */
    static String scaled(long value, long unit, int decimals) {
        BigDecimal d = BigDecimal.valueOf(value).divide(BigDecimal.valueOf(unit));
        if (decimals >= 0) {
            d = d.setScale(decimals, RoundingMode.HALF_UP);
        }
        d = d.stripTrailingZeros();
        if (d.signum() == 0) {
            return "0";
        }
        return d.toPlainString();
    }

    /** |value| as an unsigned-safe comparison helper: true if |value| >= unit. */
    static boolean absAtLeast(long value, long unit) {
        return value >= unit || value <= -unit;
    }
}
