package org.datsim.core.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class SimTimeTest {

    @Test
    void unitConstantsAndConversions() {
        assertEquals(1, SimTime.PS);
        assertEquals(1_000, SimTime.NS);
        assertEquals(1_000_000, SimTime.US);
        assertEquals(1_000_000_000L, SimTime.MS);
        assertEquals(1_000_000_000_000L, SimTime.S);
        assertEquals(250_000, SimTime.ns(250));
        assertEquals(3_000_000, SimTime.us(3));
        assertEquals(2_000_000_000L, SimTime.ms(2));
        assertEquals(5_000_000_000_000L, SimTime.s(5));
        assertThrows(ArithmeticException.class, () -> SimTime.s(10_000_000));
        assertThrows(ArithmeticException.class, () -> SimTime.ns(Long.MAX_VALUE / 10));
    }

    @Test
    void parsesAllUnitsExactly() {
        assertEquals(250_000, SimTime.parse("250ns"));
        assertEquals(1_500_000, SimTime.parse("1.5us"));
        assertEquals(10_000, SimTime.parse("10000ps"));
        assertEquals(250_000_000, SimTime.parse("0.25 ms"));
        assertEquals(2_000_000_000_000L, SimTime.parse("2s"));
        assertEquals(1_234_567_000_001L, SimTime.parse("1.234567000001s"));
        assertEquals(0, SimTime.parse("0"));
        assertEquals(0, SimTime.parse("0ns"));
        assertEquals(0, SimTime.parse("0.0"));
        assertEquals(100, SimTime.parse("  0.1ns "));
        assertEquals(1, SimTime.parse("0.001ns"));
        assertEquals(Long.MAX_VALUE, SimTime.parse(Long.MAX_VALUE + "ps"));
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "-1ns", "-0.5us", "0.5ps", "1.0001ns", "abc", "", " ", "12", "1.5", "ns", "1.5 us s",
                "1.5  us", "1.5xs", "1,5us", "1e3ns", "9223372036854775808ps", "200000000s", "1.2.3ns",
                "1 5ns"
            })
    void rejectsBadInputWithHelpfulMessage(String text) {
        UnitParseException e = assertThrows(UnitParseException.class, () -> SimTime.parse(text));
        assertTrue(e.getMessage().startsWith("expected a time such as \"250ns\" or \"1.5us\""), e.getMessage());
        assertTrue(e.getMessage().contains("found \"" + text + "\""), e.getMessage());
    }

    @Test
    void rejectionMessagesSayWhatIsWrong() {
        assertEquals(
                "expected a time such as \"250ns\" or \"1.5us\", found \"abc\"",
                assertThrows(UnitParseException.class, () -> SimTime.parse("abc")).getMessage());
        assertTrue(
                assertThrows(UnitParseException.class, () -> SimTime.parse("-1ns"))
                        .getMessage()
                        .contains("negative"));
        assertTrue(
                assertThrows(UnitParseException.class, () -> SimTime.parse("0.5ps"))
                        .getMessage()
                        .contains("whole number of picoseconds"));
        assertTrue(
                assertThrows(UnitParseException.class, () -> SimTime.parse("12"))
                        .getMessage()
                        .contains("unit is missing"));
        assertThrows(UnitParseException.class, () -> SimTime.parse(null));
        assertTrue(new UnitParseException("x") instanceof IllegalArgumentException);
    }

    @Test
    void formatsInShortHumanForm() {
        assertEquals("1.5us", SimTime.format(1_500_000));
        assertEquals("2.31us", SimTime.format(2_310_000));
        assertEquals("812ns", SimTime.format(812_000));
        assertEquals("40ps", SimTime.format(40));
        assertEquals("0ps", SimTime.format(0));
        assertEquals("1.235s", SimTime.format(1_234_567_000_000L));
        assertEquals("1ns", SimTime.format(1_000));
        assertEquals("999ps", SimTime.format(999));
        assertEquals("1.001ns", SimTime.format(1_001));
        assertEquals("1ms", SimTime.format(999_999_600));
        assertEquals("100s", SimTime.format(SimTime.s(100)));
        assertEquals("-1.5us", SimTime.format(-1_500_000));
    }

    @Test
    void formatExactRoundTrips() {
        assertEquals("1.234567000001s", SimTime.formatExact(1_234_567_000_001L));
        assertEquals("1.5us", SimTime.formatExact(1_500_000));
        assertEquals("0ps", SimTime.formatExact(0));
        assertEquals("999ps", SimTime.formatExact(999));
        long[] fixed = {0, 1, 999, 1000, 1001, 1_500_000, 999_999_999, Long.MAX_VALUE, SimTime.S};
        for (long v : fixed) {
            assertEquals(v, SimTime.parse(SimTime.formatExact(v)), SimTime.formatExact(v));
        }
        SplittableRandom rnd = new SplittableRandom(1);
        for (int i = 0; i < 20_000; i++) {
            long v = rnd.nextLong(Long.MAX_VALUE) >>> rnd.nextInt(63);
            assertEquals(v, SimTime.parse(SimTime.formatExact(v)));
        }
    }

    @Test
    void formatParsesBackWithinRounding() {
        SplittableRandom rnd = new SplittableRandom(2);
        for (int i = 0; i < 5_000; i++) {
            long v = rnd.nextLong(Long.MAX_VALUE) >>> rnd.nextInt(63);
            long back = SimTime.parse(SimTime.format(v));
            assertTrue(Math.abs(back - v) <= Math.max(1, v / 1000), v + " -> " + SimTime.format(v));
        }
    }
}
