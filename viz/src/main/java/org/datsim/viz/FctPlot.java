package org.datsim.viz;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Shape;
import java.awt.geom.Ellipse2D;
import java.awt.geom.Path2D;
import java.awt.geom.Rectangle2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTick;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.axis.ValueTick;
import org.jfree.chart.plot.SeriesRenderingOrder;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.jfree.chart.ui.RectangleEdge;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;

/**
 * Slowdown percentiles against flow size for one run or several overlaid, in the manner of HPCC's Figure 11 and of
 * its {@code analysis/fct_analysis.py}: each run's flows, sorted by size, are cut into groups of {@code step} percent
 * of the flows; each group is drawn at its largest flow's size with its median, 95th and 99th percentile slowdown
 * (HPCC's rank: element {@code floor(n x p)} of the sorted slowdowns). Slowdowns below 1 are drawn as 1, as HPCC's
 * script does.
 *
 * <p>The size axis is logarithmic with ticks at round sizes (1K, 10K, 100K, 1M; 2K and 5K between decades when the
 * axis spans few of them), labelled with SI suffixes so that they never run into each other. Each run has its colour;
 * the percentiles have their own line and marker (p50 solid with squares, p95 dashed with circles, p99 dotted with
 * open triangles, drawn in that order so that a p99 equal to the p95 still shows). The slowdown axis is linear from
 * 1, logarithmic when the largest slowdown passes {@value #LOG_Y_ABOVE}. The vertical axis says what the FCT is
 * divided by (the caller's label: an ideal FCT or HPCC's standalone FCT are not the same yardstick). Rendered with
 * JFreeChart to SVG through {@link ChartFiles}, so the same data give the same bytes.
 */
public final class FctPlot {

    /** Chart width in pixels. */
    public static final int WIDTH = 900;
    /** Chart height in pixels. */
    public static final int HEIGHT = 560;
    /** Above this largest slowdown the slowdown axis is logarithmic. */
    public static final double LOG_Y_ABOVE = 30;
    /** The percentiles drawn, with their names. */
    static final double[] PERCENTILES = {0.5, 0.95, 0.99};
    static final String[] NAMES = {"p50", "p95", "p99"};

    /** Run colours, in order (colour-blind-safe Okabe-Ito hues, darkest first). */
    private static final Color[] COLOURS = {new Color(0x0072B2), new Color(0xD55E00), new Color(0x009E73),
        new Color(0xCC79A7), new Color(0xE69F00), new Color(0x56B4E9), new Color(0x000000), new Color(0xF0E442)};

    static {
        ChartFiles.headless();
    }

    private FctPlot() {
    }

    /**
     * One run's flows.
     *
     * @param label the legend's name for the run
     * @param sizes each flow's size, bytes
     * @param slowdowns each flow's slowdown (same order as sizes)
     */
    public record Run(String label, long[] sizes, double[] slowdowns) {
    }

    /**
     * One group of flows: the largest size in it and its slowdown percentiles.
     *
     * @param size the group's largest flow size, bytes
     * @param p the p50, p95 and p99 slowdowns (each at least 1)
     */
    public record Group(long size, double[] p) {
    }

