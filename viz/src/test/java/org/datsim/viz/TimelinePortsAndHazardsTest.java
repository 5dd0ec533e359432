package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The timeline's data for what summary.json hides: a lane per port that had a queue or a pause (a host's port in its
 * host's group, a switch's in the switch's group after every host), with the bytes queued and the pause state as they
 * changed; the Send that overtook an RDMA Read marked red where its stale bytes were placed and on its own lane; an
 * inline post marked on its operation; two runs on one page with their own lanes and operations; and trace.json
 * counter tracks per port from the same lines.
 */
class TimelinePortsAndHazardsTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path dir;

    private static JsonNode json(TimelineData data) throws IOException {
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            data.write(g, "t");
        }
        return MAPPER.readTree(w.toString());
    }

    private static List<String> texts(JsonNode a) {
        List<String> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asText()));
        return out;
    }

    private static List<Long> longs(JsonNode a) {
        List<Long> out = new ArrayList<>();
        a.forEach(n -> out.add(n.asLong()));
        return out;
    }

    private static List<TraceEvent> portEvents() {
        return List.of(
                TraceEvent.of(1_000, TraceEvent.POST, "A").ep("A/ep1").op(1).attr("opcode", "rdma_write"),
                TraceEvent.of(2_000, "port_queue", "S").attr("port", "S->B").attr("queue_bytes", 4158L),
                TraceEvent.of(3_000, "pfc", "A").attr("port", "A->S").attr("paused", 1).attr("queue_bytes", 90L),
                TraceEvent.of(4_000, "port_queue", "S").attr("port", "S->B").attr("queue_bytes", 8316L),
                TraceEvent.of(5_000, "pfc", "A").attr("port", "A->S").attr("paused", 0).attr("queue_bytes", 0L),
                TraceEvent.of(6_000, "port_queue", "S").attr("port", "S->B").attr("queue_bytes", 0L),
                TraceEvent.of(7_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(1).status("DAT_DTO_SUCCESS"));
    }

    @Test
    void portsHaveLanesWithTheirQueueAndPauseAsTheyChanged() throws IOException {
        TimelineData data = new TimelineData();
        portEvents().forEach(data::accept);
        assertEquals(List.of("A", "A/ep1", "A->S", "S", "S->B"), data.laneNames(),
                "each node headed by its name; a host's port after its endpoints; a switch's ports after every host");
        JsonNode d = json(data);
        assertEquals(List.of("host", "ep", "port", "switch", "port"), texts(d.path("lanes").path("kind")),
                "a node with only ports is a switch");
        assertEquals(List.of("A", "A", "A", "S", "S"), texts(d.path("lanes").path("host")), "grouped by their node");
        JsonNode p = d.path("ports");
        assertEquals(List.of(4L, 2L, 4L, 2L, 4L), longs(p.path("lane")));
        assertEquals(List.of(2_000L, 3_000L, 4_000L, 5_000L, 6_000L), longs(p.path("t")));
        assertEquals(List.of(4158L, -1L, 8316L, -1L, 0L), longs(p.path("queue")),
                "a pfc line's queue_bytes is not a level of the queue");
        assertEquals(List.of(-1L, 1L, -1L, 0L, -1L), longs(p.path("paused")));
        assertEquals(1_000, d.path("start_ps").asLong());
        assertEquals(7_000, d.path("end_ps").asLong());
    }

    @Test
    void portChangesAreCounterTracksInTraceJson() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (PerfettoTraceWriter w = new PerfettoTraceWriter(out)) {
            portEvents().forEach(w::accept);
        }
        JsonNode all = MAPPER.readTree(out.toString(StandardCharsets.UTF_8)).get("traceEvents");
        List<String> processes = new ArrayList<>();
        List<JsonNode> counters = new ArrayList<>();
        for (JsonNode e : all) {
            if ("process_name".equals(e.path("name").asText())) {
                processes.add(e.path("pid").asInt() + " " + e.path("args").path("name").asText());
            } else if ("C".equals(e.path("ph").asText()) && "port".equals(e.path("cat").asText())) {
                counters.add(e);
            }
        }
        assertEquals(List.of("1 host A", "2 switch S"), processes);
        assertEquals(5, counters.size());
        List<String> seen = new ArrayList<>();
        for (JsonNode c : counters) {
            seen.add(c.path("pid").asInt() + " " + c.path("name").asText() + " " + c.path("ts").asText() + " q="
                    + c.path("args").path("queue_bytes").asLong() + " p=" + c.path("args").path("paused").asLong());
        }
        assertEquals(List.of("2 S->B 0.002 q=4158 p=0", "1 A->S 0.003 q=0 p=1", "2 S->B 0.004 q=8316 p=0",
                "1 A->S 0.005 q=0 p=0", "2 S->B 0.006 q=0 p=0"), seen);
    }

    @Test
    void aSendThatOvertookAReadIsMarkedWhereItsBytesLandedAndAnInlinePostOnItsBar() throws IOException {
        TimelineData data = new TimelineData();
        data.accept(TraceEvent.of(1_000, TraceEvent.POST, "A").ep("A/ep1").op(2).attr("opcode", "rdma_read"));
        data.accept(TraceEvent.of(1_100, TraceEvent.POST, "A").ep("A/ep1").op(3).attr("opcode", "send")
                .attr("bytes", 64L).attr("inline", Boolean.TRUE));
        data.accept(TraceEvent.of(2_000, TraceEvent.TX_START, "A").ep("A/ep1").op(3).attr("packet", "send"));
        data.accept(TraceEvent.of(3_000, TraceEvent.PLACE, "B").ep("B/ep1").op(3).attr("recv_op", 1L));
        data.accept(TraceEvent.of(5_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(2).status("DAT_DTO_SUCCESS"));
        data.accept(TraceEvent.of(5_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(3).status("DAT_DTO_SUCCESS")
                .attr("opcode", "send").attr("overtook_read", 2L));
        assertEquals(1, data.staleSends());
        assertEquals(0, data.errors(), "a hazard, not an error status");
        JsonNode d = json(data);
        List<String> strings = texts(d.path("strings"));
        List<String> lanes = texts(d.path("lanes").path("name"));
        JsonNode m = d.path("marks");
        List<String> got = new ArrayList<>();
        for (int i = 0; i < m.path("t").size(); i++) {
            got.add(strings.get(m.path("kind").get(i).asInt()) + " " + lanes.get(m.path("lane").get(i).asInt()) + " "
                    + m.path("t").get(i).asLong() + " op " + d.path("ops").path("id").get(m.path("op").get(i).asInt())
                    + " bad " + m.path("bad").get(i).asInt());
        }
        assertEquals(List.of("inline A/ep1 1100 op 3 bad 0", "stale_payload B/ep1 3000 op 3 bad 1",
                "stale_payload A/ep1 5000 op 3 bad 1"), got);
        String detail = strings.get(m.path("detail").get(1).asInt());
        assertTrue(detail.startsWith("received stale bytes: op 3 (send) carried bytes read before rdma_read op 2"
                + " landed"), detail);
    }

    @Test
    void twoRunsShareOnePageWithTheirOwnLanesAndOperations() throws IOException {
        Path[] runs = {dir.resolve("hazard"), dir.resolve("fix")};
        for (int k = 0; k < 2; k++) {
            Files.createDirectories(runs[k]);
            try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(runs[k].resolve("events.jsonl"))) {
                w.accept(TraceEvent.of(1_000, TraceEvent.POST, "A").ep("A/ep1").op(2).attr("opcode", "rdma_read"));
                w.accept(TraceEvent.of(3_000 + k * 1_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(2)
                        .status("DAT_DTO_SUCCESS"));
            }
        }
        Path page = Timeline.writeSideBySide(runs[0], runs[1]);
        assertEquals(runs[0].resolve("side-by-side.html"), page);
        String html = Files.readString(page);
        int at = html.indexOf("<script id=\"datsim-data\" type=\"application/json\">") + 49;
        JsonNode d = MAPPER.readTree(html.substring(at, html.indexOf("</script>", at)));
        assertEquals(List.of("hazard: A", "hazard: A/ep1", "fix: A", "fix: A/ep1"),
                texts(d.path("lanes").path("name")));
        assertEquals(List.of(2L, 2L), longs(d.path("ops").path("id")), "each run's op 2, shown as op 2");
        assertEquals(List.of(1L, 3L), longs(d.path("ops").path("lane")));
        assertEquals(List.of(2_000L, 3_000L), longs(d.path("ops").path("complete")), "one time axis");
        assertTrue(d.path("scenario").asText().startsWith("hazard (hazard) vs fix (fix)"), d.path("scenario")::asText);
    }
}
