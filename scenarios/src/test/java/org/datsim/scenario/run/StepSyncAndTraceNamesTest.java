package org.datsim.scenario.run;

import static org.datsim.scenario.ScenarioJson.FABRIC_AB;
import static org.datsim.scenario.ScenarioJson.FILE;
import static org.datsim.scenario.ScenarioJson.baseCalls;
import static org.datsim.scenario.ScenarioJson.process;
import static org.datsim.scenario.ScenarioJson.scenario;
import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.FabricParams;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Synchronisation between processes by named steps ({@code "name"} and {@code "after": "PROCESS/STEP"}), trace names
 * that match the file (objects named by their {@code out}, {@code step} the JSON path, the {@code iteration} of a
 * repeat block in every message about it), and dat_evd_wait's timeout written as a time.
 */
class StepSyncAndTraceNamesTest {

    @TempDir
    Path out;

    private record Run(int exitCode, String text, JsonNode summary, List<JsonNode> trace) {
        List<JsonNode> calls(String process, String call) {
            return trace.stream().filter(e -> e.path("kind").asText().equals("call")
                    && e.path("process").asText().equals(process) && e.path("call").asText().equals(call))
                    .collect(Collectors.toList());
        }
    }

    private Run run(String json) throws Exception {
        Scenario s = ScenarioLoader.parse(FILE, json);
        RunResultSummary r = new ScenarioRunner(s).run(out, List.of());
        return new Run(r.exitCode(), String.join("\n", r.lines()), ScenarioJson.readJson(out.resolve("summary.json")),
                ScenarioJson.readTrace(out.resolve("events.jsonl")));
    }

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(FILE, json)).problems();
    }

    /** Process "b" on B: opens an IA, computes for 20 us, then creates a PZ in a step named "ready". */
    private static String server(String extraCall) {
        List<String> calls = new ArrayList<>();
        calls.add("{\"call\": \"dat_ia_open\", \"out\": \"ia\"}");
        calls.add("{\"call\": \"sleep\", \"time\": \"20us\"}");
        calls.add("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\", \"name\": \"ready\"}");
        if (extraCall != null) {
            calls.add(extraCall);
        }
        return process("b", "B", calls);
    }

    private static String client(String... extra) {
        List<String> calls = baseCalls();
        calls.addAll(List.of(extra));
        return process("a", "A", calls);
    }

    @Test
    void afterWaitsExactlyUntilTheOtherProcessReachesTheStep() throws Exception {
        Run r = run(scenario(FABRIC_AB, client("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz2\","
                + " \"after\": \"b/ready\"}"), server(null)));
        assertEquals(0, r.exitCode(), r.text());
        long ready = r.calls("b", "dat_pz_create").get(0).path("t_ps").asLong();
        long released = r.calls("a", "dat_pz_create").get(1).path("t_ps").asLong();
        long overhead = ScenarioLoader.parse(FILE, FABRIC_AB.isEmpty() ? "" : withCalls()).params()
                .get(FabricParams.CPU_CALL_OVERHEAD);
        assertTrue(ready > 20 * SimTime.US, "b reaches its step after its 20 us of computing");
        assertEquals(ready + overhead, released, "a's call starts when b's step ends, then costs its overhead");
    }

    @Test
    void afterOfAStepAlreadyReachedDoesNotWait() throws Exception {
        Run r = run(scenario(FABRIC_AB, client("{\"call\": \"sleep\", \"time\": \"50us\"}",
                "{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz2\", \"after\": [\"b/ready\"]}"),
                server(null)));
        assertEquals(0, r.exitCode(), r.text());
        long before = r.calls("a", "dat_lmr_create").get(0).path("t_ps").asLong();
        long overhead = ScenarioLoader.parse(FILE, withCalls()).params().get(FabricParams.CPU_CALL_OVERHEAD);
        assertEquals(before + 50 * SimTime.US + overhead, r.calls("a", "dat_pz_create").get(1).path("t_ps").asLong());
    }

    @Test
    void aCycleOfAftersEndsWithAClearMessage() throws Exception {
        Run r = run(scenario(FABRIC_AB, client("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz2\","
                + " \"after\": \"b/last\", \"name\": \"mine\"}"), server("{\"call\": \"dat_pz_free\", \"pz\": \"$pz\","
                + " \"after\": \"a/mine\", \"name\": \"last\"}")));
        assertEquals(1, r.exitCode(), r.text());
        JsonNode unfinished = r.summary().path("unfinished_processes");
        assertEquals(2, unfinished.size(), unfinished.toString());
        assertEquals("process a did not finish: it was still waiting at $.processes[0].calls[4] (dat_pz_create,"
                + " after b/last) for process b to reach step \"last\"; the waits form a cycle that can never be"
                + " released: a waits for b/last, b waits for a/mine", unfinished.get(0).asText());
    }

    @Test
    void afterNamingNoStepIsALocatedInputError() {
        List<String> p = problems(scenario(FABRIC_AB, client("{\"call\": \"sleep\", \"time\": \"1us\", \"after\":"
                + " \"b/reddy\"}", "{\"call\": \"sleep\", \"time\": \"1us\", \"after\": \"c/ready\"}",
                "{\"call\": \"sleep\", \"time\": \"1us\", \"after\": \"ready\"}",
                "{\"call\": \"sleep\", \"time\": \"1us\", \"name\": \"x\"}",
                "{\"call\": \"sleep\", \"time\": \"1us\", \"name\": \"x\"}"), server(null)));
        assertEquals(List.of(
                FILE + ": $.processes[0].calls[6].after: expected \"PROCESS/STEP\" (a step of another process that"
                        + " has a \"name\"), or an array of them, found \"ready\"",
                FILE + ": $.processes[0].calls[8].name: the step name \"x\" is already used at"
                        + " $.processes[0].calls[7] in this process",
                FILE + ": $.processes[0].calls[4].after: process \"b\" has no step named \"reddy\"; its step names"
                        + " are [ready]",
                FILE + ": $.processes[0].calls[5].after: no process is named \"c\""), p);
    }

    @Test
    void traceNamesObjectsByTheirOutNamesAndStepsByTheirPaths() throws Exception {
        Run r = run(withCalls("{\"repeat\": 3, \"as\": \"i\", \"calls\": [{\"call\": \"dat_lmr_create\", \"ia\":"
                + " \"$ia\", \"pz\": \"$pz\", \"length\": 64, \"out\": \"b[$i]\"}, {\"call\": \"dat_evd_create\","
                + " \"ia\": \"$ia\", \"evd_min_qlen\": 4, \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"e\"}]}",
                "{\"call\": \"dat_lmr_query\", \"lmr\": \"$b[2]\", \"expect\": {\"attrs\": {\"registered_size\": 1}}}",
                "{\"repeat\": 2, \"as\": \"k\", \"calls\": [{\"call\": \"mem_read\", \"lmr\": \"$b[$k]\", \"length\": 1,"
                        + " \"expect\": {\"data\": {\"fill\": 9, \"length\": 1}}}]}"));
        List<String> lmrs = r.trace().stream().filter(e -> e.path("kind").asText().equals("mem_read"))
                .map(e -> e.path("lmr").asText()).collect(Collectors.toList());
        assertEquals(List.of("A/b[0]", "A/b[1]"), lmrs);
        JsonNode query = r.calls("p", "dat_lmr_query").get(0);
        assertEquals("$.processes[0].calls[5]", query.path("step").asText());
        List<JsonNode> creates = r.calls("p", "dat_evd_create");
        assertEquals(4, creates.size(), "the base process's EVD and one per iteration");
        assertEquals("$.processes[0].calls[4].calls[1]", creates.get(3).path("step").asText());
        assertEquals("i=2", creates.get(3).path("iteration").asText());
        List<String> failures = new ArrayList<>();
        r.summary().path("expectations").path("failures").forEach(f -> failures.add(f.asText()));
        assertEquals(3, failures.size(), failures.toString());
        assertTrue(failures.get(0).endsWith("expected registered_size 1, got 64"), failures.get(0));
        assertTrue(failures.get(2).startsWith("process p, $.processes[0].calls[6].calls[0] (mem_read) at "),
                failures.get(2));
        assertTrue(failures.get(2).contains(", iteration k=1: data differs"), failures.get(2));
        JsonNode failed = r.trace().stream().filter(e -> e.path("kind").asText().equals("expect_failed")).skip(2)
                .findFirst().orElseThrow();
        assertEquals("k=1", failed.path("iteration").asText());
    }

    @Test
    void objectsBoundTwiceToOneNameGetDistinctTraceNames() throws Exception {
        String make = "{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 64, \"out\":"
                + " \"x\"}";
        String write = "{\"call\": \"mem_write\", \"lmr\": \"$x\", \"data\": {\"fill\": 1, \"length\": 1}}";
        Run r = run(withCalls(make, write, make, write));
        assertEquals(0, r.exitCode(), r.text());
        List<String> written = r.trace().stream().filter(e -> e.path("kind").asText().equals("mem_write"))
                .map(e -> e.path("lmr").asText()).collect(Collectors.toList());
        assertEquals(List.of("A/x", "A/x#2"), written);
    }

    @Test
    void waitTimeoutTakesATime() throws Exception {
        Run r = run(withCalls("{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\": \"5us\", \"expect\":"
                + " {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}}", "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\":"
                + " 5, \"expect\": {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}}"));
        assertEquals(0, r.exitCode(), r.text());
        List<JsonNode> waits = r.calls("p", "dat_evd_wait");
        long first = waits.get(0).path("t_ps").asLong();
        long second = waits.get(1).path("t_ps").asLong();
        long poll = ScenarioLoader.parse(FILE, withCalls()).params().get(FabricParams.CPU_POLL_OVERHEAD);
        assertEquals(5 * SimTime.US, second - first - poll, "\"5us\" and 5 are the same timeout");
        assertEquals(List.of(FILE + ": $.processes[0].calls[4].timeout: expected a whole number of microseconds (DAT"
                + " timeouts count them), found \"1500ns\""), problems(withCalls("{\"call\": \"dat_evd_wait\", \"evd\":"
                + " \"$evd\", \"timeout\": \"1500ns\"}")));
    }
}
