package org.datsim.core.time;

import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Parsing and formatting of byte counts such as {@code "4096"}, {@code "64B"}, {@code "4KiB"} or
 * {@code "1.5MB"}. Byte counts are plain {@code long} values; this class has static members only.
 */
public final class ByteSize {

    /** One kibibyte (1024 bytes). */
    public static final long KIB = 1L << 10;
    /** One mebibyte (1024 KiB). */
    public static final long MIB = 1L << 20;
    /** One gibibyte (1024 MiB). */
    public static final long GIB = 1L << 30;
    /** One tebibyte (1024 GiB). */
    public static final long TIB = 1L << 40;

    private static final String EXPECTED = "a size such as \"4096\", \"64B\", \"4KiB\" or \"1.5MB\"";
    private static final String[] IEC_NAMES = {"TiB", "GiB", "MiB", "KiB", "B"};
    private static final long[] IEC_BYTES = {TIB, GIB, MIB, KIB, 1};

    private ByteSize() {}

    /**
     * Parses a byte count. Accepted forms: a plain integer ({@code "4096"}), a number with {@code B},
     * an IEC unit ({@code KiB}, {@code MiB}, {@code GiB}, {@code TiB}, powers of 1024) or an SI unit
     * ({@code KB}, {@code MB}, {@code GB}, {@code TB}, powers of 1000), with an optional single space
     * between number and unit. A decimal number is allowed if the result is a whole number of bytes
     * ({@code "1.5KiB"} is 1536; {@code "0.3B"} is rejected). Allocates; meant for configuration.
     *
     * @param text the text to parse
     * @return the size in bytes, {@code >= 0}
     * @throws UnitParseException if the text is malformed, uses an unknown unit, is negative, is not
     *     a whole number of bytes or does not fit in a {@code long}
     */
    public static long parse(String text) {
        Object[] parts = Quantities.split(text);
        if (parts == null) {
            throw UnitParseException.expected(EXPECTED, text, null);
        }
        BigDecimal number = (BigDecimal) parts[0];
        long multiplier = unitBytes((String) parts[1]);
        if (multiplier == 0) {
            throw UnitParseException.expected(
                    EXPECTED,
                    text,
                    "unknown unit \"" + parts[1] + "\" (use B, KiB, MiB, GiB, TiB, KB, MB, GB or TB)");
        }
        if (number.signum() < 0) {
            throw UnitParseException.expected(EXPECTED, text, "a size must not be negative");
        }
        if (!Quantities.isWhole(number, multiplier)) {
            throw UnitParseException.expected(EXPECTED, text, "the size is not a whole number of bytes");
        }
        Long bytes = Quantities.exactLong(number, multiplier);
        if (bytes == null) {
            throw UnitParseException.expected(EXPECTED, text, "the size is too large");
        }
        return bytes;
    }

    private static long unitBytes(String unit) {
        switch (unit) {
            case "":
            case "B":
                return 1;
            case "KiB":
                return KIB;
            case "MiB":
                return MIB;
            case "GiB":
                return GIB;
            case "TiB":
                return TIB;
            case "KB":
            case "kB":
                return 1_000L;
            case "MB":
                return 1_000_000L;
            case "GB":
                return 1_000_000_000L;
            case "TB":
                return 1_000_000_000_000L;
            default:
                return 0;
        }
    }

    /**
     * Formats a byte count in the largest IEC unit in which it is at least 1, with at most three
     * decimals (rounded half-up) and trailing zeros stripped: {@code 4096 -> "4KiB"}, {@code 1572864
     * -> "1.5MiB"}, {@code 100 -> "100B"}. May lose precision; see {@link #formatExact(long)}.
     *
     * @param bytes a size in bytes
     * @return the short text form
     */
    public static String format(long bytes) {
        int i = unitIndex(bytes);
        BigDecimal v =
                BigDecimal.valueOf(bytes)
                        .divide(BigDecimal.valueOf(IEC_BYTES[i]))
                        .setScale(3, RoundingMode.HALF_UP);
        if (i > 0 && v.abs().compareTo(BigDecimal.valueOf(1024)) >= 0) {
            i--;
            v = BigDecimal.valueOf(bytes)
                    .divide(BigDecimal.valueOf(IEC_BYTES[i]))
                    .setScale(3, RoundingMode.HALF_UP);
        }
        return plain(v) + IEC_NAMES[i];
    }

    /**
     * Formats a byte count exactly in the largest IEC unit in which it is at least 1, with as many
     * decimals as needed. For every {@code bytes >= 0}, {@code parse(formatExact(bytes)) == bytes}.
     *
     * @param bytes a size in bytes
     * @return the exact text form
     */
    public static String formatExact(long bytes) {
        int i = unitIndex(bytes);
        return plain(BigDecimal.valueOf(bytes).divide(BigDecimal.valueOf(IEC_BYTES[i])))
                + IEC_NAMES[i];
    }

    private static int unitIndex(long bytes) {
        for (int i = 0; i < IEC_BYTES.length - 1; i++) {
            if (Quantities.absAtLeast(bytes, IEC_BYTES[i])) {
                return i;
            }
        }
        return IEC_BYTES.length - 1;
    }

    private static String plain(BigDecimal v) {
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }
}