    /**
     * Cuts a run's flows into groups of {@code step} percent of the flows, by size.
     *
     * @param sizes the sizes
     * @param slowdowns the slowdowns
     * @param step the group size in percent of the flows, 1 to 100
     * @return the groups in size order
     */
    public static List<Group> groups(long[] sizes, double[] slowdowns, int step) {
        int n = sizes.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> sizes[a] != sizes[b] ? Long.compare(sizes[a], sizes[b])
                : Double.compare(slowdowns[a], slowdowns[b]));
        List<Group> out = new ArrayList<>();
        for (int g = 0; g < 100; g += step) {
            int lo = (int) ((long) g * n / 100);
            int hi = (int) ((long) Math.min(100, g + step) * n / 100);
            if (hi <= lo) {
                continue;
            }
            double[] s = new double[hi - lo];
            for (int i = lo; i < hi; i++) {
                s[i - lo] = Math.max(1, slowdowns[order[i]]);
            }
            Arrays.sort(s);
            double[] p = new double[PERCENTILES.length];
            for (int k = 0; k < p.length; k++) {
                p[k] = s[(int) (s.length * PERCENTILES[k])];
            }
            out.add(new Group(sizes[order[hi - 1]], p));
        }
        return out;
    }

    /**
     * Builds the chart.
     *
     * @param title the chart title
     * @param yLabel the vertical axis's label, naming what the FCT is divided by
     * @param runs the runs, each with at least one flow
     * @param step the group size in percent of the flows, 1 to 100
     * @return the chart
     */
    public static JFreeChart chart(String title, String yLabel, List<Run> runs, int step) {
        XYSeriesCollection data = new XYSeriesCollection();
        long minSize = Long.MAX_VALUE;
        long maxSize = 1;
        double maxY = 1;
        for (Run r : runs) {
            List<Group> gs = groups(r.sizes(), r.slowdowns(), step);
            for (int k = 0; k < NAMES.length; k++) {
                XYSeries s = new XYSeries(r.label() + "  " + NAMES[k], false, true);
                for (Group g : gs) {
                    s.add((double) g.size(), g.p()[k]);
                    minSize = Math.min(minSize, g.size());
                    maxSize = Math.max(maxSize, g.size());
                    maxY = Math.max(maxY, g.p()[k]);
                }
                data.addSeries(s);
            }
        }
        if (minSize == Long.MAX_VALUE) {
            minSize = 1;
        }
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        SizeAxis x = new SizeAxis("flow size (bytes; each point the largest flow of a group of " + step
                + "% of the run's flows)", Math.max(1, minSize), maxSize);
        ValueAxis y;
        if (maxY > LOG_Y_ABOVE) {
            y = new RoundLogAxis(yLabel + " (log scale)", 1, maxY, false);
        } else {
            NumberAxis n = new NumberAxis(yLabel);
            n.setNumberFormatOverride(ChartFiles.numbers("0.##"));
            n.setRange(1 - (maxY - 1) * 0.03 - 0.01, maxY + (maxY - 1) * 0.06 + 0.05);
            n.setTickUnit(new org.jfree.chart.axis.NumberTickUnit(niceStep((maxY - 1) / 8),
                    ChartFiles.numbers("0.##")));
            y = n;
        }
        XYLineAndShapeRenderer r = new XYLineAndShapeRenderer(true, true);
        float[][] dashes = {null, {7f, 4f}, {2f, 3f}};
        Shape[] shapes = {new Rectangle2D.Double(-3.5, -3.5, 7, 7), new Ellipse2D.Double(-4, -4, 8, 8), triangle()};
        for (int i = 0; i < data.getSeriesCount(); i++) {
            int run = i / NAMES.length;
            int k = i % NAMES.length;
            r.setSeriesPaint(i, COLOURS[run % COLOURS.length]);
            r.setSeriesStroke(i, dashes[k] == null ? new BasicStroke(2.2f)
                    : new BasicStroke(k == 2 ? 2.0f : 1.8f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                            dashes[k], 0f));
            r.setSeriesShape(i, shapes[k]);
            r.setSeriesShapesFilled(i, k < 2);
            r.setSeriesOutlineStroke(i, new BasicStroke(1.5f));
            r.setUseOutlinePaint(false);
        }
        r.setDrawOutlines(true);
        XYPlot plot = new XYPlot(data, x, y, r);
        plot.setSeriesRenderingOrder(SeriesRenderingOrder.FORWARD);
        plot.setBackgroundPaint(Color.WHITE);
        plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
        plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
        JFreeChart chart = new JFreeChart(title, font.deriveFont(Font.BOLD, 14f), plot, true);
        chart.setBackgroundPaint(Color.WHITE);
        chart.getLegend().setItemFont(font);
        return chart;
    }

    /** The smallest of 1, 2, 2.5 and 5 times a power of ten that is at least {@code raw}. */
    static double niceStep(double raw) {
        double p = Math.pow(10, Math.floor(Math.log10(Math.max(raw, 1e-3))));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static Shape triangle() {
        Path2D.Double t = new Path2D.Double();
        t.moveTo(0, -5);
        t.lineTo(4.5, 3.5);
        t.lineTo(-4.5, 3.5);
        t.closePath();
        return t;
    }

    /**
     * Writes the chart as SVG.
     *
     * @param file the file
     * @param title the title
     * @param yLabel the vertical axis's label, naming what the FCT is divided by
     * @param runs the runs
     * @throws IOException if it cannot be written
     */
    public static void writeSvg(Path file, String title, String yLabel, List<Run> runs) throws IOException {
        ChartFiles.writeSvg(chart(title, yLabel, runs, 5), WIDTH, HEIGHT, file);
    }

    /**
     * Writes the chart as PNG.
     *
     * @param file the file
     * @param title the title
     * @param yLabel the vertical axis's label, naming what the FCT is divided by
     * @param runs the runs
     * @throws IOException if it cannot be written
     */
    public static void writePng(Path file, String title, String yLabel, List<Run> runs) throws IOException {
        org.jfree.chart.ChartUtils.saveChartAsPNG(file.toFile(), chart(title, yLabel, runs, 5), WIDTH, HEIGHT);
    }

    /**
     * A size with an SI suffix of powers of ten, as HPCC's figures label sizes: 1K, 10K, 2.5M.
     *
     * @param v the size
     * @return the label
     */
    static String sizeLabel(double v) {
        String[] suffix = {"", "K", "M", "G", "T"};
        int i = 0;
        double x = v;
        while (x >= 1000 && i < suffix.length - 1) {
            x /= 1000;
            i++;
        }
        return ChartFiles.numbers("0.#").format(x) + suffix[i];
    }

    /**
     * A base-10 logarithmic axis with ticks at round values only: every power of ten in range, and 2 and 5 times
     * them when the axis spans at most three decades.
     */
    static class RoundLogAxis extends LogAxis {
        private static final long serialVersionUID = 1L;
        private final boolean si;

        RoundLogAxis(String label, double lo, double hi, boolean si) {
            super(label);
            this.si = si;
            setBase(10);
            double l = Math.log10(lo);
            double h = Math.log10(Math.max(hi, lo * 1.0001));
            double m = Math.max(0.04, (h - l) * 0.04);
            setRange(Math.pow(10, l - (si ? m : 0.01)), Math.pow(10, h + m));
        }

        /** Returns the tick values in the current range. */
        List<Double> tickValues() {
            double lo = getRange().getLowerBound();
            double hi = getRange().getUpperBound();
            boolean minor = Math.log10(hi / lo) <= 3.2;
            List<Double> out = new ArrayList<>();
            for (int e = (int) Math.floor(Math.log10(lo)); e <= (int) Math.ceil(Math.log10(hi)); e++) {
                for (int m : minor ? new int[] {1, 2, 5} : new int[] {1}) {
                    double v = m * Math.pow(10, e);
                    if (v >= lo && v <= hi) {
                        out.add(v);
                    }
                }
            }
            return out;
        }

        String label(double v) {
            return si ? sizeLabel(v) : ChartFiles.numbers("0.##").format(v);
        }

        @Override
        @SuppressWarnings("rawtypes")
        protected List refreshTicksHorizontal(java.awt.Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
            List<ValueTick> out = new ArrayList<>();
            TextAnchor anchor = edge == RectangleEdge.TOP ? TextAnchor.BOTTOM_CENTER : TextAnchor.TOP_CENTER;
            for (double v : tickValues()) {
                out.add(new NumberTick(v, label(v), anchor, TextAnchor.CENTER, 0.0));
            }
            return out;
        }

        @Override
        @SuppressWarnings("rawtypes")
        protected List refreshTicksVertical(java.awt.Graphics2D g2, Rectangle2D dataArea, RectangleEdge edge) {
            List<ValueTick> out = new ArrayList<>();
            TextAnchor anchor = edge == RectangleEdge.LEFT ? TextAnchor.CENTER_RIGHT : TextAnchor.CENTER_LEFT;
            for (double v : tickValues()) {
                out.add(new NumberTick(v, label(v), anchor, TextAnchor.CENTER, 0.0));
            }
            return out;
        }
    }

    /** The size axis: round sizes with SI suffixes. */
    static final class SizeAxis extends RoundLogAxis {
        private static final long serialVersionUID = 1L;

        SizeAxis(String label, double lo, double hi) {
            super(label, lo, hi, true);
        }
    }
}
