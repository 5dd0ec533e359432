package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Merging: the aggregate table's means and Student-t confidence intervals, from a sweep directory written by hand
 * (three repetitions of two points), the plots per axis value, and the metrics read from summary.json (throughput,
 * per-operation statistics, cache counters, selection by glob and JSON Pointer).
 */
class SweepMergerTest {

    @TempDir
    Path out;

    private void run(int point, int rep, String mtu, long endPs, long writeP50Ps) throws Exception {
        String id = "p" + point + "r" + rep;
        Path d = out.resolve("points").resolve(id);
        Files.createDirectories(d);
        Files.writeString(d.resolve("point.json"), "{\"exit\": 0}");
        Files.writeString(d.resolve("summary.json"), "{\"end_time_ps\": " + endPs + ", \"operations\": {"
                + "\"rdma_write\": {\"count\": 4, \"mean_ps\": 1, \"p50_ps\": " + writeP50Ps + ", \"p90_ps\": 1,"
                + " \"p99_ps\": 1, \"max_ps\": 1, \"bytes\": 4000, \"first_post_ps\": 0, \"last_complete_ps\": "
                + endPs / 2 + "}}, \"hca\": {\"A\": {\"qp_cache\": {\"misses\": " + rep + ", \"miss_rate\": 0.5}}},"
                + " \"params\": {\"cache.size\": 3}}");
    }

    private void plan(String metrics) throws Exception {
        StringBuilder runs = new StringBuilder();
        for (int p = 0; p < 2; p++) {
            for (int r = 0; r < 3; r++) {
                runs.append(runs.length() == 0 ? "" : ",").append("{\"point\": ").append(p).append(", \"rep\": ")
                        .append(r).append(", \"seed\": ").append(10 * p + r).append(", \"id\": \"p").append(p)
                        .append('r').append(r).append("\", \"values\": {\"mtu\": \"").append(p == 0 ? "1KiB" : "4KiB")
                        .append("\"}}");
            }
        }
        Files.writeString(out.resolve("plan.json"), "{\"study\": \"m\", \"axes\": [{\"name\": \"mtu\", \"group\": 0}],"
                + " \"metrics\": " + metrics + ", \"plot\": {}, \"runs\": [" + runs + "]}");
    }

    @Test
    void aWorkloadSweepGetsOneFctFigureWithTheSeriesOverlaid() throws Exception {
        plan("[]");
        for (int p = 0; p < 2; p++) {
            for (int r = 0; r < 3; r++) {
                run(p, r, p == 0 ? "1KiB" : "4KiB", 10_000_000, 1_000_000);
                StringBuilder csv = new StringBuilder("src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,"
                        + "standalone_fct_ps,slowdown,slowdown_vs_standalone\n");
                for (int i = 1; i <= 40; i++) {
                    csv.append("h0,h1,").append(1000L * i * i).append(",0,").append(3000 + 100 * p + r).append(",1000,"
                            + "900,").append((3000 + 100 * p + r) / 1000.0).append(",3.3\n");
                }
                Files.writeString(out.resolve("points").resolve("p" + p + "r" + r).resolve("fct.csv"), csv);
            }
        }
        SweepMerger.merge(out, new SweepMerger.Options(null, null, "svg", 0.95));
        // one axis: it is x and there is no series, so one figure holding both points' flows as one line set
        String svg = Files.readString(out.resolve("plots").resolve("fct-slowdown__mtu=1KiB.svg"));
        assertTrue(svg.contains("all  p99") && svg.contains(">100K<"), "the 1KiB point's figure");
        assertTrue(Files.isRegularFile(out.resolve("plots").resolve("fct-slowdown__mtu=4KiB.svg")));
    }

