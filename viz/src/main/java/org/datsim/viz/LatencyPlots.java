package org.datsim.viz;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSink;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYBarRenderer;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.StandardXYBarPainter;
import org.jfree.data.statistics.HistogramDataset;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.jfree.svg.SVGGraphics2D;

/**
 * The latency from post to completion of every operation, per operation kind (the opcode, with {@code :STATUS}
 * appended for completions that did not succeed, as in summary.json), drawn with JFreeChart as two SVG files: a
 * histogram ({@value #HISTOGRAM}) and a cumulative distribution ({@value #CDF}). Feed it trace events, then
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
                String kind = e.attrs().get("opcode") + ("DAT_DTO_SUCCESS".equals(e.status()) ? "" : ":" + e.status());
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
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
        Map<String, long[]> data = latencies();
        Path h = dir.resolve(HISTOGRAM);
        Path c = dir.resolve(CDF);
        svg(histogram(data), h);
        svg(cdf(data), c);
        return new Path[] {h, c};
    }

    private static JFreeChart histogram(Map<String, long[]> data) {
        HistogramDataset ds = new HistogramDataset();
        double max = 0;
        for (long[] v : data.values()) {
            max = Math.max(max, v[v.length - 1] / 1e6);
        }
        for (Map.Entry<String, long[]> e : data.entrySet()) {
            double[] us = new double[e.getValue().length];
            for (int i = 0; i < us.length; i++) {
                us[i] = e.getValue()[i] / 1e6;
            }
            ds.addSeries(e.getKey() + " (n=" + us.length + ")", us, BINS, 0, max > 0 ? max * 1.0001 : 1);
        }
        JFreeChart chart = ChartFactory.createHistogram(title("Latency histogram", data),
                "latency from post to completion (us)", "operations", ds, PlotOrientation.VERTICAL, true, false,
                false);
        XYPlot plot = chart.getXYPlot();
        plot.setForegroundAlpha(0.65f);
        XYBarRenderer r = (XYBarRenderer) plot.getRenderer();
        r.setBarPainter(new StandardXYBarPainter());
        r.setShadowVisible(false);
        style(chart, data.size());
        return chart;
    }

    private static JFreeChart cdf(Map<String, long[]> data) {
        XYSeriesCollection ds = new XYSeriesCollection();
        for (Map.Entry<String, long[]> e : data.entrySet()) {
            long[] v = e.getValue();
            XYSeries s = new XYSeries(e.getKey() + " (n=" + v.length + ")", true, true);
            int n = v.length;
            int points = Math.min(n, CDF_POINTS);
            s.add(v[0] / 1e6, 0.0);
            for (int k = 1; k <= points; k++) {
                int i = (int) Math.max(0, Math.min(n - 1, Math.round((double) k * n / points) - 1));
                s.add(v[i] / 1e6, (double) (i + 1) / n);
            }
            ds.addSeries(s);
        }
        JFreeChart chart = ChartFactory.createXYLineChart(title("Latency CDF", data),
                "latency from post to completion (us)", "fraction of operations", ds, PlotOrientation.VERTICAL, true,
                false, false);
        XYPlot plot = chart.getXYPlot();
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, false);
        for (int i = 0; i < data.size(); i++) {
            r.setSeriesStroke(i, new BasicStroke(2f));
        }
        plot.setRenderer(r);
        plot.getRangeAxis().setRange(0, 1.02);
        style(chart, data.size());
        return chart;
    }

    private static String title(String what, Map<String, long[]> data) {
        return data.isEmpty() ? what + ": no operation completed" : what + " per operation kind";
    }

    private static void style(JFreeChart chart, int series) {
        chart.setBackgroundPaint(Color.WHITE);
        XYPlot plot = chart.getXYPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(new Color(0xdddddd));
        plot.setRangeGridlinePaint(new Color(0xdddddd));
        for (int i = 0; i < series; i++) {
            plot.getRenderer().setSeriesPaint(i, PALETTE[i % PALETTE.length]);
        }
    }

    private static void svg(JFreeChart chart, Path file) throws IOException {
        SVGGraphics2D g = new SVGGraphics2D(900, 520);
        g.setDefsKeyPrefix("datsim");
        chart.draw(g, new Rectangle(0, 0, 900, 520));
        Files.writeString(file, g.getSVGDocument() + "\n", StandardCharsets.UTF_8);
    }
}
