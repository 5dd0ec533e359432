package org.datsim.scenario.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.datsim.core.time.SimTime;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.datsim.viz.TraceReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every lesson of the fencing lab: its hazard scenario shows the hazard's trace sign and its fix does not, the fix
 * shows its own sign (the fence_wait, credit_wait, sync call ... that makes it right), and both runs finish with
 * every expectation holding (the scenarios' own expectations check return codes, statuses and the bytes read).
 */
class LessonsTest {

    static Stream<Lesson> lessons() throws LabException {
        return Lessons.load(Lessons.defaultDir()).stream();
    }

    @Test
    void theLabHasTheTenLessonsOfIssue5TheUnsignalledOneAndTheInlineOneInOrder() throws LabException {
        List<String> names = lessons().map(Lesson::name).collect(Collectors.toList());
        assertEquals(List.of("01-send-after-read", "02-read-write-race", "03-rmr-bind-too-early",
                "04-rmr-rebind-old-context", "05-sync-rdma-write", "06-sync-rdma-read", "07-completion-order",
                "08-suppressed-slots", "09-flush-on-disconnect", "10-read-credits", "11-unsignalled-completions",
                "12-inline-send-fence"), names);
    }

    @Test
    void rule17_lessonTwelveShowsTheFenceHoldingAnInlineSendsStartButNotItsCopy(@TempDir Path out) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"lab", "12", "--out", out.toString()}, new PrintWriter(o),
                new PrintWriter(e));
        assertEquals(0, code, e::toString);
        String text = o.toString();
        assertTrue(text.contains("op 3 (send, BARRIER_FENCE) was posted inline: the provider copied its bytes into"
                + " the work request now (IBV_SEND_INLINE"), text);
        assertTrue(text.contains("op 3 (send, BARRIER_FENCE) was held by the barrier fence"), text);
        assertTrue(text.contains("(!) at 15.684 us op 3 (send, BARRIER_FENCE) carries the payload captured at post,"
                + " before the fence released: it went inline, so the fence held only its start, not the inline"
                + " copy of its bytes"), text);
        assertTrue(text.contains("The hazard, in the trace: at 10.267 us post on A: op 3 (send) on A/ep1."), text);
        assertTrue(text.contains("The hazard's sign does not occur in this run."), text);
        // explain on the hazard run names the inline copy too, and its legend says what the star marks
        StringWriter x = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"explain", out.resolve("hazard").toString()},
                new PrintWriter(x), new PrintWriter(new StringWriter())));
        assertTrue(x.toString().contains("payload captured at post, before the fence released"), x::toString);
        assertTrue(x.toString().contains("inline payloads copied at the post before a fence released"),
                x::toString);
        StringWriter y = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"explain", out.resolve("fix").toString()},
                new PrintWriter(y), new PrintWriter(new StringWriter())));
        assertFalse(y.toString().contains("before the fence released"), y::toString);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("lessons")
    void theHazardHappensInTheFirstScenarioAndNotInTheSecond(Lesson lesson, @TempDir Path out) throws Exception {
        LessonRun run = new LessonRun(lesson);
        LessonRun.Outcome hazard = run.runHazard(out);
        LessonRun.Outcome fix = run.runFix(out);
        assertEquals(0, hazard.exitCode(), () -> String.join("\n", hazard.summary()));
        assertEquals(0, fix.exitCode(), () -> String.join("\n", fix.summary()));
        assertNotNull(hazard.hazardSeen(), () -> lesson.name() + ": no " + lesson.hazardSign() + " in the hazard");
        assertNull(fix.hazardSeen(), () -> lesson.name() + ": " + lesson.hazardSign() + " in the fix");
        if (lesson.fixSign() != null) {
            assertNotNull(fix.fixSeen(), () -> lesson.name() + ": no " + lesson.fixSign() + " in the fix");
        }
        assertTrue(run.problems(hazard, fix).isEmpty(), () -> String.join("\n", run.problems(hazard, fix)));
        assertTrue(Files.isRegularFile(out.resolve("hazard/events.jsonl")));
        assertTrue(Files.isRegularFile(out.resolve("fix/events.jsonl")));
    }

    @Test
    void rule17_lessonOneTellsFromTheTraceThatTheFencedSendWasHeldUntilTheReadFinished(@TempDir Path out) {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"lab", "1", "--out", out.toString()}, new PrintWriter(o),
                new PrintWriter(e));
        assertEquals(0, code, e::toString);
        String text = o.toString();
        assertTrue(text.contains("op 3 (send) started while op 2 (rdma_read), posted before it on A/ep1, had not"
                + " finished (it finished at 14.94 us)"), text);
        assertTrue(text.contains("at 10.197 us op 3 (send, BARRIER_FENCE) was held by the barrier fence"), text);
        assertTrue(text.contains("until op 2 (rdma_read) had finished, at 14.94 us (held 4.743 us)"), text);
        assertTrue(text.contains("rules 17, 19 and 21"), text);
        assertTrue(text.contains("The hazard's sign does not occur in this run."), text);
    }

    /** Runs a lesson scenario with another seed; returns whether the sign showed, and when B's Read response began. */
    private static long[] runWithSeed(Path file, long seed, TraceSign sign, Path dir) throws Exception {
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(file).withSeed(seed)).run(dir, List.of());
        assertEquals(0, r.exitCode(), () -> file + " seed " + seed + ":\n" + String.join("\n", r.lines()));
        long[] seenAndResponse = {0, -1};
        TraceReader.read(dir.resolve("events.jsonl"), e -> {
            if (sign.matches(e)) {
                seenAndResponse[0] = 1;
            }
            if (seenAndResponse[1] < 0 && "tx_start".equals(e.kind()) && "B".equals(e.host())
                    && "read_response".equals(e.attrs().get("packet"))) {
                seenAndResponse[1] = e.tPs();
            }
        });
        return seenAndResponse;
    }

    @Test
    void lessonTwosRaceShowsWhateverTheSeedDrawsForTheResponder(@TempDir Path out) throws Exception {
        Lesson lesson = Lessons.load(Lessons.defaultDir()).get(1);
        assertEquals("02-read-write-race", lesson.name());
        Set<Long> responseStarts = new TreeSet<>();
        for (long seed = 1; seed <= 8; seed++) {
            long[] hazard = runWithSeed(lesson.hazardScenario(), seed, lesson.hazardSign(), out.resolve("h" + seed));
            assertEquals(1, hazard[0], "seed " + seed + ": no " + lesson.hazardSign() + " in the hazard");
            long[] fix = runWithSeed(lesson.fixScenario(), seed, lesson.hazardSign(), out.resolve("f" + seed));
            assertEquals(0, fix[0], "seed " + seed + ": " + lesson.hazardSign() + " in the fix");
            responseStarts.add(hazard[1]);
        }
        // the seeds did draw different read jitters: B's Read response began at different times
        assertTrue(responseStarts.size() >= 6, responseStarts::toString);
    }

    /** When process a took op {@code op}'s completion minus when it was queued, from the run's trace. */
    private static long dequeueDelay(LessonRun.Outcome o, long op) {
        for (JsonNode e : ScenarioJson.readTrace(o.dir().resolve("events.jsonl"))) {
            if ("dequeue".equals(e.get("kind").asText()) && e.path("op").asLong(-1) == op) {
                return e.get("t_ps").asLong() - e.get("queued_ps").asLong();
            }
        }
        throw new AssertionError("op " + op + " was never dequeued in " + o.dir());
    }

    @Test
    void lessonElevenShowsUnsignalledCompletionsQueuedButWakingNoWaiter(@TempDir Path out) throws Exception {
        Lesson lesson = Lessons.load(Lessons.defaultDir()).get(10);
        assertEquals("11-unsignalled-completions", lesson.name());
        LessonRun run = new LessonRun(lesson);
        LessonRun.Outcome hazard = run.runHazard(out);
        LessonRun.Outcome fix = run.runFix(out);
        // The scenarios really post DAT_COMPLETION_UNSIGNALLED_FLAG on an endpoint that allows it (rule 12).
        List<String> steps = LessonRun.steps(hazard.explanation());
        assertEquals(4, steps.stream().filter(l -> l.contains("(rdma_write, UNSIGNALLED) completed DAT_DTO_SUCCESS")
                && l.contains("an unsignalled one is no notification: it wakes no dat_evd_wait waiter")).count(),
                () -> String.join("\n", steps));
        assertTrue(steps.stream().anyMatch(l -> l.startsWith("(!) at 6.387 us process a's dat_evd_wait on A/evd4"
                + " returned DAT_INVALID_STATE (DAT_INVALID_STATE_EVD_CONFIG_THRESHOLD)") && l.contains("rules 6 and 15")),
                () -> String.join("\n", steps));
        // Rule 13 in time: unsignalled, the first completion lies on the EVD until the wait's 20 us timeout ends it;
        // with the last Write signalled, that completion wakes the waiter as soon as it is queued.
        assertTrue(dequeueDelay(hazard, 1) > 19 * SimTime.US, () -> "hazard: " + dequeueDelay(hazard, 1));
        assertTrue(dequeueDelay(fix, 1) < SimTime.US, () -> "fix: " + dequeueDelay(fix, 1));
        // ... and the lab tells both from the traces.
        assertTrue(steps.contains("(!) at 26.427 us op 1 (rdma_write, UNSIGNALLED) was dequeued by process a 19.167 us"
                + " after it was queued, once its dat_evd_wait on A/evd4 had timed out at 26.387 us (rule 5): an"
                + " unsignalled completion wakes no waiter (rule 13), and no signalled completion of A/ep1 came in"
                + " between"), () -> String.join("\n", steps));
        List<String> fixSteps = LessonRun.steps(fix.explanation());
        assertTrue(fixSteps.contains("at 7.439 us op 1 (rdma_write, UNSIGNALLED) was taken by process a's"
                + " dat_evd_wait 180 ns after it was queued, when op 4 (rdma_write)'s signalled completion woke the"
                + " waiter, which finds the earlier unsignalled events too (rule 13)"), () -> String.join("\n", fixSteps));
        assertEquals(3, fixSteps.stream()
                .filter(l -> l.contains("(rdma_write, UNSIGNALLED) completed DAT_DTO_SUCCESS")).count(),
                "three unsignalled Writes in the fix, the fourth signalled");
    }

    @Test
    void theListNamesEveryLessonAndAnUnknownNumberIsAnInputError() {
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"lab"}, new PrintWriter(o), new PrintWriter(e)));
        assertTrue(o.toString().contains(" 10  RDMA Read credits"), o::toString);
        StringWriter e2 = new StringWriter();
        assertEquals(2, DatsimCli.execute(new String[] {"lab", "99"}, new PrintWriter(new StringWriter()),
                new PrintWriter(e2)));
        assertTrue(e2.toString().contains("no lesson 99"), e2::toString);
    }

    @Test
    void aBrokenLessonFileIsReportedWithItsFileAndJsonPath(@TempDir Path lab) throws Exception {
        Path d = Files.createDirectories(lab.resolve("01-bad"));
        Files.writeString(d.resolve("lesson.json"), "{\"title\": \"t\", \"rules\": [99], \"summary\": \"s\","
                + " \"hazard\": {\"explains\": \"x\"}, \"fix\": {\"explains\": \"y\"}, \"extra\": 1}");
        LabException ex = assertThrows(LabException.class, () -> Lessons.load(lab));
        String all = String.join("\n", ex.problems());
        assertTrue(all.contains("lesson.json: $.rules[0]: expected a DAT rule number from 1 to 51"), all);
        assertTrue(all.contains("$.hazard.sign: expected an object of trace fields"), all);
        assertTrue(all.contains("$.extra: unknown field"), all);
        assertTrue(all.contains("hazard.json: no such file"), all);
        StringWriter e = new StringWriter();
        assertEquals(2, DatsimCli.execute(new String[] {"lab", "--lessons", lab.toString()},
                new PrintWriter(new StringWriter()), new PrintWriter(e)));
        assertFalse(e.toString().contains("Exception"), e::toString);
    }
}
