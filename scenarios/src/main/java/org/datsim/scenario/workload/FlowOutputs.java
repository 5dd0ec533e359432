package org.datsim.scenario.workload;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;

/** What a workload run writes: fct.csv rows and the summary.json section of flows. */
public final class FlowOutputs {

    /** summary.json's {@code flows.ideal}: what {@code slowdown} divides by. */
    public static final String IDEAL = "alone, congestion control off";
    /** summary.json's {@code flows.standalone}: what {@code slowdown_vs_standalone} divides by. */
    public static final String STANDALONE = "HPCC's standalone_fct formula: base RTT + bytes with 48-byte headers at"
            + " the bottleneck rate";

    private FlowOutputs() {
    }

    /**
     * The fct.csv rows of a run.
     *
     * @param hostNames the host names in host order
     * @param flows the flows
     * @param r the run's outcome
     * @return one row per flow
     */
    public static List<FctFile.Row> rows(List<String> hostNames, List<Flow> flows, FlowRunner.Result r) {
        List<FctFile.Row> rows = new ArrayList<>(flows.size());
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            rows.add(new FctFile.Row(hostNames.get(f.src()), hostNames.get(f.dst()), f.sizeBytes(), f.startPs(),
                    r.fctPs()[i], r.idealPs()[i], r.standalonePs()[i]));
        }
        return rows;
    }

    /**
     * Writes fct.csv in a directory.
     *
     * @param dir the directory
     * @param rows the rows
     * @throws IOException if it cannot be written
     */
    public static void writeCsv(Path dir, List<FctFile.Row> rows) throws IOException {
        FctFile.write(dir.resolve(FctFile.FILE), rows);
    }

    /**
     * Fills summary.json's {@code flows} object: counts, bytes, FCT statistics, which ideal the slowdown divides by,
     * the slowdown (fct / ideal) and fct / HPCC's standalone FCT per size bucket.
     *
     * @param flowsNode the object to fill
     * @param rows the rows
     */
    public static void summarize(ObjectNode flowsNode, List<FctFile.Row> rows) {
        long completed = 0;
        long bytes = 0;
        double sumSlowdown = 0;
        long[] fcts = new long[rows.size()];
        int n = 0;
        for (FctFile.Row r : rows) {
            bytes += r.sizeBytes();
            if (r.fctPs() >= 0) {
                completed++;
                fcts[n++] = r.fctPs();
                if (!Double.isNaN(r.slowdown())) {
                    sumSlowdown += r.slowdown();
                }
            }
        }
        long[] sorted = java.util.Arrays.copyOf(fcts, n);
        java.util.Arrays.sort(sorted);
        flowsNode.put("count", rows.size());
        flowsNode.put("completed", completed);
        flowsNode.put("failed_or_unfinished", rows.size() - completed);
        flowsNode.put("bytes", bytes);
        flowsNode.put("fct_p50_ps", rank(sorted, 50));
        flowsNode.put("fct_p99_ps", rank(sorted, 99));
        flowsNode.put("fct_max_ps", n == 0 ? -1 : sorted[n - 1]);
        flowsNode.put("ideal", IDEAL);
        flowsNode.put("mean_slowdown", completed == 0 ? 0 : round(sumSlowdown / completed));
        buckets(flowsNode.putObject("slowdown_by_size"), FctFile.buckets(rows));
        flowsNode.put("standalone", STANDALONE);
        buckets(flowsNode.putObject("slowdown_vs_standalone_by_size"), FctFile.bucketsVsStandalone(rows));
    }

    private static void buckets(ObjectNode b, List<FctFile.Bucket> buckets) {
        for (FctFile.Bucket k : buckets) {
            ObjectNode o = b.putObject(k.label());
            o.put("flows", k.flows());
            if (k.flows() > 0) {
                o.put("p50", round(k.p50()));
                o.put("p95", round(k.p95()));
                o.put("p99", round(k.p99()));
            }
        }
    }

    private static long rank(long[] sorted, double p) {
        if (sorted.length == 0) {
            return -1;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }

    private static double round(double v) {
        return Math.round(v * 1e4) / 1e4;
    }
}
