package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * The {@code key=value} lines the benchmarks print, built without {@link java.util.Formatter}: its first use in a
 * process costs about 20 ms (format-string parsing and floating-point formatting classes), a twentieth of a
 * {@code bench stream} process. A fixed-point number is written as {@code %.Nf} writes it.
 */
final class KeyValues {

    private final StringBuilder lines = new StringBuilder(1024);

    /** Adds {@code key=value}. */
    KeyValues put(String key, long value) {
        lines.append(key).append('=').append(value).append('\n');
        return this;
    }

    /** Adds {@code key=value}. */
    KeyValues put(String key, String value) {
        lines.append(key).append('=').append(value).append('\n');
        return this;
    }

    /** Adds {@code key=true} or {@code key=false}. */
    KeyValues put(String key, boolean value) {
        lines.append(key).append('=').append(value).append('\n');
        return this;
    }

    /** Adds {@code key=value} with {@code decimals} digits after the point, as {@code %.<decimals>f} would. */
    KeyValues put(String key, double value, int decimals) {
        lines.append(key).append('=').append(fixed(value, decimals)).append('\n');
        return this;
    }

    /**
     * A number with {@code decimals} digits after the point, rounded half up from its shortest decimal form, which
     * is what {@code String.format("%.<decimals>f", value)} gives (in the root locale), signs of zeros included;
     * "NaN" and "Infinity" as it writes them.
     */
    static String fixed(double value, int decimals) {
        if (Double.isNaN(value) || Double.isInfinite(value)) {
            return Double.toString(value);
        }
        String s = BigDecimal.valueOf(value).setScale(decimals, RoundingMode.HALF_UP).toPlainString();
        // A decimal has no negative zero; the format keeps the sign of -0.0 and of negatives that round to zero.
        boolean negative = value < 0 || Double.doubleToRawLongBits(value) == Long.MIN_VALUE;
        return negative && s.charAt(0) != '-' ? "-" + s : s;
    }

    /** Writes the lines and flushes. */
    void writeTo(PrintWriter out) {
        out.print(lines);
        out.flush();
        lines.setLength(0);
    }
}
