package org.datsim.scenario.run;

import static org.datsim.scenario.ScenarioJson.FILE;
import static org.datsim.scenario.ScenarioJson.replacingCall;
import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.datsim.core.param.Params;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.FabricParams;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How a run reports what went wrong at run time, as opposed to invalid input: a wrong expectation (a cookie, the
 * bytes read) fails the run with exit code 1 and a message naming the call's JSON path; a DAT call with bad
 * arguments is not an input error but a return value that "expect" can accept; a process blocked forever in
 * dat_evd_wait is reported unfinished; a finite dat_evd_wait timeout expires exactly at its deadline; and an
 * unresolvable "expect.ep" or a timeout given by reference are handled, not crashes.
 */
class ExpectationFailureTest {

    @TempDir
    Path out;

    /** A run's exit code, human lines, summary and trace. */
    private record Outcome(int exitCode, List<String> lines, JsonNode summary, List<JsonNode> trace) {
        String text() {
            return String.join("\n", lines);
        }

        List<JsonNode> calls(String call) {
            return trace.stream().filter(e -> e.path("kind").asText().equals("call")
                    && e.path("call").asText().equals(call)).collect(Collectors.toList());
        }
    }

    private Outcome run(Scenario s) throws Exception {
        RunResultSummary r = new ScenarioRunner(s).run(out, List.of());
        return new Outcome(r.exitCode(), r.lines(), ScenarioJson.readJson(out.resolve("summary.json")),
                ScenarioJson.readTrace(out.resolve("events.jsonl")));
    }

    private Outcome run(String json) throws Exception {
        return run(ScenarioLoader.parse(FILE, json));
    }

    /** The write-then-send example as a tree, to be edited by a test. */
    private static ObjectNode example() {
        return (ObjectNode) ScenarioJson.readJson(ScenarioJson.writeThenSend());
    }

    /** Returns the JSON path of the one call of a process matching, and the call itself through {@code found}. */
    private static String findCall(ObjectNode scenario, String process, Predicate<JsonNode> p, ObjectNode[] found) {
        JsonNode procs = scenario.get("processes");
        String path = null;
        for (int i = 0; i < procs.size(); i++) {
            if (!procs.get(i).get("name").asText().equals(process)) {
                continue;
            }
            JsonNode calls = procs.get(i).get("calls");
            for (int c = 0; c < calls.size(); c++) {
                if (p.test(calls.get(c))) {
                    assertEquals(null, path, "more than one call matches");
                    path = "$.processes[" + i + "].calls[" + c + "]";
                    found[0] = (ObjectNode) calls.get(c);
                }
            }
        }
        assertTrue(path != null, "no call of process " + process + " matches");
        return path;
    }

    private static JsonNode failures(Outcome o) {
        return o.summary().path("expectations").path("failures");
    }

    // ------------------------------------------------------------------ wrong expectations

    @Test
    void wrongCookieFailsTheRunAndNamesTheCall() throws Exception {
        ObjectNode s = example();
        ObjectNode[] call = new ObjectNode[1];
        String path = findCall(s, "a", c -> "DAT_DTO_RDMA_WRITE".equals(c.path("expect").path("operation").asText()),
                call);
        ((ObjectNode) call[0].get("expect")).put("cookie", 99);
        Outcome o = run(ScenarioLoader.parse("wts.json", s.toString()));

        assertEquals(1, o.exitCode(), o.text());
        assertEquals(1, o.summary().path("expectations").path("failed").asLong());
        String f = failures(o).get(0).asText();
        assertTrue(f.startsWith("process a, " + path + " (dat_evd_wait) at "), f);
        assertTrue(f.endsWith("expected cookie 99, got 1"), f);
        assertTrue(o.text().contains("FAILED process a, " + path), o.text());
        assertTrue(o.lines().get(o.lines().size() - 1).startsWith("FAILED: 1 failed expectation(s)"), o.text());
        assertEquals(1, o.trace().stream().filter(e -> e.path("kind").asText().equals("expect_failed")).count());
    }

