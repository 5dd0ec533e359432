package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline page: lanes in natural order (h2 before h10, a host's CPU lane before its endpoints), names from an
 * untrusted trace cannot break out of the page's script, a retransmission is a mark tied to its operation, and a
 * directory without a trace is an IOException that names the file.
 */
class TimelineTest {

    @TempDir
    Path dir;

    @Test
    void lanesAreInNaturalOrderAndNamesCannotEndTheScript() throws IOException {
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(dir.resolve("events.jsonl"))) {
            w.accept(TraceEvent.of(1, TraceEvent.POST, "h10").ep("h10/ep2").op(1).attr("opcode", "send"));
            w.accept(TraceEvent.of(2, TraceEvent.POST, "h2").ep("h2/ep10").op(2).attr("opcode", "send"));
            w.accept(TraceEvent.of(3, TraceEvent.POST, "h2").ep("h2/ep9").op(3).attr("opcode", "send"));
            w.accept(TraceEvent.of(4, TraceEvent.MEM_WRITE, "h2").attr("lmr", "x").attr("bytes", 1L));
            w.accept(TraceEvent.of(5, TraceEvent.ERROR, "h2").attr("error", "</script><script>alert(1)</script>"));
        }
        TimelineData data = new TimelineData();
        TraceReader.read(dir.resolve("events.jsonl"), data::accept);
        // h10 has no line of its own: its group is still headed by its name
        assertEquals(List.of("h2", "h2/ep9", "h2/ep10", "h10", "h10/ep2"), data.laneNames());
        Path page = Timeline.write(dir);
        assertEquals(dir.resolve("timeline.html"), page);
        String html = Files.readString(page);
        assertEquals(2, html.split("</script>", -1).length - 1, "only the page's own two scripts end");
        assertFalse(html.contains("alert(1)</"), "the error text is escaped inside the data");
        assertTrue(html.contains("\\u003C/script"), "'<' is written as \\u003C");
    }

    @Test
    void aRetransmissionIsAMarkOnItsEndpointsLaneTiedToItsOperationAndNoError() throws IOException {
        TimelineData data = new TimelineData();
        data.accept(TraceEvent.of(1_000, TraceEvent.POST, "A").ep("A/ep1").op(7).attr("opcode", "rdma_write"));
        data.accept(TraceEvent.of(2_000, TraceEvent.POST, "A").ep("A/ep1").op(8).attr("opcode", "send"));
        data.accept(TraceEvent.of(9_000, "retransmit", "A").ep("A/ep1").op(8).cookie(3).attr("opcode", "send")
                .attr("reason", "nak_sequence_error").attr("attempt", 2L));
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            data.write(g, "t");
        }
        JsonNode d = new ObjectMapper().readTree(w.toString());
        JsonNode marks = d.path("marks");
        assertEquals(1, marks.path("t").size(), d::toString);
        List<String> strings = new ArrayList<>();
        d.path("strings").forEach(n -> strings.add(n.asText()));
        assertEquals("retransmit", strings.get(marks.path("kind").get(0).asInt()));
        assertEquals(List.of("A", "A/ep1"), data.laneNames(), "A's group headed by its name");
        assertEquals(1, marks.path("lane").get(0).asInt());
        assertEquals(8, d.path("ops").path("id").get(marks.path("op").get(0).asInt()).asLong(), "tied to op 8");
        assertEquals(0, marks.path("bad").get(0).asInt(), "a retransmission is not an error");
        assertEquals(0, data.errors());
        String detail = strings.get(marks.path("detail").get(0).asInt());
        assertTrue(detail.contains("reason: nak_sequence_error") && detail.contains("attempt: 2"), detail);
    }

    @Test
    void aDirectoryWithoutATraceIsAnIoExceptionNamingTheFile() {
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> Timeline.write(dir.resolve("none")));
        assertTrue(e.getMessage().contains("events.jsonl: no such file"), e.getMessage());
    }
}
