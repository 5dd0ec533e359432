package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.Well512a;
import org.junit.jupiter.api.Test;

/** The shipped distributions, their means (HPCC's trapezoid sums) and the CDF file checks. */
class FlowSizeCdfTest {

    @Test
    void shippedDistributionsHaveHpccsMeans() {
        // expected: HPCC's custom_rand.getAvg() on the same files, computed independently in Python
        assertEquals(1_711_250.0, FlowSizeCdf.named("WebSearch").mean(), 1e-6);
        assertEquals(120_420.75, FlowSizeCdf.named("FbHdp").mean(), 1e-6);
        assertEquals(40_869.8, FlowSizeCdf.named("AliStorage2019").mean(), 1e-6);
        assertEquals(2_891.62125005, FlowSizeCdf.named("GoogleRPC2008").mean(), 1e-6);
        assertNull(FlowSizeCdf.named("websearch"));
    }

    @Test
    void samplesAverageToTheMean() {
        for (String name : FlowSizeCdf.NAMES) {
            FlowSizeCdf cdf = FlowSizeCdf.named(name);
            Well512a rng = new Well512a(42);
            double sum = 0;
            double squares = 0;
            int n = 400_000;
            for (int i = 0; i < n; i++) {
                long s = cdf.sample(rng.nextDouble());
                assertEquals(true, s >= 1 && s <= cdf.max(), name + " sample " + s);
                sum += s;
                squares += (double) s * s;
            }
            double mean = sum / n;
            double standardError = Math.sqrt((squares / n - mean * mean) / n);
            // within 4 standard errors (the tails are heavy: GoogleRPC2008's deviation is 20 times its mean), and
            // the sampled size is cut to a whole number: at most 1 byte below the interpolated one
            assertEquals(cdf.mean(), mean, 4 * standardError + 1, name);
            assertTrue(standardError < 0.04 * cdf.mean(), name);
        }
    }

    @Test
    void interpolatesLinearlyBetweenPoints() {
        List<String> problems = new ArrayList<>();
        FlowSizeCdf cdf = FlowSizeCdf.parse("t", "0 0\n100 50\n300 100\n", problems);
        assertNotNull(cdf, problems.toString());
        assertEquals(50.0, cdf.at(25), 1e-9);
        assertEquals(200.0, cdf.at(75), 1e-9);
        assertEquals((50 * 50 + 200 * 50) / 100.0, cdf.mean(), 1e-9);
        assertEquals(1, cdf.sample(0.0)); // never 0 bytes
    }

    @Test
    void malformedCdfsAreLocated() {
        List<String> p = new ArrayList<>();
        assertNull(FlowSizeCdf.parse("c.txt", "0 0\n10 x\n20 100\n", p));
        assertEquals(List.of("c.txt:2: expected \"size_bytes cdf_percent\", found \"10 x\""), p);
        p.clear();
        assertNull(FlowSizeCdf.parse("c.txt", "0 0\n10 60\n5 100\n", p));
        assertEquals(1, p.size());
        assertEquals(true, p.get(0).startsWith("c.txt:3: sizes and percents must both increase"), p.get(0));
        p.clear();
        assertNull(FlowSizeCdf.parse("c.txt", "0 0\n10 90\n", p));
        assertEquals(List.of("c.txt: expected at least two points, the first at percent 0 and the last at 100"), p);
        p.clear();
        assertNull(FlowSizeCdf.parse("c.txt", "0 0\n10 150\n", p));
        assertEquals(true, p.get(0).startsWith("c.txt:2: expected a size >= 0 and a percent from 0 to 100"));
    }
}
