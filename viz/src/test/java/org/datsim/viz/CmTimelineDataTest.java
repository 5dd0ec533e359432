package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;

/**
 * The timeline's data keeps the connection manager's resends and timeouts as marks on the lane of the endpoint that
 * sent the message, tied to no operation and no error, with the fields the page's hover tells; the switch's drop of
 * a CM packet stays on the sending host's lane.
 */
class CmTimelineDataTest {

    @Test
    void cmResendsAndTimeoutsAreMarksOnTheirEndpointsLaneAndNoErrors() throws IOException {
        TimelineData data = new TimelineData();
        data.accept(TraceEvent.of(1_000, "drop", "A").attr("switch", "S").attr("port", "A->S")
                .attr("reason", "buffer_full").attr("packet", "cm").attr("message", "REQ").attr("from", "A")
                .attr("to", "B").attr("comm_id", 2L).attr("bytes", 256L));
        data.accept(TraceEvent.of(5_000, "cm_retry", "A").ep("A/ep2").attr("message", "REQ").attr("attempt", 1L)
                .attr("to", "B").attr("comm_id", 2L));
        data.accept(TraceEvent.of(9_000, "cm_timeout", "A").ep("A/ep2").attr("message", "REQ").attr("resends", 1L)
                .attr("to", "B").attr("comm_id", 2L));
        data.accept(TraceEvent.of(9_500, "cm", "B").attr("message", "REQ").attr("from", "A")); // not a mark
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            data.write(g, "t");
        }
        JsonNode d = new ObjectMapper().readTree(w.toString());
        JsonNode marks = d.path("marks");
        List<String> strings = new ArrayList<>();
        d.path("strings").forEach(n -> strings.add(n.asText()));
        List<String> lanes = data.laneNames();
        List<String> kinds = new ArrayList<>();
        List<String> onLane = new ArrayList<>();
        for (int i = 0; i < marks.path("t").size(); i++) {
            kinds.add(strings.get(marks.path("kind").get(i).asInt()));
            onLane.add(lanes.get(marks.path("lane").get(i).asInt()));
            assertEquals(-1, marks.path("op").get(i).asInt(), "no operation");
            assertEquals(0, marks.path("bad").get(i).asInt(), "a recovered or given-up CM message is no error mark");
        }
        assertEquals(List.of("drop", "cm_retry", "cm_timeout"), kinds);
        assertEquals(List.of("A", "A/ep2", "A/ep2"), onLane, "the drop on the sender, the resends on its endpoint");
        assertEquals(0, data.errors());
        String retry = strings.get(marks.path("detail").get(1).asInt());
        assertEquals("message: REQ\nattempt: 1\nto: B\ncomm_id: 2", retry);
        String timeout = strings.get(marks.path("detail").get(2).asInt());
        assertTrue(timeout.contains("resends: 1"), timeout);
    }
}
