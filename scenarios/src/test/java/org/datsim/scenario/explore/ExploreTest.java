package org.datsim.scenario.explore;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.datsim.core.choice.VectorChoices;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.cli.ExploreCommandAccess;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * datsim explore: the lab's hazards show every outcome the rules allow and their fixes only the good one, the
 * litmus suite gets its verdicts, witnesses replay, and the reduction is sound and saves executions.
 */
class ExploreTest {

    private static Path scenarios() {
        return ScenarioJson.examplesDir().resolve("..").normalize();
    }

    private static Scenario load(String file) throws Exception {
        return ScenarioLoader.load(scenarios().resolve(file));
    }

    private static Explorer.Report explore(String file, int max, boolean reduce) throws Exception {
        return new Explorer(load(file), new Explorer.Settings(max, 0, 1, reduce)).explore();
    }

    /** The values the outcomes observed at one step (its data, else its first observation). */
    private static Set<String> values(Explorer.Report r, String process, int step) {
        Set<String> s = new TreeSet<>();
        for (Explorer.Outcome o : r.outcomes()) {
            String v = o.value(process, step, "data");
            s.add(v != null ? v : String.valueOf(o.value(process, step, "ret")));
        }
        return s;
    }

    /** The step index of a process's n-th mem_read (0-based) in a scenario. */
    private static int memRead(Scenario s, String process, int n) {
        var steps = s.processes().stream().filter(p -> p.name().equals(process)).findFirst().orElseThrow().steps();
        int seen = 0;
        for (var st : steps) {
            if (st.spec().name().equals("mem_read") && seen++ == n) {
                return st.index();
            }
        }
        throw new AssertionError("no mem_read " + n + " in " + process);
    }

    @Test
    void lesson2ReadWriteRaceHasBothOutcomesWithoutTheFenceAndOneWithIt() throws Exception {
        // Rule 19: the unfenced Write may execute before the Read fetched X's end; rule 17: the fence forbids it.
        String hazard = "lab/02-read-write-race/hazard.json";
        Explorer.Report h = explore(hazard, 100, true);
        assertTrue(h.exhaustive());
        assertEquals(Set.of("0x22*64", "0x33*64"), values(h, "a", memRead(load(hazard), "a", 1)));
        String fix = "lab/02-read-write-race/fix.json";
        Explorer.Report f = explore(fix, 100, true);
        assertTrue(f.exhaustive());
        assertEquals(Set.of("0x22*64"), values(f, "a", memRead(load(fix), "a", 1)));
        assertEquals(0, f.forbidden());
        assertEquals(1, f.outcomes().size());
    }

    @Test
    void rule19_lesson1SendAfterReadCarriesTheStaleOrTheFreshBytesWithoutTheFenceAndOnlyTheFreshWithIt()
            throws Exception {
        // transport.payload_fetch: the unfenced Send may be taken up before the Read landed in L (0x11, the timing
        // model's) or after (0x22); the fence leaves only 0x22.
        String hazard = "lab/01-send-after-read/hazard.json";
        Explorer.Report h = explore(hazard, 100, true);
        assertTrue(h.exhaustive());
        assertEquals(Set.of("0x11*64", "0x22*64"), values(h, "b", memRead(load(hazard), "b", 0)));
        assertEquals(0, h.forbidden());
        assertTrue(h.points().containsKey("transport.payload_fetch (rule 19)"), h.points().toString());
        String fix = "lab/01-send-after-read/fix.json";
        Explorer.Report f = explore(fix, 100, true);
        assertTrue(f.exhaustive());
        assertEquals(Set.of("0x22*64"), values(f, "b", memRead(load(fix), "b", 0)));
    }

    @Test
    void lesson5StaleReadIsReachableWithoutTheSyncAndNotWithIt() throws Exception {
        // Rule 32: until dat_lmr_sync_rdma_write, each stale line may be read stale or fresh.
        String hazard = "lab/05-sync-rdma-write/hazard.json";
        Explorer.Report h = explore(hazard, 8, true);
        Set<String> reads = values(h, "b", memRead(load(hazard), "b", 2));
        assertTrue(reads.contains("0x00*4096"), reads.toString()); // the stale read
        assertTrue(reads.size() > 1, reads.toString()); // and lines read fresh
        assertFalse(h.exhaustive()); // 64 lines: 2^64 executions
        // The file states what rule 32 allows (each line stale or fresh), so no partly-stale read is forbidden.
        assertEquals(0, h.forbidden(), () -> h.outcomes().stream().filter(Explorer.Outcome::forbidden)
                .findFirst().map(o -> o.problems().toString()).orElse(""));
        String fix = "lab/05-sync-rdma-write/fix.json";
        Explorer.Report f = explore(fix, 100, true);
        assertTrue(f.exhaustive());
        assertEquals(Set.of("0xab*4096"), values(f, "b", memRead(load(fix), "b", 2)));
        assertEquals(0, f.forbidden());
    }

