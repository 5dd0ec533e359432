package org.datsim.scenario.sweep;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.Writer;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.math3.distribution.TDistribution;
import org.apache.commons.math3.stat.descriptive.SummaryStatistics;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.DataRate;
import org.datsim.core.time.SimTime;
import org.datsim.viz.LinePlot;

/**
 * Merges the runs of a sweep's output directory into {@code results.csv} (one row per point and repetition),
 * {@code aggregate.csv} (one row per point: for every metric the mean over repetitions and the half-width of its
 * confidence interval from Student's t distribution) and plots of every metric against one axis, one line per value
 * of another ({@code plots/}). Only {@code plan.json} and the run directories are read, so a merge needs neither the
 * study file nor its scenario. The tables depend only on the runs' results, so the same study merged after a local
 * run and after a cluster run gives identical files.
 */
public final class SweepMerger {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    /** Options of a merge. */
    public record Options(String x, String series, String format, double confidence) {
    }

    /**
     * What a merge wrote.
     *
     * @param rows rows of results.csv
     * @param points rows of aggregate.csv
     * @param missing runs of the plan with no finished directory
     * @param plots plot files written
     */
    public record Outcome(int rows, int points, int missing, int plots) {
    }

    private SweepMerger() {
    }

    private record Row(int point, int rep, long seed, String id, int exit, Map<String, String> values,
            Map<String, Double> metrics) {
    }

    /**
     * Merges a sweep's output directory.
     *
     * @param out the directory that {@code sweep run} wrote
     * @param opt the options (null members take the plan's or the defaults)
     * @return what was written
     * @throws IOException if a file cannot be read or written
     * @throws IllegalArgumentException if the directory is not a sweep's or an option names no axis
     */
    public static Outcome merge(Path out, Options opt) throws IOException {
        Path planFile = out.resolve(SweepRunner.PLAN);
        if (!Files.isRegularFile(planFile)) {
            throw new IllegalArgumentException(planFile + ": no such file (is " + out + " the --out directory of"
                    + " `datsim sweep run`?)");
        }
        JsonNode plan = MAPPER.readTree(planFile.toFile());
        List<String> axes = new ArrayList<>();
        Map<String, Integer> groups = new LinkedHashMap<>();
        plan.path("axes").forEach(a -> {
            axes.add(a.path("name").asText());
            groups.put(a.path("name").asText(), a.path("group").asInt(axes.size()));
        });
        List<String> selectors = new ArrayList<>();
        plan.path("metrics").forEach(m -> selectors.add(m.asText()));
        String x = opt.x() != null ? opt.x() : plan.path("plot").path("x").isTextual()
                ? plan.path("plot").path("x").asText() : axes.isEmpty() ? null : axes.get(0);
        String series = opt.series() != null ? opt.series() : plan.path("plot").path("series").isTextual()
                ? plan.path("plot").path("series").asText() : null;
        if (x != null && !axes.contains(x)) {
            throw new IllegalArgumentException("--x: no axis is named \"" + x + "\"; the axes are " + axes);
        }
        if (series != null && !axes.contains(series)) {
            throw new IllegalArgumentException("--series: no axis is named \"" + series + "\"; the axes are " + axes);
        }
        if (series == null) {
            for (String a : axes) {
                if (!groups.get(a).equals(groups.get(x))) {
                    series = a;
                    break;
                }
            }
        }
        if (series != null && series.equals(x)) {
            throw new IllegalArgumentException("--series must name another axis than --x");
        }
        List<Row> rows = new ArrayList<>();
        Set<String> columns = new LinkedHashSet<>();
        int missing = 0;
        for (JsonNode r : plan.path("runs")) {
            Path dir = out.resolve(SweepRunner.POINTS).resolve(r.path("id").asText());
            if (!Files.isRegularFile(dir.resolve("point.json"))) {
                missing++;
                continue;
            }
            JsonNode summary = MAPPER.readTree(dir.resolve("summary.json").toFile());
            JsonNode point = MAPPER.readTree(dir.resolve("point.json").toFile());
            Map<String, Double> m = Metrics.select(Metrics.extract(summary), summary, selectors);
            columns.addAll(m.keySet());
            Map<String, String> values = new LinkedHashMap<>();
            for (String a : axes) {
                values.put(a, Point.text(r.path("values").path(a)));
            }
            rows.add(new Row(r.path("point").asInt(), r.path("rep").asInt(), r.path("seed").asLong(),
                    r.path("id").asText(), point.path("exit").asInt(), values, m));
        }
        writeResults(out.resolve("results.csv"), axes, columns, rows);
        Map<Integer, List<Row>> byPoint = new TreeMap<>();
        for (Row r : rows) {
            byPoint.computeIfAbsent(r.point(), k -> new ArrayList<>()).add(r);
        }
        Map<Integer, Map<String, double[]>> agg = aggregate(byPoint, columns, opt.confidence());
        writeAggregate(out.resolve("aggregate.csv"), axes, columns, byPoint, agg, opt.confidence());
        int plots = 0;
        if (x != null) {
            List<String> rest = new ArrayList<>();
            for (String a : axes) {
                // axes zipped with x or the series move with them: they split no plot
                if (!groups.get(a).equals(groups.get(x)) && (series == null
                        || !groups.get(a).equals(groups.get(series)))) {
                    rest.add(a);
                }
            }
            plots = plot(out.resolve("plots"), plan, rest, x, series, columns, byPoint, agg, opt);
        }
        return new Outcome(rows.size(), byPoint.size(), missing, plots);
    }

