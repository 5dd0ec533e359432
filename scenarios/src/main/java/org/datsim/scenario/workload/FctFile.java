package org.datsim.scenario.workload;

import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVParser;
import org.apache.commons.csv.CSVPrinter;
import org.apache.commons.csv.CSVRecord;

/**
 * {@code fct.csv}: a header line and one row per flow, {@code src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,
 * standalone_fct_ps,slowdown,slowdown_vs_standalone}, hosts by name, in flow order; a flow that did not complete has
 * an empty {@code fct_ps} and slowdowns, a flow without an ideal FCT an empty {@code ideal_fct_ps} and
 * {@code slowdown}. {@code ideal_fct_ps} is the flow's FCT alone with congestion control off ({@link FlowRunner}),
 * {@code standalone_fct_ps} HPCC's formula ({@link StandaloneFct}); {@code slowdown} is fct / ideal_fct and
 * {@code slowdown_vs_standalone} fct / standalone_fct, six decimals. Written and read with Commons CSV (RFC 4180).
 * Files written before the standalone FCT existed ({@link #OLD_COLUMNS}) are read too, their rows without a
 * standalone FCT. Also the percentiles per flow-size bucket that {@code datsim fct} prints and that summary.json
 * holds.
 */
public final class FctFile {

    /** The file name in a run directory. */
    public static final String FILE = "fct.csv";
    /** The columns. */
    public static final List<String> COLUMNS = List.of("src", "dst", "size_bytes", "start_ps", "fct_ps",
            "ideal_fct_ps", "standalone_fct_ps", "slowdown", "slowdown_vs_standalone");
    /** The columns of files written before the standalone FCT (still read; their ideal FCT was the flow alone with
     * the run's own congestion control). */
    public static final List<String> OLD_COLUMNS = List.of("src", "dst", "size_bytes", "start_ps", "fct_ps",
            "ideal_fct_ps", "slowdown");
    /** The upper bounds of the size buckets, bytes (the last bucket is open): HPCC's comparison table. */
    public static final long[] BUCKET_LIMITS = {10_000, 100_000, 1_000_000};
    /** The buckets' labels. */
    public static final List<String> BUCKETS = List.of("<10KB", "10KB-100KB", "100KB-1MB", ">1MB");
    /** The most rows read from a file. */
    static final int MAX_ROWS = FlowGenerator.MAX_FLOWS;

    private FctFile() {
    }

    /**
     * One row.
     *
     * @param src the source host
     * @param dst the destination host
     * @param sizeBytes the flow's size
     * @param startPs its start time
     * @param fctPs its FCT, or -1 if it did not complete
     * @param idealPs its FCT alone with congestion control off, or -1 if unknown
     * @param standalonePs HPCC's standalone FCT of it, or -1 if unknown (a file of the old format)
     */
    public record Row(String src, String dst, long sizeBytes, long startPs, long fctPs, long idealPs,
            long standalonePs) {
        /** A row without a standalone FCT. */
        public Row(String src, String dst, long sizeBytes, long startPs, long fctPs, long idealPs) {
            this(src, dst, sizeBytes, startPs, fctPs, idealPs, -1);
        }

        /** Returns fct / ideal, or NaN if either is unknown. */
        public double slowdown() {
            return fctPs < 0 || idealPs <= 0 ? Double.NaN : (double) fctPs / idealPs;
        }

        /** Returns fct / standalone, or NaN if either is unknown. */
        public double slowdownVsStandalone() {
            return fctPs < 0 || standalonePs <= 0 ? Double.NaN : (double) fctPs / standalonePs;
        }
    }