    @Test
    void litmusReadThenWriteSameLocationDependsOnTheReadOrdering() throws Exception {
        String relaxed = "litmus/rw-same-location-relaxed.json";
        Explorer.Report r = explore(relaxed, 100, true);
        assertTrue(r.exhaustive());
        assertEquals(Set.of("0x22*64", "0x33*64"), values(r, "a", memRead(load(relaxed), "a", 0)));
        String strict = "litmus/rw-same-location-strict.json";
        Explorer.Report s = explore(strict, 100, true);
        assertTrue(s.exhaustive());
        assertEquals(Set.of("0x22*64"), values(s, "a", memRead(load(strict), "a", 0)));
    }

    @Test
    void litmusWritesFromTwoEndpointsEitherLandsLast() throws Exception {
        String file = "litmus/ww-two-endpoints.json";
        Explorer.Report r = explore(file, 100, true);
        assertTrue(r.exhaustive());
        assertEquals(Set.of("0xa1*64", "0xc1*64"), values(r, "b", memRead(load(file), "b", 0)));
        assertEquals(0, r.forbidden());
    }

    @Test
    void litmusCompletionsOfTwoEndpointsOnOneEvdComeOutInEitherOrder() throws Exception {
        // Rule 2: streams of different endpoints sharing an EVD have no relative order.
        Explorer.Report r = explore("litmus/evd-order-two-endpoints.json", 100, true);
        assertTrue(r.exhaustive());
        Set<String> firsts = new TreeSet<>();
        for (Explorer.Outcome o : r.outcomes()) {
            String first = o.observed().stream().filter(e -> e.process().equals("b") && e.key().equals("event")
                    && e.value().contains("DAT_DTO_SEND")).findFirst().orElseThrow().value();
            firsts.add(first.replaceAll(".*cookie ([0-9]+).*", "$1"));
        }
        assertEquals(Set.of("900", "901"), firsts);
    }

    /** The cookie of the first Send completion B's waits took, per outcome. */
    private static Set<String> firstSendCookies(Explorer.Report r) {
        Set<String> firsts = new TreeSet<>();
        for (Explorer.Outcome o : r.outcomes()) {
            String first = o.observed().stream().filter(e -> e.process().equals("b") && e.key().equals("event")
                    && e.value().contains("DAT_DTO_SEND")).findFirst().orElseThrow().value();
            firsts.add(first.replaceAll(".*cookie ([0-9]+).*", "$1"));
        }
        return firsts;
    }

    @Test
    void rule2_completionsOfTwoEndpointsOnOneEvdComeOutInEitherOrderEvenWhenTheFirstIsReapedBeforeTheSecondArrives()
            throws Exception {
        // Without a sleep, B's wait takes the first completion before the second is queued; B may be slower, so
        // the second may be queued first (evd.reap_order, then evd.completion_order): both orders, 2 outcomes.
        Explorer.Report r = explore("litmus/evd-order-two-endpoints-wait-at-once.json", 100, true);
        assertTrue(r.exhaustive());
        assertEquals(2, r.outcomes().size());
        assertEquals(Set.of("900", "901"), firstSendCookies(r));
        assertTrue(r.points().containsKey("evd.reap_order (rules 2, 3)"), r.points().toString());
        assertEquals(0, r.forbidden());
    }

    @Test
    void aReplayedWitnessPrintsEachChoiceTakenAndWhatWasObserved(@TempDir Path tmp) throws Exception {
        StringWriter o = new StringWriter();
        int code = DatsimCli.execute(new String[] {"run", scenarios().resolve(
                "litmus/evd-order-two-endpoints-wait-at-once.json").toString(), "--out", tmp.resolve("r").toString(),
            "--no-perfetto", "--choices", "1.1"}, new PrintWriter(o), new PrintWriter(new StringWriter()));
        assertEquals(0, code, o.toString());
        String out = o.toString();
        assertTrue(out.contains("choices: 2 point(s) reached, vector 1.1\n"
                + "  choice 1: evd.reap_order (rules 2, 3) on B: alternative 1 of 0..1\n"
                + "  choice 2: evd.completion_order (rules 2, 3) on B: alternative 1 of 0..1\n"
                + "observed first = 901, first_ep = B/ep1\n"), out);
    }

