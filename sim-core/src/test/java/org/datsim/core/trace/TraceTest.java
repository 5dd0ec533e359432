package org.datsim.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceTest {

    @Test
    void sourceWithoutSinksIsDisabledAndCallsNothing() {
        TraceSource<Object> src = new TraceSource<>("nic.tx");
        assertFalse(src.isEnabled());
        assertEquals("nic.tx", src.name());
        src.fire(new Object()); // no sinks: nothing happens
        List<String> log = new ArrayList<>();
        TraceSink<Object> s = r -> log.add("s");
        src.subscribe(s);
        src.unsubscribe(s);
        assertFalse(src.isEnabled());
        src.fire("x");
        assertEquals(List.of(), log);
    }

    @Test
    void sinksAreCalledInSubscriptionOrder() {
        TraceSource<String> src = new TraceSource<>("s");
        List<String> log = new ArrayList<>();
        TraceSink<String> a = r -> log.add("a:" + r);
        TraceSink<Object> b = r -> log.add("b:" + r); // a sink of a supertype
        TraceSink<String> c = r -> log.add("c:" + r);
        src.subscribe(a);
        src.subscribe(b);
        src.subscribe(c);
        assertTrue(src.isEnabled());
        assertEquals(3, src.sinkCount());
        src.fire("1");
        src.unsubscribe(b);
        src.fire("2");
        assertEquals(List.of("a:1", "b:1", "c:1", "a:2", "c:2"), log);
        assertThrows(NullPointerException.class, () -> src.subscribe(null));
    }

    @Test
    void traceEventBuilderAndGetters() {
        TraceEvent e = TraceEvent.of(1500, TraceEvent.POST, "h1");
        assertEquals(null, e.ep());
        assertEquals(-1, e.op());
        assertFalse(e.hasCookie());
        assertTrue(e.attrs().isEmpty());
        e.ep("ep0").op(17).cookie(0).call("dat_ep_post_send").ret("DAT_SUCCESS").status("ok");
        e.attr("bytes", 4096L).attr("sg", new long[] {1, 2}).attr("bytes", 8192L).attr("x", null);
        assertEquals(1500, e.tPs());
        assertEquals("post", e.kind());
        assertEquals("h1", e.host());
        assertEquals("ep0", e.ep());
        assertEquals(17, e.op());
        assertTrue(e.hasCookie());
        assertEquals(0, e.cookie());
        assertEquals("dat_ep_post_send", e.call());
        assertEquals("DAT_SUCCESS", e.ret());
        assertEquals("ok", e.status());
        assertEquals(List.of("bytes", "sg", "x"), List.copyOf(e.attrs().keySet()));
        assertEquals(8192L, e.attrs().get("bytes"));
        assertThrows(UnsupportedOperationException.class, () -> e.attrs().put("y", 1));
        assertThrows(IllegalArgumentException.class, () -> e.attr("op", 1L));
        assertThrows(IllegalArgumentException.class, () -> e.attr("y", new Object()));
        assertThrows(IllegalArgumentException.class, () -> e.attr("y", 1.5f));
        long[] arr = {5};
        e.attr("arr", arr);
        arr[0] = 6;
        assertEquals(5, ((long[]) e.attrs().get("arr"))[0], "arrays are copied");
        assertEquals("call", TraceEvent.CALL);
        assertEquals("fence_wait", TraceEvent.FENCE_WAIT);
        assertEquals("mem_write", TraceEvent.MEM_WRITE);
    }

    private static String write(TraceEvent... events) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(out)) {
            for (TraceEvent e : events) {
                w.accept(e);
            }
            assertEquals(events.length, w.written());
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private static TraceEvent[] sample() {
        return new TraceEvent[] {
            TraceEvent.of(0, TraceEvent.CALL, "h1").call("dat_ia_open").ret("DAT_SUCCESS"),
            TraceEvent.of(1_500_000, TraceEvent.POST, "h1")
                    .ep("ep0")
                    .op(17)
                    .cookie(48879)
                    .attr("bytes", 4096L)
                    .attr("segs", new long[] {1, 2, 3})
                    .attr("names", new String[] {"a", "b\"c"})
                    .attr("ok", Boolean.TRUE)
                    .attr("ratio", 0.5)
                    .attr("n", 3)
                    .attr("none", null),
            TraceEvent.of(2_000_000, TraceEvent.COMPLETE, null).op(17).status("DAT_DTO_SUCCESS"),
            TraceEvent.of(3, TraceEvent.ERROR, "h\u00e9").attr("msg", "line\nbreak")
        };
    }

    @Test
    void writesExactJsonLines() throws IOException {
        String expected =
                "{\"t_ps\":0,\"kind\":\"call\",\"host\":\"h1\",\"call\":\"dat_ia_open\",\"ret\":\"DAT_SUCCESS\"}\n"
                        + "{\"t_ps\":1500000,\"kind\":\"post\",\"host\":\"h1\",\"ep\":\"ep0\",\"op\":17,"
                        + "\"cookie\":48879,\"bytes\":4096,\"segs\":[1,2,3],\"names\":[\"a\",\"b\\\"c\"],"
                        + "\"ok\":true,\"ratio\":0.5,\"n\":3,\"none\":null}\n"
                        + "{\"t_ps\":2000000,\"kind\":\"complete\",\"op\":17,\"status\":\"DAT_DTO_SUCCESS\"}\n"
                        + "{\"t_ps\":3,\"kind\":\"error\",\"host\":\"h\u00e9\",\"msg\":\"line\\nbreak\"}\n";
        assertEquals(expected, write(sample()));
        assertEquals(write(sample()), write(sample()));
    }

    @Test
    void writesToFileIdentically(@TempDir Path dir) throws IOException {
        Path f = dir.resolve("events.jsonl");
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(f)) {
            for (TraceEvent e : sample()) {
                w.accept(e);
            }
        }
        assertTrue(Arrays.equals(write(sample()).getBytes(StandardCharsets.UTF_8), Files.readAllBytes(f)));
    }

    @Test
    void subscribesAsSinkAndWrapsIoErrors() throws IOException {
        OutputStream failing =
                new OutputStream() {
                    @Override
                    public void write(int b) throws IOException {
                        throw new IOException("disk full");
                    }
                };
        JsonLinesTraceWriter w = new JsonLinesTraceWriter(failing);
        TraceSource<TraceEvent> src = new TraceSource<>("trace");
        src.subscribe(w);
        // the generator buffers; push enough data to force a write to the stream
        UncheckedIOException e =
                assertThrows(
                        UncheckedIOException.class,
                        () -> {
                            for (int i = 0; i < 10_000; i++) {
                                src.fire(TraceEvent.of(i, TraceEvent.PLACE, "h").attr("pad", "x".repeat(100)));
                            }
                        });
        assertEquals("disk full", e.getCause().getMessage());
    }
}
