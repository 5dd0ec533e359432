package org.datsim.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The attribute storage of {@link TraceEvent}: unboxed numbers, slots in fields and arrays, the map view. */
class TraceEventAttributesTest {

    private static String line(TraceEvent e) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(out)) {
            w.accept(e);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    @Test
    void primitiveNumbersReadBackAsTheirBoxedTypes() {
        long big = 1L << 40;
        int small = 7;
        TraceEvent e = TraceEvent.of(0, "k", "h").attr("l", big).attr("i", small).attr("boxed", (Object) 5L);
        assertEquals(Long.valueOf(big), e.attrs().get("l"));
        assertEquals(Integer.valueOf(7), e.attrs().get("i"), "an int attribute stays an Integer");
        assertEquals(Long.valueOf(5), e.attrValue("boxed"));
        assertEquals(big, e.attrLong("l", -1));
        assertEquals(7, e.attrLong("i", -1));
        assertEquals(5, e.attrLong("boxed", -1));
        assertEquals(-1, e.attrLong("missing", -1));
    }

    @Test
    void attrLongReadsNumbersOnly() {
        TraceEvent e = TraceEvent.of(0, "k", "h").attr("d", 2.9).attr("s", "12").attr("n", null).attr("b", true);
        assertEquals(2, e.attrLong("d", -1), "a Double as Number.longValue()");
        assertEquals(-1, e.attrLong("s", -1));
        assertEquals(-1, e.attrLong("n", -1));
        assertEquals(-1, e.attrLong("b", -1));
        assertTrue(e.hasAttr("n"), "set to null is set");
        assertFalse(e.hasAttr("x"));
        assertNull(e.attrValue("n"));
        assertEquals(Boolean.TRUE, e.attrValue("b"));
    }

    @Test
    void manyAttributesKeepInsertionOrderAndReplaceInPlace() throws IOException {
        TraceEvent e = TraceEvent.of(5, "k", "h");
        Map<String, Object> expected = new LinkedHashMap<>();
        for (int i = 0; i < 11; i++) {
            if (i % 3 == 0) {
                e.attr("a" + i, (long) i * 1000);
                expected.put("a" + i, (long) i * 1000);
            } else if (i % 3 == 1) {
                e.attr("a" + i, "v" + i);
                expected.put("a" + i, "v" + i);
            } else {
                e.attr("a" + i, i);
                expected.put("a" + i, i);
            }
        }
        // replace values in the inline slots and in the arrays, changing their types
        e.attr("a1", 11L).attr("a9", "nine").attr("a0", (Object) null).attr("a10", new long[] {1, 2});
        expected.put("a1", 11L);
        expected.put("a9", "nine");
        expected.put("a0", null);
        expected.put("a10", "[1,2]");
        assertEquals(11, e.attrCount());
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < e.attrCount(); i++) {
            keys.add(e.attrKey(i));
        }
        assertEquals(List.copyOf(expected.keySet()), keys);
        assertEquals(List.copyOf(expected.keySet()), List.copyOf(e.attrs().keySet()));
        assertEquals(11L, e.attrs().get("a1"));
        assertEquals("nine", e.attrValue("a9"));
        assertEquals(8, e.attrValue("a8"));
        StringBuilder json = new StringBuilder("{\"t_ps\":5,\"kind\":\"k\",\"host\":\"h\"");
        expected.forEach((k, v) -> json.append(",\"").append(k).append("\":")
                .append(v instanceof String && !k.equals("a10") ? "\"" + v + "\"" : String.valueOf(v)));
        assertEquals(json + "}\n", line(e));
        assertThrows(IndexOutOfBoundsException.class, () -> e.attrKey(11));
        assertThrows(IndexOutOfBoundsException.class, () -> e.attrValue(-1));
    }

    @Test
    void theMapViewIsLiveUnmodifiableAndEqualToAMap() {
        TraceEvent e = TraceEvent.of(0, "k", "h").attr("x", 1L);
        Map<String, Object> view = e.attrs();
        e.attr("y", "z");
        assertEquals(Map.of("x", 1L, "y", "z"), view, "a live view");
        assertEquals(Map.of("x", 1L, "y", "z").hashCode(), view.hashCode());
        assertEquals("{x=1, y=z}", view.toString());
        assertTrue(view.containsKey("y"));
        assertFalse(view.containsKey(3));
        assertThrows(UnsupportedOperationException.class, () -> view.remove("x"));
        assertThrows(UnsupportedOperationException.class, view::clear);
        Iterator<Map.Entry<String, Object>> it = view.entrySet().iterator();
        Map.Entry<String, Object> first = it.next();
        assertThrows(UnsupportedOperationException.class, () -> first.setValue(2L));
        assertThrows(UnsupportedOperationException.class, it::remove);
        it.next();
        assertFalse(it.hasNext());
        assertThrows(java.util.NoSuchElementException.class, it::next);
        assertEquals("TraceEvent[t_ps=0, kind=k, host=h, attrs=[x, y]]", e.toString());
    }

    @Test
    void narrowPrimitivesAreRejectedAsBefore() {
        TraceEvent e = TraceEvent.of(0, "k", "h");
        char c = 'c';
        short s = 1;
        byte b = 2;
        assertThrows(IllegalArgumentException.class, () -> e.attr("c", c));
        assertThrows(IllegalArgumentException.class, () -> e.attr("s", s));
        assertThrows(IllegalArgumentException.class, () -> e.attr("b", b));
        assertThrows(IllegalArgumentException.class, () -> e.attr("f", 1.5f));
        assertEquals(0, e.attrCount());
    }

    @Test
    void standardKeysAreRejectedByEveryOverload() {
        TraceEvent e = TraceEvent.of(0, "k", "h");
        for (String k : TraceEvent.STANDARD_KEYS) {
            assertTrue(TraceEvent.isStandardKey(k), k);
            assertThrows(IllegalArgumentException.class, () -> e.attr(k, 1L));
            assertThrows(IllegalArgumentException.class, () -> e.attr(k, 1));
            assertThrows(IllegalArgumentException.class, () -> e.attr(k, "x"));
        }
        for (String k : List.of("", "e", "eq", "ops", "rets", "kinds", "opcode", "cookies", "status_", "T_PS", "host ")) {
            assertFalse(TraceEvent.isStandardKey(k), k);
        }
        assertThrows(NullPointerException.class, () -> e.attr(null, 1L));
        assertThrows(NullPointerException.class, () -> e.attr(null, 1));
        assertEquals(0, e.attrCount());
    }
}