    @Test
    void rule36_eitherSendersMessageMayTakeTheFirstReceiveOfASharedReceiveQueue() throws Exception {
        // Before srq.arrival_order explore gave one outcome: the message the timing model delivered first.
        String file = "litmus/srq-two-senders.json";
        Explorer.Report r = explore(file, 100, true);
        assertTrue(r.exhaustive());
        Set<String> firsts = new TreeSet<>();
        r.outcomes().forEach(o -> firsts.add(ExploreCommandAccess.describe(o.named())));
        assertEquals(Set.of("first_buffer = 0xa1*64", "first_buffer = 0xc1*64"), firsts);
        assertEquals(0, r.forbidden());
        assertTrue(r.points().containsKey("srq.arrival_order (rule 36)"), r.points().toString());
    }

    @Test
    void rule5_aCompletionStillInFlightWhenTheTimeoutFiredMayAsWellHaveComeInTime() throws Exception {
        String file = "litmus/wait-timeout-late-arrival.json";
        Explorer.Report r = explore(file, 100, true);
        assertTrue(r.exhaustive());
        Set<String> seen = new TreeSet<>();
        r.outcomes().forEach(o -> seen.add(ExploreCommandAccess.describe(o.named())));
        assertEquals(Set.of("in_time = DAT_DTO_SUCCESS", "in_time = DAT_TIMEOUT_EXPIRED"), seen);
        assertEquals(0, r.forbidden());
        assertTrue(r.points().containsKey("evd.arrival_before_timeout (rules 2, 5)"), r.points().toString());
    }

    @Test
    void theNewPointsLoseNoOutcomeToTheReduction() throws Exception {
        for (String file : List.of("litmus/evd-order-two-endpoints-wait-at-once.json", "litmus/srq-two-senders.json",
                "litmus/wait-timeout-late-arrival.json", "lab/01-send-after-read/hazard.json")) {
            Explorer.Report reduced = explore(file, 1000, true);
            Explorer.Report full = explore(file, 1000, false);
            assertTrue(reduced.exhaustive() && full.exhaustive(), file);
            Set<String> a = new TreeSet<>();
            Set<String> b = new TreeSet<>();
            reduced.outcomes().forEach(o -> a.add(o.observed().toString()));
            full.outcomes().forEach(o -> b.add(o.observed().toString()));
            assertEquals(b, a, file);
            assertTrue(a.size() >= 2, file);
        }
    }

    @Test
    void rule43_anAbruptDisconnectFlushesWhatHadNotStartedWhichDependsOnWhenTheConsumerMadeIt() throws Exception {
        // ep.disconnect_order: the disconnect made now (the Write flushed) or once the Write completed.
        String file = "examples/flush-on-disconnect.json";
        Explorer.Report r = explore(file, 100, true);
        assertTrue(r.exhaustive());
        Set<String> write = new TreeSet<>();
        for (Explorer.Outcome o : r.outcomes()) {
            o.observed().stream().filter(e -> e.process().equals("a") && e.value().contains("cookie 11"))
                    .forEach(e -> write.add(e.value().replaceAll(".*(DAT_DTO_[A-Z_]+) DAT_DTO_RDMA_WRITE.*", "$1")));
        }
        assertEquals(Set.of("DAT_DTO_ERR_FLUSHED", "DAT_DTO_SUCCESS"), write);
        assertEquals(0, r.forbidden());
        Explorer.Report lesson = explore("lab/09-flush-on-disconnect/hazard.json", 100, true);
        assertEquals(3, lesson.outcomes().size()); // both flushed, the first completed, both completed
        assertEquals(0, lesson.forbidden());
        assertTrue(lesson.points().containsKey("ep.disconnect_order (rule 43)"), lesson.points().toString());
    }

