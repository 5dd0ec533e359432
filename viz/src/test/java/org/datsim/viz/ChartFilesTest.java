package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.data.xy.XYSeries;
import org.jfree.data.xy.XYSeriesCollection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shared chart writer: grid size, fixed definition ids, locale-free numbers. */
class ChartFilesTest {

    @TempDir
    Path dir;

    private static JFreeChart chart(String title) {
        ChartFiles.headless();
        XYSeries s = new XYSeries(title);
        s.add(1, 2);
        s.add(2, 3);
        return ChartFactory.createXYLineChart(title, "x", "y", new XYSeriesCollection(s));
    }

    @Test
    void threeChartsOnTwoColumnsMakeTwoRows() throws Exception {
        Path f = dir.resolve("grid.svg");
        ChartFiles.writeSvg(new JFreeChart[] {chart("a"), chart("b"), chart("c")}, 2, 300, 200, f);
        String svg = Files.readString(f);
        assertTrue(svg.contains("width='600.0' height='400.0'"), svg.substring(0, Math.min(400, svg.length())));
        assertTrue(svg.contains("id='datsimclip-0'"), "definition ids carry the fixed prefix");
        assertTrue(svg.endsWith("</svg>\n\n"), "JFreeSVG's document, then the newline both plots always added");
        Path g = dir.resolve("again.svg");
        ChartFiles.writeSvg(new JFreeChart[] {chart("a"), chart("b"), chart("c")}, 2, 300, 200, g);
        assertEquals(svg, Files.readString(g), "the same charts give the same bytes");
    }

    @Test
    void oneChartFillsItsSize() throws Exception {
        Path f = dir.resolve("one.svg");
        ChartFiles.writeSvg(chart("a"), 800, 500, f);
        assertTrue(Files.readString(f).contains("width='800.0' height='500.0'"));
    }

    @Test
    void numbersIgnoreTheLocale() {
        assertEquals("1,234,567.5", ChartFiles.numbers("#,##0.###").format(1234567.5));
        assertEquals("0.125", ChartFiles.numbers("0.###").format(0.125));
    }
}
