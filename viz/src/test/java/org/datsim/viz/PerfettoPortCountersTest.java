package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * Switch port samples ({@code port_sample}) become counter tracks per port in the switch's process, whether the
 * writer is fed live or from events.jsonl; ECN marks are instants on the port's thread.
 */
class PerfettoPortCountersTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static TraceEvent sample(long t, String port, long q, int paused, long marks, double u) {
        return TraceEvent.of(t, "port_sample", "S1").attr("switch", "S1").attr("port", port).attr("queue_bytes", q)
                .attr("paused", paused).attr("pausing", 0).attr("ecn_marks", marks).attr("utilisation", u);
    }

    @Test
    void portSamplesAreCounterTracksOfTheSwitchProcess() throws Exception {
        List<TraceEvent> events = List.of(sample(1_000_000, "S1->h0", 4096, 0, 0, 0.5),
                sample(1_000_000, "S1->h1", 0, 1, 0, 0.0),
                TraceEvent.of(1_500_000, "ecn_mark", "S1").attr("switch", "S1").attr("port", "S1->h0")
                        .attr("queue_bytes", 500_000L),
                sample(2_000_000, "S1->h0", 8192, 0, 3, 1.0));
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        ByteArrayOutputStream live = new ByteArrayOutputStream();
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(lines);
                PerfettoTraceWriter p = new PerfettoTraceWriter(live)) {
            for (TraceEvent e : events) {
                w.accept(e);
                p.accept(e);
            }
        }
        List<JsonNode> counters = new ArrayList<>();
        JsonNode mark = null;
        String switchProcess = null;
        JsonNode all = MAPPER.readTree(live.toString(StandardCharsets.UTF_8)).get("traceEvents");
        for (JsonNode e : all) {
            if ("C".equals(e.get("ph").asText())) {
                counters.add(e);
            } else if ("i".equals(e.get("ph").asText())) {
                mark = e;
            } else if ("process_name".equals(e.get("name").asText())) {
                switchProcess = e.get("args").get("name").asText();
            }
        }
        assertEquals("switch S1", switchProcess);
        assertEquals(3, counters.size());
        JsonNode last = counters.get(2);
        assertEquals("S1->h0", last.get("name").asText());
        assertEquals(2.0, last.get("ts").asDouble());
        assertEquals(8192, last.get("args").get("queue_bytes").asLong());
        assertEquals(3, last.get("args").get("ecn_marks").asLong());
        assertEquals(1.0, last.get("args").get("utilisation").asDouble());
        assertEquals(1, counters.get(1).get("args").get("paused").asLong());
        assertEquals("ecn_mark", mark.get("name").asText());
        assertTrue(mark.get("pid").asInt() == last.get("pid").asInt(), "on the switch's process");

        // the same trace from events.jsonl
        java.nio.file.Path dir = java.nio.file.Files.createTempDirectory("ports");
        java.nio.file.Files.write(dir.resolve("events.jsonl"), lines.toByteArray());
        PerfettoTraceWriter.write(dir);
        JsonNode again = MAPPER.readTree(dir.resolve(PerfettoTraceWriter.FILE).toFile()).get("traceEvents");
        assertEquals(all, again);
    }
}
