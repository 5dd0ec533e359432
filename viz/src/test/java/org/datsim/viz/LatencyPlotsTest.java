package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Latency per kind from post to completion, failed completions as their own kind, and the two SVG plots. */
class LatencyPlotsTest {

    @TempDir
    Path dir;

    private static TraceEvent post(long t, long op, String opcode) {
        return TraceEvent.of(t, TraceEvent.POST, "A").ep("A/ep1").op(op).attr("opcode", opcode);
    }

    private static TraceEvent done(long t, long op, String opcode, String status) {
        return TraceEvent.of(t, TraceEvent.COMPLETE, "A").ep("A/ep1").op(op).status(status).attr("opcode", opcode);
    }

    @Test
    void latenciesPerKindAndPlots() throws Exception {
        LatencyPlots p = new LatencyPlots();
        p.accept(post(0, 1, "rdma_write"));
        p.accept(post(100, 2, "rdma_write"));
        p.accept(post(200, 3, "send"));
        p.accept(done(3_000_000, 2, "rdma_write", "DAT_DTO_SUCCESS"));
        p.accept(done(1_000_000, 1, "rdma_write", "DAT_DTO_SUCCESS"));
        p.accept(done(5_000_200, 3, "send", "DAT_DTO_ERR_FLUSHED"));
        p.accept(done(6_000_000, 9, "send", "DAT_DTO_SUCCESS"));
        Map<String, long[]> lat = p.latencies();
        assertEquals("[rdma_write, send:DAT_DTO_ERR_FLUSHED]", lat.keySet().toString(),
                "a completion without a post is not counted; a failed one is its own kind");
        assertArrayEquals(new long[] {1_000_000, 2_999_900}, lat.get("rdma_write"));
        assertArrayEquals(new long[] {5_000_000}, lat.get("send:DAT_DTO_ERR_FLUSHED"));
        Path[] files = p.write(dir);
        String hist = Files.readString(files[0]);
        assertTrue(hist.contains("<svg"), hist.substring(0, 40));
        assertTrue(hist.contains("rdma_write (n=2)") && hist.contains("send:DAT_DTO_ERR_FLUSHED (n=1)"));
        assertTrue(hist.contains("p50 1us") && hist.contains("max 3us"), "percentiles in the subtitles");
        String cdf = Files.readString(files[1]);
        assertTrue(cdf.contains("Latency CDF per operation kind") && cdf.contains("rdma_write (n=2)"));
    }

    @Test
    void noOperationsStillGivesPlotsThatSaySo() throws Exception {
        Path[] files = new LatencyPlots().write(dir);
        assertTrue(Files.readString(files[0]).contains("no operation completed"));
        assertTrue(Files.readString(files[1]).contains("no operation completed"));
    }

    /** Issue 15: the CDF is the empirical step function, every corner exact. */
    @Test
    void theCdfIsTheEmpiricalStepFunction() {
        double[][] steps = LatencyPlots.ecdfSteps(new long[] {1_000_000, 1_000_000, 2_000_000, 5_000_000});
        assertEquals(4, steps.length);
        assertArrayEquals(new double[] {1_000_000, 0.0}, steps[0]);
        assertArrayEquals(new double[] {1_000_000, 0.5}, steps[1]);
        assertArrayEquals(new double[] {2_000_000, 0.75}, steps[2]);
        assertArrayEquals(new double[] {5_000_000, 1.0}, steps[3]);
        // many distinct values: thinned, but every corner kept is a true (value, fraction at or below it) and the
        // last is (max, 1)
        long[] many = new long[5000];
        for (int i = 0; i < many.length; i++) {
            many[i] = 1000L * (i + 1);
        }
        double[][] thin = LatencyPlots.ecdfSteps(many);
        assertTrue(thin.length <= 402, "thinned to about 400 corners: " + thin.length);
        for (int k = 1; k < thin.length; k++) {
            assertEquals(thin[k][0] / 1000 / many.length, thin[k][1], 1e-12, "corner " + k);
        }
        assertArrayEquals(new double[] {5_000_000, 1.0}, thin[thin.length - 1]);
        org.jfree.chart.JFreeChart cdf = LatencyPlots.cdf(Map.of("send", new long[] {1_000_000, 2_000_000}));
        assertTrue(cdf.getXYPlot().getRenderer() instanceof org.jfree.chart.renderer.xy.XYStepRenderer,
                "drawn as steps, not lines between samples");
    }

    /** Issue 15: a histogram counts operations, so its axis ticks are whole numbers. */
    @Test
    void histogramCountsAreWholeNumbers() {
        org.jfree.chart.JFreeChart[] h = LatencyPlots.histograms(Map.of("rdma_write", new long[] {1_000_000,
            3_000_000}));
        h[0].createBufferedImage(450, 300); // the axis picks its tick unit when it is drawn
        org.jfree.chart.axis.NumberAxis y = (org.jfree.chart.axis.NumberAxis) h[0].getXYPlot().getRangeAxis();
        double unit = y.getTickUnit().getSize();
        assertTrue(unit >= 1 && unit == Math.rint(unit), "tick unit " + unit);
    }
}
