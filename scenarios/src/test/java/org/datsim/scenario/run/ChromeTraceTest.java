package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@code trace.json}, written by every run, is valid Chrome Trace Event format as Perfetto's JSON importer reads
 * it: every event has {@code name, ph, ts, pid, tid}; complete events have a duration and nest properly on their
 * thread; every flow id has one start and one end, each inside a complete event of its thread; counters carry
 * numeric args; every process and thread used is named by metadata. Checked on every example scenario.
 */
class ChromeTraceTest {

    @TempDir
    Path tmp;

    static Stream<Path> examples() throws IOException {
        return ExampleScenariosTest.examples();
    }

    private static long ps(JsonNode n) {
        return new BigDecimal(n.asText()).movePointRight(6).longValueExact();
    }

    /** Checks a trace.json and returns its events. */
    static List<JsonNode> validate(Path file) throws IOException {
        JsonNode root = ScenarioJson.readJson(file);
        assertTrue(root.isObject(), "trace.json is a JSON object");
        assertTrue(root.path("traceEvents").isArray(), "trace.json has a traceEvents array");
        assertEquals("ns", root.path("displayTimeUnit").asText());
        List<JsonNode> events = new ArrayList<>();
        root.path("traceEvents").forEach(events::add);
        assertFalse(events.isEmpty(), "trace.json has events");
        Set<Integer> namedPids = new HashSet<>();
        Set<String> namedThreads = new HashSet<>();
        Map<Long, long[]> flows = new TreeMap<>();
        Map<String, List<long[]>> slices = new TreeMap<>();
        List<JsonNode> flowEvents = new ArrayList<>();
        for (JsonNode e : events) {
            String where = "event " + e;
            for (String f : new String[] {"name", "ph"}) {
                assertTrue(e.path(f).isTextual() && !e.path(f).asText().isEmpty(), where + ": needs " + f);
            }
            for (String f : new String[] {"pid", "tid"}) {
                assertTrue(e.path(f).isIntegralNumber(), where + ": needs an integer " + f);
            }
            assertTrue(e.path("ts").isNumber() && e.path("ts").asDouble() >= 0, where + ": needs ts >= 0");
            String ph = e.path("ph").asText();
            String thread = e.path("pid").asInt() + "/" + e.path("tid").asInt();
            switch (ph) {
                case "M":
                    String n = e.path("name").asText();
                    assertTrue(Set.of("process_name", "thread_name", "process_sort_index", "thread_sort_index")
                            .contains(n), where);
                    if (n.endsWith("_name")) {
                        assertTrue(e.path("args").path("name").isTextual(), where + ": metadata needs args.name");
                        if (n.equals("process_name")) {
                            namedPids.add(e.path("pid").asInt());
                        } else {
                            namedThreads.add(thread);
                        }
                    } else {
                        assertTrue(e.path("args").path("sort_index").isIntegralNumber(), where);
                    }
                    break;
                case "X":
                    assertTrue(e.path("dur").isNumber() && e.path("dur").asDouble() >= 0, where + ": needs dur");
                    slices.computeIfAbsent(thread, k -> new ArrayList<>())
                            .add(new long[] {ps(e.path("ts")), ps(e.path("dur"))});
                    break;
                case "i":
                    assertTrue(Set.of("t", "p", "g").contains(e.path("s").asText()), where + ": instant scope");
                    break;
                case "s":
                case "f":
                    assertTrue(e.path("id").isIntegralNumber(), where + ": a flow event needs an id");
                    assertTrue(e.path("cat").isTextual(), where + ": a flow event needs a category");
                    long[] se = flows.computeIfAbsent(e.path("id").asLong(), k -> new long[] {-1, -1});
                    int k = ph.equals("s") ? 0 : 1;
                    assertEquals(-1, se[k], where + ": flow id used twice");
                    se[k] = ps(e.path("ts"));
                    if (ph.equals("f")) {
                        assertEquals("e", e.path("bp").asText(), where + ": binds to the enclosing slice");
                    }
                    flowEvents.add(e);
                    break;
                case "C":
                    assertTrue(e.path("args").isObject() && e.path("args").size() > 0, where + ": counter args");
                    e.path("args").forEach(v -> assertTrue(v.isNumber() && v.asDouble() >= 0, where));
                    break;
                default:
                    fail(where + ": unexpected phase " + ph);
            }
        }
        for (JsonNode e : events) {
            String ph = e.path("ph").asText();
            if (!ph.equals("M")) {
                assertTrue(namedPids.contains(e.path("pid").asInt()), "pid without process_name: " + e);
            }
            if (Set.of("X", "i", "s", "f").contains(ph)) {
                assertTrue(namedThreads.contains(e.path("pid").asInt() + "/" + e.path("tid").asInt()),
                        "thread without thread_name: " + e);
            }
        }
        flows.forEach((id, se) -> {
            assertTrue(se[0] >= 0 && se[1] >= 0, "flow " + id + " needs both a start and an end");
            assertTrue(se[0] <= se[1], "flow " + id + " ends before it starts");
        });
        for (List<long[]> list : slices.values()) {
            list.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(b[1], a[1]));
            List<long[]> stack = new ArrayList<>();
            for (long[] s : list) {
                while (!stack.isEmpty() && stack.get(stack.size() - 1)[0] + stack.get(stack.size() - 1)[1] <= s[0]) {
                    stack.remove(stack.size() - 1);
                }
                if (!stack.isEmpty()) {
                    long[] top = stack.get(stack.size() - 1);
                    assertTrue(s[0] + s[1] <= top[0] + top[1], "slices overlap without nesting on one thread: ["
                            + s[0] + "+" + s[1] + "] in [" + top[0] + "+" + top[1] + "]");
                }
                stack.add(s);
            }
        }
        for (JsonNode e : flowEvents) {
            long t = ps(e.path("ts"));
            List<long[]> list = slices.getOrDefault(e.path("pid").asInt() + "/" + e.path("tid").asInt(), List.of());
            assertTrue(list.stream().anyMatch(s -> s[0] <= t && t <= s[0] + s[1]),
                    "flow event outside every slice of its thread: " + e);
        }
        return events;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("examples")
    void everyExampleWritesAValidChromeTrace(Path example) throws Exception {
        Path out = tmp.resolve("run");
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(example)).run(out, List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        List<JsonNode> events = validate(out.resolve("trace.json"));
        assertTrue(events.stream().anyMatch(e -> "X".equals(e.path("ph").asText())), "has complete events");
        assertTrue(events.stream().anyMatch(e -> "C".equals(e.path("ph").asText())), "has counters");
    }

