package org.datsim.core.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.math.BigInteger;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DataRateTest {

    private static long reference(long bytes, long bps) {
        BigInteger n = BigInteger.valueOf(bytes).multiply(BigInteger.valueOf(8)).multiply(BigInteger.TEN.pow(12));
        BigInteger[] qr = n.divideAndRemainder(BigInteger.valueOf(bps));
        BigInteger q = qr[1].signum() == 0 ? qr[0] : qr[0].add(BigInteger.ONE);
        return q.longValueExact();
    }

    @Test
    void parsesBitAndByteUnits() {
        assertEquals(100_000_000_000L, DataRate.parse("100Gbps").bitsPerSecond());
        assertEquals(12_500_000_000L, DataRate.parse("12.5Gbps").bitsPerSecond());
        assertEquals(1_000, DataRate.parse("1Kbps").bitsPerSecond());
        assertEquals(5_000_000, DataRate.parse("5 Mbps").bitsPerSecond());
        assertEquals(10_000_000_000_000L, DataRate.parse("10Tbps").bitsPerSecond());
        assertEquals(3, DataRate.parse("3bps").bitsPerSecond());
        assertEquals(8, DataRate.parse("1B/s").bitsPerSecond());
        assertEquals(8_000, DataRate.parse("1KB/s").bitsPerSecond());
        assertEquals(8_000_000, DataRate.parse("1MB/s").bitsPerSecond());
        assertEquals(25_600_000_000L, DataRate.parse("3.2GB/s").bitsPerSecond());
    }

    @ParameterizedTest
    @ValueSource(strings = {"0Gbps", "-1Gbps", "100", "100Gbit", "fast", "0.5bps", "1.0001bps", ""})
    void rejectsBadRates(String text) {
        UnitParseException e = assertThrows(UnitParseException.class, () -> DataRate.parse(text));
        assertTrue(e.getMessage().startsWith("expected a data rate"), e.getMessage());
    }

    @Test
    void ofBitsPerSecondValidates() {
        assertEquals(7, DataRate.ofBitsPerSecond(7).bitsPerSecond());
        assertThrows(IllegalArgumentException.class, () -> DataRate.ofBitsPerSecond(0));
        assertThrows(IllegalArgumentException.class, () -> DataRate.ofBitsPerSecond(-3));
    }

    @Test
    void transmitTimeIsExact() {
        assertEquals(327_680, DataRate.parse("100Gbps").transmitTimePs(4096));
        assertEquals(0, DataRate.parse("100Gbps").transmitTimePs(0));
        // 1 byte at 3 bps = 8/3 s = 2.666... s -> rounded up
        assertEquals(2_666_666_666_667L, DataRate.ofBitsPerSecond(3).transmitTimePs(1));
        assertEquals(80, DataRate.parse("100Gbps").transmitTimePs(1));
        // 1 byte at 400 Gbps = 20 ps exactly; at 12.5 Gbps = 640 ps
        assertEquals(20, DataRate.parse("400Gbps").transmitTimePs(1));
        assertEquals(640, DataRate.parse("12.5Gbps").transmitTimePs(1));
        // 1 byte at 7 bps = 8e12/7 = 1142857142857.14 -> ceil
        assertEquals(1_142_857_142_858L, DataRate.ofBitsPerSecond(7).transmitTimePs(1));
        assertThrows(IllegalArgumentException.class, () -> DataRate.parse("1Gbps").transmitTimePs(-1));
    }

    @Test
    void largeValuesMatchBigIntegerReference() {
        long[] rates = {
            1_000_000_007L, 3, 7, 999_999_999_989L, 100_000_000_000L, 10_000_000_000_000L,
            12_500_000_000L, 400_000_000_000L, 9_999_999_999_937L, 56_000_000_000L, 1_000_000
        };
        long[] sizes = {0, 1, 63, 4096, 1_152_921, 1_152_922, 1L << 30, (1L << 40) - 1, 1L << 40};
        for (long bps : rates) {
            DataRate r = DataRate.ofBitsPerSecond(bps);
            for (long bytes : sizes) {
                BigInteger exact = BigInteger.valueOf(bytes).shiftLeft(3).multiply(BigInteger.TEN.pow(12));
                BigInteger q = exact.add(BigInteger.valueOf(bps - 1)).divide(BigInteger.valueOf(bps));
                if (q.bitLength() < 64) {
                    assertEquals(q.longValueExact(), r.transmitTimePs(bytes), bytes + " bytes at " + bps);
                } else {
                    assertThrows(ArithmeticException.class, () -> r.transmitTimePs(bytes));
                }
            }
        }
        SplittableRandom rnd = new SplittableRandom(3);
        for (int i = 0; i < 20_000; i++) {
            long bps = 1 + rnd.nextLong(10_000_000_000_000L);
            long bytes = rnd.nextLong(1L << 40);
            if (bps < 1_000_000) {
                bytes >>>= 20; // keep results within a long for very slow rates
            }
            assertEquals(reference(bytes, bps), DataRate.ofBitsPerSecond(bps).transmitTimePs(bytes));
        }
    }

    @Test
    void powerOfTwoDenominatorsRoundUpLikeDivision() {
        // 10^12 / bps with a power-of-two denominator takes the shift path: 128 Gb/s is 125/16 ps per bit,
        // 100 Gb/s 10/1, 2^k b/s 5^12 * 2^(12 - k) / 1 or 5^12 / 2^(k - 12)
        long[] rates = {128_000_000_000L, 100_000_000_000L, 1L << 20, 1L << 30, 1L << 40, 3L << 30, 256_000_000_000L,
            25_600_000_000L, 512_000_000_000L};
        SplittableRandom rnd = new SplittableRandom(5);
        for (long bps : rates) {
            DataRate r = DataRate.ofBitsPerSecond(bps);
            for (long bytes = 0; bytes < 5000; bytes++) {
                assertEquals(reference(bytes, bps), r.transmitTimePs(bytes), bytes + " bytes at " + bps);
            }
            for (int i = 0; i < 2000; i++) {
                long bytes = rnd.nextLong(1L << 36);
                assertEquals(reference(bytes, bps), r.transmitTimePs(bytes), bytes + " bytes at " + bps);
            }
        }
        assertEquals(63, DataRate.parse("128Gbps").transmitTimePs(1)); // 8 * 125 / 16 = 62.5, rounded up
    }

    @Test
    void overflowIsReported() {
        assertThrows(ArithmeticException.class, () -> DataRate.ofBitsPerSecond(1).transmitTimePs(1L << 40));
        assertThrows(ArithmeticException.class, () -> DataRate.ofBitsPerSecond(1).transmitTimePs(Long.MAX_VALUE));
    }

    @Test
    void toStringAndEquality() {
        assertEquals("100Gbps", DataRate.parse("100Gbps").toString());
        assertEquals("12.5Gbps", DataRate.parse("12.5Gbps").toString());
        assertEquals("3bps", DataRate.ofBitsPerSecond(3).toString());
        assertEquals("1.5Kbps", DataRate.ofBitsPerSecond(1500).toString());
        assertEquals("25.6Gbps", DataRate.parse("3.2GB/s").toString());
        assertEquals("10Tbps", DataRate.parse("10Tbps").toString());
        assertEquals(DataRate.parse("100Gbps"), DataRate.parse("100000Mbps"));
        assertEquals(DataRate.parse("100Gbps").hashCode(), DataRate.parse("100000Mbps").hashCode());
        assertNotEquals(DataRate.parse("100Gbps"), DataRate.parse("101Gbps"));
        SplittableRandom rnd = new SplittableRandom(4);
        for (int i = 0; i < 1000; i++) {
            DataRate r = DataRate.ofBitsPerSecond(1 + rnd.nextLong(Long.MAX_VALUE - 1));
            assertEquals(r, DataRate.parse(r.toString()));
        }
    }
}