    @Test
    void litmusAnArrivalInTheLastMicrosecondRacesTheTimeout() throws Exception {
        // Rule 5: the timeout is in microseconds.
        Explorer.Report r = explore("litmus/wait-timeout-race.json", 100, true);
        assertTrue(r.exhaustive());
        Set<String> rets = new TreeSet<>();
        for (Explorer.Outcome o : r.outcomes()) {
            o.observed().stream().filter(e -> e.process().equals("a") && e.call().equals("dat_evd_wait")
                    && e.key().equals("ret")).skip(1).findFirst().ifPresent(e -> rets.add(e.value()));
        }
        assertEquals(Set.of("DAT_SUCCESS", "DAT_TIMEOUT_EXPIRED"), rets);
    }

    @Test
    void litmusMessagePassingThroughAFlag() throws Exception {
        String file = "litmus/mp-flag-noncoherent.json";
        Scenario s = load(file);
        Explorer.Report r = explore(file, 100, true);
        assertTrue(r.exhaustive());
        Set<String> pairs = new TreeSet<>();
        for (Explorer.Outcome o : r.outcomes()) {
            pairs.add(o.value("b", memRead(s, "b", 2), "data") + "/" + o.value("b", memRead(s, "b", 3), "data"));
        }
        // Without the sync every combination is allowed, the weak flag=1, data=0 included (rule 32).
        assertTrue(pairs.contains("0x01*8/0x00*8"), pairs.toString());
        assertEquals(4, pairs.size(), pairs.toString());
        String sync = "litmus/mp-flag-noncoherent-sync.json";
        Scenario ss = load(sync);
        Explorer.Report y = explore(sync, 100, true);
        assertTrue(y.exhaustive());
        assertEquals(1, y.outcomes().size());
        Explorer.Outcome only = y.outcomes().get(0);
        assertEquals("0x01*8/0x01*8", only.value("b", memRead(ss, "b", 2), "data") + "/"
                + only.value("b", memRead(ss, "b", 3), "data"));
    }

    @Test
    void litmusPollThenReadSeesTheReadsData() throws Exception {
        String file = "litmus/poll-then-read.json";
        Explorer.Report r = explore(file, 100, true);
        assertTrue(r.exhaustive());
        assertEquals(Set.of("0x5a*64"), values(r, "a", memRead(load(file), "a", 0)));
    }

    @Test
    void threeHostsSixOperationsExploreExhaustivelyAndTheReductionSavesExecutions() throws Exception {
        String file = "litmus/three-endpoints-six-ops.json";
        long t0 = System.nanoTime();
        Explorer.Report reduced = explore(file, 10_000, true);
        long ms = (System.nanoTime() - t0) / 1_000_000;
        Explorer.Report full = explore(file, 10_000, false);
        assertTrue(reduced.exhaustive());
        assertTrue(full.exhaustive());
        assertTrue(ms < 10_000, ms + " ms");
        assertTrue(reduced.executions() < full.executions(), reduced.executions() + " vs " + full.executions());
        // Sound: the same outcomes either way.
        Set<String> a = new TreeSet<>();
        Set<String> b = new TreeSet<>();
        reduced.outcomes().forEach(o -> a.add(o.observed().toString()));
        full.outcomes().forEach(o -> b.add(o.observed().toString()));
        assertEquals(b, a);
        // A's Read returns 0x22, A's own 0xa1 (rule 19) or C's 0xc1 (rule 2: transport.read_vs_write), X ends 0xa1
        // or 0xc1, and B takes its two go completions in either order (rule 2): 3 x 2 x 2.
        assertEquals(12, a.size());
    }

    @Test
    void witnessReplaysTheSameOutcomeAndAByteIdenticalTrace(@TempDir Path tmp) throws Exception {
        Scenario s = load("lab/02-read-write-race/hazard.json");
        Explorer.Report r = new Explorer(s, new Explorer.Settings(100, 0, 1, true)).explore();
        int k = 0;
        for (Explorer.Outcome o : r.outcomes()) {
            Explorer.Execution again = Explorer.execute(s, o.witness(), null, true);
            assertEquals(o.observed(), again.observed());
            byte[] first = null;
            for (int run = 0; run < 2; run++) {
                Path dir = tmp.resolve("w" + k + "-" + run);
                new ScenarioRunner(s).choices(VectorChoices.replay(o.witness())).run(dir, List.of());
                byte[] events = Files.readAllBytes(dir.resolve("events.jsonl"));
                if (first == null) {
                    first = events;
                } else {
                    assertArrayEquals(first, events);
                }
            }
            k++;
        }
    }

