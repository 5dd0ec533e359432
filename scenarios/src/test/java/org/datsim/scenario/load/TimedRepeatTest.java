package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A repeat block's time bound ({@code "for": "5s"}): an iteration begins only while less than the bound of simulated
 * time has passed since the block began, so the loop stops at the first iteration that would begin at or after the
 * bound; with a count too, whichever ends first; validated with located messages. (A timed loop of posts, its
 * determinism and where it stops: PerftestDurationTest.)
 */
class TimedRepeatTest {

    @TempDir
    Path dir;

    private RunResultSummary run(Path out, String... calls) throws Exception {
        return new ScenarioRunner(ScenarioLoader.parse("t.json", withCalls(calls))).run(out, List.of());
    }

    /** An iteration's body: a traced marker (a CPU read of one byte), then 2.5 us of computing. */
    private static final String BODY = "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": 1},"
            + " {\"call\": \"sleep\", \"time\": \"2500ns\"}";

    /** The simulated times of the markers (iterations begun) in the run's trace. */
    private static List<Long> markers(Path out) throws Exception {
        List<Long> t = new ArrayList<>();
        for (JsonNode e : ScenarioJson.readTrace(out.resolve("events.jsonl"))) {
            if ("mem_read".equals(e.path("kind").asText())) {
                t.add(e.path("t_ps").asLong());
            }
        }
        return t;
    }

    @Test
    void iterationsBeginOnlyBeforeTheBoundCountedFromTheBlocksStart() throws Exception {
        // 7 us of computing first: the bound counts from the block's start, not from the run's
        Path out = dir.resolve("a");
        RunResultSummary r = run(out, "{\"call\": \"sleep\", \"time\": \"7us\"}",
                "{\"for\": \"10us\", \"as\": \"i\", \"calls\": [" + BODY + "]}");
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        List<Long> t = markers(out);
        assertTrue(t.size() >= 3, t.toString());
        long period = t.get(1) - t.get(0);
        assertTrue(period >= 2_500_000L, t.toString());
        assertTrue(t.get(0) >= 7_000_000L, "the block began after the 7 us: " + t);
        for (int i = 1; i < t.size(); i++) {
            assertEquals(period, t.get(i) - t.get(i - 1), t.toString());
        }
        long begin = t.get(0); // the block's first iteration begins when the block does (its marker comes first)
        long last = t.get(t.size() - 1);
        assertTrue(last - begin < 10_000_000L, "the last iteration began before the bound: " + t);
        assertTrue(last + period - begin >= 10_000_000L, "the next one would have begun at or after it: " + t);
    }

    @Test
    void aCountAndABoundStopAtWhicheverComesFirst() throws Exception {
        Path a = dir.resolve("count");
        assertEquals(0, run(a, "{\"repeat\": 2, \"for\": \"1s\", \"calls\": [" + BODY + "]}").exitCode());
        assertEquals(2, markers(a).size());
        Path b = dir.resolve("bound");
        assertEquals(0, run(b, "{\"repeat\": 100, \"for\": \"5us\", \"calls\": [" + BODY + "]}").exitCode());
        assertEquals(2, markers(b).size());
        Path c = dir.resolve("zero");
        assertEquals(0, run(c, "{\"for\": \"0s\", \"calls\": [" + BODY + "]}").exitCode());
        assertEquals(0, markers(c).size());
    }

    @Test
    void theSameTimedLoopRunsTheSameTwice() throws Exception {
        String loop = "{\"for\": \"1ms\", \"as\": \"i\", \"calls\": [" + BODY + "]}";
        Path a = dir.resolve("one");
        Path b = dir.resolve("two");
        assertEquals(0, run(a, loop).exitCode());
        assertEquals(0, run(b, loop).exitCode());
        assertEquals(Files.readString(a.resolve("events.jsonl")), Files.readString(b.resolve("events.jsonl")));
        assertTrue(markers(a).size() > 300, "about 1 ms / 2.5 us iterations: " + markers(a).size());
    }

    @Test
    void aBadBoundIsOneMessageWithItsPath() {
        for (String bad : List.of("\"-5s\"", "\"soon\"", "5")) {
            List<String> p = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", withCalls(
                    "{\"for\": " + bad + ", \"calls\": [{\"call\": \"sleep\", \"time\": \"1us\"}]}"))).problems();
            assertEquals(1, p.size(), p.toString());
            assertTrue(p.get(0).startsWith("t.json: $.processes[0].calls[4].for: "), p.get(0));
        }
    }

    @Test
    void validateRefusesANegativeBoundWithExitTwo() throws Exception {
        Path f = dir.resolve("neg.json");
        Files.writeString(f, withCalls("{\"for\": \"-1ms\", \"calls\": [{\"call\": \"sleep\", \"time\": \"1us\"}]}"));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"validate", f.toString()}, new PrintWriter(o), new PrintWriter(e));
        assertEquals(2, code, o + "\n" + e);
        String all = o + "\n" + e;
        assertTrue(all.contains("neg.json") && all.contains("$.processes[0].calls[4].for"), all);
        assertTrue(all.contains("negative"), all);
    }
}
