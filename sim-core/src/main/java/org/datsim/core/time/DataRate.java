package org.datsim.core.time;

import java.math.BigDecimal;

/**
 * An immutable data rate in whole bits per second, such as a link speed of {@code 100Gbps}.
 *
 * <p>The main operation is {@link #transmitTimePs(long)}, the exact serialization time of a number
 * of bytes, rounded up to a whole picosecond. It is called once per packet per hop, so it is
 * allocation-free: the rate is reduced once, at construction, to the fraction {@code
 * 10^12 / bps = num / den} in lowest terms, after which a typical packet costs one multiplication
 * and one division. Only sizes whose product would overflow 63 bits take a slower (still
 * allocation-free) 128-bit path.
 *
 * <p>Instances are values: compare them with {@link #equals(Object)}, not {@code ==}.
 */
public final class DataRate {

    private static final long PS_PER_S = SimTime.S;
    private static final String EXPECTED =
            "a data rate such as \"100Gbps\", \"12.5Gbps\" or \"3.2GB/s\"";
    private static final String[] UNIT_NAMES = {"Tbps", "Gbps", "Mbps", "Kbps", "bps"};
    private static final long[] UNIT_BPS = {
        1_000_000_000_000L, 1_000_000_000L, 1_000_000L, 1_000L, 1L
    };

    private final long bps;
    /** Numerator of 10^12 / bps in lowest terms. */
    private final long num;
    /** Denominator of 10^12 / bps in lowest terms. */
    private final long den;
    /** Largest bit count whose product with num fits in a long. */
    private final long fastLimit;
    /**
     * log2(den) when den is a power of two (the usual rates: 100 Gb/s is 10/1 ps per bit, 128 Gb/s 125/16), else -1:
     * the division is then a shift, the packet path's hot case (a 64-bit division costs tens of cycles).
     */
    private final int denShift;

    private DataRate(long bps) {
        this.bps = bps;
        long g = gcd(PS_PER_S, bps);
        this.num = PS_PER_S / g;
        this.den = bps / g;
        this.fastLimit = Long.MAX_VALUE / num;
        this.denShift = Long.bitCount(den) == 1 ? Long.numberOfTrailingZeros(den) : -1;
    }

    /**
     * Returns the rate of the given number of bits per second. Costs one gcd computation.
     *
     * @param bitsPerSecond the rate in bits per second, {@code > 0}
     * @return the rate
     * @throws IllegalArgumentException if {@code bitsPerSecond <= 0}
     */
    public static DataRate ofBitsPerSecond(long bitsPerSecond) {
        if (bitsPerSecond <= 0) {
            throw new IllegalArgumentException(
                    "a data rate must be positive, found " + bitsPerSecond + " bits per second");
        }
        return new DataRate(bitsPerSecond);
    }

    /**
     * Parses a rate. Accepted forms are a decimal number, an optional single space and a unit: bit
     * units {@code bps}, {@code Kbps}, {@code Mbps}, {@code Gbps}, {@code Tbps} (SI, powers of 1000)
     * or byte units {@code B/s}, {@code KB/s}, {@code MB/s}, {@code GB/s}, {@code TB/s} (SI, times 8
     * bits). Examples: {@code "100Gbps"}, {@code "12.5Gbps"}, {@code "3.2GB/s"}. The result must be a
     * positive whole number of bits per second. Allocates; meant for configuration.
     *
     * @param text the text to parse
     * @return the rate
     * @throws UnitParseException if the text is malformed, has an unknown or missing unit, is not
     *     positive, is not a whole number of bits per second or does not fit in a {@code long}
     */
    public static DataRate parse(String text) {
        Object[] parts = Quantities.split(text);
        if (parts == null) {
            throw UnitParseException.expected(EXPECTED, text, null);
        }
        BigDecimal number = (BigDecimal) parts[0];
        String unit = (String) parts[1];
        long multiplier = unitBps(unit);
        if (multiplier == 0) {
            throw UnitParseException.expected(
                    EXPECTED,
                    text,
                    unit.isEmpty()
                            ? "the unit is missing (one of bps, Kbps, Mbps, Gbps, Tbps, B/s, KB/s, MB/s, GB/s)"
                            : "unknown unit \"" + unit + "\"");
        }
        if (number.signum() <= 0) {
            throw UnitParseException.expected(EXPECTED, text, "a data rate must be positive");
        }
        if (!Quantities.isWhole(number, multiplier)) {
            throw UnitParseException.expected(
                    EXPECTED, text, "the rate is not a whole number of bits per second");
        }
        Long value = Quantities.exactLong(number, multiplier);
        if (value == null) {
            throw UnitParseException.expected(EXPECTED, text, "the rate is too large");
        }
        return new DataRate(value);
    }

