package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline page: lanes in natural order (h2 before h10, a host's CPU lane before its endpoints), names from an
 * untrusted trace cannot break out of the page's script, and a directory without a trace is an IOException that
 * names the file.
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
        assertEquals(List.of("h2", "h2/ep9", "h2/ep10", "h10/ep2"), data.laneNames());
        Path page = Timeline.write(dir);
        assertEquals(dir.resolve("timeline.html"), page);
        String html = Files.readString(page);
        assertEquals(2, html.split("</script>", -1).length - 1, "only the page's own two scripts end");
        assertFalse(html.contains("alert(1)</"), "the error text is escaped inside the data");
        assertTrue(html.contains("\\u003C/script"), "'<' is written as \\u003C");
    }

    @Test
    void aDirectoryWithoutATraceIsAnIoExceptionNamingTheFile() {
        IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class,
                () -> Timeline.write(dir.resolve("none")));
        assertTrue(e.getMessage().contains("events.jsonl: no such file"), e.getMessage());
    }
}
