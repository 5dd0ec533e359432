package org.datsim.scenario.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The ib-edr preset meets the published perftest targets (ConnectX-4 EDR, back to back): ib_send_lat RC within 5% at
 * 32 B, 1 KiB, 4 KiB and 32 KiB; the peak of ib_write_bw within 2% of 96.6 Gb/s. Other presets have no targets.
 */
class CalibrationTest {

    @Test
    void ibEdrSendLatencyMeetsTheTargets() {
        double previous = 0;
        for (long size : List.of(32L, 1024L, 4096L, 32768L)) {
            Calibration.Point p = Calibration.measure("ib-edr", "ib_send_lat", size, "");
            assertNotNull(p.target(), "a target exists at " + size);
            assertTrue(p.target().accepts(p.value()), "ib_send_lat " + size + " B: model " + p.value() + " us, target "
                    + p.target().text() + " us");
            assertTrue(p.value() > previous, "latency grows with the size");
            previous = p.value();
        }
    }

    @Test
    void ibEdrWriteBandwidthPeaksAtTheTarget() {
        Calibration.Point big = Calibration.measure("ib-edr", "ib_write_bw", 1L << 20, "");
        Calibration.Target peak = Calibration.target("ib-edr", "ib_write_bw", -1);
        assertTrue(peak.accepts(big.value()), "ib_write_bw 1 MiB: " + big.value() + " Gb/s");
        Calibration.Point small = Calibration.measure("ib-edr", "ib_write_bw", 64, "");
        assertTrue(small.value() < big.value() / 4, "small writes are limited by the message rate");
    }

    @Test
    void inlineSendsAreWhatMakeSmallSendsFast() {
        double inline = Calibration.measure("ib-edr", "ib_send_lat", 32, "").value();
        double notInline = Calibration.measure("ib-edr", "ib_send_lat", 32, "\"hca.max_inline\": \"0B\"").value();
        // Without inline the HCA fetches the WQE and the payload: two PCIe round trips of 2 x 125 ns each.
        assertEquals(0.5, notInline - inline, 0.01);
    }

    @Test
    void readLatencyIsARoundTripAndWriteLatencyHalfOfOne() {
        double read = Calibration.measure("ib-edr", "ib_read_lat", 32, "").value();
        double write = Calibration.measure("ib-edr", "ib_write_lat", 32, "").value();
        assertTrue(read > 1.5 * write, "read " + read + " us, write " + write + " us");
    }

    @Test
    void onlyIbEdrHasTargets() {
        assertNull(Calibration.target("ib-hdr", "ib_send_lat", 32));
        assertNull(Calibration.target("ib-edr", "ib_send_lat", 64));
        assertEquals(20, Calibration.SIZES.size(), "2 B to 1 MiB");
    }
}
