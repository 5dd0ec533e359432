package org.datsim.viz;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.category.StatisticalLineAndShapeRenderer;
import org.jfree.chart.renderer.xy.XYErrorRenderer;
import org.jfree.data.statistics.DefaultStatisticalCategoryDataset;
import org.jfree.data.xy.YIntervalSeries;
import org.jfree.data.xy.YIntervalSeriesCollection;

/**
 * A line chart of one measured quantity against one parameter, one line per value of another parameter, each point
 * a mean with an error bar (for example a confidence interval). The x values are numbers (drawn on a linear or
 * logarithmic axis) when every point has one, else categories in the order they were added. Rendered with JFreeChart
 * to SVG (JFreeSVG, with fixed definition ids so the same data give the same file) or PNG. Not thread-safe.
 */
public final class LinePlot {

    /** Chart width in pixels. */
    public static final int WIDTH = 800;
    /** Chart height in pixels. */
    public static final int HEIGHT = 500;

    private record Pt(String xText, Double x, double y, double halfWidth) {
    }

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final boolean logX;
    private final Map<String, List<Pt>> series = new LinkedHashMap<>();
    private String intervalNote;
    private String caption;

    static {
        ChartFiles.headless();
    }

    /**
     * Creates an empty plot.
     *
     * @param title the chart title
     * @param xLabel the x axis label
     * @param yLabel the y axis label
     * @param logX true for a logarithmic x axis (numeric x only; needs positive x values)
     */
    public LinePlot(String title, String xLabel, String yLabel, boolean logX) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
        this.logX = logX;
    }

    /**
     * Adds a point.
     *
     * @param seriesName the line it belongs to
     * @param xText the x value as text (the category when x is not numeric)
     * @param x the x value as a number, or null if it has none
     * @param y the mean
     * @param halfWidth half the error bar (0 for none; NaN is taken as 0)
     */
    public void add(String seriesName, String xText, Double x, double y, double halfWidth) {
        series.computeIfAbsent(seriesName, k -> new ArrayList<>()).add(new Pt(xText, x, y,
                Double.isNaN(halfWidth) ? 0 : halfWidth));
    }

    /**
     * Sets what the error bars are (for example {@code "mean, ci95"}), added to the y label as {@code " (NOTE)"} only
     * if some point has an error bar: a plot of single runs must not claim intervals it does not draw.
     *
     * @param note the words, or null for none
     * @return this plot
     */
    public LinePlot intervalNote(String note) {
        this.intervalNote = note;
        return this;
    }

    /**
     * Sets a caption under the chart: what the model says about its shape (for example the limit a plateau is).
     *
     * @param text the caption, or null for none
     * @return this plot
     */
    public LinePlot caption(String text) {
        this.caption = text == null || text.isBlank() ? null : text;
        return this;
    }

    /** Returns the y axis label: the label, with the interval note if some point has an error bar. */
    String yLabel() {
        boolean bars = false;
        for (List<Pt> l : series.values()) {
            for (Pt p : l) {
                bars |= p.halfWidth() > 0;
            }
        }
        return bars && intervalNote != null ? yLabel + " (" + intervalNote + ")" : yLabel;
    }

    /** Returns the distinct numeric x values, ascending (the ticks of a logarithmic axis). */
    private double[] xValues() {
        java.util.TreeSet<Double> xs = new java.util.TreeSet<>();
        series.values().forEach(l -> l.forEach(p -> xs.add(p.x())));
        return xs.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Returns true if no point was added. */
    public boolean isEmpty() {
        return series.isEmpty();
    }

    private boolean numeric() {
        for (List<Pt> l : series.values()) {
            for (Pt p : l) {
                if (p.x() == null || logX && p.x() <= 0) {
                    return false;
                }
            }
        }
        return true;
    }

    /** Builds the chart. */
    public JFreeChart chart() {
        Font font = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
        JFreeChart chart;
        if (numeric()) {
            YIntervalSeriesCollection data = new YIntervalSeriesCollection();
            for (Map.Entry<String, List<Pt>> e : series.entrySet()) {
                YIntervalSeries s = new YIntervalSeries(e.getKey());
                for (Pt p : e.getValue()) {
                    s.add(p.x(), p.y(), p.y() - p.halfWidth(), p.y() + p.halfWidth());
                }
                data.addSeries(s);
            }
            ValueAxis xAxis = logX ? new ValuesLogAxis(xLabel, xValues()) : numberAxis(xLabel);
            if (xAxis instanceof NumberAxis n) {
                n.setAutoRangeIncludesZero(false);
            }
            NumberAxis yAxis = numberAxis(yLabel());
            XYErrorRenderer r = new XYErrorRenderer();
            r.setDefaultLinesVisible(true);
            r.setDefaultShapesVisible(true);
            r.setDrawXError(false);
            XYPlot plot = new XYPlot(data, xAxis, yAxis, r);
            plot.setBackgroundPaint(Color.WHITE);
            plot.setDomainGridlinePaint(Color.LIGHT_GRAY);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
            for (int i = 0; i < data.getSeriesCount(); i++) {
                r.setSeriesStroke(i, new BasicStroke(1.5f));
            }
            chart = new JFreeChart(title, font, plot, true);
        } else {
            DefaultStatisticalCategoryDataset data = new DefaultStatisticalCategoryDataset();
            Set<String> categories = new LinkedHashSet<>();
            series.values().forEach(l -> l.forEach(p -> categories.add(p.xText())));
            for (String c : categories) {
                for (Map.Entry<String, List<Pt>> e : series.entrySet()) {
                    for (Pt p : e.getValue()) {
                        if (p.xText().equals(c)) {
                            data.add(p.y(), p.halfWidth(), e.getKey(), c);
                        }
                    }
                }
            }
            StatisticalLineAndShapeRenderer r = new StatisticalLineAndShapeRenderer(true, true);
            CategoryPlot plot = new CategoryPlot(data, new CategoryAxis(xLabel), numberAxis(yLabel()), r);
            plot.setBackgroundPaint(Color.WHITE);
            plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
            chart = new JFreeChart(title, font, plot, true);
        }
        chart.setBackgroundPaint(Color.WHITE);
        if (caption != null) {
            org.jfree.chart.title.TextTitle t = new org.jfree.chart.title.TextTitle(caption, font);
            t.setPosition(org.jfree.chart.ui.RectangleEdge.BOTTOM);
            t.setMaximumLinesToDisplay(3);
            chart.addSubtitle(t);
        }
        return chart;
    }

    /**
     * Writes the chart as SVG.
     *
     * @param file the file
     * @throws IOException if it cannot be written
     */
    public void writeSvg(Path file) throws IOException {
        ChartFiles.writeSvg(chart(), WIDTH, HEIGHT, file);
    }

    /**
     * Writes the chart as PNG.
     *
     * @param file the file
     * @throws IOException if it cannot be written
     */
    public void writePng(Path file) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart(), WIDTH, HEIGHT);
    }

    /**
     * A linear axis whose tick labels do not depend on the machine's locale (JFreeChart's default formats use it:
     * "2,5" on a German machine), so that a sweep's plots are the same bytes wherever they are merged; the format is
     * the latency plots'.
     */
    private static NumberAxis numberAxis(String label) {
        NumberAxis a = new NumberAxis(label);
        a.setNumberFormatOverride(ChartFiles.numbers("#,##0.###"));
        return a;
    }

    /**
     * A base-2 logarithmic axis whose ticks are the swept values themselves (25, 50, 100, 200, 400, or 64, 4096...),
     * labelled with plain numbers: a reader sees where the points were taken, not powers of two between them.
     */
    static final class ValuesLogAxis extends LogAxis {
        private static final long serialVersionUID = 1L;
        private final double[] ticks;

        ValuesLogAxis(String label, double[] ticks) {
            super(label);
            this.ticks = ticks.clone();
            setBase(2);
            setNumberFormatOverride(ChartFiles.numbers("0.###"));
            // a margin of a fifth of the span in log terms, so that the first and last points are not on the frame
            if (ticks.length > 0) {
                double lo = calculateLog(ticks[0]);
                double hi = calculateLog(ticks[ticks.length - 1]);
                double m = Math.max(0.25, (hi - lo) / 20);
                setRange(calculateValue(lo - m), calculateValue(hi + m));
            }
        }

        /** Returns the tick values: the swept values. */
        double[] tickValues() {
            return ticks.clone();
        }

        @Override
        protected List refreshTicksHorizontal(java.awt.Graphics2D g2, java.awt.geom.Rectangle2D dataArea,
                org.jfree.chart.ui.RectangleEdge edge) {
            List<org.jfree.chart.axis.ValueTick> out = new ArrayList<>();
            java.text.NumberFormat f = getNumberFormatOverride();
            org.jfree.chart.ui.TextAnchor anchor = edge == org.jfree.chart.ui.RectangleEdge.TOP
                    ? org.jfree.chart.ui.TextAnchor.BOTTOM_CENTER : org.jfree.chart.ui.TextAnchor.TOP_CENTER;
            for (double v : ticks) {
                if (getRange().contains(v)) {
                    out.add(new org.jfree.chart.axis.NumberTick(v, f.format(v), anchor,
                            org.jfree.chart.ui.TextAnchor.CENTER, 0.0));
                }
            }
            return out;
        }
    }
}
