package org.datsim.core.time;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ByteSizeTest {

    @Test
    void parsesPlainIecAndSi() {
        assertEquals(4096, ByteSize.parse("4096"));
        assertEquals(64, ByteSize.parse("64B"));
        assertEquals(4096, ByteSize.parse("4KiB"));
        assertEquals(1536, ByteSize.parse("1.5KiB"));
        assertEquals(3L << 20, ByteSize.parse("3 MiB"));
        assertEquals(1L << 30, ByteSize.parse("1GiB"));
        assertEquals(2L << 40, ByteSize.parse("2TiB"));
        assertEquals(1_000, ByteSize.parse("1KB"));
        assertEquals(1_500_000, ByteSize.parse("1.5MB"));
        assertEquals(2_000_000_000L, ByteSize.parse("2GB"));
        assertEquals(1_000_000_000_000L, ByteSize.parse("1TB"));
        assertEquals(0, ByteSize.parse("0"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"-1", "-4KiB", "0.5B", "1.0001KB", "4kib", "lots", "", "4 KiB B", "4XB", "99999999TiB"})
    void rejectsBadSizes(String text) {
        UnitParseException e = assertThrows(UnitParseException.class, () -> ByteSize.parse(text));
        assertTrue(e.getMessage().startsWith("expected a size such as"), e.getMessage());
    }

    @Test
    void formats() {
        assertEquals("4KiB", ByteSize.format(4096));
        assertEquals("1.5MiB", ByteSize.format(1_572_864));
        assertEquals("100B", ByteSize.format(100));
        assertEquals("0B", ByteSize.format(0));
        assertEquals("1000B", ByteSize.format(1000));
        assertEquals("1.465KiB", ByteSize.format(1500));
        assertEquals("1GiB", ByteSize.format(1L << 30));
        assertEquals("1.46484375KiB", ByteSize.formatExact(1500));
        SplittableRandom rnd = new SplittableRandom(5);
        for (int i = 0; i < 10_000; i++) {
            long v = rnd.nextLong(Long.MAX_VALUE) >>> rnd.nextInt(63);
            assertEquals(v, ByteSize.parse(ByteSize.formatExact(v)));
        }
    }
}
