package org.datsim.scenario.calibrate;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;

/**
 * The published perftest figures the presets are measured against (resource {@code calibration/targets.csv}; sources
 * and trust in docs/calibration.md), and the model's figure for each, measured with {@link PerftestRun} the way
 * perftest measures it. The file is read with Apache Commons CSV (quoted fields with commas: the hardware notes).
 */
public final class CalibrationTargets {

    /** The resource holding the targets. */
    public static final String RESOURCE = "/calibration/targets.csv";

    /** The metrics a target can name. */
    public static final List<String> METRICS = List.of("t_typical", "bw_avg_gbps", "bw_peak_gbps", "msg_rate_mpps",
            "switch_hop_ns", "half_peak_bytes");

    /** Latency iterations per measurement: the model is deterministic, so more would only repeat the figure. */
    static final int LAT_ITERS = 200;

    /**
     * One published figure.
     *
     * @param id a short name
     * @param preset the preset it calibrates
     * @param test the perftest command
     * @param size the message size (0 for half_peak_bytes)
     * @param mtu the path MTU, or 0 for the preset's
     * @param txDepth the tx depth, or 0 for perftest's default
     * @param switches switches between the hosts
     * @param metric one of {@link #METRICS}
     * @param low the published figure, or the low end of its range
     * @param high the high end (equal to low for one figure)
     * @param unit the figure's unit
     * @param tolerance the relative tolerance around the range
     * @param hardware the hardware and conditions of the measurement
     * @param publishedAs the test and flags as published
     * @param source where it is published
     * @param trust high, medium or low
     */
    public record Target(String id, String preset, String test, long size, long mtu, int txDepth, int switches,
            String metric, double low, double high, String unit, double tolerance, String hardware,
            String publishedAs, String source, String trust) {

        /** Returns true if the model's figure is within the tolerance of the range. */
        public boolean accepts(double model) {
            return model >= low * (1 - tolerance) - 1e-12 && model <= high * (1 + tolerance) + 1e-12;
        }

        /**
         * The model's relative error against the range: 0 inside it, else the distance to the nearer end over that
         * end.
         */
        public double error(double model) {
            if (model < low) {
                return (model - low) / low;
            }
            if (model > high) {
                return (model - high) / high;
            }
            return 0;
        }

        /** The range as text. */
        public String text() {
            return low == high ? Calibration.fmt(low) : Calibration.fmt(low) + "-" + Calibration.fmt(high);
        }
    }

    private CalibrationTargets() {
    }

    /**
     * Reads the targets.
     *
     * @return every target, in file order
     * @throws IllegalStateException if the resource is malformed (a defect of the build, not of user input)
     */
    public static List<Target> load() {
        try (InputStream in = CalibrationTargets.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + RESOURCE);
            }
            return parse(new InputStreamReader(in, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static List<Target> parse(Reader r) throws IOException {
        List<Target> out = new ArrayList<>();
        CSVFormat f = CSVFormat.DEFAULT.builder().setHeader().setSkipHeaderRecord(true).build();
        for (CSVRecord c : f.parse(r)) {
            String metric = c.get("metric");
            if (!METRICS.contains(metric)) {
                throw new IllegalStateException(RESOURCE + " line " + c.getRecordNumber() + ": unknown metric "
                        + metric);
            }
            if (PerftestRun.Test.named(c.get("test")) == null) {
                throw new IllegalStateException(RESOURCE + " line " + c.getRecordNumber() + ": unknown test "
                        + c.get("test"));
            }
            out.add(new Target(c.get("id"), c.get("preset"), c.get("test"), Long.parseLong(c.get("size")),
                    number(c.get("mtu")), (int) number(c.get("tx_depth")), (int) number(c.get("switches")), metric,
                    Double.parseDouble(c.get("low")), Double.parseDouble(c.get("high")), c.get("unit"),
                    Double.parseDouble(c.get("tolerance")), c.get("hardware"), c.get("published_as"),
                    c.get("source"), c.get("trust")));
        }
        return out;
    }

    private static long number(String text) {
        return text.isBlank() ? 0 : Long.parseLong(text.trim());
    }

    /**
     * Measures the model's figure of a target, in the target's unit.
     *
     * @param t the target
     * @return the figure
     */
    public static double model(Target t) {
        PerftestRun.Test test = PerftestRun.Test.named(t.test());
        switch (t.metric()) {
            case "t_typical":
                return PerftestRun.latency(options(t, test, t.switches()), t.size()).tTypical();
            case "switch_hop_ns": {
                double with = PerftestRun.latency(options(t, test, t.switches()), t.size()).tTypical();
                double without = PerftestRun.latency(options(t, test, 0), t.size()).tTypical();
                return (with - without) / t.switches() * 1000;
            }
            case "bw_avg_gbps":
                return PerftestRun.bandwidth(options(t, test, t.switches()), t.size()).avg();
            case "bw_peak_gbps":
                return PerftestRun.bandwidth(options(t, test, t.switches()), t.size()).peak();
            case "msg_rate_mpps":
                return PerftestRun.bandwidth(options(t, test, t.switches()), t.size()).msgRate();
            case "half_peak_bytes":
                return halfPeak(options(t, test, t.switches()));
            default:
                throw new IllegalStateException("unknown metric " + t.metric());
        }
    }

    /** The smallest power-of-two size from 2 B whose average reaches half of the 1 MiB average. */
    private static double halfPeak(PerftestRun.Options o) {
        double peak = PerftestRun.bandwidth(o, 1L << 20).avg();
        for (long size = 2; size < (1L << 20); size *= 2) {
            if (PerftestRun.bandwidth(o, size).avg() >= peak / 2) {
                return size;
            }
        }
        return 1L << 20;
    }

    private static PerftestRun.Options options(Target t, PerftestRun.Test test, int switches) {
        int iters = test.bw ? test.defaultIters() : LAT_ITERS;
        int tx = t.txDepth() > 0 ? t.txDepth() : test.defaultTxDepth();
        long inline = test == PerftestRun.Test.READ_LAT || test == PerftestRun.Test.READ_BW ? 0 : test.defaultInline();
        return new PerftestRun.Options(test, List.of(t.size()), false, iters, 1, tx, PerftestRun.DEF_CQ_MOD, t.mtu(),
                inline, false, true, t.preset(), switches);
    }
}
