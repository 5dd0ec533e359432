package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * The connection manager's resends and give-ups ({@code cm_retry}, {@code cm_timeout} lines) are instant events of
 * trace.json on the thread of the endpoint whose connection they belong to (the thread its operations are drawn
 * on), with the line's fields as args, as events.jsonl has them.
 */
class PerfettoCmInstantsTest {

    /** Reads fractions as decimals, so ts reads back as written ("30064771.072", not "3.0064771072E7"). */
    private static final ObjectMapper MAPPER = new ObjectMapper()
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS);

    @Test
    void cmRetryAndCmTimeoutAreInstantsOnTheirEndpointsThreadWithTheirArgs() throws Exception {
        // A's first REQ on ep2 is lost and resent; B's REP on ep1 is resent until B gives up; a Send on A/ep2 then
        // shows that the resend sits on the thread of that endpoint's operations
        List<TraceEvent> events = List.of(
                TraceEvent.of(1_000_000, "cm", "B").attr("message", "REQ").attr("from", "A"),
                TraceEvent.of(4_294_985_758_880L, "cm_retry", "A").ep("A/ep2").attr("message", "REQ")
                        .attr("attempt", 1).attr("to", "B").attr("comm_id", 2),
                TraceEvent.of(4_294_990_000_001L, TraceEvent.POST, "A").ep("A/ep2").op(5).cookie(9)
                        .attr("opcode", "send").attr("bytes", 64),
                TraceEvent.of(4_294_990_000_002L, TraceEvent.START, "A").ep("A/ep2").op(5),
                TraceEvent.of(4_294_990_500_000L, TraceEvent.COMPLETE, "A").ep("A/ep2").op(5).cookie(9)
                        .status("DAT_DTO_SUCCESS"),
                TraceEvent.of(30_064_771_072_000L, "cm_timeout", "B").ep("B/ep1").attr("message", "REP")
                        .attr("resends", 7).attr("to", "A").attr("comm_id", 3));
        ByteArrayOutputStream chrome = new ByteArrayOutputStream();
        try (PerfettoTraceWriter p = new PerfettoTraceWriter(chrome)) {
            events.forEach(p::accept);
        }
        String text = chrome.toString(StandardCharsets.UTF_8);
        JsonNode all = MAPPER.readTree(text).get("traceEvents");

        Map<String, String> threads = new LinkedHashMap<>(); // "pid/tid" -> thread name
        Map<String, Integer> pids = new LinkedHashMap<>(); // "host X" -> pid
        List<JsonNode> instants = new ArrayList<>();
        String sendThread = null;
        for (JsonNode e : all) {
            String ph = e.get("ph").asText();
            if ("M".equals(ph) && "thread_name".equals(e.get("name").asText())) {
                threads.put(e.get("pid").asInt() + "/" + e.get("tid").asInt(), e.get("args").get("name").asText());
            } else if ("M".equals(ph) && "process_name".equals(e.get("name").asText())) {
                pids.put(e.get("args").get("name").asText(), e.get("pid").asInt());
            } else if ("i".equals(ph)) {
                instants.add(e);
            } else if ("X".equals(ph) && e.get("name").asText().startsWith("send op 5")) {
                sendThread = e.get("pid").asInt() + "/" + e.get("tid").asInt();
            }
        }
        assertEquals(2, instants.size(), "one instant each, none for the cm line: " + instants);

        JsonNode retry = instants.get(0);
        assertEquals("cm_retry", retry.get("name").asText());
        assertEquals("cm_retry", retry.get("cat").asText());
        assertEquals("t", retry.get("s").asText(), "thread-scoped");
        assertEquals("4294985.75888", retry.get("ts").asText());
        assertEquals(pids.get("host A"), retry.get("pid").asInt());
        String retryThread = retry.get("pid").asInt() + "/" + retry.get("tid").asInt();
        assertEquals("A/ep2", threads.get(retryThread), "on its endpoint's thread");
        assertNotNull(sendThread);
        assertEquals(sendThread, retryThread, "the thread of that endpoint's operations");
        assertEquals(MAPPER.readTree("{\"ep\":\"A/ep2\",\"message\":\"REQ\",\"attempt\":1,\"to\":\"B\",\"comm_id\":2}"),
                retry.get("args"));

        JsonNode timeout = instants.get(1);
        assertEquals("cm_timeout", timeout.get("name").asText());
        assertEquals("cm_timeout", timeout.get("cat").asText());
        assertEquals("t", timeout.get("s").asText());
        assertEquals("30064771.072", timeout.get("ts").asText());
        assertEquals(pids.get("host B"), timeout.get("pid").asInt());
        assertEquals("B/ep1", threads.get(timeout.get("pid").asInt() + "/" + timeout.get("tid").asInt()));
        assertEquals(MAPPER.readTree("{\"ep\":\"B/ep1\",\"message\":\"REP\",\"resends\":7,\"to\":\"A\",\"comm_id\":3}"),
                timeout.get("args"));

        // the args in the trace line's own field order
        assertTrue(text.contains("\"args\":{\"ep\":\"A/ep2\",\"message\":\"REQ\",\"attempt\":1,\"to\":\"B\","
                + "\"comm_id\":2}"), text);
        assertTrue(text.contains("\"args\":{\"ep\":\"B/ep1\",\"message\":\"REP\",\"resends\":7,\"to\":\"A\","
                + "\"comm_id\":3}"), text);
    }
}
