package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Opens the timeline of a run in headless Chromium, as a person would: {@code datsim run} an example, {@code datsim
 * view} it, load {@code timeline.html} from {@code file://}, and read what the page says it drew (its
 * {@code #datsim-state} element, via {@code --dump-dom}): the lanes, the bars, the fence arrow, the error marks, and
 * no script error and no console message; pointing at the fenced Send ({@code #hover=op:3}) shows why it waited;
 * the retransmissions and the packets a switch dropped in a lossy run are marked on their operations, not as errors;
 * a connection request sent again after its loss is marked on its endpoint's lane ({@code #hover=mark:cm_retry});
 * a tooltip at the right edge of the window, or wider or taller than the window, stays inside it.
 * Saves a screenshot, with that tooltip, as {@code target/timeline-screenshot.png}.
 *
 * <p>Chromium is Debian's {@code chromium} package (CI's {@code .ci/run} installs it), or the browser named by the
 * environment variable {@code DATSIM_CHROMIUM} ({@code none}: do not use a browser). Without one the tests are
 * skipped with a message saying so.
 */
class TimelineBrowserTest {

    private static final String NO_BROWSER = "SKIPPED TimelineBrowserTest: no Chromium found (install Debian's"
            + " chromium package, or set DATSIM_CHROMIUM); timeline.html was NOT checked in a browser";

    private static Path browser;

    @TempDir
    Path tmp;

    @BeforeAll
    static void findBrowser() {
        browser = findChromium();
        if (browser == null) {
            System.err.println(NO_BROWSER);
        }
    }

    /** Returns the browser to use (DATSIM_CHROMIUM, else Debian's chromium or Chrome on the PATH), or null. */
    static Path findChromium() {
        String env = System.getenv("DATSIM_CHROMIUM");
        List<String> names = new ArrayList<>();
        if ("none".equals(env)) {
            names.clear();
        } else if (env != null && !env.isBlank()) {
            names.add(env);
        }
        if (!"none".equals(env)) {
            names.addAll(List.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"));
        }
        for (String n : names) {
            Path p = Paths.get(n);
            if (p.isAbsolute() && Files.isExecutable(p)) {
                return p;
            }
            for (String dir : System.getenv().getOrDefault("PATH", "").split(java.io.File.pathSeparator)) {
                Path c = Paths.get(dir, n);
                if (!dir.isEmpty() && Files.isExecutable(c)) {
                    return c;
                }
            }
        }
        return null;
    }

    @BeforeEach
    void needsABrowser() {
        Assumptions.assumeTrue(browser != null, NO_BROWSER);
    }

    private Path runAndView(String example) {
        Path out = tmp.resolve(example.replace(".json", ""));
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"run", ScenarioJson.examplesDir().resolve(example).toString(),
            "--out", out.toString()}, new PrintWriter(o), new PrintWriter(e));
        assertEquals(0, code, () -> o + "\n" + e);
        code = DatsimCli.execute(new String[] {"view", out.toString()}, new PrintWriter(o), new PrintWriter(e));
        assertEquals(0, code, () -> o + "\n" + e);
        assertTrue(o.toString().contains("timeline.html"), o::toString);
        return out.resolve("timeline.html");
    }

    /** Runs the browser on a page; returns {stdout, stderr}. */
    private String[] chromium(Path page, String... extra) throws IOException, InterruptedException {
        return chromium(page.toUri().toString(), extra);
    }

    private String[] chromium(String url, String... extra) throws IOException, InterruptedException {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--user-data-dir=" + profile, "--enable-logging=stderr", "--v=0",
                "--window-size=1400,700"));
        cmd.addAll(List.of(extra));
        cmd.add(url);
        Path out = tmp.resolve("chromium.out");
        Path err = tmp.resolve("chromium.err");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within 90 s: " + cmd);
        }
        try (Stream<Path> s = Files.walk(profile)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        return new String[] {Files.readString(out, StandardCharsets.UTF_8), Files.readString(err,
                StandardCharsets.UTF_8)};
    }

    /** Loads a page and returns the state it published, after checking the console stayed silent. */
    private JsonNode state(Path page) throws Exception {
        return state(page.toUri().toString());
    }

    private JsonNode state(String url, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of(extra));
        args.add("--dump-dom");
        String[] r = chromium(url, args.toArray(new String[0]));
        Matcher m = Pattern.compile("<pre id=\"datsim-state\"[^>]*>(.*?)</pre>", Pattern.DOTALL).matcher(r[0]);
        assertTrue(m.find(), () -> "the page published no #datsim-state; stderr:\n" + r[1]);
        String json = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", "\"")
                .replace("&amp;", "&");
        List<String> console = r[1].lines().filter(l -> l.contains(":CONSOLE") || l.contains("Uncaught"))
                .collect(Collectors.toList());
        assertEquals(List.of(), console, "the console has no messages");
        JsonNode s = ScenarioJson.readJson(json);
        assertTrue(s.path("ready").asBoolean(), json);
        assertEquals(0, s.path("errors").size(), () -> "script errors: " + s.path("errors"));
        return s;
    }

    private static List<String> texts(JsonNode array) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(n.asText()));
        return out;
    }

    @Test
    void theFencedSendShowsItsLanesBarsAndFenceArrowAndIsScreenshotted() throws Exception {
        Path page = runAndView("send-after-read-fence.json");
        JsonNode s = state(page);
        assertEquals(List.of("A", "A/ep", "B", "B/ep"), texts(s.path("lanes")));
        assertEquals(List.of("host", "ep", "host", "ep"), texts(s.path("laneKinds")));
        assertEquals(3, s.path("operations").asInt(), "the recv, the rdma_read and the send");
        assertEquals(3, s.path("drawn").path("bars").asInt(), "all three bars are drawn when the run fits");
        assertEquals(1, s.path("drawn").path("arrows").asInt(), "the send's fence wait on the read");
        assertEquals(2, s.path("drawn").path("spans").asInt(), "the read's response and the send's placement at B");
        assertEquals(0, s.path("staleReads").asInt());
        assertEquals(0, s.path("errorOperations").asInt());

        // pointing at the fenced send, as a mouse would, shows why it waited
        String hover = page.toUri() + "#hover=op:3";
        String text = state(hover).path("hover").asText();
        assertTrue(text.startsWith("op 3  send  64 B"), text);
        assertTrue(text.contains("held at 10.197 us by barrier fence: waited for op 2 (rdma_read)"), text);

        Path shot = Paths.get("target", "timeline-screenshot.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        Files.deleteIfExists(shot);
        chromium(hover, "--screenshot=" + shot, "--hide-scrollbars");
        assertTrue(Files.size(shot) > 5_000, "a screenshot with content: " + shot);
        System.err.println("timeline screenshot: " + shot);
    }

    /**
     * A workload run (WebSearch flows on a k=4 fat-tree): one lane per flow, headed by its source host's name; the
     * ports under their switches' names; the flows' bars have their post and completion; the view starts at or after
     * time 0; filtering by "port" shows port lanes; pointing at a flow names its destination and slowdown.
     */
    @Test
    void aWorkloadRunShowsALanePerFlowUnderHostsAndPortsUnderSwitches() throws Exception {
        Path out = tmp.resolve("ft");
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"run", ScenarioJson.examplesDir().getParent().getParent()
            .resolve("studies/scenarios/fct-fat-tree.json").toString(), "--out", out.toString()}, new PrintWriter(o), new PrintWriter(e));
        assertEquals(0, code, () -> o + "\n" + e);
        assertEquals(0, DatsimCli.execute(new String[] {"view", out.toString()}, new PrintWriter(o),
                new PrintWriter(e)), e::toString);
        List<String> fct = Files.readAllLines(out.resolve("fct.csv"));
        int flows = fct.size() - 1;
        assertTrue(flows >= 5, "the run has flows: " + flows);
        Path page = out.resolve("timeline.html");
        JsonNode s = state(page);
        List<String> lanes = texts(s.path("lanes"));
        List<String> kinds = texts(s.path("laneKinds"));
        for (int f = 0; f < flows; f++) {
            String src = fct.get(f + 1).split(",")[0];
            int lane = lanes.indexOf("flow" + f);
            assertTrue(lane > 0, "a lane for flow " + f + ": " + lanes);
            int head = lane;
            while (!kinds.get(head).equals("host")) {
                head--;
            }
            assertEquals(src, lanes.get(head), "flow " + f + " is under its source host's heading");
        }
        int ports = 0;
        for (int l = 0; l < lanes.size(); l++) {
            if (kinds.get(l).equals("port") && lanes.get(l).startsWith("edge_")) {
                ports++;
                int head = l;
                while (!kinds.get(head).equals("switch") && !kinds.get(head).equals("host")) {
                    head--;
                }
                assertEquals("switch", kinds.get(head), lanes.get(l));
                assertEquals(lanes.get(l).substring(0, lanes.get(l).indexOf("->")), lanes.get(head));
            }
        }
        assertTrue(ports > 0, "switch ports queued: " + lanes);
        assertEquals(flows, s.path("operations").asInt(), "one operation per flow");
        assertTrue(s.path("view").path("fromPs").asDouble() >= 0, "the axis starts at 0 or later: " + s.path("view"));

        JsonNode filtered = state(page.toUri() + "#filter=port");
        int shownPorts = 0;
        for (JsonNode l : filtered.path("visibleLanes")) {
            shownPorts += kinds.get(lanes.indexOf(l.asText())).equals("port") ? 1 : 0;
        }
        assertTrue(shownPorts > 0, "filtering by 'port' shows the port lanes: " + filtered.path("visibleLanes"));

        // each flow's details (shown when pointed at) name its destination, FCT and slowdown
        String html = Files.readString(page);
        String[] row = fct.get(1).split(",");
        assertTrue(html.contains("\"flow 0 to " + row[1] + ", FCT "), "flow 0's details");
        assertTrue(html.contains(", slowdown "), "with its slowdown");

        Path shot = Paths.get("target", "timeline-workload-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        chromium(page, "--screenshot=" + shot, "--hide-scrollbars");
        assertTrue(Files.size(shot) > 5_000, "a screenshot with content: " + shot);
        System.err.println("workload timeline screenshot: " + shot);
    }

    @Test
    void aBrokenConnectionShowsItsErrorsInRed() throws Exception {
        JsonNode s = state(runAndView("rmr-context-too-early.json"));
        assertEquals(4, s.path("errorOperations").asInt(), "the flushed and refused operations");
        assertTrue(s.path("badMarks").asInt() >= 2, "the two 'connection broken' errors are marked");
        assertEquals(4, s.path("drawn").path("bars").asInt());
    }

    @Test
    void retransmissionsAfterPacketLossAreMarkedOnTheirOperationsAndAreNoErrors() throws Exception {
        Path page = runAndView("pfc-headroom-loss.json");
        long traced = ScenarioJson.readTrace(page.resolveSibling("events.jsonl")).stream()
                .filter(e -> "retransmit".equals(e.path("kind").asText())).count();
        assertTrue(traced > 0, "the example loses packets and retransmits");
        JsonNode s = state(page);
        assertEquals(traced, s.path("retransmits").asLong(), "one mark per retransmit line");
        assertEquals(traced, s.path("drawn").path("retransmits").asLong(), "all are drawn when the run fits");
        assertEquals(0, s.path("errorOperations").asInt(), "every operation completed successfully");
        assertEquals(0, s.path("badMarks").asInt(), "a recovered loss is not drawn as an error");

        // op 4, A's second Write, began both of A's retransmissions: its details say when and why
        String text = state(page.toUri() + "#hover=op:4").path("hover").asText();
        assertTrue(text.startsWith("op 4  rdma_write  32768 B"), text);
        assertTrue(text.contains("retransmitted at 44.176 us: after a sequence-error NAK, attempt 1 (go-back-N"), text);
        assertTrue(text.contains("retransmitted at 74.425 us: after a local ACK timeout, attempt 2 (go-back-N"), text);
    }

    @Test
    void packetsASwitchDroppedAreMarkedOnTheirOperationsAndAreNoErrors() throws Exception {
        Path page = runAndView("pfc-headroom-loss.json");
        long traced = ScenarioJson.readTrace(page.resolveSibling("events.jsonl")).stream()
                .filter(e -> "drop".equals(e.path("kind").asText())).count();
        assertEquals(29, traced, "the example's switch drops 29 packets");
        JsonNode s = state(page);
        assertEquals(traced, s.path("drops").asLong(), "one mark per drop line");
        assertTrue(s.path("drawn").path("drops").asLong() > 0, "drawn on their operations' bars");
        assertEquals(0, s.path("badMarks").asInt(), "a recovered loss is not drawn as an error");

        // op 4, A's second Write, lost its second packet first: its details say when and where
        String text = state(page.toUri() + "#hover=op:4").path("hover").asText();
        assertTrue(text.startsWith("op 4  rdma_write  32768 B"), text);
        assertTrue(text.contains("dropped at 34.669 us: rdma_write packet 2 of 8 from A, by switch S arriving over"
                + " A->S (buffer full)"), text);
        assertTrue(text.indexOf("dropped at 34.669 us") < text.indexOf("retransmitted at 44.176 us"),
                "in time order: " + text);
    }

    @Test
    void aConnectionRequestResentAfterItsLossIsMarkedOnItsEndpointAndItsDropOnTheSender() throws Exception {
        Path page = runAndView("cm-req-loss.json");
        JsonNode s = state(page);
        assertEquals(1, s.path("cmRetries").asInt(), "the example's REQ is sent again once");
        assertEquals(1, s.path("drawn").path("cmRetries").asInt(), "drawn when the run fits");
        assertEquals(0, s.path("cmTimeouts").asInt(), "and answered then");
        assertEquals(1, s.path("drops").asInt(), "the REQ, the one packet dropped");
        assertEquals(0, s.path("badMarks").asInt(), "a recovered loss is not drawn as an error");

        String retry = state(page.toUri() + "#hover=mark:cm_retry").path("hover").asText();
        assertTrue(retry.startsWith("CM resend at 4.295 s: REQ to B (connection 2) sent again, attempt 1\nno REP or"
                + " REJ within cm.response_timeout\nA/ctl's connection manager"), retry);
        String drop = state(page.toUri() + "#hover=mark:drop").path("hover").asText();
        assertTrue(drop.startsWith("drop at 21.063 us: CM REQ of connection 2 to B from A, by switch S arriving over"
                + " A->S (buffer full)\nA"), drop);
    }

    /**
     * Checks that the tooltip the page shows lies inside the viewport, its text inside its box (long lines wrapped,
     * none cut at the side), and returns where it is (the page's {@code state.tip}).
     */
    private static JsonNode tipInsideTheViewport(JsonNode s) {
        JsonNode tip = s.path("tip");
        assertTrue(tip.isObject(), () -> "a tooltip is shown: " + s);
        double w = tip.path("viewport").path("width").asDouble();
        double h = tip.path("viewport").path("height").asDouble();
        assertTrue(w > 0 && h > 0, tip::toString);
        assertTrue(tip.path("left").asDouble() >= 0, () -> "not past the left edge: " + tip);
        assertTrue(tip.path("top").asDouble() >= 0, () -> "not past the top edge: " + tip);
        assertTrue(tip.path("right").asDouble() <= w, () -> "not past the right edge: " + tip);
        assertTrue(tip.path("bottom").asDouble() <= h, () -> "not past the bottom edge: " + tip);
        assertEquals(0, tip.path("overflow").path("x").asInt(), () -> "no text beyond its right side: " + tip);
        return tip;
    }

    @Test
    void aTooltipNearTheRightEdgeStaysInsideTheWindow() throws Exception {
        // the CM resend is the run's last happening: it is drawn at the right edge, with no room on its right
        Path page = runAndView("cm-req-loss.json");
        JsonNode s = state(page.toUri() + "#hover=mark:cm_retry");
        assertTrue(s.path("hover").asText().startsWith("CM resend at 4.295 s"), s::toString);
        JsonNode tip = tipInsideTheViewport(s);
        double px = tip.path("pointer").path("x").asDouble();
        double py = tip.path("pointer").path("y").asDouble();
        double width = tip.path("right").asDouble() - tip.path("left").asDouble();
        assertTrue(px > tip.path("viewport").path("width").asDouble() - 40, () -> "the mark is near the right edge: "
                + tip);
        assertTrue(px + width > tip.path("viewport").path("width").asDouble(), () -> "too wide for its right: " + tip);
        assertTrue(tip.path("right").asDouble() <= px, () -> "shown to the left of the pointer: " + tip);
        assertTrue(tip.path("top").asDouble() > py, () -> "and below it, where there is room: " + tip);

        // op 4's details (20 lines, some of 99 characters) in a window narrower than they are: the op's bar runs
        // past the right edge of the view and the pointer sits on that edge; the tooltip wraps its long lines
        Path lossy = runAndView("pfc-headroom-loss.json");
        String atEdge = lossy.toUri() + "#from=0&to=40000000&hover=op:4";
        JsonNode narrow = state(atEdge, "--window-size=600,700");
        assertTrue(narrow.path("hover").asText().startsWith("op 4  rdma_write  32768 B"), narrow::toString);
        JsonNode t2 = tipInsideTheViewport(narrow);
        assertEquals(600, t2.path("viewport").path("width").asInt(), t2::toString);
        assertTrue(t2.path("pointer").path("x").asDouble() >= 598, () -> "the pointer is on the right edge: " + t2);

        // and in a window lower than the tooltip is tall, it is not pushed past the bottom edge
        JsonNode low = state(atEdge, "--window-size=1400,450");
        assertTrue(low.path("hover").asText().startsWith("op 4  rdma_write  32768 B"), low::toString);
        JsonNode t3 = tipInsideTheViewport(low);
        assertTrue(t3.path("pointer").path("x").asDouble() >= t3.path("viewport").path("width").asDouble() - 2,
                t3::toString);
    }

    @Test
    void switchAndHostPortsHaveLanesWithTheirQueuesAndPfcPauses() throws Exception {
        Path page = runAndView("fat-tree-incast.json");
        List<JsonNode> trace = ScenarioJson.readTrace(page.resolveSibling("events.jsonl"));
        long pauses = trace.stream().filter(e -> "pfc".equals(e.path("kind").asText())
                && e.path("paused").asInt() == 1).count();
        assertTrue(pauses > 0, "the incast pauses ports");
        JsonNode s = state(page);
        List<String> ports = texts(s.path("portLanes"));
        assertTrue(ports.contains("agg_0_0->edge_0_0") && ports.contains("h1->edge_0_0"), ports::toString);
        assertEquals(pauses, s.path("pauses").asLong(), "one pause per pfc line that paused");
        // the lanes of the edge switch above h0 and of the ports into it, by the filter
        JsonNode edge = state(page.toUri() + "#filter=edge_0_0");
        assertTrue(texts(edge.path("visibleLanes")).containsAll(List.of("agg_0_0->edge_0_0", "agg_0_1->edge_0_0",
                "edge_0_0->h0", "h1->edge_0_0")), edge.path("visibleLanes")::toString);
        assertTrue(edge.path("drawn").path("pauseBands").asInt() > 0, edge::toString);
        assertTrue(edge.path("drawn").path("queueSteps").asInt() > 0, edge::toString);
        List<String> names = texts(s.path("lanes"));
        List<String> kinds = texts(s.path("laneKinds"));
        for (int i = 0; i < names.size(); i++) {
            String n = names.get(i);
            if ((n.startsWith("agg") || n.startsWith("core") || n.startsWith("edge")) && !n.contains("->")) {
                assertEquals("switch", kinds.get(i), n + " is headed as a switch, not as a host");
            }
        }

        // pointing at the edge switch's port to h0 while it queues
        Path lossy = runAndView("pfc-headroom-loss.json");
        JsonNode l = state(lossy);
        assertEquals(List.of("A->S", "C->S", "S->B"), texts(l.path("portLanes")));
        assertEquals(6, l.path("pauses").asInt(), "A->S and C->S paused three times each");
    }

    @Test
    void theDefaultViewFitsTheRunAndFillsThePageAndManyLanesStayCompact() throws Exception {
        JsonNode s = state(runAndView("send-after-read-fence.json"));
        double from = s.path("extent").path("fromPs").asDouble();
        double to = s.path("extent").path("toPs").asDouble();
        assertTrue(from > 0, "the run's extent starts at its first operation or mark, not at 0: " + from);
        double span = to - from;
        assertTrue(s.path("view").path("fromPs").asDouble() >= from - 0.05 * span
                && s.path("view").path("toPs").asDouble() <= to + 0.05 * span, s.path("view")::toString);
        double filled = s.path("filled").asDouble();
        assertTrue(filled >= 0.8 && filled <= 1.0, "four lanes fill most of the page: " + filled);

        JsonNode many = state(runAndView("many-clients.json"));
        assertEquals(12, many.path("rowHeight").asInt(), "64 clients: compact rows");
        assertTrue(many.path("filled").asDouble() > 1, "and the lanes scroll");
    }

    @Test
    void lanesCollapseAndFilterFromTheKeyboardAndTheAddress() throws Exception {
        Path page = runAndView("many-clients.json");
        JsonNode all = state(page);
        int lanes = all.path("lanes").size();
        assertEquals(lanes, all.path("visibleLanes").size(), "everything is shown at first");

        JsonNode c = state(page.toUri() + "#keys=c");
        List<String> visible = texts(c.path("visibleLanes"));
        assertTrue(visible.size() < lanes / 2, "collapsed to one lane per host: " + visible.size());
        assertTrue(visible.stream().noneMatch(n -> n.contains("/ep")), visible::toString);
        assertTrue(c.path("hash").asText().contains("collapsed=all"), "kept in the address: " + c.path("hash"));
        JsonNode again = state(page.toUri() + "#collapsed=all");
        assertEquals(visible, texts(again.path("visibleLanes")), "the address opens the same view");

        JsonNode f = state(page.toUri() + "#filter=h17");
        assertEquals(List.of("h17", "h17/ep"), texts(f.path("visibleLanes")));
        assertEquals("h17", f.path("filter").asText());
        JsonNode h0 = state(page.toUri() + "#collapsed=h0");
        assertEquals(List.of("h0"), texts(h0.path("collapsed")));
        assertEquals(lanes - 64, h0.path("visibleLanes").size(), "h0's 64 endpoints hidden");
    }

    @Test
    void theSendThatOvertookTheReadIsMarkedWhereItsStaleBytesLandedAndAnInlinePostOnItsBar() throws Exception {
        Path page = runAndView("send-after-read-no-fence.json");
        JsonNode s = state(page);
        assertEquals(1, s.path("staleSends").asInt());
        assertEquals(2, s.path("drawn").path("stalePayloads").asInt(), "at B where it landed and on A's lane");
        String text = state(page.toUri() + "#hover=op:3").path("hover").asText();
        assertTrue(text.contains("stale payload placed on B/ep at 12.997 us: op 3 (send) carried bytes read before"
                + " rdma_read op 2 landed"), text);

        // a post line with "inline": true (an inline Send) is marked on its bar
        Path events = page.resolveSibling("events.jsonl");
        Files.writeString(events, Files.readString(events).replace("\"op\":3,\"cookie\":2,\"opcode\":\"send\","
                + "\"bytes\":64}", "\"op\":3,\"cookie\":2,\"opcode\":\"send\",\"bytes\":64,\"inline\":true}"));
        StringWriter o = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"view", page.getParent().toString()}, new PrintWriter(o),
                new PrintWriter(new StringWriter())));
        JsonNode i = state(page);
        assertEquals(1, i.path("inlinePosts").asInt());
        assertEquals(1, i.path("drawn").path("inline").asInt());
        assertTrue(state(page.toUri() + "#hover=op:3").path("hover").asText()
                .contains("inline: payload copied by the CPU at the post"));
    }

    @Test
    void hazardAndFixSideBySideOnOneTimeAxis() throws Exception {
        Path hazard = runAndView("send-after-read-no-fence.json").getParent();
        Path fix = runAndView("send-after-read-fence.json").getParent();
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"view", hazard.toString(), fix.toString()},
                new PrintWriter(o), new PrintWriter(e)), () -> o + "\n" + e);
        Path page = hazard.resolve("side-by-side.html");
        assertTrue(o.toString().contains(page.toString()), o::toString);
        JsonNode s = state(page);
        assertEquals(List.of("send-after-read-no-fence: A", "send-after-read-no-fence: A/ep",
                "send-after-read-no-fence: B", "send-after-read-no-fence: B/ep", "send-after-read-fence: A",
                "send-after-read-fence: A/ep", "send-after-read-fence: B", "send-after-read-fence: B/ep"),
                texts(s.path("lanes")));
        assertEquals(6, s.path("operations").asInt());
        assertEquals(1, s.path("staleSends").asInt(), "the hazard's Send only");
        assertEquals(1, s.path("drawn").path("arrows").asInt(), "the fix's fence arrow");
        Path shot = Paths.get("target", "side-by-side-screenshot.png").toAbsolutePath();
        Files.deleteIfExists(shot);
        chromium(page, "--screenshot=" + shot, "--hide-scrollbars");
        assertTrue(Files.size(shot) > 5_000, shot::toString);
    }

    @Test
    void aStaleReadIsMarked() throws Exception {
        JsonNode s = state(runAndView("stale-read-cpu-noncoherent.json"));
        assertEquals(1, s.path("staleReads").asInt());
        assertTrue(s.path("drawn").path("marks").asInt() > 0);
    }
}
