package org.datsim.viz;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Slowdown percentiles against flow size, in the manner of HPCC's Figure 11 and of its
 * {@code analysis/fct_analysis.py}: the flows, sorted by size, are cut into groups of {@code step} percent of the
 * flows each; each group is drawn at its largest flow's size (logarithmic axis) with its median, 95th and 99th
 * percentile slowdown (HPCC's rank: element {@code floor(n x p)} of the sorted slowdowns). Slowdowns below 1 are
 * drawn as 1, as HPCC's script does. The vertical axis says what the FCT is divided by (the caller's label: an ideal
 * FCT or HPCC's standalone FCT are not the same yardstick). Rendered through {@link LinePlot} (JFreeChart,
 * JFreeSVG).
 */
public final class FctPlot {

    private FctPlot() {
    }

    /**
     * Builds the plot.
     *
     * @param title the chart title
     * @param yLabel the vertical axis's label, naming what the FCT is divided by
     * @param sizes each flow's size, bytes
     * @param slowdowns each flow's slowdown (same order as sizes)
     * @param step the group size in percent of the flows, 1 to 100
     * @return the plot, empty if there are no flows
     */
    public static LinePlot plot(String title, String yLabel, long[] sizes, double[] slowdowns, int step) {
        int n = sizes.length;
        Integer[] order = new Integer[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> sizes[a] != sizes[b] ? Long.compare(sizes[a], sizes[b])
                : Double.compare(slowdowns[a], slowdowns[b]));
        LinePlot plot = new LinePlot(title, "flow size (bytes, largest of each group of " + step + "% of the flows)",
                yLabel, true);
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
            long size = sizes[order[hi - 1]];
            String x = Long.toString(size);
            plot.add("p50", x, (double) size, s[(int) (s.length * 0.5)], 0);
            plot.add("p95", x, (double) size, s[(int) (s.length * 0.95)], 0);
            plot.add("p99", x, (double) size, s[(int) (s.length * 0.99)], 0);
        }
        return plot;
    }

    /**
     * Writes the plot as SVG.
     *
     * @param file the file
     * @param title the title
     * @param yLabel the vertical axis's label, naming what the FCT is divided by
     * @param sizes the sizes
     * @param slowdowns the slowdowns
     * @throws IOException if it cannot be written
     */
    public static void writeSvg(Path file, String title, String yLabel, long[] sizes, double[] slowdowns)
            throws IOException {
        plot(title, yLabel, sizes, slowdowns, 5).writeSvg(file);
    }
}
