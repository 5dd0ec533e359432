package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.XYPlot;
import org.jfree.data.xy.YIntervalSeriesCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Line plots: numeric x on an XY plot with error bars, categories otherwise, and reproducible SVG. */
class LinePlotTest {

    @TempDir
    Path dir;

    private static LinePlot numeric() {
        LinePlot p = new LinePlot("t", "size (B)", "latency", true);
        p.add("mtu=1KiB", "64", 64.0, 1.5, 0.1);
        p.add("mtu=1KiB", "4096", 4096.0, 3.0, 0.2);
        p.add("mtu=4KiB", "64", 64.0, 1.4, Double.NaN);
        return p;
    }

    @Test
    void numericXGivesSeriesWithIntervals() {
        XYPlot plot = assertInstanceOf(XYPlot.class, numeric().chart().getPlot());
        YIntervalSeriesCollection d = (YIntervalSeriesCollection) plot.getDataset();
        assertEquals(2, d.getSeriesCount());
        assertEquals("mtu=1KiB", d.getSeriesKey(0));
        assertEquals(3.2, d.getEndYValue(0, 1), 1e-12);
        assertEquals(1.4, d.getStartYValue(1, 0), 1e-12, "NaN half-width is drawn as none");
    }

    @Test
    void textXGivesCategoriesInOrder() {
        LinePlot p = new LinePlot("t", "fence", "us", false);
        p.add("a", "DEFAULT", null, 1, 0);
        p.add("a", "FENCE", null, 2, 0);
        CategoryPlot plot = assertInstanceOf(CategoryPlot.class, p.chart().getPlot());
        assertEquals(2, plot.getDataset().getColumnCount());
        assertEquals("DEFAULT", plot.getDataset().getColumnKey(0));
    }

    @Test
    void theSameDataGiveTheSameSvg() throws Exception {
        numeric().writeSvg(dir.resolve("a.svg"));
        numeric().writeSvg(dir.resolve("b.svg"));
        String a = Files.readString(dir.resolve("a.svg"));
        assertTrue(a.contains("<svg") && a.contains("mtu=4KiB"), a.substring(0, Math.min(200, a.length())));
        assertEquals(a, Files.readString(dir.resolve("b.svg")));
        numeric().writePng(dir.resolve("c.png"));
        byte[] png = Files.readAllBytes(dir.resolve("c.png"));
        assertEquals((byte) 0x89, png[0]);
    }

    @Test
    void theSvgIsTheSameUnderAnotherLocale() throws Exception {
        for (boolean numericX : new boolean[] {true, false}) {
            LinePlot p = new LinePlot("t", "x", "latency (us)", numericX);
            p.add("s", "1", 1.0, 2.25, 0.1);
            p.add("s", "2", 2.0, 2.75, 0.1);
            p.add("s", "3", 3.0, 1234.5, 0.1);
            p.writeSvg(dir.resolve("root.svg"));
            java.util.Locale before = java.util.Locale.getDefault();
            try {
                java.util.Locale.setDefault(java.util.Locale.GERMANY);
                p.writeSvg(dir.resolve("de.svg"));
            } finally {
                java.util.Locale.setDefault(before);
            }
            assertEquals(Files.readString(dir.resolve("root.svg")), Files.readString(dir.resolve("de.svg")),
                    "numeric x: " + numericX);
        }
    }

    /** Issue 15: ticks at the swept values on a log axis, not at powers of two between them. */
    @Test
    void aLogAxisTicksAtTheSweptValues() {
        LinePlot p = new LinePlot("t", "link.bandwidth (Gbps)", "throughput_gbps", true);
        for (double x : new double[] {25, 50, 100, 200, 400}) {
            p.add("mtu=1KiB", String.valueOf(x), x, Math.min(x, 120), 0);
        }
        XYPlot plot = assertInstanceOf(XYPlot.class, p.chart().getPlot());
        LinePlot.ValuesLogAxis x = assertInstanceOf(LinePlot.ValuesLogAxis.class, plot.getDomainAxis());
        java.awt.image.BufferedImage img = new java.awt.image.BufferedImage(800, 500,
                java.awt.image.BufferedImage.TYPE_INT_RGB);
        java.util.List<?> ticks = x.refreshTicksHorizontal(img.createGraphics(),
                new java.awt.geom.Rectangle2D.Double(0, 0, 700, 400), org.jfree.chart.ui.RectangleEdge.BOTTOM);
        assertEquals("[25, 50, 100, 200, 400]", ticks.stream().map(t -> ((org.jfree.chart.axis.NumberTick) t)
                .getText()).toList().toString());
    }

    /** Issue 15: no "ci95" on the y label of a plot without error bars; a caption when one is given. */
    @Test
    void theIntervalNoteOnlyWithIntervalsAndACaption() {
        LinePlot single = new LinePlot("t", "x", "throughput_gbps", true).intervalNote("mean, ci95");
        single.add("a", "1", 1.0, 2, Double.NaN);
        single.add("a", "2", 2.0, 3, 0);
        assertEquals("throughput_gbps", single.yLabel());
        assertEquals("throughput_gbps", single.chart().getXYPlot().getRangeAxis().getLabel());
        LinePlot bars = new LinePlot("t", "x", "throughput_gbps", true).intervalNote("mean, ci95")
                .caption("Above 100 Gb/s PCIe bounds the stream");
        bars.add("a", "1", 1.0, 2, 0.1);
        assertEquals("throughput_gbps (mean, ci95)", bars.chart().getXYPlot().getRangeAxis().getLabel());
        assertTrue(bars.chart().getSubtitles().stream().anyMatch(t -> t instanceof org.jfree.chart.title.TextTitle tt
                && tt.getText().equals("Above 100 Gb/s PCIe bounds the stream")));
    }
}