    private static long unitBps(String unit) {
        switch (unit) {
            case "bps":
                return 1L;
            case "Kbps":
            case "kbps":
                return 1_000L;
            case "Mbps":
                return 1_000_000L;
            case "Gbps":
                return 1_000_000_000L;
            case "Tbps":
                return 1_000_000_000_000L;
            case "B/s":
                return 8L;
            case "KB/s":
            case "kB/s":
                return 8_000L;
            case "MB/s":
                return 8_000_000L;
            case "GB/s":
                return 8_000_000_000L;
            case "TB/s":
                return 8_000_000_000_000L;
            default:
                return 0;
        }
    }

    /**
     * Returns the rate in bits per second. Costs a field read.
     *
     * @return bits per second, {@code > 0}
     */
    public long bitsPerSecond() {
        return bps;
    }

    /**
     * Returns the exact time to serialize {@code bytes} bytes at this rate, {@code ceil(bytes * 8 *
     * 10^12 / bps)} picoseconds, with no rounding error and no intermediate overflow for any input
     * whose result fits in a {@code long} (in particular every size up to 2^40 bytes at every rate up
     * to 10 Tbps and beyond).
     *
     * <p>Cost: allocation-free. When {@code bytes * 8 * num} fits in 63 bits (where {@code num / den}
     * is {@code 10^12 / bps} in lowest terms; at 100 Gbps {@code num} is 10, so every packet below
     * about 100 PB qualifies) it is one multiplication and one division. Otherwise a 128-bit
     * product is divided by shift-and-subtract, about 64 simple iterations.
     *
     * @param bytes the number of bytes, {@code >= 0}
     * @return the transmit time in picoseconds
     * @throws IllegalArgumentException if {@code bytes < 0}
     * @throws ArithmeticException if the result does not fit in a {@code long}
     */
    public long transmitTimePs(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a byte count must not be negative, found " + bytes);
        }
        if (bytes > (Long.MAX_VALUE >>> 3)) {
            throw new ArithmeticException("bit count overflows a long: " + bytes + " bytes");
        }
        long bits = bytes << 3;
        if (bits <= fastLimit) {
            long n = bits * num;
            int sh = denShift;
            if (sh >= 0) {
                long q = n >>> sh;
                return q << sh == n ? q : q + 1;
            }
            long q = n / den;
            return q * den == n ? q : q + 1;
        }
        return slowCeilMulDiv(bits, num, den);
    }

    /** ceil(a * b / d) for a, b >= 0 and d > 0 using a 128-bit product; allocation-free. */
    static long slowCeilMulDiv(long a, long b, long d) {
        long hi = Math.multiplyHigh(a, b); // a, b >= 0, so the 128-bit product is hi:lo (unsigned lo)
        long lo = a * b;
        if (Long.compareUnsigned(hi, d) >= 0) {
            throw new ArithmeticException("transmit time overflows a long");
        }
        long q = 0;
        long r = hi;
        for (int i = 63; i >= 0; i--) {
            boolean carry = r < 0; // r has bit 63 set: r << 1 would exceed 64 bits
            r = (r << 1) | ((lo >>> i) & 1L);
            q <<= 1;
            if (carry || Long.compareUnsigned(r, d) >= 0) {
                r -= d;
                q |= 1L;
            }
        }
        if (q < 0) {
            throw new ArithmeticException("transmit time overflows a long");
        }
        if (r != 0) {
            if (q == Long.MAX_VALUE) {
                throw new ArithmeticException("transmit time overflows a long");
            }
            q++;
        }
        return q;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /**
     * Returns the rate in the largest SI bit unit in which it is at least 1, exactly, with trailing
     * zeros stripped: {@code "100Gbps"}, {@code "12.5Gbps"}, {@code "1.5Kbps"}, {@code "3bps"}. The
     * text parses back to an equal rate.
     *
     * @return the text form
     */
    @Override
    public String toString() {
        for (int i = 0; i < UNIT_BPS.length; i++) {
            if (bps >= UNIT_BPS[i]) {
                return Quantities.scaled(bps, UNIT_BPS[i], -1) + UNIT_NAMES[i];
            }
        }
        throw new AssertionError(bps);
    }

    /**
     * Two rates are equal if they have the same number of bits per second.
     *
     * @param o the object to compare with
     * @return true if {@code o} is a {@code DataRate} with the same rate
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof DataRate && ((DataRate) o).bps == bps;
    }

    /**
     * Returns a hash code consistent with {@link #equals(Object)}.
     *
     * @return the hash code
     */
    @Override
    public int hashCode() {
        return Long.hashCode(bps);
    }
}