    @Test
    void commandExitsOneOnAReachableForbiddenOutcomeAndItsWitnessReplaysIt(@TempDir Path tmp) throws Exception {
        // RDMA^TSO's verdict for MP on coherent memory (the weak flag=1, data=0 forbidden), stated on a host whose
        // CPU does not snoop DMA and which skips the sync: rule 32 makes the weak outcome reachable.
        com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
        com.fasterxml.jackson.databind.node.ObjectNode d = (com.fasterxml.jackson.databind.node.ObjectNode) m
                .readTree(scenarios().resolve("litmus/mp-flag-noncoherent.json").toFile());
        d.remove("$schema");
        d.set("outcomes", m.readTree("{\"forbidden\": [{\"flag\": {\"fill\": 1, \"length\": 8},"
                + " \"data\": {\"fill\": 0, \"length\": 8}}]}"));
        Path file = tmp.resolve("mp-tso-verdict.json");
        m.writeValue(file.toFile(), d);
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"explore", file.toString()}, new PrintWriter(o),
                new PrintWriter(e));
        String out = o.toString();
        assertEquals(1, code, out + e);
        assertTrue(out.trim().endsWith("executions=4\noutcomes=4\nforbidden=1\nexhaustive=true"), out);
        String witness = out.lines().filter(l -> l.contains("FORBIDDEN")).findFirst().isPresent()
                ? out.lines().dropWhile(l -> !l.contains("FORBIDDEN")).filter(l -> l.contains("witness:"))
                        .findFirst().orElseThrow().replaceAll(".*--choices ", "") : null;
        // The timing model's run holds; the witness's run shows the forbidden outcome and fails.
        assertEquals(0, DatsimCli.execute(new String[] {"run", file.toString(), "--out", tmp.resolve("t").toString(),
            "--no-perfetto"}, new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())));
        StringWriter w = new StringWriter();
        assertEquals(1, DatsimCli.execute(new String[] {"run", file.toString(), "--out", tmp.resolve("w").toString(),
            "--no-perfetto", "--choices", witness}, new PrintWriter(w), new PrintWriter(new StringWriter())));
        assertTrue(w.toString().contains("is forbidden"), w.toString());
        StringWriter o2 = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"explore",
            scenarios().resolve("lab/02-read-write-race/hazard.json").toString()}, new PrintWriter(o2),
                new PrintWriter(new StringWriter())));
        assertTrue(o2.toString().trim().endsWith("executions=3\noutcomes=2\nforbidden=0\nexhaustive=true"),
                o2.toString());
        // Lesson 2's story says 0x22 and 0x33: explore prints the observed bytes in the same radix.
        assertTrue(o2.toString().contains("observed x_head = 0x22*64, x_end = 0x33*64"), o2.toString());
        assertEquals(2, DatsimCli.execute(new String[] {"run", file.toString(), "--choices", "1.x"},
                new PrintWriter(new StringWriter()), new PrintWriter(new StringWriter())));
    }

    @Test
    void aSearchStoppedByTimeOrMemorySaysItIsASampleNotTheWholeTree() {
        String hazard = scenarios().resolve("lab/02-read-write-race/hazard.json").toString();
        for (String[] bound : new String[][] {{"--max-outcomes", "1", "stopped=max_outcomes",
            "the bound of 1 distinct outcomes kept in memory"}, {"--max-time", "1ns", "stopped=max_time",
            "the wall-clock bound"}}) {
            StringWriter o = new StringWriter();
            assertEquals(0, DatsimCli.execute(new String[] {"explore", hazard, bound[0], bound[1]}, new PrintWriter(o),
                    new PrintWriter(new StringWriter())), o.toString());
            String out = o.toString();
            assertTrue(out.contains("stopped by " + bound[3]) && out.contains("a sample, not the whole tree"), out);
            assertTrue(out.contains("\n" + bound[2] + "\n") && out.trim().endsWith("exhaustive=false"), out);
            assertFalse(out.contains("executions, the whole tree"), out);
        }
        for (String[] bad : new String[][] {{"--max-time", "soon"}, {"--max-outcomes", "0"}}) {
            StringWriter e = new StringWriter();
            assertEquals(2, DatsimCli.execute(new String[] {"explore", hazard, bad[0], bad[1]},
                    new PrintWriter(new StringWriter()), new PrintWriter(e)));
            assertTrue(e.toString().startsWith("datsim: " + bad[0]), e.toString());
        }
    }
}
