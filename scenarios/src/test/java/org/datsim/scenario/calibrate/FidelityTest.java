package org.datsim.scenario.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The mechanisms what-if studies vary, against published hardware figures (issue 14; docs/calibration.md gives the
 * sources): the latency a switch hop adds, and the message rate of one queue pair.
 */
class FidelityTest {

    /** The one-way latency one switch adds to an 8 B ib_send_lat (a half round trip), in nanoseconds. */
    private static double switchHopNs(String preset) {
        double direct = Calibration.measure(preset, "ib_send_lat", 8, "", 0).value();
        double viaSwitch = Calibration.measure(preset, "ib_send_lat", 8, "", 1).value();
        return (viaSwitch - direct) * 1000;
    }

    @Test
    void oneSwitchAddsSwitchIb2sNinetyNanosecondsOnEdr() {
        // Switch-IB 2: 90 ns port to port; the model adds it and one more cable (10 ns), within 15%.
        double hop = switchHopNs("ib-edr");
        assertTrue(hop >= 90 * 0.85 && hop <= 90 * 1.15, "ib-edr switch hop: " + hop + " ns");
        assertEquals(100, hop, 1, "switch.latency 90 ns + a 10 ns cable, cut through: no extra serialisation");
    }

    @Test
    void oneSwitchAddsTwoHundredFiftyToThreeHundredNanosecondsOnRoce() {
        double hop = switchHopNs("roce-100g");
        assertTrue(hop >= 250 && hop <= 300, "roce-100g switch hop: " + hop + " ns");
    }

    @Test
    void aSecondSwitchAddsAsMuchAsTheFirst() {
        double one = Calibration.measure("ib-edr", "ib_send_lat", 8, "", 1).value();
        double two = Calibration.measure("ib-edr", "ib_send_lat", 8, "", 2).value();
        assertEquals(switchHopNs("ib-edr"), (two - one) * 1000, 1, "a switch-to-switch link has no HCA PHY");
    }

    /** ib_write_bw -s 2 (one QP, tx depth 128): messages per second, in millions. */
    private static double messageRate(String preset, String extra) {
        double gbps = Calibration.measure(preset, "ib_write_bw", 2, extra).value();
        return gbps * 1e9 / (2 * 8) / 1e6;
    }

    @Test
    void oneQueuePairsMessageRateIsWithinThePublishedRange() {
        // Published single-QP perftest figures: 2.5-7.3 M messages/s (6.9 Mpps ib_write_bw -s 2, 100GbE RoCE, tx depth
        // 128). The model's rate is set by the CPU's post, poll and doorbell occupancy.
        for (String preset : new String[] {"ib-edr", "roce-100g"}) {
            double mpps = messageRate(preset, "");
            assertTrue(mpps >= 2.5 && mpps <= 7.3, preset + ": " + mpps + " Mpps");
        }
        // Without the doorbell's occupancy the CPU posts every 100 ns (poll 40 + post 60): 10 Mpps, too fast.
        double noFlush = messageRate("ib-edr", "\"cpu.doorbell_occupancy\": \"0ns\"");
        assertTrue(noFlush > 7.3, "without the doorbell occupancy: " + noFlush + " Mpps");
    }

    @Test
    void theDoorbellsOccupancyCostsNoLatency() {
        for (String test : new String[] {"ib_send_lat", "ib_read_lat"}) {
            double with = Calibration.measure("ib-edr", test, 8, "").value();
            double without = Calibration.measure("ib-edr", test, 8, "\"cpu.doorbell_occupancy\": \"0ns\"").value();
            assertEquals(without, with, 1e-9, test + ": the occupancy overlaps the wait for the answer");
        }
    }
}