    /** fct-vs-load's shape: x = load, series = cc, ecn zipped with cc: one figure per load, the algorithms in it. */
    @Test
    void axesZippedWithTheSeriesDoNotSplitTheFctFigures() throws Exception {
        StringBuilder runs = new StringBuilder();
        String[][] points = {{"30%", "none", "false"}, {"30%", "dcqcn", "true"}, {"50%", "none", "false"},
            {"50%", "dcqcn", "true"}};
        for (int p = 0; p < points.length; p++) {
            runs.append(p == 0 ? "" : ",").append("{\"point\": ").append(p).append(", \"rep\": 0, \"seed\": 1,"
                    + " \"id\": \"q").append(p).append("\", \"values\": {\"load\": \"").append(points[p][0])
                    .append("\", \"cc\": \"").append(points[p][1]).append("\", \"ecn\": \"").append(points[p][2])
                    .append("\"}}");
            Path d = out.resolve("points").resolve("q" + p);
            Files.createDirectories(d);
            Files.writeString(d.resolve("point.json"), "{\"exit\": 0}");
            Files.writeString(d.resolve("summary.json"), "{\"end_time_ps\": 1000}");
            StringBuilder csv = new StringBuilder("src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,"
                    + "standalone_fct_ps,slowdown,slowdown_vs_standalone\n");
            for (int i = 1; i <= 40; i++) {
                csv.append("h0,h1,").append(1000L * i * i).append(",0,3000,1000,900,3.0,3.3\n");
            }
            Files.writeString(d.resolve("fct.csv"), csv);
        }
        Files.writeString(out.resolve("plan.json"), "{\"study\": \"f\", \"axes\": [{\"name\": \"load\", \"group\":"
                + " 0}, {\"name\": \"cc\", \"group\": 1}, {\"name\": \"ecn\", \"group\": 1}], \"metrics\": [],"
                + " \"plot\": {\"x\": \"load\", \"series\": \"cc\"}, \"runs\": [" + runs + "]}");
        SweepMerger.merge(out, new SweepMerger.Options(null, null, "svg", 0.95));
        List<String> figures;
        try (java.util.stream.Stream<Path> l = Files.list(out.resolve("plots"))) {
            figures = l.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("fct-")).sorted().toList();
        }
        assertEquals(List.of("fct-slowdown__load=30_.svg", "fct-slowdown__load=50_.svg"), figures);
        String svg = Files.readString(out.resolve("plots").resolve("fct-slowdown__load=30_.svg"));
        assertTrue(svg.contains("cc=none  p50") && svg.contains("cc=dcqcn  p99"), "both algorithms in one figure");
    }

    @Test
    void theAggregateHoldsMeansAndStudentTConfidenceIntervals() throws Exception {
        plan("[]");
        long[] ends = {10_000_000, 12_000_000, 14_000_000};
        for (int r = 0; r < 3; r++) {
            run(0, r, "1KiB", ends[r], 2_000_000);
            run(1, r, "4KiB", 5_000_000, 1_000_000);
        }
        SweepMerger.Outcome o = SweepMerger.merge(out, new SweepMerger.Options(null, null, "svg", 0.95));
        assertEquals(new SweepMerger.Outcome(6, 2, 0, o.plots()), o);
        List<CSVRecord> agg;
        try (CSVParser p = CSVParser.parse(out.resolve("aggregate.csv"), java.nio.charset.StandardCharsets.UTF_8,
                CSVFormat.RFC4180.builder().setHeader().get())) {
            agg = p.getRecords();
        }
        assertEquals(2, agg.size());
        CSVRecord a = agg.get(0);
        assertEquals("1KiB", a.get("mtu"));
        assertEquals("3", a.get("n"));
        assertEquals(12.0, Double.parseDouble(a.get("makespan_us.mean")), 1e-12);
        // t(0.975, 2) = 4.302653; sd = 2 us; half-width = t * sd / sqrt(3)
        assertEquals(4.302653 * 2 / Math.sqrt(3), Double.parseDouble(a.get("makespan_us.ci95")), 1e-5);
        assertEquals("0", agg.get(1).get("makespan_us.ci95"));
        assertEquals(2.0, Double.parseDouble(a.get("rdma_write.p50_us.mean")), 1e-12);
        // point 1: 4000 bytes from the first post (0) to the last completion (2.5 us): 32000 bits / 2.5 us
        assertEquals(12.8, Double.parseDouble(agg.get(1).get("throughput_gbps.mean")), 1e-9);
        assertEquals(1.0, Double.parseDouble(a.get("hca.A.qp_cache.misses.mean")), 1e-12,
                "numbers under a cache member are metrics");
        assertTrue(a.toMap().keySet().stream().noneMatch(k -> k.startsWith("params")), a.toMap().toString());
        assertTrue(Files.isRegularFile(out.resolve("plots/makespan_us.svg")));
        String svg = Files.readString(out.resolve("plots/makespan_us.svg"));
        assertTrue(svg.startsWith("<svg") || svg.startsWith("<?xml"), svg.substring(0, 40));
        SweepMerger.merge(out, new SweepMerger.Options(null, null, "png", 0.9));
        assertTrue(Files.isRegularFile(out.resolve("plots/makespan_us.png")));
        assertTrue(Files.readString(out.resolve("aggregate.csv")).contains("makespan_us.ci90"));
    }

    @Test
    void metricSelectorsPickByNameGlobAndPointer() throws Exception {
        plan("[\"makespan_us\", \"*.p50_us\", \"/hca/A/qp_cache/miss_rate\", \"/absent\"]");
        for (int r = 0; r < 3; r++) {
            run(0, r, "1KiB", 10_000_000, 2_000_000);
            run(1, r, "4KiB", 10_000_000, 2_000_000);
        }
        SweepMerger.merge(out, new SweepMerger.Options(null, null, "svg", 0.95));
        String header = Files.readAllLines(out.resolve("results.csv")).get(0);
        assertEquals("point,rep,seed,id,exit,mtu,makespan_us,rdma_write.p50_us,/hca/A/qp_cache/miss_rate", header);
    }

    @Test
    void mergeProblemsAreMessages() throws Exception {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SweepMerger.merge(out, new SweepMerger.Options(null, null, "svg", 0.95)));
        assertTrue(e.getMessage().contains("plan.json: no such file"), e.getMessage());
        plan("[]");
        e = assertThrows(IllegalArgumentException.class,
                () -> SweepMerger.merge(out, new SweepMerger.Options("size", null, "svg", 0.95)));
        assertTrue(e.getMessage().contains("--x: no axis is named \"size\""), e.getMessage());
        assertEquals(6, SweepMerger.merge(out, new SweepMerger.Options(null, null, "svg", 0.95)).missing());
    }
}
