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
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim fct RUN_DIR}: two tables per flow-size bucket, the slowdown (FCT / the flow's FCT alone with
 * congestion control off) and FCT / HPCC's standalone FCT, and fct-slowdown.svg (the slowdown).
 */
@Command(name = "fct", mixinStandardHelpOptions = true,
        description = "Read RUN_DIR/fct.csv; print the percentiles p50, p95 and p99 per flow-size bucket (<10KB,"
                + " 10KB-100KB, 100KB-1MB, >1MB) of the slowdown (fct / the flow's FCT alone with congestion control"
                + " off) and of fct / HPCC's standalone FCT (a formula); write RUN_DIR/fct-slowdown.svg, slowdown"
                + " percentiles against flow size as in HPCC's Figure 11.")
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
    /** The second table's title. */
    static final String STANDALONE_TITLE = "FCT / HPCC's standalone FCT (a formula: base RTT + bytes with 48-byte"
            + " headers at the bottleneck link rate; no host, no switch latency)";

    @Parameters(paramLabel = "RUN_DIR", description = "A directory holding fct.csv (datsim run, datsim bench hpcc).")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path csv = dir.resolve(FctFile.FILE);
        if (!Files.isRegularFile(csv)) {
            err.println("datsim: " + csv + ": no such file (is " + dir + " the output directory of a run with a"
                    + " workload, or of datsim bench hpcc?)");
            return DatsimCli.EXIT_INVALID;
        }
        List<FctFile.Row> rows;
        boolean old;
        try {
            FctFile.Table table = FctFile.readTable(csv);
            rows = table.rows();
            old = table.oldFormat();
        } catch (IllegalArgumentException | java.io.UncheckedIOException e) {
            err.println("datsim: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        PrintWriter o = spec.commandLine().getOut();
        StringBuilder t = new StringBuilder();
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
            if (Double.isNaN(r.slowdown())) {
                unfinished++;
            } else {
                sizes.add(r.sizeBytes());
                slow.add(r.slowdown());
            }
        }
        t.append(rows.size()).append(" flows");
        if (unfinished > 0) {
            t.append(", ").append(unfinished).append(" without a slowdown (unfinished or no ideal FCT)");
        }
        o.println(t);
        if (!sizes.isEmpty()) {
            FctPlot.writeSvg(dir.resolve(PLOT), "FCT slowdown by flow size: " + dir.getFileName(),
                    old ? AXIS_OLD : AXIS,
                    sizes.stream().mapToLong(Long::longValue).toArray(),
                    slow.stream().mapToDouble(Double::doubleValue).toArray());
            o.println("plot: " + dir.resolve(PLOT));
        }
        o.flush();
        return 0;
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
