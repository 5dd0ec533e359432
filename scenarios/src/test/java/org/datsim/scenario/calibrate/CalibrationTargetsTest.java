package org.datsim.scenario.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.datsim.fabric.FabricPresets;
import org.junit.jupiter.api.Test;

/** The published targets of calibration/targets.csv: well formed, sourced, and measurable. */
class CalibrationTargetsTest {

    @Test
    void everyTargetIsSourcedAndWellFormed() {
        List<CalibrationTargets.Target> all = CalibrationTargets.load();
        assertTrue(all.size() >= 20, "targets: " + all.size());
        Set<String> ids = new HashSet<>();
        for (CalibrationTargets.Target t : all) {
            assertTrue(ids.add(t.id()), "unique id " + t.id());
            assertNotNull(FabricPresets.get(t.preset()), t.id() + ": preset " + t.preset());
            assertTrue(t.low() > 0 && t.low() <= t.high(), t.id() + ": range");
            assertTrue(t.tolerance() >= 0 && t.tolerance() < 0.5, t.id() + ": tolerance");
            assertTrue(List.of("high", "medium", "low").contains(t.trust()), t.id() + ": trust " + t.trust());
            assertFalse(t.source().isBlank(), t.id() + ": source");
            assertFalse(t.hardware().isBlank(), t.id() + ": hardware");
            assertTrue(t.size() > 0 || t.metric().equals("half_peak_bytes"), t.id() + ": size");
            assertTrue(!t.metric().equals("switch_hop_ns") || t.switches() > 0, t.id() + ": a hop needs a switch");
        }
    }

    @Test
    void theIssuesMtu256FiguresAreTargets() {
        List<CalibrationTargets.Target> all = CalibrationTargets.load();
        for (long[] sizeAndNs : new long[][] {{1024, 1580}, {4096, 2260}, {32768, 4560}}) {
            assertTrue(all.stream().anyMatch(t -> t.preset().equals("ib-edr") && t.mtu() == 256
                    && t.size() == sizeAndNs[0] && Math.abs(t.low() * 1000 - sizeAndNs[1]) < 1e-6),
                    "ib_send_lat -m 256 -s " + sizeAndNs[0]);
        }
    }

    @Test
    void errorIsTheDistanceToTheNearerEnd() {
        CalibrationTargets.Target t = new CalibrationTargets.Target("x", "ib-edr", "ib_write_bw", 2, 0, 128, 0,
                "msg_rate_mpps", 2.5, 7.3, "Mpps", 0.1, "h", "p", "s", "low");
        assertEquals(0, t.error(5), 0);
        assertEquals(-0.2, t.error(2.0), 1e-12);
        assertEquals(1.0, t.error(14.6), 1e-12);
        assertTrue(t.accepts(2.26));
        assertFalse(t.accepts(2.24));
    }

    @Test
    void aCalibratedTargetIsMetThroughPerftest() {
        CalibrationTargets.Target t = CalibrationTargets.load().stream()
                .filter(x -> x.id().equals("roce-send-lat-8")).findFirst().orElseThrow();
        double m = CalibrationTargets.model(t);
        assertTrue(t.accepts(m), "roce-100g ib_send_lat 8 B: model " + m + " us, target " + t.text());
    }
}
