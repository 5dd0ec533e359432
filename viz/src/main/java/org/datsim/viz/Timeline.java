package org.datsim.viz;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStream;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@code timeline.html} for a run: one self-contained page (its script, style and data inline; no network;
 * works from {@code file://}) that draws a lane per host and endpoint, each operation's post, start, transmission,
 * placement, completion and dequeue along simulated time, fence and credit waits as arrows to the operations waited
 * for, stale reads and errors in red, go-back-N retransmissions as magenta marks on their operations and the
 * connection manager's resends and timeouts as magenta marks on their endpoints' lanes, a Send that overtook an RDMA
 * Read red where its stale bytes landed, inline posts, and a lane per port with its bytes queued and PFC pauses; zoom
 * with the wheel, pan by dragging, hover for an event's fields; lanes collapse per host or switch and filter by name
 * (keys, buttons, and the address's hash keep the state). The default view spans the run's extent and its compact
 * lanes grow to fill the page when they are few.
 *
 * <p>The page draws on a canvas and culls what is off screen or narrower than a pixel, so a run of 100,000
 * operations stays interactive; its data is columnar JSON ({@link TimelineData}). After each drawing the page
 * publishes what it drew in {@code window.datsimTimeline} and, as JSON, in the element {@code #datsim-state}
 * (lanes, counts of bars, marks and arrows drawn, and any script errors), which tests read.
 */
public final class Timeline {

    /** The file name written into the run directory. */
    public static final String FILE = "timeline.html";

    private static final String DATA_MARK = "/*@DATA@*/";
    private static final String SCRIPT_MARK = "/*@SCRIPT@*/";

    private Timeline() {
    }

    /**
     * Writes {@code RUN_DIR/timeline.html} from {@code RUN_DIR/events.jsonl}; the title names the scenario from
     * {@code RUN_DIR/summary.json} when there is one, else the directory.
     *
     * @param runDir a directory written by {@code datsim run}
     * @return the path of the page written
     * @throws IOException if the trace cannot be read (the message names the file and line) or the page written
     */
    public static Path write(Path runDir) throws IOException {
        Path events = runDir.resolve("events.jsonl");
        if (!RunFiles.exists(events)) {
            throw new IOException(events + ": no such file (is " + runDir + " the output directory of `datsim run`?)");
        }
        TimelineData data = new TimelineData();
        TraceReader.read(events, data::accept);
        data.flows(FlowRecords.read(runDir));
        Path out = runDir.resolve(FILE);
        write(data, scenarioName(runDir), out);
        return out;
    }

    /** The file name of two runs side by side, written into the first run's directory. */
    public static final String SIDE_BY_SIDE = "side-by-side.html";

    /**
     * Writes {@code FIRST/side-by-side.html}: one page with the timelines of two runs on one time axis (a lesson's
     * hazard and its fix), the first run's lanes above the second's, each lane named {@code DIR: NAME} after its run
     * directory's name ({@code 1:} and {@code 2:} when the two are named alike).
     *
     * @param first a directory written by {@code datsim run}
     * @param second another
     * @return the path of the page written
     * @throws IOException if a trace cannot be read (the message names the file and line) or the page written
     */
    public static Path writeSideBySide(Path first, Path second) throws IOException {
        String[] labels = {dirName(first), dirName(second)};
        if (labels[0].equals(labels[1])) {
            labels = new String[] {"1", "2"};
        }
        TimelineData data = new TimelineData();
        Path[] dirs = {first, second};
        for (int k = 0; k < 2; k++) {
            Path events = dirs[k].resolve("events.jsonl");
            if (!RunFiles.exists(events)) {
                throw new IOException(events + ": no such file (is " + dirs[k]
                        + " the output directory of `datsim run`?)");
            }
            data.beginRun(labels[k]);
            TraceReader.read(events, data::accept);
            data.flows(FlowRecords.read(dirs[k]));
        }
        Path out = first.resolve(SIDE_BY_SIDE);
        write(data, labels[0] + " (" + scenarioName(first) + ") vs " + labels[1] + " (" + scenarioName(second) + ")",
                out);
        return out;
    }

    private static String dirName(Path dir) {
        Path name = dir.toAbsolutePath().normalize().getFileName();
        return name == null ? "run" : name.toString();
    }

    /**
     * Returns the scenario name recorded in a run directory's summary, or the directory's name.
     *
     * @param runDir the run directory
     * @return the name
     */
    static String scenarioName(Path runDir) {
        Path summary = runDir.resolve("summary.json");
        if (Files.isRegularFile(summary, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
            try {
                JsonNode n = RunFiles.readJson(summary, RunFiles.MAX_JSON_BYTES);
                if (n != null && n.path("scenario").isTextual()) {
                    return n.path("scenario").asText();
                }
            } catch (IOException e) {
                // a damaged summary only costs the title
            }
        }
        Path name = runDir.toAbsolutePath().normalize().getFileName();
        return name == null ? "run" : name.toString();
    }

    /**
     * Writes the page for gathered data.
     *
     * @param data the timeline data
     * @param scenario the title
     * @param out the file to write
     * @throws IOException if the page cannot be written
     */
    public static void write(TimelineData data, String scenario, Path out) throws IOException {
        String page = resource("timeline.html");
        String script = resource("timeline.js");
        int d = page.indexOf(DATA_MARK);
        int s = page.indexOf(SCRIPT_MARK);
        try (Writer w = new BufferedWriter(new java.io.OutputStreamWriter(RunFiles.create(out), StandardCharsets.UTF_8),
                1 << 16)) {
            w.write(page.substring(0, d).replace("@TITLE@", htmlEscape(scenario)));
            JsonFactory f = new JsonFactory();
            f.disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET);
            try (JsonGenerator g = f.createGenerator(w)) {
                g.setCharacterEscapes(new ScriptSafeEscapes());
                data.write(g, scenario);
            }
            w.write(page.substring(d + DATA_MARK.length(), s));
            w.write(script);
            w.write(page.substring(s + SCRIPT_MARK.length()));
        }
    }

    static String resource(String name) throws IOException {
        try (InputStream in = Timeline.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IOException("datsim is missing its resource " + name + " (a broken build)");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static String htmlEscape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Escapes what could end a script element or confuse the HTML parser: {@code < > &} and non-ASCII. */
    private static final class ScriptSafeEscapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private final int[] codes;

        ScriptSafeEscapes() {
            codes = CharacterEscapes.standardAsciiEscapesForJSON();
            codes['<'] = CharacterEscapes.ESCAPE_STANDARD;
            codes['>'] = CharacterEscapes.ESCAPE_STANDARD;
            codes['&'] = CharacterEscapes.ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return codes;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return null;
        }
    }
}