    /**
     * Writes the file.
     *
     * @param file the file
     * @param rows the rows
     * @throws IOException if it cannot be written
     */
    public static void write(Path file, List<Row> rows) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
                CSVPrinter p = new CSVPrinter(w, CSVFormat.RFC4180.builder().setRecordSeparator("\n").get())) {
            p.printRecord(COLUMNS);
            for (Row r : rows) {
                double s = r.slowdown();
                double v = r.slowdownVsStandalone();
                p.printRecord(r.src(), r.dst(), r.sizeBytes(), r.startPs(), r.fctPs() < 0 ? "" : r.fctPs(),
                        r.idealPs() < 0 ? "" : r.idealPs(), r.standalonePs() < 0 ? "" : r.standalonePs(),
                        Double.isNaN(s) ? "" : fixed(s), Double.isNaN(v) ? "" : fixed(v));
            }
        }
    }

    /** A number with six decimals, without {@link java.util.Formatter}'s locale. */
    static String fixed(double v) {
        return java.math.BigDecimal.valueOf(v).setScale(6, java.math.RoundingMode.HALF_UP).toPlainString();
    }

    /**
     * Reads the file, of either format ({@link #COLUMNS}, or {@link #OLD_COLUMNS} whose rows get no standalone FCT).
     *
     * @param file the file
     * @return the rows
     * @throws IOException if it cannot be read
     * @throws IllegalArgumentException naming the line, if a row is malformed
     */
    public static List<Row> read(Path file) throws IOException {
        return readTable(file).rows();
    }

    /**
     * A file's rows and its format.
     *
     * @param rows the rows
     * @param oldFormat true for a file of {@link #OLD_COLUMNS}: no standalone FCT, and an ideal FCT that kept the
     *     run's congestion control
     */
    public record Table(List<Row> rows, boolean oldFormat) {
    }

    /**
     * Reads the file, and says which format it has.
     *
     * @param file the file
     * @return the rows and the format
     * @throws IOException if it cannot be read
     * @throws IllegalArgumentException naming the line, if a row is malformed
     */
    public static Table readTable(Path file) throws IOException {
        try {
            return parse(file);
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text (is this a file datsim wrote?)", e);
        } catch (java.io.UncheckedIOException e) { // the CSV parser's way of passing on a read's failure
            if (e.getCause() instanceof java.nio.charset.CharacterCodingException) {
                throw new IOException(file + ": not UTF-8 text (is this a file datsim wrote?)", e);
            }
            throw new IOException(file + ": " + org.datsim.core.util.Text.clean(String.valueOf(
                    e.getCause().getMessage()), 200), e);
        } catch (IllegalArgumentException | IllegalStateException e) {
            String m = String.valueOf(e.getMessage());
            throw new IllegalArgumentException(m.startsWith(file.toString()) ? m : file + ": not a table of flows: "
                    + org.datsim.core.util.Text.clean(m, 200), e);
        }
    }

    private static Table parse(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        boolean old;
        try (Reader r = org.datsim.viz.RunFiles.reader(file, org.datsim.viz.RunFiles.MAX_TABLE_BYTES);
                CSVParser p = CSVParser.parse(r, CSVFormat.RFC4180.builder().setHeader().setSkipHeaderRecord(true)
                        .get())) {
            old = p.getHeaderNames().equals(OLD_COLUMNS);
            if (!old && !p.getHeaderNames().equals(COLUMNS)) {
                throw new IllegalArgumentException(file + ":1: expected the header " + String.join(",", COLUMNS)
                        + " (or, from before standalone_fct_ps, " + String.join(",", OLD_COLUMNS) + ")");
            }
            for (CSVRecord rec : p) {
                if (rows.size() >= MAX_ROWS) {
                    throw new IllegalArgumentException(file + ": more than " + MAX_ROWS + " rows");
                }
                try {
                    rows.add(new Row(rec.get(0), rec.get(1), Long.parseLong(rec.get(2)), Long.parseLong(rec.get(3)),
                            optional(rec.get(4)), optional(rec.get(5)), old ? -1 : optional(rec.get(6))));
                } catch (RuntimeException e) {
                    throw new IllegalArgumentException(file + ":" + (rec.getRecordNumber() + 1)
                            + ": expected whole numbers in size_bytes, start_ps, fct_ps, ideal_fct_ps"
                            + (old ? "" : " and standalone_fct_ps"));
                }
            }
        }
        return new Table(rows, old);
    }

    private static long optional(String s) {
        return s.isEmpty() ? -1 : Long.parseLong(s);
    }

    /** Returns the bucket of a size: 0 to 3. */
    public static int bucket(long sizeBytes) {
        int b = 0;
        while (b < BUCKET_LIMITS.length && sizeBytes >= BUCKET_LIMITS[b]) {
            b++;
        }
        return b;
    }

    /**
     * The slowdown statistics of one bucket.
     *
     * @param label the bucket's label
     * @param flows the completed flows in it (with an ideal FCT, or a standalone FCT)
     * @param p50 median slowdown (NaN if none)
     * @param p95 95th percentile
     * @param p99 99th percentile
     */
    public record Bucket(String label, int flows, double p50, double p95, double p99) {
    }

    /**
     * Slowdown (fct / ideal) percentiles per size bucket, nearest-rank on the sorted slowdowns.
     *
     * @param rows the rows
     * @return one entry per bucket, smallest sizes first
     */
    public static List<Bucket> buckets(List<Row> rows) {
        return buckets(rows, Row::slowdown);
    }

    /**
     * Percentiles of fct / HPCC's standalone FCT per size bucket, nearest-rank; a bucket of rows without a standalone
     * FCT (an old file) has no flows.
     *
     * @param rows the rows
     * @return one entry per bucket, smallest sizes first
     */
    public static List<Bucket> bucketsVsStandalone(List<Row> rows) {
        return buckets(rows, Row::slowdownVsStandalone);
    }

    private static List<Bucket> buckets(List<Row> rows, java.util.function.ToDoubleFunction<Row> ratio) {
        List<Bucket> out = new ArrayList<>();
        for (int b = 0; b < BUCKETS.size(); b++) {
            double[] s = new double[rows.size()];
            int n = 0;
            for (Row r : rows) {
                double v = ratio.applyAsDouble(r);
                if (bucket(r.sizeBytes()) == b && !Double.isNaN(v)) {
                    s[n++] = v;
                }
            }
            double[] sorted = Arrays.copyOf(s, n);
            Arrays.sort(sorted);
            out.add(new Bucket(BUCKETS.get(b), n, percentile(sorted, 50), percentile(sorted, 95),
                    percentile(sorted, 99)));
        }
        return out;
    }

    /** The nearest-rank percentile of sorted values: the smallest value with at least p% at or below it. */
    public static double percentile(double[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p / 100 * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
    }
}
