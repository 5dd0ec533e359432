package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim fct A B} overlays two runs in one figure, and the figure is checked where people look at it: in
 * headless Chromium, which lays the SVG's text out with its own fonts; the page measures every text element
 * ({@code getBBox}) and reports the pairs that overlap (none may). Saves a screenshot as
 * {@code target/fct-overlay-screenshot.png}. Without a browser (see {@link TimelineBrowserTest}) the browser part is
 * skipped with a message.
 */
class FctPlotBrowserTest {

    @TempDir
    Path tmp;

    /** A run directory with WebSearch-like flows and a summary.json naming its algorithm and load. */
    private Path run(String name, String cc, double load, double spread) throws Exception {
        Path d = tmp.resolve(name);
        Files.createDirectories(d);
        StringBuilder csv = new StringBuilder("src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,standalone_fct_ps,"
                + "slowdown,slowdown_vs_standalone\n");
        Random r = new Random(name.hashCode());
        for (int i = 0; i < 500; i++) {
            long size = (long) (1000 * Math.pow(30_000, r.nextDouble()));
            long ideal = 2_000_000 + size * 90;
            long fct = (long) (ideal * (1 + spread * r.nextDouble() * r.nextDouble() * 6));
            long standalone = ideal * 9 / 10;
            csv.append("h").append(i % 16).append(",h").append((i + 1) % 16).append(',').append(size).append(',')
                    .append(i * 1000L).append(',').append(fct).append(',').append(ideal).append(',')
                    .append(standalone).append(',').append(String.format(java.util.Locale.ROOT, "%.6f",
                            fct / (double) ideal)).append(',').append(String.format(java.util.Locale.ROOT, "%.6f",
                            fct / (double) standalone)).append('\n');
        }
        Files.writeString(d.resolve("fct.csv"), csv);
        Files.writeString(d.resolve("summary.json"), "{\"params\": {\"cc.algorithm\": \"" + cc + "\"}, \"flows\":"
                + " {\"workload\": {\"distribution\": \"WebSearch\", \"load\": " + load + "}}}\n");
        return d;
    }

    @Test
    void twoRunsShareOneFigureWhoseLabelsDoNotOverlapInChromium() throws Exception {
        Path a = run("a", "dcqcn", 0.3, 1.0);
        Path b = run("b", "hpcc", 0.3, 0.3);
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        int code = DatsimCli.execute(new String[] {"fct", a.toString(), b.toString()}, new PrintWriter(o),
                new PrintWriter(e));
        assertEquals(0, code, () -> o + "\n" + e);
        String out = o.toString();
        assertTrue(out.startsWith("== dcqcn 30%: " + a + " ==\nslowdown = FCT / ideal FCT"), out);
        assertTrue(out.contains("== hpcc 30%: " + b + " ==\n"), out);
        Path svg = a.resolve("fct-overlay.svg");
        assertTrue(out.endsWith("plot: " + svg + "\n") || out.endsWith("plot: " + svg + System.lineSeparator()), out);
        String text = Files.readString(svg);
        for (String s : List.of("dcqcn 30%  p50", "dcqcn 30%  p99", "hpcc 30%  p95", ">10K<", ">100K<", ">1M<")) {
            assertTrue(text.contains(s), s);
        }

        // --label names the runs; one label for two runs is refused
        code = DatsimCli.execute(new String[] {"fct", a.toString(), b.toString(), "--label", "DCQCN", "--label",
            "HPCC", "--plot", tmp.resolve("x.svg").toString()}, new PrintWriter(new StringWriter()),
                new PrintWriter(e));
        assertEquals(0, code, e::toString);
        assertTrue(Files.readString(tmp.resolve("x.svg")).contains("HPCC  p99"));
        StringWriter e2 = new StringWriter();
        code = DatsimCli.execute(new String[] {"fct", a.toString(), b.toString(), "--label", "DCQCN"},
                new PrintWriter(new StringWriter()), new PrintWriter(e2));
        assertEquals(DatsimCli.EXIT_INVALID, code);
        assertTrue(e2.toString().contains("--label given 1 time(s) for 2 RUN_DIR(s)"), e2.toString());

        Path browser = TimelineBrowserTest.findChromium();
        Assumptions.assumeTrue(browser != null, "SKIPPED: no Chromium found; fct-overlay.svg was NOT checked in a"
                + " browser");
        assertNoOverlap(browser, svg);

        Path shot = Paths.get("target", "fct-overlay-screenshot.png").toAbsolutePath();
        Files.createDirectories(shot.getParent());
        Files.deleteIfExists(shot);
        chromium(browser, svg, "--screenshot=" + shot, "--hide-scrollbars");
        assertTrue(Files.size(shot) > 5_000, "a screenshot with content: " + shot);
        System.err.println("fct overlay screenshot: " + shot);
    }