    @Test
    void wrongBytesInMemReadFailTheRun() throws Exception {
        ObjectNode s = example();
        ObjectNode[] call = new ObjectNode[1];
        String path = findCall(s, "b", c -> "mem_read".equals(c.path("call").asText())
                && c.path("expect").path("data").has("fill"), call);
        ((ObjectNode) call[0].get("expect").get("data")).put("fill", 0xac);
        Outcome o = run(ScenarioLoader.parse("wts.json", s.toString()));

        assertEquals(1, o.exitCode(), o.text());
        assertTrue(o.summary().path("expectations").path("failed").asLong() >= 1);
        String f = failures(o).get(0).asText();
        assertTrue(f.startsWith("process b, " + path + " (mem_read) at "), f);
        assertTrue(f.contains("data differs at byte 0: expected 0xac, read 0xab"), f);
        JsonNode read = o.trace().stream().filter(e -> e.path("kind").asText().equals("mem_read")
                && e.path("bytes").asLong() == 4096).findFirst().orElseThrow();
        assertEquals(false, read.path("match").asBoolean(true));
    }

    // ------------------------------------------------------------------ DAT errors are return values

    private static final String EVD_QLEN_0 = "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 0,"
            + " \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"evd\"%s}";

    @Test
    void badDatArgumentIsAReturnValueThatExpectCanAccept() throws Exception {
        Outcome o = run(replacingCall(2, String.format(EVD_QLEN_0,
                ", \"expect\": {\"ret\": \"DAT_INVALID_PARAMETER\"}")));
        assertEquals(0, o.exitCode(), o.text());
        List<JsonNode> creates = o.calls("dat_evd_create");
        assertEquals(1, creates.size());
        assertEquals("DAT_INVALID_PARAMETER", creates.get(0).path("ret").asText());
        assertEquals("DAT_INVALID_ARG2", creates.get(0).path("subtype").asText());
        assertEquals(1, o.summary().path("calls_returning_errors").asLong());
        assertEquals(0, o.summary().path("expectations").path("failed").asLong());
    }

    @Test
    void expectCanNameTheSubtype() throws Exception {
        assertEquals(0, run(replacingCall(2, String.format(EVD_QLEN_0,
                ", \"expect\": {\"ret\": \"DAT_INVALID_ARG2\"}"))).exitCode());
        Outcome wrong = run(replacingCall(2, String.format(EVD_QLEN_0,
                ", \"expect\": {\"ret\": \"DAT_INVALID_ARG3\"}")));
        assertEquals(1, wrong.exitCode(), wrong.text());
        assertTrue(failures(wrong).get(0).asText().contains("expected DAT_INVALID_ARG3, the call returned"));
    }

    @Test
    void unexpectedDatErrorFailsTheRunWithoutStoppingIt() throws Exception {
        Outcome o = run(replacingCall(2, String.format(EVD_QLEN_0, "")));
        assertEquals(1, o.exitCode(), o.text());
        assertEquals(1, o.summary().path("expectations").path("failed").asLong());
        String f = failures(o).get(0).asText();
        assertTrue(f.startsWith("process p, $.processes[0].calls[2] (dat_evd_create) at "), f);
        assertTrue(f.contains("expected DAT_SUCCESS, the call returned"), f);
        assertEquals(1, o.calls("dat_lmr_create").size(), "the process goes on after the failed call");
        assertEquals("NO_EVENTS", o.summary().path("stop_reason").asText());
    }

    // ------------------------------------------------------------------ waiting

    @Test
    void processBlockedForeverIsUnfinished() throws Exception {
        Outcome o = run(withCalls("{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\"}"));
        assertEquals(1, o.exitCode(), o.text());
        assertEquals(0, o.summary().path("expectations").path("failed").asLong());
        JsonNode unfinished = o.summary().path("unfinished_processes");
        assertEquals(1, unfinished.size(), unfinished.toString());
        assertEquals("process p did not finish: it was still in dat_evd_wait at $.processes[0].calls[4]",
                unfinished.get(0).asText());
        assertTrue(o.lines().contains(unfinished.get(0).asText()), o.text());
        assertEquals(0, o.calls("dat_evd_wait").size(), "the wait never returned");
    }

    /** The time the base process reaches calls[4]: four non-blocking calls, each costing the call overhead. */
    private static long afterBaseCalls(Scenario s) {
        return 4 * s.params().get(FabricParams.CPU_CALL_OVERHEAD);
    }

    @Test
    void finiteWaitTimesOutAtItsDeadline() throws Exception {
        Scenario s = ScenarioLoader.parse(FILE, withCalls("{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\","
                + " \"timeout\": 5, \"expect\": {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}}",
                "{\"call\": \"dat_evd_free\", \"evd\": \"$evd\"}"));
        assertEquals(Params.defaults(FabricParams.ALL).asText(), s.params().asText(), "the defaults apply");
        Outcome o = run(s);
        assertEquals(0, o.exitCode(), o.text());
        List<JsonNode> waits = o.calls("dat_evd_wait");
        assertEquals(1, waits.size());
        assertEquals("DAT_TIMEOUT_EXPIRED", waits.get(0).path("ret").asText());
        assertEquals(afterBaseCalls(s) + 5 * SimTime.US, waits.get(0).path("t_ps").asLong());
        JsonNode free = o.calls("dat_evd_free").get(0);
        assertEquals("DAT_SUCCESS", free.path("ret").asText());
        assertTrue(free.path("t_ps").asLong() > waits.get(0).path("t_ps").asLong());
    }

