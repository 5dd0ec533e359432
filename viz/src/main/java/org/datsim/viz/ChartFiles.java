package org.datsim.viz;

import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/**
 * The one way viz turns JFreeChart charts into files ({@link LatencyPlots}, {@link LinePlot}): AWT headless, SVG
 * through JFreeSVG with a fixed definition-id prefix (so the same data give the same bytes) and a newline after the document,
 * and axis numbers formatted the same whatever the machine's locale.
 */
final class ChartFiles {

    private ChartFiles() {
    }

    /** Makes AWT headless unless the JVM was told otherwise; call before the first chart or font is made. */
    static void headless() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /**
     * Writes one chart as an SVG file.
     *
     * @param chart the chart
     * @param width its width in pixels
     * @param height its height in pixels
     * @param file the file
     * @throws IOException if it cannot be written
     */
    static void writeSvg(JFreeChart chart, int width, int height, Path file) throws IOException {
        writeSvg(new JFreeChart[] {chart}, 1, width, height, file);
    }

    /**
     * Writes charts as one SVG file, in a grid filled row by row.
     *
     * @param charts the charts
     * @param cols charts per row
     * @param width each chart's width in pixels
     * @param height each chart's height in pixels
     * @param file the file
     * @throws IOException if it cannot be written
     */
    static void writeSvg(JFreeChart[] charts, int cols, int width, int height, Path file) throws IOException {
        int rows = (charts.length + cols - 1) / cols;
        SVGGraphics2D g = new SVGGraphics2D(cols * width, rows * height);
        g.setDefsKeyPrefix("datsim");
        for (int i = 0; i < charts.length; i++) {
            charts[i].draw(g, new Rectangle((i % cols) * width, (i / cols) * height, width, height));
        }
        try (java.io.OutputStream o = RunFiles.create(file)) {
            o.write((g.getSVGDocument() + "\n").getBytes(StandardCharsets.UTF_8));
        }
    }

    /**
     * A number format with the same symbols on every machine, whatever its locale.
     *
     * @param pattern a {@link DecimalFormat} pattern
     * @return the format
     */
    static DecimalFormat numbers(String pattern) {
        return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
    }
}
