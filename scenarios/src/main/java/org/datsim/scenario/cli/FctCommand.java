package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.datsim.scenario.workload.FctFile;
import org.datsim.viz.FctPlot;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim fct RUN_DIR}: two tables per flow-size bucket, the slowdown (FCT / the flow's FCT alone with
 * congestion control off) and FCT / HPCC's standalone FCT, and fct-slowdown.svg (the slowdown).
 */
@Command(name = "fct", mixinStandardHelpOptions = true,
        description = "Read each RUN_DIR/fct.csv; print per run the percentiles p50, p95 and p99 per flow-size bucket"
                + " (<10KB, 10KB-100KB, 100KB-1MB, >1MB) of the slowdown (fct / the flow's FCT alone with congestion"
                + " control off) and of fct / HPCC's standalone FCT (a formula); write one figure of slowdown"
                + " percentiles against flow size (log scale) as in HPCC's Figure 11, every run overlaid:"
                + " RUN_DIR/fct-slowdown.svg for one run, FIRST_RUN_DIR/fct-overlay.svg for several.")
final class FctCommand implements Callable<Integer> {

    /** The plot's file name in the run directory. */
    static final String PLOT = "fct-slowdown.svg";
    /** The first table's title. */
    static final String IDEAL_TITLE = "slowdown = FCT / ideal FCT (the flow alone on the idle fabric, congestion"
            + " control off)";
    /** The first table's title for a file of the old format, whose ideal kept the run's congestion control. */
    static final String IDEAL_TITLE_OLD = "slowdown = FCT / ideal FCT (an old fct.csv: the flow alone with the run's"
            + " own congestion control, which hides its throttling)";
    /** The plot's vertical axis. */
    static final String AXIS = "FCT / FCT alone, congestion control off";
    /** The plot's vertical axis for a file of the old format. */
    static final String AXIS_OLD = "FCT / FCT alone with the run's own CC (old fct.csv)";
    /** The plot's vertical axis under {@code --vs standalone}. */
    static final String AXIS_STANDALONE = "FCT / HPCC's standalone FCT (a formula)";
    /** The overlay's file name in the first run directory. */
    static final String OVERLAY = "fct-overlay.svg";
    /** The second table's title. */
    static final String STANDALONE_TITLE = "FCT / HPCC's standalone FCT (a formula: base RTT + bytes with 48-byte"
            + " headers at the bottleneck link rate; no host, no switch latency)";

    @Parameters(paramLabel = "RUN_DIR", arity = "1..*", description = "Directories holding fct.csv (datsim run of a"
            + " workload, datsim bench hpcc, a sweep's points); several are overlaid in one figure.")
    List<Path> dirs;

    @Option(names = "--label", paramLabel = "TEXT", description = "The legend's name of each RUN_DIR, in order"
            + " (repeat once per RUN_DIR; default: each run's cc.algorithm and load from its summary.json, else the"
            + " directory's name).")
    List<String> labels = new ArrayList<>();

    @Option(names = "--plot", paramLabel = "FILE", description = "Where to write the figure (default:"
            + " RUN_DIR/fct-slowdown.svg for one run, FIRST_RUN_DIR/fct-overlay.svg for several).")
    Path plotFile;