    @Test
    void waitTimeoutScalesWithTheCallOverheadParameter() throws Exception {
        String json = withCalls("{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\": 5,"
                + " \"expect\": {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}}").replace("\"links\": [{\"a\": \"A\", \"b\": \"B\"}]",
                "\"links\": [{\"a\": \"A\", \"b\": \"B\"}], \"params\": {\"cpu.call_overhead\": \"250ns\"}");
        Scenario s = ScenarioLoader.parse(FILE, json);
        assertEquals(250_000L, s.params().get(FabricParams.CPU_CALL_OVERHEAD));
        Outcome o = run(s);
        assertEquals(0, o.exitCode(), o.text());
        assertEquals(4 * 250_000L + 5 * SimTime.US, o.calls("dat_evd_wait").get(0).path("t_ps").asLong());
    }

    @Test
    void waitTimeoutGivenByReferenceIsHonoured() throws Exception {
        String json = withCalls("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 7,"
                + " \"out\": \"seven\"}", "{\"call\": \"dat_evd_wait\", \"evd\": \"$evd\", \"timeout\": \"$seven.length\","
                + " \"expect\": {\"ret\": \"DAT_TIMEOUT_EXPIRED\"}}");
        Scenario s = ScenarioLoader.parse(FILE, json);
        Outcome o = run(s);
        assertEquals(0, o.exitCode(), o.text());
        long overhead = s.params().get(FabricParams.CPU_CALL_OVERHEAD);
        assertEquals(5 * overhead + 7 * SimTime.US, o.calls("dat_evd_wait").get(0).path("t_ps").asLong());
    }

    private static final String CONNECT_TO_NOBODY = "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\","
            + " \"evd_min_qlen\": 4, \"evd_flags\": \"DAT_EVD_CONNECTION_FLAG\", \"out\": \"conn\"}|"
            + "{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$evd\","
            + " \"request_evd\": \"$evd\", \"connect_evd\": \"$conn\", \"out\": \"ep\"}|"
            + "{\"call\": \"dat_ep_connect\", \"ep\": \"$ep\", \"remote_ia_address\": \"B\", \"remote_conn_qual\": 9}";

    @Test
    void blockedWaitChecksExpectEp() throws Exception {
        List<String> calls = new java.util.ArrayList<>(List.of(CONNECT_TO_NOBODY.split("\\|")));
        calls.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$conn\", \"expect\": {\"ep\": \"$ep\","
                + " \"event\": \"DAT_CONNECTION_EVENT_NON_PEER_REJECTED\"}}");
        Outcome o = run(withCalls(calls.toArray(new String[0])));
        assertEquals(0, o.exitCode(), o.text());
        assertEquals("DAT_SUCCESS", o.calls("dat_evd_wait").get(0).path("ret").asText());
    }

    @Test
    void unboundExpectEpInABlockedWaitIsAFailureNotACrash() throws Exception {
        List<String> calls = new java.util.ArrayList<>(List.of(CONNECT_TO_NOBODY.split("\\|")));
        calls.add("{\"call\": \"dat_evd_wait\", \"evd\": \"$conn\", \"expect\": {\"ep\": \"$later\"}}");
        calls.add("{\"call\": \"dat_ep_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"recv_evd\": \"$evd\","
                + " \"request_evd\": \"$evd\", \"connect_evd\": \"$conn\", \"out\": \"later\"}");
        Outcome o = run(withCalls(calls.toArray(new String[0])));
        assertEquals(1, o.exitCode(), o.text());
        assertEquals(1, o.summary().path("expectations").path("failed").asLong());
        String f = failures(o).get(0).asText();
        assertTrue(f.startsWith("process p, $.processes[0].calls[7] (dat_evd_wait) at "), f);
        assertTrue(f.contains("\"$later\" is not bound"), f);
        assertEquals(2, o.calls("dat_ep_create").size(), "the process goes on after the failure");
        assertEquals(0, o.summary().path("unfinished_processes").size());
    }
}
