package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Round trip of a trace through the JSON Lines writer and {@link TraceReader}, and the operation table. */
class OperationTableTest {

    @TempDir
    Path dir;

    @Test
    void readsBackWhatTheWriterWroteAndBuildsOneRowPerOperation() throws IOException {
        Path file = dir.resolve("events.jsonl");
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(file)) {
            w.accept(TraceEvent.of(1_000, TraceEvent.CALL, "A").call("dat_ia_open").ret("DAT_SUCCESS"));
            w.accept(TraceEvent.of(2_000, TraceEvent.POST, "A").ep("A/ep1").op(7).cookie(42)
                    .attr("opcode", "rdma_write").attr("bytes", 4096L));
            w.accept(TraceEvent.of(2_150, TraceEvent.START, "A").ep("A/ep1").op(7));
            w.accept(TraceEvent.of(2_500, TraceEvent.TX_START, "A").ep("A/ep1").op(7));
            w.accept(TraceEvent.of(2_900, TraceEvent.TX_END, "A").ep("A/ep1").op(7));
            w.accept(TraceEvent.of(3_100, TraceEvent.PLACE, "B").ep("B/ep1").op(7).attr("bytes", 4096L));
            w.accept(TraceEvent.of(3_400, TraceEvent.COMPLETE, "A").ep("A/ep1").op(7).status("DAT_DTO_SUCCESS"));
            w.accept(TraceEvent.of(3_500, TraceEvent.DEQUEUE, "A").ep("A/ep1").op(7).attr("waiting_for",
                    new long[] {1, 2}));
        }
        OperationTable table = new OperationTable();
        long n = TraceReader.read(file, table::accept);
        assertEquals(8, n);
        List<OperationTable.Row> rows = table.rows();
        assertEquals(1, rows.size());
        OperationTable.Row r = rows.get(0);
        assertEquals(7, r.op());
        assertEquals("rdma_write", r.opcode());
        assertEquals(2_000, r.post());
        assertEquals(2_150, r.start());
        assertEquals(3_100, r.place());
        assertEquals(3_400, r.complete());
        assertEquals(3_500, r.dequeue());
        assertEquals("DAT_DTO_SUCCESS", r.status());
        StringWriter out = new StringWriter();
        table.print(new PrintWriter(out));
        String text = out.toString();
        assertTrue(text.contains("rdma_write"), text);
        assertTrue(text.contains("1.4ns"), "latency post to complete is 1400 ps: " + text);
    }

    @Test
    void attributesSurviveTheRoundTrip() throws IOException {
        TraceEvent e = TraceReader.parse("{\"t_ps\":5,\"kind\":\"fence_wait\",\"host\":\"A\",\"op\":3,"
                + "\"waiting_for\":[1,2],\"stale\":true,\"note\":\"x\"}");
        assertEquals(5, e.tPs());
        assertEquals(3, e.op());
        assertEquals(Boolean.TRUE, e.attrs().get("stale"));
        assertEquals("x", e.attrs().get("note"));
        assertEquals(2, ((long[]) e.attrs().get("waiting_for")).length);
    }

    @Test
    void aLineThatIsNotATraceEventIsReportedWithItsLineNumber() throws IOException {
        Path file = dir.resolve("bad.jsonl");
        Files.writeString(file, "{\"t_ps\":1,\"kind\":\"call\",\"host\":\"A\"}\n{\"kind\":\"call\"}\n",
                StandardCharsets.UTF_8);
        IOException e = assertThrows(IOException.class, () -> TraceReader.read(file, x -> { }));
        assertTrue(e.getMessage().contains("bad.jsonl:2:"), e.getMessage());
    }
}