    /**
     * Loads an SVG inline in a page in Chromium, measures every text element ({@code getBoundingClientRect}) and
     * fails if any two overlap or if there is too little text to have checked anything.
     */
    private void assertNoOverlap(Path browser, Path svgFile) throws Exception {
        String text = Files.readString(svgFile);
        Path page = tmp.resolve("check-" + svgFile.getFileName() + ".html");
        Files.writeString(page, "<!doctype html><html><body style=\"margin:0\">" + text.substring(text.indexOf("<svg"))
                + "<pre id=\"datsim-state\"></pre><script>\n"
                + "const ts = Array.from(document.querySelectorAll('svg text')).filter(t => t.textContent.trim());\n"
                + "const bs = ts.map(t => { const r = t.getBoundingClientRect(); return {t: t.textContent, l: r.left,"
                + " r: r.right, top: r.top, b: r.bottom}; });\n"
                + "const bad = [];\n"
                + "for (let i = 0; i < bs.length; i++) for (let j = i + 1; j < bs.length; j++) {\n"
                + "  const p = bs[i], q = bs[j];\n"
                + "  if (p.l < q.r && q.l < p.r && p.top < q.b && q.top < p.b) bad.push(p.t + ' / ' + q.t); }\n"
                + "document.getElementById('datsim-state').textContent = JSON.stringify({texts: bs.length,"
                + " overlaps: bad});\n</script></body></html>\n", StandardCharsets.UTF_8);
        String dom = chromium(browser, page, "--dump-dom");
        Matcher m = Pattern.compile("<pre id=\"datsim-state\"[^>]*>(.*?)</pre>", Pattern.DOTALL).matcher(dom);
        assertTrue(m.find(), dom.length() > 500 ? dom.substring(0, 500) : dom);
        JsonNode s = ScenarioJson.readJson(m.group(1).replace("&quot;", "\"").replace("&amp;", "&")
                .replace("&lt;", "<").replace("&gt;", ">"));
        assertTrue(s.path("texts").asInt() > 12, svgFile + ": " + s);
        assertEquals("[]", s.path("overlaps").toString(), svgFile + ": text elements that overlap in Chromium");
    }

    /** The other plots: a run's latency histogram and CDF, and a sweep's line plot on a logarithmic size axis. */
    @Test
    void latencyAndSweepPlotsHaveNoOverlappingLabelsInChromium() throws Exception {
        Path browser = TimelineBrowserTest.findChromium();
        Assumptions.assumeTrue(browser != null, "SKIPPED: no Chromium found; the plots were NOT checked in a browser");
        Path run = tmp.resolve("many");
        StringWriter o = new StringWriter();
        StringWriter e = new StringWriter();
        assertEquals(0, DatsimCli.execute(new String[] {"run", ScenarioJson.examplesDir().resolve("many-clients.json")
            .toString(), "--out", run.toString(), "--no-perfetto"}, new PrintWriter(o), new PrintWriter(e)), e::toString);
        assertEquals(0, DatsimCli.execute(new String[] {"view", run.toString()}, new PrintWriter(o),
                new PrintWriter(e)), e::toString);
        assertNoOverlap(browser, run.resolve("latency-histogram.svg"));
        assertNoOverlap(browser, run.resolve("latency-cdf.svg"));
        // studies/latency-vs-size.json's axis: 64 B to 1 MiB, times 4, one line per preset
        org.datsim.viz.LinePlot p = new org.datsim.viz.LinePlot("latency-vs-size: rdma_write.p50_us", "size (B)",
                "rdma_write.p50_us", true);
        String[] presets = {"ib-edr", "ib-hdr", "ib-ndr", "roce-100g"};
        for (int k = 0; k < presets.length; k++) {
            for (long size = 64; size <= 1 << 20; size *= 4) {
                p.add("preset=" + presets[k], Long.toString(size), (double) size, 1 + k * 0.1 + size / 1e5, 0);
            }
        }
        Path sweep = tmp.resolve("sweep.svg");
        p.writeSvg(sweep);
        assertNoOverlap(browser, sweep);
    }

    private String chromium(Path browser, Path page, String... extra) throws Exception {
        Path profile = Files.createTempDirectory(tmp, "chromium-profile");
        List<String> cmd = new ArrayList<>(List.of(browser.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--user-data-dir=" + profile, "--window-size=920,580"));
        cmd.addAll(List.of(extra));
        cmd.add(page.toUri().toString());
        Path out = tmp.resolve("chromium.out");
        Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(tmp.resolve("chromium.err")
                .toFile()).start();
        if (!p.waitFor(90, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("chromium did not finish within 90 s: " + cmd);
        }
        return Files.readString(out, StandardCharsets.UTF_8);
    }
}