    @Option(names = "--vs", paramLabel = "ideal|standalone", description = "What the plotted FCT is divided by:"
            + " ideal (default; the flow alone on the idle fabric with congestion control off) or standalone (HPCC's"
            + " standalone FCT formula, the figure of HPCC's own analysis).")
    String vs = "ideal";

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (!"ideal".equals(vs) && !"standalone".equals(vs)) {
            err.println("datsim: --vs " + vs + ": expected ideal or standalone");
            return DatsimCli.EXIT_INVALID;
        }
        if (!labels.isEmpty() && labels.size() != dirs.size()) {
            err.println("datsim: --label given " + labels.size() + " time(s) for " + dirs.size() + " RUN_DIR(s): give"
                    + " one per RUN_DIR, or none");
            return DatsimCli.EXIT_INVALID;
        }
        List<FctFile.Table> tables = new ArrayList<>();
        for (Path dir : dirs) {
            Path csv = dir.resolve(FctFile.FILE);
            try {
                if (!org.datsim.viz.RunFiles.exists(csv)) {
                    err.println("datsim: " + csv + ": no such file (is " + dir + " the output directory of a run with a"
                            + " workload, or of datsim bench hpcc?)");
                    return DatsimCli.EXIT_INVALID;
                }
                tables.add(FctFile.readTable(csv));
            } catch (java.io.IOException | IllegalArgumentException e) {
                err.println("datsim: " + e.getMessage());
                return DatsimCli.EXIT_INVALID;
            }
        }
        List<String> names = labels.isEmpty() ? autoLabels(dirs) : labels;
        PrintWriter o = spec.commandLine().getOut();
        boolean standalone = "standalone".equals(vs);
        boolean anyOld = false;
        List<FctPlot.Run> runs = new ArrayList<>();
        List<String> left = new ArrayList<>();
        for (int i = 0; i < dirs.size(); i++) {
            FctFile.Table table = tables.get(i);
            List<FctFile.Row> rows = table.rows();
            boolean old = table.oldFormat();
            anyOld |= old && !standalone;
            StringBuilder t = new StringBuilder();
            if (dirs.size() > 1) {
                t.append("== ").append(names.get(i)).append(": ").append(dirs.get(i)).append(" ==\n");
            }
            t.append(old ? IDEAL_TITLE_OLD : IDEAL_TITLE).append('\n');
            table(t, FctFile.buckets(rows));
            t.append('\n').append(STANDALONE_TITLE).append('\n');
            if (old) {
                t.append("  (not in this file: an fct.csv written before the standalone_fct_ps column)\n");
            } else {
                table(t, FctFile.bucketsVsStandalone(rows));
            }
            t.append('\n');
            List<Long> sizes = new ArrayList<>();
            List<Double> slow = new ArrayList<>();
            long unfinished = 0;
            for (FctFile.Row r : rows) {
                double s = standalone ? r.slowdownVsStandalone() : r.slowdown();
                if (Double.isNaN(s)) {
                    unfinished++;
                } else {
                    sizes.add(r.sizeBytes());
                    slow.add(s);
                }
            }
            t.append(rows.size()).append(" flows");
            if (unfinished > 0) {
                t.append(", ").append(unfinished).append(standalone ? " without an FCT / standalone FCT (unfinished,"
                        + " or an old file)" : " without a slowdown (unfinished or no ideal FCT)");
            }
            o.println(t);
            if (sizes.isEmpty()) {
                left.add(dirs.get(i).toString());
            } else {
                runs.add(new FctPlot.Run(names.get(i), sizes.stream().mapToLong(Long::longValue).toArray(),
                        slow.stream().mapToDouble(Double::doubleValue).toArray()));
            }
        }
        if (!left.isEmpty()) {
            o.println("not in the figure (no flow with " + (standalone ? "a standalone FCT" : "a slowdown; try --vs"
                    + " standalone") + "): " + String.join(", ", left));
        }
        if (!runs.isEmpty()) {
            Path file = plotFile != null ? plotFile
                    : dirs.size() == 1 ? dirs.get(0).resolve(PLOT) : dirs.get(0).resolve(OVERLAY);
            String title = "FCT slowdown by flow size: " + (dirs.size() == 1 ? dirs.get(0).getFileName().toString()
                    : String.join(" vs ", runs.stream().map(FctPlot.Run::label).toList()));
            try {
                FctPlot.writeSvg(file, title, standalone ? AXIS_STANDALONE : anyOld ? AXIS_OLD : AXIS, runs);
            } catch (java.io.IOException e) {
                err.println("datsim: cannot write " + file + ": " + e.getMessage());
                return DatsimCli.EXIT_INVALID;
            }
            o.println("plot: " + file);
        }
        o.flush();
        return 0;
    }

    /**
     * The legend's names: each run's congestion control and load (or flow file) from its summary.json, else its
     * directory's name; names that would repeat get their directory's name added.
     */
    static List<String> autoLabels(List<Path> dirs) {
        List<String> out = new ArrayList<>();
        for (Path d : dirs) {
            out.add(describe(d));
        }
        for (int i = 0; i < out.size(); i++) {
            String n = out.get(i);
            if (java.util.Collections.frequency(out, n) > 1 || n.isEmpty()) {
                for (int j = out.size() - 1; j >= 0; j--) {
                    if (out.get(j).equals(n)) {
                        String name = String.valueOf(dirs.get(j).toAbsolutePath().normalize().getFileName());
                        out.set(j, n.isEmpty() ? name : n + " (" + name + ")");
                    }
                }
            }
        }
        return out;
    }

    private static String describe(Path dir) {
        Path f = dir.resolve("summary.json");
        try {
            if (!org.datsim.viz.RunFiles.exists(f)) {
                return "";
            }
            com.fasterxml.jackson.databind.JsonNode s = org.datsim.viz.RunFiles.readJson(f,
                    org.datsim.viz.RunFiles.MAX_JSON_BYTES);
            String cc = s.path("cc_algorithm").asText(s.path("params").path("cc.algorithm").asText(""));
            com.fasterxml.jackson.databind.JsonNode w = s.path("flows").path("workload");
            String load = w.has("load") ? KeyValues.fixed(w.path("load").asDouble() * 100, 0) + "%"
                    : s.path("flows_file").asText("");
            return (cc + " " + load).trim();
        } catch (java.io.IOException | RuntimeException e) {
            return "";
        }
    }

    private static void table(StringBuilder t, List<FctFile.Bucket> buckets) {
        t.append(pad("size", -12)).append(pad("flows", 8)).append(pad("p50", 8)).append(pad("p95", 8))
                .append(pad("p99", 8)).append('\n');
        for (FctFile.Bucket b : buckets) {
            t.append(pad(b.label(), -12)).append(pad(Long.toString(b.flows()), 8))
                    .append(pad(KeyValues.fixed(b.p50(), 2), 8)).append(pad(KeyValues.fixed(b.p95(), 2), 8))
                    .append(pad(KeyValues.fixed(b.p99(), 2), 8)).append('\n');
        }
    }

    private static String pad(String s, int width) {
        int w = Math.abs(width);
        if (s.length() >= w) {
            return s + " ";
        }
        String fill = " ".repeat(w - s.length());
        return width < 0 ? s + fill : fill + s;
    }
}