    static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "";
        }
        return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
    }

    private static void writeResults(Path file, List<String> axes, Set<String> columns, List<Row> rows)
            throws IOException {
        List<String> header = new ArrayList<>(List.of("point", "rep", "seed", "id", "exit"));
        header.addAll(axes);
        header.addAll(columns);
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter p = new CSVPrinter(w, CSVFormat.RFC4180.builder().setRecordSeparator("\n").get())) {
            p.printRecord(header);
            for (Row r : rows) {
                List<String> rec = new ArrayList<>(List.of(String.valueOf(r.point()), String.valueOf(r.rep()),
                        String.valueOf(r.seed()), r.id(), String.valueOf(r.exit())));
                rec.addAll(r.values().values());
                for (String c : columns) {
                    Double v = r.metrics().get(c);
                    rec.add(v == null ? "" : num(v));
                }
                p.printRecord(rec);
            }
        }
    }

    /** Per point and metric: {n, mean, half-width of the confidence interval (NaN for n < 2)}. */
    private static Map<Integer, Map<String, double[]>> aggregate(Map<Integer, List<Row>> byPoint,
            Set<String> columns, double confidence) {
        Map<Integer, Map<String, double[]>> out = new TreeMap<>();
        for (Map.Entry<Integer, List<Row>> e : byPoint.entrySet()) {
            Map<String, double[]> m = new LinkedHashMap<>();
            for (String c : columns) {
                SummaryStatistics s = new SummaryStatistics();
                for (Row r : e.getValue()) {
                    Double v = r.metrics().get(c);
                    if (v != null) {
                        s.addValue(v);
                    }
                }
                double half = Double.NaN;
                if (s.getN() >= 2) {
                    double t = new TDistribution(null, s.getN() - 1.0)
                            .inverseCumulativeProbability(0.5 + confidence / 2);
                    half = t * s.getStandardDeviation() / Math.sqrt(s.getN());
                }
                m.put(c, new double[] {s.getN(), s.getN() == 0 ? Double.NaN : s.getMean(), half});
            }
            out.put(e.getKey(), m);
        }
        return out;
    }

    static String ciName(double confidence) {
        return "ci" + num(confidence * 100);
    }

    private static void writeAggregate(Path file, List<String> axes, Set<String> columns,
            Map<Integer, List<Row>> byPoint, Map<Integer, Map<String, double[]>> agg, double confidence)
            throws IOException {
        String ci = ciName(confidence);
        List<String> header = new ArrayList<>(List.of("point"));
        header.addAll(axes);
        header.add("n");
        for (String c : columns) {
            header.add(c + ".mean");
            header.add(c + "." + ci);
        }
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter p = new CSVPrinter(w, CSVFormat.RFC4180.builder().setRecordSeparator("\n").get())) {
            p.printRecord(header);
            for (Map.Entry<Integer, List<Row>> e : byPoint.entrySet()) {
                List<String> rec = new ArrayList<>();
                rec.add(String.valueOf(e.getKey()));
                rec.addAll(e.getValue().get(0).values().values());
                rec.add(String.valueOf(e.getValue().size()));
                for (String c : columns) {
                    double[] a = agg.get(e.getKey()).get(c);
                    rec.add(num(a[1]));
                    rec.add(num(a[2]));
                }
                p.printRecord(rec);
            }
        }
    }

    /** A numeric reading of an axis's values: the numbers and the unit shown on the axis, or null. */
    private record Numeric(Map<String, Double> values, String unit) {
    }

    private static Numeric numeric(Set<String> texts) {
        String[] units = {"", "B", "Gbps", "ns"};
        for (int u = 0; u < units.length; u++) {
            Map<String, Double> m = new LinkedHashMap<>();
            for (String t : texts) {
                try {
                    double v = switch (u) {
                        case 0 -> Double.parseDouble(t);
                        case 1 -> ByteSize.parse(t);
                        case 2 -> DataRate.parse(t).bitsPerSecond() / 1e9;
                        default -> SimTime.parse(t) / 1e3;
                    };
                    m.put(t, v);
                } catch (IllegalArgumentException e) {
                    break;
                }
            }
            if (m.size() == texts.size()) {
                return new Numeric(m, units[u]);
            }
        }
        return null;
    }

    private static int plot(Path dir, JsonNode plan, List<String> rest, String x, String series, Set<String> columns,
            Map<Integer, List<Row>> byPoint, Map<Integer, Map<String, double[]>> agg, Options opt)
            throws IOException {
        // plots/ is datsim's: the plots of an earlier merge (perhaps of other axes) are deleted, by the marker's
        // list; files someone else put there are left alone, and never overwritten.
        org.datsim.scenario.run.OutputDir.claim(dir, true);
        List<String> earlier = new ArrayList<>();
        try (java.nio.file.DirectoryStream<Path> old = Files.newDirectoryStream(dir, "*.{svg,png}")) {
            for (Path p : old) {
                earlier.add(p.getFileName().toString());
            }
        }
        java.util.Collections.sort(earlier);
        org.datsim.scenario.run.OutputDir.deleteOurs(dir, earlier);
        Set<String> xs = new LinkedHashSet<>();
        byPoint.values().forEach(l -> xs.add(l.get(0).values().get(x)));
        Numeric num = numeric(xs);
        boolean logX = plan.path("plot").path("log_x").asBoolean(false) && num != null;
        String xLabel = x + (num != null && !num.unit().isEmpty() ? " (" + num.unit() + ")" : "");
        String ext = "png".equals(opt.format()) ? "png" : "svg";
        String ci = ciName(opt.confidence());
        int files = 0;
        for (String c : columns) {
            // one file per combination of the axes other than x and series
            Map<String, LinePlot> plots = new LinkedHashMap<>();
            for (Map.Entry<Integer, List<Row>> e : byPoint.entrySet()) {
                Map<String, String> v = e.getValue().get(0).values();
                StringBuilder others = new StringBuilder();
                for (String a : rest) {
                    others.append(others.length() == 0 ? "" : ", ").append(a).append('=').append(v.get(a));
                }
                String title = plan.path("study").asText() + ": " + c
                        + (others.length() == 0 ? "" : " (" + others + ")");
                LinePlot p = plots.computeIfAbsent(others.toString(), k -> new LinePlot(title, xLabel, c, logX)
                        .intervalNote("mean, " + ci).caption(plan.path("plot").path("captions").path(c).asText(null)));
                double[] a = agg.get(e.getKey()).get(c);
                if (Double.isNaN(a[1])) {
                    continue;
                }
                String xt = v.get(x);
                p.add(series == null ? c : series + "=" + v.get(series), xt, num == null ? null : num.values().get(xt),
                        a[1], a[2]);
            }
            for (Map.Entry<String, LinePlot> e : plots.entrySet()) {
                if (e.getValue().isEmpty()) {
                    continue;
                }
                String name = safe(c) + (e.getKey().isEmpty() ? "" : "__" + safe(e.getKey())) + "." + ext;
                if (Files.exists(dir.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    throw new IOException(dir.resolve(name) + " exists and datsim did not write it; move it away"
                            + " and merge again");
                }
                org.datsim.scenario.run.OutputDir.record(dir, List.of(name));
                if ("png".equals(ext)) {
                    e.getValue().writePng(dir.resolve(name));
                } else {
                    e.getValue().writeSvg(dir.resolve(name));
                }
                files++;
            }
        }
        return files + fctPlots(dir, x, rest, series, byPoint, ext);
    }

    /**
     * For a sweep whose points ran workloads: one FCT slowdown figure ({@link org.datsim.viz.FctPlot}) per
     * combination of the axes other than the series, the series' values overlaid (the repetitions' flows pooled).
     */
    private static int fctPlots(Path dir, String x, List<String> rest, String series, Map<Integer, List<Row>> byPoint,
            String ext) throws IOException {
        Path points = dir.getParent().resolve(SweepRunner.POINTS);
        Map<String, Map<String, List<org.datsim.scenario.workload.FctFile.Row>>> figures = new LinkedHashMap<>();
        for (List<Row> reps : byPoint.values()) {
            Map<String, String> v = reps.get(0).values();
            // one figure per value of x and of the axes that split plots (those zipped with the series move with it)
            StringBuilder key = new StringBuilder();
            List<String> keyAxes = new ArrayList<>();
            if (x != null && !x.equals(series)) {
                keyAxes.add(x);
            }
            keyAxes.addAll(rest);
            for (String a : keyAxes) {
                key.append(key.length() == 0 ? "" : ", ").append(a).append('=').append(v.get(a));
            }
            String label = series == null ? "all" : series + "=" + v.get(series);
            for (Row r : reps) {
                Path csv = points.resolve(r.id()).resolve(org.datsim.scenario.workload.FctFile.FILE);
                if (Files.isRegularFile(csv)) {
                    figures.computeIfAbsent(key.toString(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(label, k -> new ArrayList<>())
                            .addAll(org.datsim.scenario.workload.FctFile.read(csv));
                }
            }
        }
        int files = 0;
        for (Map.Entry<String, Map<String, List<org.datsim.scenario.workload.FctFile.Row>>> f : figures.entrySet()) {
            List<org.datsim.viz.FctPlot.Run> runs = new ArrayList<>();
            for (Map.Entry<String, List<org.datsim.scenario.workload.FctFile.Row>> e : f.getValue().entrySet()) {
                List<org.datsim.scenario.workload.FctFile.Row> done = e.getValue().stream()
                        .filter(r -> !Double.isNaN(r.slowdown())).toList();
                if (!done.isEmpty()) {
                    runs.add(new org.datsim.viz.FctPlot.Run(e.getKey(),
                            done.stream().mapToLong(org.datsim.scenario.workload.FctFile.Row::sizeBytes).toArray(),
                            done.stream().mapToDouble(org.datsim.scenario.workload.FctFile.Row::slowdown).toArray()));
                }
            }
            if (runs.isEmpty()) {
                continue;
            }
            String name = "fct-slowdown" + (f.getKey().isEmpty() ? "" : "__" + safe(f.getKey())) + "." + ext;
            if (Files.exists(dir.resolve(name), java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(dir.resolve(name) + " exists and datsim did not write it; move it away"
                        + " and merge again");
            }
            org.datsim.scenario.run.OutputDir.record(dir, List.of(name));
            String title = "FCT slowdown by flow size" + (f.getKey().isEmpty() ? "" : " (" + f.getKey() + ")");
            String yLabel = "FCT / FCT alone, congestion control off";
            if ("png".equals(ext)) {
                org.datsim.viz.FctPlot.writePng(dir.resolve(name), title, yLabel, runs);
            } else {
                org.datsim.viz.FctPlot.writeSvg(dir.resolve(name), title, yLabel, runs);
            }
            files++;
        }
        return files;
    }

    private static String safe(String s) {
        return s.replaceAll("[^A-Za-z0-9_.=-]+", "_");
    }
}
