package org.datsim.viz;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.text.DecimalFormat;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSink;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYStepRenderer;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.data.statistics.HistogramDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * The latency from post to completion of every operation, per operation kind (the opcode, with {@code :STATUS}
 * appended for completions that did not succeed, as in summary.json), drawn with JFreeChart as two SVG files:
 * {@value #HISTOGRAM}, one histogram per kind over its own range with its percentiles, and {@value #CDF}, the
 * cumulative distributions of all kinds on one chart, drawn as the empirical step functions they are (a logarithmic
 * time axis when they span more than a factor of 20); the histograms count operations in whole numbers. Feed it trace events, then
 * {@link #write(Path)}. Keeps one number per completed operation and one per operation in flight.
 */
public final class LatencyPlots implements TraceSink<TraceEvent> {

    /** The histogram's file name. */
    public static final String HISTOGRAM = "latency-histogram.svg";
    /** The cumulative distribution's file name. */
    public static final String CDF = "latency-cdf.svg";

    private static final int BINS = 40;
    private static final int CDF_POINTS = 400;
    private static final Color[] PALETTE = {new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
        new Color(0xd62728), new Color(0x9467bd), new Color(0x8c564b), new Color(0xe377c2), new Color(0x7f7f7f),
        new Color(0xbcbd22), new Color(0x17becf)};

    private final Map<Long, Long> postedAt = new HashMap<>();
    private final Map<String, Columns> latency = new TreeMap<>();

    @Override
    public void accept(TraceEvent e) {
        if (TraceEvent.POST.equals(e.kind())) {
            postedAt.put(e.op(), e.tPs());
        } else if (TraceEvent.COMPLETE.equals(e.kind())) {
            Long t0 = postedAt.remove(e.op());
            if (t0 != null) {
                String kind = e.attrValue(TraceKey.OPCODE)
                        + ("DAT_DTO_SUCCESS".equals(e.status()) ? "" : ":" + e.status());
                latency.computeIfAbsent(kind, k -> new Columns()).add(e.tPs() - t0);
            }
        }
    }

    /**
     * Returns the latencies recorded per kind, sorted ascending, in picoseconds.
     *
     * @return kind to sorted latencies, in kind name order
     */
    public Map<String, long[]> latencies() {
        Map<String, long[]> out = new TreeMap<>();
        latency.forEach((k, c) -> {
            long[] v = new long[c.size()];
            for (int i = 0; i < v.length; i++) {
                v[i] = c.get(i);
            }
            Arrays.sort(v);
            out.put(k, v);
        });
        return out;
    }

    /**
     * Writes both plots into a directory; with no completed operation the plots say so.
     *
     * @param dir the run directory
     * @return the histogram and the CDF paths
     * @throws IOException if a file cannot be written
     */
    public Path[] write(Path dir) throws IOException {
        ChartFiles.headless();
        Map<String, long[]> data = latencies();
        Path h = dir.resolve(HISTOGRAM);
        Path c = dir.resolve(CDF);
        JFreeChart[] hs = histograms(data);
        int cols = hs.length == 1 ? 1 : 2;
        ChartFiles.writeSvg(hs, cols, 450 * (cols == 1 ? 2 : 1), 300, h);
        ChartFiles.writeSvg(cdf(data), 900, 520, c);
        return new Path[] {h, c};
    }

    /** One histogram per kind, each over its own range (kinds can differ by orders of magnitude). */
    static JFreeChart[] histograms(Map<String, long[]> data) {
        if (data.isEmpty()) {
            return new JFreeChart[] {ChartFactory.createHistogram(title("Latency histogram", data), "latency (us)",
                    "operations", new HistogramDataset(), PlotOrientation.VERTICAL, false, false, false)};
        }
        JFreeChart[] out = new JFreeChart[data.size()];
        int k = 0;
        for (Map.Entry<String, long[]> e : data.entrySet()) {
            long[] v = e.getValue();
            double[] us = new double[v.length];
            for (int i = 0; i < us.length; i++) {
                us[i] = v[i] / 1e6;
            }
            double lo = us[0];
            double hi = us[us.length - 1];
            if (hi <= lo) {
                hi = lo + Math.max(1e-6, lo * 1e-3);
            }
            HistogramDataset ds = new HistogramDataset();
            ds.addSeries(e.getKey(), us, BINS, lo, hi);
            JFreeChart chart = ChartFactory.createHistogram(e.getKey() + " (n=" + v.length + ")",
                    "latency from post to completion (us)", "operations", ds, PlotOrientation.VERTICAL, false, false,
                    false);
            chart.addSubtitle(new TextTitle("p50 " + fmt(pct(v, 50)) + "   p90 " + fmt(pct(v, 90)) + "   p99 "
                    + fmt(pct(v, 99)) + "   max " + fmt(v[v.length - 1])));
            XYPlot plot = chart.getXYPlot();
            NumberAxis counts = (NumberAxis) plot.getRangeAxis();
            counts.setStandardTickUnits(NumberAxis.createIntegerTickUnits()); // operations come in whole numbers
            XYBarRenderer r = (XYBarRenderer) plot.getRenderer();
            r.setBarPainter(new StandardXYBarPainter());
            r.setShadowVisible(false);
            r.setDrawBarOutline(false);
            style(chart, 0);
            r.setSeriesPaint(0, PALETTE[k % PALETTE.length]);
            out[k++] = chart;
        }
        return out;
    }

    /** The nearest-rank percentile of sorted values. */
    private static long pct(long[] sorted, double p) {
        int i = (int) Math.ceil(p / 100.0 * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static String fmt(long ps) {
        return org.datsim.core.time.SimTime.format(ps);
    }

    /**
     * The empirical CDF of sorted values as the corners of its steps: F(x) = (values <= x) / n jumps at each distinct
     * value to the fraction at or below it, and stays flat until the next. Returns {x, F(x)} pairs, x in
     * picoseconds: (v0, 0) then (v, F(v)) for each distinct value v, drawn with a step renderer (flat, then up).
     * With more than {@value #CDF_POINTS} distinct values it keeps the distinct values at the nearest ranks of
     * evenly spaced fractions (every corner kept is exact; the steps between them are merged), and always the last.
     */
    static double[][] ecdfSteps(long[] sorted) {
        int n = sorted.length;
        java.util.List<double[]> pts = new java.util.ArrayList<>();
        pts.add(new double[] {sorted[0], 0.0});
        int distinct = 0;
        for (int i = 0; i < n; i++) {
            if (i == n - 1 || sorted[i + 1] != sorted[i]) {
                distinct++;
            }
        }
        double every = Math.max(1.0, (double) distinct / CDF_POINTS);
        double next = 0;
        int seen = 0;
        for (int i = 0; i < n; i++) {
            if (i == n - 1 || sorted[i + 1] != sorted[i]) {
                seen++;
                if (seen >= next || i == n - 1) {
                    pts.add(new double[] {sorted[i], (double) (i + 1) / n});
                    next = seen + every;
                }
            }
        }
        return pts.toArray(new double[0][]);
    }

    static JFreeChart cdf(Map<String, long[]> data) {
        XYSeriesCollection ds = new XYSeriesCollection();
        for (Map.Entry<String, long[]> e : data.entrySet()) {
            long[] v = e.getValue();
            XYSeries s = new XYSeries(e.getKey() + " (n=" + v.length + ")", false, true);
            for (double[] pt : ecdfSteps(v)) {
                s.add(pt[0] / 1e6, pt[1]);
            }
            ds.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title("Latency CDF", data),
                "latency from post to completion (us)", "fraction of operations", ds, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = chart.getXYPlot();
        XYStepRenderer r = new XYStepRenderer(); // an empirical CDF is a step function, not a line between samples
        for (int i = 0; i < data.size(); i++) {
            r.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(r);
        plot.getRangeAxis().setRange(0, 1.02);
        double lo = Double.MAX_VALUE;
        double hi = 0;
        for (long[] v : data.values()) {
            lo = Math.min(lo, Math.max(1, v[0]) / 1e6);
            hi = Math.max(hi, v[v.length - 1] / 1e6);
        }
        if (!data.isEmpty() && hi / lo > 20) {
            LogAxis x = new LogAxis("latency from post to completion (us, log scale)");
            x.setSmallestValue(1e-6);
            x.setRange(lo / 1.2, hi * 1.2);
            x.setAutoTickUnitSelection(false);
            x.setTickUnit(new NumberTickUnit(hi / lo > 1e4 ? 1.0 : 0.5));
            plot.setDomainAxis(x);
        }
        style(chart, data.size());
        return chart;
    }

    private static String title(String what, Map<String, long[]> data) {
        return data.isEmpty() ? what + ": no operation completed" : what + " per operation kind";
    }

    private static void style(JFreeChart chart, int series) {
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = chart.getXYPlot();
        DecimalFormat f = ChartFiles.numbers("#,##0.###");
        for (ValueAxis a : new ValueAxis[] {plot.getDomainAxis(), plot.getRangeAxis()}) {
            if (a instanceof NumberAxis) {
                ((NumberAxis) a).setNumberFormatOverride(f);
            } else if (a instanceof LogAxis) {
                ((LogAxis) a).setNumberFormatOverride(f);
            }
        }
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        for (int i = 0; i < series; i++) {
            plot.getRenderer().setSeriesPaint(i, PALETTE[i % PALETTE.length]);
        }
    }
}
