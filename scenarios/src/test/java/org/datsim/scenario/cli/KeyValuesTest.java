package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The benchmarks' key=value lines: numbers exactly as {@code %.Nf} writes them, without its cost. */
class KeyValuesTest {

    @Test
    void fixedPointIsWhatFormatWrites() {
        double[] edges = {0, -0.0, 0.15, 0.25, 2.5, 0.0005, 1.0005, 0.9995, 123456.7, 1e-9, 1e15, 33.729848, -1.25,
            Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY, Double.MIN_VALUE, 4.35, 1.005, -0.4,
            -0.0004};
        for (double v : edges) {
            for (int d = 0; d <= 3; d++) {
                assertEquals(String.format(Locale.ROOT, "%." + d + "f", v), KeyValues.fixed(v, d), v + " " + d);
            }
        }
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 20_000; i++) {
            double v = (r.nextBoolean() ? 1 : -1) * r.nextDouble() * Math.pow(10, r.nextInt(-4, 12));
            int d = r.nextInt(0, 4);
            assertEquals(String.format(Locale.ROOT, "%." + d + "f", v), KeyValues.fixed(v, d), v + " " + d);
        }
    }

    @Test
    void linesAreKeyEqualsValueInOrder() {
        StringWriter s = new StringWriter();
        new KeyValues().put("writes", 100_000L).put("bottleneck", "link").put("prediction_holds", true)
                .put("sim_wall_s", 0.21449, 3).put("events_per_second", 1.02e7 + 0.5, 0).writeTo(new PrintWriter(s));
        assertEquals("writes=100000\nbottleneck=link\nprediction_holds=true\nsim_wall_s=0.214\n"
                + "events_per_second=10200001\n", s.toString());
    }
}
