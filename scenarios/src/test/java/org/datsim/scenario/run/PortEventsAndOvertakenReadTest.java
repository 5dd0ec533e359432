package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the trace tells about ports and about the Send-after-Read hazard, as it happens:
 * <ul>
 * <li>{@code pfc}: every PFC pause and resume of a port when it takes effect, alternating per port, paused first;
 * {@code port_queue}: every change of a switch output queue, whose largest value is summary.json's
 * {@code max_queue_bytes} of the port; with {@code trace.port_events} false neither, and every other line is the
 * same (tracing ports changes nothing else).</li>
 * <li>{@code overtook_read} (rule 19): the unfenced Send after an RDMA Read into its buffer carried the buffer's old
 * bytes; its completion names the Read. The fenced Send (rule 17) did not.</li>
 * </ul>
 */
class PortEventsAndOvertakenReadTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    @TempDir
    Path tmp;

    private List<JsonNode> run(Path scenario, String name) throws Exception {
        Path out = tmp.resolve(name);
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(scenario)).run(out, List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        return ScenarioJson.readTrace(out.resolve("events.jsonl"));
    }

    private static List<JsonNode> of(List<JsonNode> trace, String kind) {
        return trace.stream().filter(e -> kind.equals(e.path("kind").asText())).collect(Collectors.toList());
    }

    @Test
    void pausesAndQueueChangesAreTracedAsTheyHappenAndChangeNothingElse() throws Exception {
        Path example = ScenarioJson.examplesDir().resolve("pfc-headroom-loss.json");
        List<JsonNode> trace = run(example, "on");

        Map<String, List<JsonNode>> pauses = new TreeMap<>();
        for (JsonNode e : of(trace, "pfc")) {
            pauses.computeIfAbsent(e.path("port").asText(), k -> new ArrayList<>()).add(e);
        }
        assertEquals(List.of("A->S", "C->S"), new ArrayList<>(pauses.keySet()), "the two senders' ports are paused");
        for (Map.Entry<String, List<JsonNode>> p : pauses.entrySet()) {
            List<JsonNode> l = p.getValue();
            assertEquals(6, l.size(), p.getKey() + ": three pauses, three resumes");
            for (int i = 0; i < l.size(); i++) {
                assertEquals(i % 2 == 0 ? 1 : 0, l.get(i).path("paused").asInt(), p.getKey() + " line " + i);
                assertEquals(p.getKey().substring(0, 1), l.get(i).path("host").asText(), "on the port's own node");
            }
        }

        List<JsonNode> queue = of(trace, "port_queue");
        assertFalse(queue.isEmpty());
        Map<String, Long> last = new TreeMap<>();
        Map<String, Long> max = new TreeMap<>();
        for (JsonNode e : queue) {
            String port = e.path("port").asText();
            assertEquals("S", e.path("host").asText(), "only a switch's output ports: " + e);
            long q = e.path("queue_bytes").asLong();
            assertTrue(q >= 0);
            assertNotEquals(last.get(port), (Long) q, "a line per change: " + e);
            last.put(port, q);
            max.merge(port, q, Math::max);
        }
        assertEquals(0L, last.get("S->B"), "the queue drains");
        JsonNode summary = MAPPER.readTree(tmp.resolve("on").resolve("summary.json").toFile());
        assertEquals(summary.path("ports").path("S->B").path("max_queue_bytes").asLong(), max.get("S->B"));

        ObjectNode off = (ObjectNode) MAPPER.readTree(example.toFile());
        ((ObjectNode) off.path("fabric").path("params")).put("trace.port_events", false);
        Path offFile = tmp.resolve("off.json");
        Files.writeString(offFile, MAPPER.writeValueAsString(off));
        List<JsonNode> without = run(offFile, "off");
        assertTrue(of(without, "pfc").isEmpty() && of(without, "port_queue").isEmpty());
        List<JsonNode> rest = trace.stream().filter(e -> !"pfc".equals(e.path("kind").asText())
                && !"port_queue".equals(e.path("kind").asText())).collect(Collectors.toList());
        assertEquals(rest, without, "the same run otherwise");
    }

    @Test
    void anUnfencedSendAfterAReadIntoItsBufferOvertookTheReadAndTheFencedOneDidNot() throws Exception {
        List<JsonNode> hazard = run(ScenarioJson.examplesDir().resolve("send-after-read-no-fence.json"), "hazard");
        long read = of(hazard, "post").stream().filter(e -> "rdma_read".equals(e.path("opcode").asText()))
                .findFirst().orElseThrow().path("op").asLong();
        List<JsonNode> marked = of(hazard, "complete").stream().filter(e -> e.has("overtook_read"))
                .collect(Collectors.toList());
        assertEquals(1, marked.size(), hazard::toString);
        assertEquals("send", marked.get(0).path("opcode").asText());
        assertEquals(read, marked.get(0).path("overtook_read").asLong());
        assertTrue(of(hazard, "mem_read").stream().anyMatch(e -> "B".equals(e.path("host").asText())
                && e.path("data_hex").asText().startsWith("1111")), "B did read the old bytes");

        List<JsonNode> fixed = run(ScenarioJson.examplesDir().resolve("send-after-read-fence.json"), "fix");
        assertTrue(of(fixed, "complete").stream().noneMatch(e -> e.has("overtook_read")), "rule 17: fenced");
    }
}
