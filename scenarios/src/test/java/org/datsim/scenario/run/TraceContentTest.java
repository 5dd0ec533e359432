package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The causal facts the write-then-send example's {@code events.jsonl} must show: the RDMA Write goes post, start,
 * tx_start, tx_end, place (on B), complete (on A) in that order and at increasing times; B's receive completes after
 * the Write's bytes are placed; B's CPU then reads the target buffer fresh and matching; and every line carries the
 * standard fields (every call line its call name and return value).
 */
class TraceContentTest {

    @TempDir
    static Path out;

    private static List<JsonNode> trace;

    @BeforeAll
    static void runWriteThenSend() throws Exception {
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(ScenarioJson.writeThenSend())).run(out,
                List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        trace = ScenarioJson.readTrace(out.resolve("events.jsonl"));
    }

    private static String text(JsonNode e, String key) {
        return e.path(key).asText();
    }

    private static long t(JsonNode e) {
        return e.get("t_ps").asLong();
    }

    /** Returns the index of the one trace line matching, failing if there is not exactly one. */
    private static int only(String what, Predicate<JsonNode> p) {
        List<Integer> hits = new ArrayList<>();
        for (int i = 0; i < trace.size(); i++) {
            if (p.test(trace.get(i))) {
                hits.add(i);
            }
        }
        assertEquals(1, hits.size(), () -> "expected exactly one " + what + " line, found lines " + hits);
        return hits.get(0);
    }

    private static long postedOp(String host, String opcode) {
        int i = only("post of " + opcode + " on " + host,
                e -> text(e, "kind").equals("post") && text(e, "host").equals(host)
                        && text(e, "opcode").equals(opcode));
        assertTrue(trace.get(i).has("op"), "a post names its operation");
        return trace.get(i).get("op").asLong();
    }

    private static int opLine(long op, String kind) {
        return only(kind + " of op " + op, e -> text(e, "kind").equals(kind) && e.path("op").asLong(-1) == op);
    }

    @Test
    void rdmaWriteGoesThroughEveryStageInOrder() {
        long write = postedOp("A", "rdma_write");
        String[] kinds = {"post", "start", "tx_start", "tx_end", "place", "complete"};
        String[] hosts = {"A", "A", "A", "A", "B", "A"};
        int previousLine = -1;
        long previousT = -1;
        for (int k = 0; k < kinds.length; k++) {
            int line = opLine(write, kinds[k]);
            JsonNode e = trace.get(line);
            assertEquals(hosts[k], text(e, "host"), kinds[k] + " of the write happens on host " + hosts[k]);
            assertTrue(line > previousLine, kinds[k] + " comes after the previous stage in the trace");
            assertTrue(t(e) > previousT, kinds[k] + " at " + t(e) + " ps is later than the previous stage at "
                    + previousT + " ps");
            previousLine = line;
            previousT = t(e);
        }
        JsonNode complete = trace.get(opLine(write, "complete"));
        assertEquals("DAT_DTO_SUCCESS", text(complete, "status"));
        assertEquals(1, complete.path("cookie").asLong());
        assertEquals(4096, complete.path("bytes").asLong());
        assertEquals(4096, trace.get(opLine(write, "place")).path("bytes").asLong());
    }

    @Test
    void receiveOnBCompletesAfterTheWriteIsPlaced() {
        long write = postedOp("A", "rdma_write");
        long send = postedOp("A", "send");
        long recv = postedOp("B", "recv");
        int placeWrite = opLine(write, "place");
        int placeSend = opLine(send, "place");
        int recvDone = opLine(recv, "complete");
        JsonNode done = trace.get(recvDone);
        assertEquals("B", text(done, "host"));
        assertEquals("DAT_DTO_SUCCESS", text(done, "status"));
        assertEquals(100, done.path("cookie").asLong());
        assertEquals(64, done.path("bytes").asLong());
        assertTrue(recvDone > placeWrite, "the receive completes after the write's place in the trace");
        assertTrue(t(done) > t(trace.get(placeWrite)), "the receive completes later than the write is placed");
        assertTrue(t(trace.get(placeSend)) > t(trace.get(placeWrite)), "the send is placed after the write");
        assertEquals(recv, trace.get(placeSend).path("recv_op").asLong(-1), "the send lands in the posted receive");
    }

    @Test
    void targetIsReadFreshAndMatchingOnB() {
        long write = postedOp("A", "rdma_write");
        int read = only("mem_read of the 4 KiB target on B", e -> text(e, "kind").equals("mem_read")
                && text(e, "host").equals("B") && e.path("bytes").asLong() == 4096);
        JsonNode r = trace.get(read);
        assertTrue(r.get("stale").isBoolean() && !r.get("stale").asBoolean(), "\"stale\" is false: " + r);
        assertTrue(r.get("match").isBoolean() && r.get("match").asBoolean(), "\"match\" is true: " + r);
        assertEquals("ab".repeat(32), text(r, "data_hex"));
        assertEquals(trace.get(opLine(write, "place")).path("address").asLong(), r.path("address").asLong(),
                "B reads where the write placed its bytes");
        assertTrue(t(r) > t(trace.get(opLine(write, "place"))));
    }

    @Test
    void everyLineHasTheStandardFieldsAndEveryCallItsNameAndReturn() {
        assertFalse(trace.isEmpty());
        int calls = 0;
        for (int i = 0; i < trace.size(); i++) {
            JsonNode e = trace.get(i);
            String where = "line " + (i + 1) + ": " + e;
            assertTrue(e.path("t_ps").isIntegralNumber(), where);
            assertTrue(e.path("kind").isTextual() && !e.get("kind").asText().isEmpty(), where);
            assertTrue(e.path("host").isTextual() && !e.get("host").asText().isEmpty(), where);
            if (text(e, "kind").equals("call")) {
                calls++;
                assertTrue(e.path("call").isTextual() && !e.get("call").asText().isEmpty(), where);
                assertTrue(e.path("ret").asText().startsWith("DAT_"), where);
            }
        }
        JsonNode summary = ScenarioJson.readJson(out.resolve("summary.json"));
        assertEquals(summary.path("calls").asLong(), calls, "summary.json counts every call line");
        assertEquals(calls, summary.path("trace_events").path("call").asLong());
    }

    @Test
    void theGracefulCloseThatMustFailIsTracedAsFailing() {
        int bad = only("dat_ia_close returning DAT_INVALID_STATE", e -> text(e, "kind").equals("call")
                && text(e, "call").equals("dat_ia_close") && text(e, "ret").equals("DAT_INVALID_STATE"));
        assertEquals("A", text(trace.get(bad), "host"));
        JsonNode summary = ScenarioJson.readJson(out.resolve("summary.json"));
        assertEquals(1, summary.path("calls_returning_errors").asLong());
    }
}
