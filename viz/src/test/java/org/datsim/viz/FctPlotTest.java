package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.Font;
import java.awt.FontMetrics;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.plot.XYPlot;
import org.jfree.chart.renderer.xy.XYLineAndShapeRenderer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The FCT plot: runs overlaid, a log size axis with round SI ticks whose labels do not overlap in the SVG, the
 * percentiles told apart by line and marker, and the vertical axis naming what the FCT is divided by.
 */
class FctPlotTest {

    @TempDir
    Path dir;

    /** WebSearch-like sizes from 1.5 KB to 22 MB, with slowdowns rising with size. */
    private static FctPlot.Run run(String label, double factor) {
        int n = 400;
        long[] sizes = new long[n];
        double[] s = new double[n];
        java.util.Random r = new java.util.Random(7);
        for (int i = 0; i < n; i++) {
            sizes[i] = (long) (1519 * Math.pow(22_140_210 / 1519.0, r.nextDouble()));
            s[i] = 1 + factor * r.nextDouble() * Math.log10(sizes[i]);
        }
        return new FctPlot.Run(label, sizes, s);
    }

    @Test
    void theVerticalAxisSaysWhichIdeal() {
        JFreeChart c = FctPlot.chart("t", "FCT / FCT alone, congestion control off", List.of(run("a", 1)), 5);
        assertEquals("FCT / FCT alone, congestion control off", c.getXYPlot().getRangeAxis().getLabel());
    }

    @Test
    void runsAreOverlaidEachWithThreePercentilesToldApart() {
        JFreeChart c = FctPlot.chart("t", "y", List.of(run("dcqcn 30%", 1), run("hpcc 30%", 0.3)), 5);
        XYPlot p = c.getXYPlot();
        assertEquals(6, p.getDataset().getSeriesCount());
        assertEquals("dcqcn 30%  p50", p.getDataset().getSeriesKey(0));
        assertEquals("hpcc 30%  p99", p.getDataset().getSeriesKey(5));
        XYLineAndShapeRenderer r = assertInstanceOf(XYLineAndShapeRenderer.class, p.getRenderer());
        // a run keeps its colour; its percentiles differ in stroke and in marker
        assertEquals(r.getSeriesPaint(0), r.getSeriesPaint(2));
        assertNotEquals(r.getSeriesPaint(0), r.getSeriesPaint(3));
        assertNotEquals(r.getSeriesStroke(1), r.getSeriesStroke(2), "p95 and p99 are drawn differently");
        assertNotEquals(r.getSeriesShape(1), r.getSeriesShape(2));
        assertEquals(20, p.getDataset().getItemCount(0), "groups of 5% of the flows");
    }

    @Test
    void sizeTicksAreRoundAndLabelledWithSiSuffixes() {
        assertEquals("1K", FctPlot.sizeLabel(1000));
        assertEquals("10K", FctPlot.sizeLabel(10_000));
        assertEquals("100K", FctPlot.sizeLabel(100_000));
        assertEquals("1M", FctPlot.sizeLabel(1_000_000));
        assertEquals("2.5M", FctPlot.sizeLabel(2_500_000));
        JFreeChart c = FctPlot.chart("t", "y", List.of(run("a", 1)), 5);
        FctPlot.SizeAxis x = assertInstanceOf(FctPlot.SizeAxis.class, c.getXYPlot().getDomainAxis());
        List<String> labels = x.tickValues().stream().map(FctPlot::sizeLabel).toList();
        assertEquals(List.of("10K", "100K", "1M", "10M"), labels);
    }

    @Test
    void aLargeSlowdownGivesALogarithmicSlowdownAxis() {
        JFreeChart c = FctPlot.chart("t", "y", List.of(run("a", 40)), 5);
        assertInstanceOf(FctPlot.RoundLogAxis.class, c.getXYPlot().getRangeAxis());
    }

    /**
     * Reads the SVG's text elements and checks that no two labels on the same baseline overlap, measuring each with
     * the font the SVG names (the widths a browser gives may differ by a pixel or two; the browser test checks them
     * there).
     */
    @Test
    void noTwoTickLabelsOverlapInTheSvg() throws Exception {
        Path f = dir.resolve("fct.svg");
        FctPlot.writeSvg(f, "FCT slowdown by flow size: dcqcn 30% vs hpcc 30%", "FCT / FCT alone",
                List.of(run("dcqcn 30%", 1), run("hpcc 30%", 0.3)));
        String svg = Files.readString(f);
        assertEquals(svg, writeAgain(), "the same runs give the same bytes");
        Matcher m = Pattern.compile("<text x='([-0-9.]+)' y='([-0-9.]+)'[^>]*font-size: ([0-9]+)px[^>]*>([^<]*)</text>").matcher(svg);
        Graphics2D g = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB).createGraphics();
        List<double[]> boxes = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        while (m.find()) {
            double x = Double.parseDouble(m.group(1));
            double y = Double.parseDouble(m.group(2));
            FontMetrics fm = g.getFontMetrics(new Font(Font.SANS_SERIF, Font.PLAIN, Integer.parseInt(m.group(3))));
            boxes.add(new double[] {x, y, x + fm.stringWidth(m.group(4))});
            texts.add(m.group(4));
        }
        assertTrue(texts.containsAll(List.of("10K", "100K", "1M", "10M")), texts.toString());
        int pairs = 0;
        for (int i = 0; i < boxes.size(); i++) {
            for (int j = i + 1; j < boxes.size(); j++) {
                double[] a = boxes.get(i);
                double[] b = boxes.get(j);
                if (Math.abs(a[1] - b[1]) < 10) {
                    pairs++;
                    assertTrue(a[2] + 4 <= b[0] || b[2] + 4 <= a[0], "'" + texts.get(i) + "' and '" + texts.get(j)
                            + "' overlap on the line y=" + a[1]);
                }
            }
        }
        assertTrue(pairs > 3, "the size axis's labels share a baseline and were compared");
    }

    private String writeAgain() throws Exception {
        Path f = dir.resolve("again.svg");
        FctPlot.writeSvg(f, "FCT slowdown by flow size: dcqcn 30% vs hpcc 30%", "FCT / FCT alone",
                List.of(run("dcqcn 30%", 1), run("hpcc 30%", 0.3)));
        return Files.readString(f);
    }
}