    @Test
    void theFencedSendHasAFenceFlowAndTheReadARequestResponsePair() throws Exception {
        Path out = tmp.resolve("fence");
        new ScenarioRunner(ScenarioLoader.load(ScenarioJson.examplesDir().resolve("send-after-read-fence.json")))
                .run(out, List.of());
        List<JsonNode> events = validate(out.resolve("trace.json"));
        assertEquals(2, events.stream().filter(e -> "fence".equals(e.path("cat").asText())).count(),
                "one fence flow: its start and its end");
        assertTrue(events.stream().anyMatch(e -> "read_response op 2".equals(e.path("name").asText())
                && "X".equals(e.path("ph").asText())), "the Read's response is a slice on the responder");
        assertTrue(events.stream().filter(e -> "message".equals(e.path("cat").asText())).count() >= 4,
                "the Read's request and response and the Send's message are flows");
        assertTrue(events.stream().anyMatch(e -> "process_name".equals(e.path("name").asText())
                && "host A".equals(e.path("args").path("name").asText())));
        assertTrue(events.stream().anyMatch(e -> "C".equals(e.path("ph").asText())
                && e.path("args").path("rdma_reads_out").asLong() == 1), "a read credit in use is counted");
    }

    @Test
    void noPerfettoWritesNoTraceJsonAndDeletesAnOldOne() throws Exception {
        Path out = tmp.resolve("off");
        // an old trace.json that datsim wrote (its marker lists it): a run without one deletes it
        new ScenarioRunner(ScenarioLoader.load(ScenarioJson.examplesDir().resolve("write-then-send.json")))
                .run(out, List.of());
        assertTrue(Files.exists(out.resolve("trace.json")));
        new ScenarioRunner(ScenarioLoader.load(ScenarioJson.examplesDir().resolve("write-then-send.json")))
                .perfetto(false).run(out, List.of());
        assertFalse(Files.exists(out.resolve("trace.json")));
        assertTrue(Files.exists(out.resolve("events.jsonl")));
    }
}
