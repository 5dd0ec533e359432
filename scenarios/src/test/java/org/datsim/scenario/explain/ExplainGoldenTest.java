package org.datsim.scenario.explain;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.ScenarioRunner;
import org.datsim.viz.explain.Times;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim explain} on example runs against reviewed golden files ({@code src/test/resources/explain/NAME.txt}).
 * To regenerate after a deliberate change: run the example, {@code datsim explain} it into the file, and review the
 * diff line by line.
 */
class ExplainGoldenTest {

    private static String explain(String example, Path out) throws Exception {
        return explainFile(ScenarioJson.examplesDir().resolve(example + ".json"), out);
    }

    private static String explainFile(Path scenario, Path out) throws Exception {
        new ScenarioRunner(ScenarioLoader.load(scenario)).run(out, List.of());
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"explain", out.toString()}, new PrintWriter(o),
                new PrintWriter(e));
        assertEquals(0, code, e::toString);
        return o.toString();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"send-after-read-fence", "rmr-context-too-early", "pfc-headroom-loss"})
    void explainMatchesTheReviewedGolden(String example, @TempDir Path out) throws Exception {
        String got = explain(example, out);
        Path golden = Paths.get("src/test/resources/explain", example + ".txt");
        String want = Files.readString(golden, StandardCharsets.UTF_8);
        assertEquals(want, got.replace("\r\n", "\n"), "golden " + golden);
    }

    @Test
    void aFencedSendThatWaitedForAnAtomicIsToldSoNotAsAWaitForReads(@TempDir Path out) throws Exception {
        // B's counter: a Fetch and Add, then a fenced Send of its result; a Read, a Compare and Swap, a fenced Send
        String got = explainFile(Paths.get("src/test/resources/explain/send-after-atomic-fence.json"), out)
                .replace("\r\n", "\n");
        assertTrue(got.contains("* was held by the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 18), which on"
                + " InfiniBand waits for earlier atomics as it does for RDMA Reads, until op 3 (fetch_add) had"
                + " finished"), got);
        assertTrue(got.contains("* was held by the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rules 17 and 18),"
                + " which waits for earlier RDMA Reads and atomics, until op 5 (rdma_read) and op 6 (cmp_swap) had"
                + " finished"), got);
        assertTrue(got.contains("had the original value placed in A's memory"), got);
        Path golden = Paths.get("src/test/resources/explain/send-after-atomic-fence.txt");
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), got, "golden " + golden);
    }

    @Test
    void cacheMissesAreChargedToEachOperationWithTheStallsTheTraceGives(@TempDir Path out) throws Exception {
        // one QP context and one page translation per HCA; three 8 KiB Writes over two connections miss everywhere
        String got = explainFile(Paths.get("src/test/resources/explain/cache-misses.json"), out)
                .replace("\r\n", "\n");
        Map<Long, long[]> perOp = new TreeMap<>(); // op -> {misses, penalty}
        for (JsonNode e : ScenarioJson.readTrace(out.resolve("events.jsonl"))) {
            if ("cache_miss".equals(e.get("kind").asText())) {
                long[] m = perOp.computeIfAbsent(e.get("op").asLong(), k -> new long[2]);
                m[0]++;
                m[1] += e.get("penalty_ps").asLong();
            }
        }
        assertEquals(Set.of(1L, 2L, 3L), perOp.keySet(), "every Write misses");
        for (Map.Entry<Long, long[]> m : perOp.entrySet()) {
            String want = "* missed the HCAs' on-chip caches " + m.getValue()[0] + " times, "
                    + Times.human(m.getValue()[1]) + " of stalls in all: on A ";
            int story = got.indexOf("op " + m.getKey() + "  rdma_write");
            int line = got.indexOf(want, story);
            assertTrue(story >= 0 && line > story && line < got.indexOf("completed DAT_DTO_SUCCESS", story),
                    () -> "op " + m.getKey() + ": no \"" + want + "\" in its story\n" + got);
        }
        assertTrue(got.contains("on B 1 QP-context miss and 2 translation (MTT) misses (900 ns)"), got);
        Path golden = Paths.get("src/test/resources/explain/cache-misses.txt");
        assertEquals(Files.readString(golden, StandardCharsets.UTF_8), got, "golden " + golden);
    }

    @Test
    void rule2_aCompletionHeldBehindAnEarlierReadIsExplainedWithBothTimes(@TempDir Path out) throws Exception {
        // lab lesson 7: a 64-byte Send posted behind a 256 KiB RDMA Read on the same endpoint
        String got = explainFile(ScenarioJson.examplesDir().resolve("../lab/07-completion-order/hazard.json")
                .normalize(), out);
        assertTrue(got.contains("* completed DAT_DTO_SUCCESS only now"), got);
        assertTrue(got.contains("behind op 2 (rdma_read), posted before it on A/ep (rule 2"), got);
        assertTrue(got.contains("* started while op 2 (rdma_read), posted before it on A/ep, had not finished"),
                got);
    }

    @Test
    void eachRetransmissionAfterPfcLossIsToldWithItsCauseAndAttemptNotAsAnRnrRetry(@TempDir Path out)
            throws Exception {
        // A and C write 4 x 32 KiB each to B through a switch whose PFC headroom is far too small for its 2 us cables
        String got = explain("pfc-headroom-loss", out).replace("\r\n", "\n");
        JsonNode summary = ScenarioJson.readJson(out.resolve("summary.json"));
        assertEquals(0, summary.path("expectations").path("failed").asLong(), "every expectation held");
        long drops = 0;
        for (JsonNode port : summary.path("ports")) {
            drops += port.path("drops").asLong();
        }
        assertTrue(drops > 0, "the switch dropped packets");
        assertTrue(got.contains("Packets lost: switch S dropped 29 packets (14 arriving over A->S and 15 over C->S),"
                + " each because the switch's buffer share for that input was full"), got);
        Map<String, Integer> reasons = new TreeMap<>();
        int writes = 0;
        for (JsonNode e : ScenarioJson.readTrace(out.resolve("events.jsonl"))) {
            String kind = e.get("kind").asText();
            if ("complete".equals(kind) && "rdma_write".equals(e.path("opcode").asText())) {
                assertEquals("DAT_DTO_SUCCESS", e.path("status").asText(), e::toString);
                writes++;
            }
            if (!"retransmit".equals(kind)) {
                continue;
            }
            String reason = e.get("reason").asText();
            reasons.merge(reason, 1, Integer::sum);
            String cause = "ack_timeout".equals(reason) ? "a local ACK timeout" : "a sequence-error NAK";
            String want = Times.human(e.get("t_ps").asLong()) + "  * was retransmitted (attempt "
                    + e.get("attempt").asLong() + ") after " + cause + ": ";
            int story = got.indexOf("op " + e.get("op").asLong() + "  rdma_write");
            int line = got.indexOf(want, story);
            assertTrue(story >= 0 && line > story && line < got.indexOf("completed DAT_DTO_SUCCESS", story),
                    () -> "no \"" + want + "\" in the story of op " + e.get("op") + "\n" + got);
        }
        assertEquals(8, writes, "every Write completed");
        assertEquals(Map.of("ack_timeout", 2, "nak_sequence_error", 2), reasons, "the run shows both causes");
        assertTrue(got.contains("started again: go-back-N from op 4 (rdma_write), retransmitted at 44.176 us after a"
                + " sequence-error NAK, sends every later unfinished operation of A/ep again too"), got);
        assertFalse(got.contains("RNR"), "no RNR NAK in this run: " + got);
        assertFalse(got.contains("Not in the trace: the packets the switches dropped"), "the trace names them: " + got);
    }

    @Test
    void everyPacketTheSwitchDroppedIsToldInTheStoryOfItsOperationAndNamedBehindTheRetransmission(@TempDir Path out)
            throws Exception {
        String got = explain("pfc-headroom-loss", out).replace("\r\n", "\n");
        JsonNode summary = ScenarioJson.readJson(out.resolve("summary.json"));
        long counted = 0;
        for (JsonNode port : summary.path("ports")) {
            counted += port.path("drops").asLong();
        }
        long traced = 0;
        for (JsonNode e : ScenarioJson.readTrace(out.resolve("events.jsonl"))) {
            if (!"drop".equals(e.get("kind").asText())) {
                continue;
            }
            traced++;
            assertEquals("S", e.get("switch").asText());
            assertEquals("buffer_full", e.get("reason").asText());
            assertEquals(e.get("host").asText() + "->S", e.get("port").asText(), "A and C write, B only acknowledges");
            // the story of the drop's operation has a line at the drop (or at the first drop of its run) naming it
            int story = got.indexOf("op " + e.get("op").asLong() + "  rdma_write");
            int end = got.indexOf("\nop ", story + 1);
            String lines = got.substring(story, end < 0 ? got.length() : end);
            String packet = String.valueOf(e.get("index").asLong() + 1);
            assertTrue(lines.matches("(?s).*\\* had (its packet " + packet + " of 8|[0-9] of its 8 packets \\([0-9, and]*"
                    + "\\b" + packet + "\\b[0-9, and]*\\)) dropped by switch S on arrival over "
                    + e.get("port").asText() + ".*"), () -> "op " + e.get("op") + "'s story names no drop of packet "
                    + packet + ":\n" + lines);
        }
        assertEquals(counted, traced, "summary.json's ports count what the trace names");
        // op 4, A's second Write, lost its second packet first: the sequence-error NAK behind its retransmission
        assertTrue(got.contains("34.669 us  * had 4 of its 8 packets (2, 4, 6 and 8) dropped by switch S on arrival"
                + " over A->S, the last at 36.648 us: the switch's buffer share for that input was full (PFC headroom"
                + " too small)\n"), got);
        assertTrue(got.contains("was lost (the trace shows switch S dropping its packet 2 of 8 at 34.669 us, the first in"
                + " sequence of the 5 packets of A/ep dropped before this retransmission); go-back-N"), got);
    }

    @Test
    void aDirectoryWithoutATraceIsAnInputError(@TempDir Path empty) {
        StringWriter e = new StringWriter();
        assertEquals(2, DatsimCli.execute(new String[] {"explain", empty.toString()},
                new PrintWriter(new StringWriter()), new PrintWriter(e)));
        assertTrue(e.toString().contains("events.jsonl: no such file"), e::toString);
    }
}
