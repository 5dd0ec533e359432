package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/** The arguments of the Chrome trace's instant events are the event's fields exactly as events.jsonl has them. */
class PerfettoInstantArgsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @Test
    void instantArgsAreTheTraceLineAfterHost() throws Exception {
        List<TraceEvent> events = List.of(
                TraceEvent.of(1_000, TraceEvent.ERROR, "A").ep("ep0").op(3).cookie(-7).status("DAT_DTO_ERR_FLUSHED")
                        .attr("error", "connection broken").attr("n", 4).attr("big", 1L << 40)
                        .attr("ids", new long[] {1, 2}).attr("names", new String[] {"x", "y\"z"}).attr("flag", true)
                        .attr("none", null),
                TraceEvent.of(2_000, TraceEvent.CALL, "B").call("dat_ep_post_send").ret("DAT_INVALID_HANDLE")
                        .attr("subtype", "DAT_INVALID_HANDLE_EP").attr("process", "b").attr("step", 3L),
                TraceEvent.of(3_000, "rnr_nak", "A").ep("ep0").op(9).attr("reason", "no receive posted"));
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        ByteArrayOutputStream chrome = new ByteArrayOutputStream();
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(lines);
                PerfettoTraceWriter p = new PerfettoTraceWriter(chrome)) {
            for (TraceEvent e : events) {
                w.accept(e);
                p.accept(e);
            }
        }
        List<JsonNode> expected = new ArrayList<>();
        for (String line : lines.toString(StandardCharsets.UTF_8).split("\n")) {
            ObjectNode o = (ObjectNode) MAPPER.readTree(line);
            o.remove(List.of("t_ps", "kind", "host"));
            expected.add(o);
        }
        List<JsonNode> args = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (JsonNode e : MAPPER.readTree(chrome.toString(StandardCharsets.UTF_8)).get("traceEvents")) {
            if ("i".equals(e.get("ph").asText())) {
                args.add(e.get("args"));
                names.add(e.get("name").asText());
            }
        }
        assertEquals(List.of("error", "dat_ep_post_send -> DAT_INVALID_HANDLE", "rnr_nak"), names);
        assertEquals(expected, args);
        // and the same text: field order and number forms included
        String chromeText = chrome.toString(StandardCharsets.UTF_8);
        for (JsonNode a : expected) {
            assertEquals(true, chromeText.contains("\"args\":" + MAPPER.writeValueAsString(a)), a.toString());
        }
    }
}
