package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim view}: writes the timeline, both plots and (for a run made with {@code --no-perfetto}) trace.json;
 * a directory without a trace or with a damaged one is a user's mistake: exit 2, one line naming the file, no stack
 * trace.
 */
class ViewCommandTest {

    @TempDir
    Path tmp;

    private static String[] datsim(int expected, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code;
        try (PrintWriter o = new PrintWriter(out); PrintWriter e = new PrintWriter(err)) {
            code = DatsimCli.execute(args, o, e);
        }
        String all = "exit " + code + "\n" + out + "\n" + err;
        assertEquals(expected, code, all);
        assertFalse(err.toString().contains("\tat "), all);
        return new String[] {out.toString(), err.toString()};
    }

    @Test
    void viewWritesTheTimelineThePlotsAndAMissingTraceJson() throws Exception {
        Path run = tmp.resolve("run");
        datsim(0, "run", ScenarioJson.writeThenSend().toString(), "--out", run.toString(), "--no-perfetto");
        assertFalse(Files.exists(run.resolve("trace.json")), "--no-perfetto writes no trace.json");
        String out = datsim(0, "view", run.toString())[0];
        for (String f : new String[] {"timeline.html", "latency-histogram.svg", "latency-cdf.svg", "trace.json"}) {
            assertTrue(out.contains(f), out);
            assertTrue(Files.size(run.resolve(f)) > 1000, f);
        }
        String html = Files.readString(run.resolve("timeline.html"));
        assertFalse(html.contains("http://") || html.contains("https://") || html.contains("src=\""),
                "the page loads nothing from anywhere");
        assertTrue(Files.readString(run.resolve("latency-cdf.svg")).contains("rdma_write"));
    }

    @Test
    void aDirectoryWithoutATraceIsRejectedWithOneLine() {
        String err = datsim(2, "view", tmp.resolve("nothing").toString())[1];
        assertTrue(err.startsWith("datsim: ") && err.contains("events.jsonl: no such file"), err);
    }

    @Test
    void aDamagedTraceNamesTheFileAndLine() throws Exception {
        Path run = tmp.resolve("bad");
        Files.createDirectories(run);
        Files.writeString(run.resolve("events.jsonl"), "{\"t_ps\":1,\"kind\":\"call\",\"host\":\"A\"}\nnot json\n");
        String err = datsim(2, "view", run.toString())[1];
        assertTrue(err.contains("events.jsonl:2:"), err);
        assertFalse(Files.exists(run.resolve("trace.json")), "no half-written trace.json is left behind");
    }
}
