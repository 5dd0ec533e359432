package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import com.fasterxml.jackson.databind.JsonNode;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios under {@code src/test/resources/calls}: each exercises a group of DAT calls (SRQ, CNO, RSP, the EP
 * extras, the registry) with an expectation on every call, covering each DAT_RETURN a scenario can reach. A
 * scenario passes when it runs to the end with exit code 0, every expectation holding.
 */
class CallScenariosTest {

    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        Path dir = Path.of(CallScenariosTest.class.getResource("/calls").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> list = files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
            return list.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyExpectationHolds(Path scenario, @TempDir Path out) throws Exception {
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(scenario)).run(out, List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        assertTrue(r.lines().get(r.lines().size() - 1).startsWith("OK: 0 failed expectation(s)"),
                () -> String.join("\n", r.lines()));
    }

    private static List<JsonNode> run(String name, Path out) throws Exception {
        Path file = Path.of(CallScenariosTest.class.getResource("/calls/" + name).toURI());
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(file)).run(out, List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        return ScenarioJson.readTrace(out.resolve("events.jsonl"));
    }

    /** The index of a top-level call from its trace line's step, its JSON path: 7 for "$.processes[1].calls[7]". */
    private static long stepIndex(JsonNode e) {
        String step = e.path("step").asText();
        return Long.parseLong(step.substring(step.lastIndexOf('[') + 1, step.length() - 1));
    }

    private static long firstCall(List<JsonNode> trace, String process, long step) {
        return trace.stream().filter(e -> "call".equals(e.path("kind").asText())
                && process.equals(e.path("process").asText()) && stepIndex(e) == step)
                .mapToLong(e -> e.path("t_ps").asLong()).findFirst().orElseThrow();
    }

    @Test
    void rule14_anUnsolicitedReceiveCompletesSilentlyAndTheSolicitedOneWakesTheWaiter(@TempDir Path out)
            throws Exception {
        List<JsonNode> trace = run("solicited-wait-and-evd-sharing.json", out);
        long solicitedSend = firstCall(trace, "a", 10);
        long waitReturned = firstCall(trace, "b", 23);
        long unsolicitedSend = firstCall(trace, "a", 7);
        assertTrue(unsolicitedSend < solicitedSend);
        assertTrue(waitReturned > solicitedSend, "the wait ends only after the solicited Send, although the"
                + " unsolicited receive completed long before");
    }

    @Test
    void rule18_aFencedWriteWaitsForTheEarlierAtomicAndAnUnfencedOneOvertakesIt(@TempDir Path out) throws Exception {
        List<JsonNode> trace = run("ib-atomics.json", out);
        List<Long> atomics = trace.stream().filter(e -> "post".equals(e.path("kind").asText())
                && "fetch_add".equals(e.path("opcode").asText())).map(e -> e.path("op").asLong())
                .collect(Collectors.toList());
        List<JsonNode> waits = trace.stream().filter(e -> "fence_wait".equals(e.path("kind").asText()))
                .collect(Collectors.toList());
        assertEquals(1, waits.size(), "only the fenced Write was held: " + waits);
        JsonNode wait = waits.get(0);
        assertEquals("rdma_write", wait.path("opcode").asText());
        assertEquals("barrier fence", wait.path("reason").asText());
        assertEquals(List.of(atomics.get(1)), List.of(wait.path("waiting_for").get(0).asLong()),
                "the fence names the second Fetch and Add, the one posted right before the fenced Write");
        assertEquals(1, wait.path("waiting_for").size());
        long dequeued = trace.stream().filter(e -> "dequeue".equals(e.path("kind").asText())
                && "DAT_IB_DTO_EVENT".equals(e.path("event").asText())).count();
        assertEquals(5, dequeued, "four atomics succeeded and one failed, each reported as DAT_IB_DTO_EVENT");
    }

    @Test
    void rdmaWriteWithImmediateConsumesAReceiveCompletesItWithTheDataAndIsRnrNakedWithoutOne(@TempDir Path out)
            throws Exception {
        List<JsonNode> trace = run("write-immed.json", out);
        List<JsonNode> writes = trace.stream().filter(e -> "post".equals(e.path("kind").asText())
                && e.has("immediate")).collect(Collectors.toList());
        assertEquals(List.of(30583L, 1L), writes.stream().map(e -> e.path("immediate").asLong())
                .collect(Collectors.toList()), "both posts carry their immediate data");
        List<JsonNode> recvs = trace.stream().filter(e -> "dequeue".equals(e.path("kind").asText())
                && "DAT_IB_DTO_RECV_IMMED".equals(e.path("opcode").asText())).collect(Collectors.toList());
        assertEquals(List.of(30583L, 1L), recvs.stream().map(e -> e.path("immediate_data").asLong())
                .collect(Collectors.toList()), "each consumed a receive that reports the immediate data");
        long secondOp = writes.get(1).path("op").asLong();
        long rnr = trace.stream().filter(e -> "rnr_nak".equals(e.path("kind").asText())
                && e.path("op").asLong() == secondOp).count();
        assertTrue(rnr >= 1, "the second Write with immediate found no receive: RNR NAK");
        long reposted = firstCall(trace, "b", 18);
        long placed = trace.stream().filter(e -> "place".equals(e.path("kind").asText())
                && e.path("op").asLong() == secondOp).mapToLong(e -> e.path("t_ps").asLong()).findFirst()
                .orElseThrow();
        assertTrue(placed > reposted, "the retried Write completes only after B posted its receive");
    }

    @Test
    void rule15_thresholdAboveOneIsRefusedOnAnEvdOfSolicitedWaitReceives(@TempDir Path out) throws Exception {
        List<JsonNode> trace = run("solicited-wait-and-evd-sharing.json", out);
        assertEquals("DAT_INVALID_STATE", trace.stream().filter(e -> "call".equals(e.path("kind").asText())
                && "b".equals(e.path("process").asText()) && stepIndex(e) == 16).findFirst()
                .orElseThrow().path("ret").asText());
    }

    @Test
    void rule9_streamsSharingAnEvdMustUseOneNotificationModel(@TempDir Path out) throws Exception {
        List<JsonNode> trace = run("solicited-wait-and-evd-sharing.json", out);
        long refused = trace.stream().filter(e -> "call".equals(e.path("kind").asText())
                && "b".equals(e.path("process").asText()) && stepIndex(e) >= 8
                && stepIndex(e) <= 13 && "DAT_INVALID_PARAMETER".equals(e.path("ret").asText())).count();
        assertEquals(4, refused, "three dat_ep_create and one dat_ep_modify break the sharing rule");
    }

    @Test
    void rule36_theReceivesOfAnSrqAreTakenInPostingOrderByWhicheverEndpointGetsAMessage(@TempDir Path out)
            throws Exception {
        List<JsonNode> trace = run("srq.json", out);
        List<String> takers = trace.stream().filter(e -> "srq_take".equals(e.path("kind").asText()))
                .map(e -> e.path("ep").asText() + "#" + e.path("op").asLong()).collect(Collectors.toList());
        assertEquals(2, takers.size(), takers.toString());
        assertTrue(takers.get(0).startsWith("B/ep1#") && takers.get(1).startsWith("B/ep2#"), takers.toString());
        long first = Long.parseLong(takers.get(0).substring(takers.get(0).indexOf('#') + 1));
        long second = Long.parseLong(takers.get(1).substring(takers.get(1).indexOf('#') + 1));
        assertTrue(first < second, "the first posted receive is taken first");
    }

    private static JsonNode call(List<JsonNode> trace, String process, long step) {
        return trace.stream().filter(e -> "call".equals(e.path("kind").asText())
                && process.equals(e.path("process").asText()) && stepIndex(e) == step).findFirst().orElseThrow();
    }

    /**
     * The man page of dat_cno_wait: DAT_QUEUE_EMPTY, "the operation timed out without a notification". A CNO with no
     * EVD associated (never, or taken away by dat_evd_modify_cno, which is not freeing it) times out with
     * DAT_QUEUE_EMPTY and a null EVD, not DAT_SUCCESS; an infinite wait on it, which nothing could end, returns
     * DAT_QUEUE_EMPTY rather than blocking forever; only freeing the last EVD releases a waiter with DAT_SUCCESS.
     */
    @Test
    void cnoWait_theOperationTimedOutWithoutANotification_isQueueEmptyOnACnoWithNoEvd(@TempDir Path out)
            throws Exception {
        List<JsonNode> trace = run("cno-without-evd.json", out);
        long us = 1_000_000L;
        JsonNode neverAssociated = call(trace, "w", 2);
        assertEquals("DAT_QUEUE_EMPTY", neverAssociated.path("ret").asText());
        assertTrue(neverAssociated.path("t_ps").asLong() - call(trace, "w", 1).path("t_ps").asLong() >= 10 * us,
                "the wait lasted its timeout");
        JsonNode infinite = call(trace, "w", 3);
        assertEquals("DAT_QUEUE_EMPTY", infinite.path("ret").asText());
        assertTrue(infinite.path("t_ps").asLong() - neverAssociated.path("t_ps").asLong() < us,
                "an infinite wait that nothing could end returns at once");
        JsonNode takenAway = call(trace, "w", 6);
        assertEquals("DAT_QUEUE_EMPTY", takenAway.path("ret").asText());
        assertTrue(takenAway.path("t_ps").asLong() - call(trace, "w", 5).path("t_ps").asLong() >= 10 * us);
        JsonNode takenAwayDuring = call(trace, "w", 8);
        assertEquals("DAT_QUEUE_EMPTY", takenAwayDuring.path("ret").asText());
        long taken = call(trace, "x", 1).path("t_ps").asLong();
        assertTrue(takenAwayDuring.path("t_ps").asLong() >= taken
                && takenAwayDuring.path("t_ps").asLong() < taken + us, "ends when x takes the last EVD away");
        assertEquals("DAT_SUCCESS", call(trace, "w", 9).path("ret").asText());
        JsonNode freed = call(trace, "w", 11);
        assertEquals("DAT_SUCCESS", freed.path("ret").asText());
        assertTrue(freed.path("t_ps").asLong() >= call(trace, "x", 7).path("t_ps").asLong(),
                "released when x frees the last EVD");
    }
}
