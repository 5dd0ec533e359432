package org.datsim.scenario.calibrate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * The mechanisms what-if studies vary, against published hardware figures (issue 14; docs/calibration.md gives the
 * sources): latency against the path MTU, the latency a switch hop adds, and the message rate of one queue pair.
 */
class FidelityTest {

    private static double sendLat(long size, String mtu) {
        return Calibration.measure("ib-edr", "ib_send_lat", size, "\"hca.mtu\": \"" + mtu + "\"").value();
    }

    @Test
    void sendLatencyIsFlatOverThePathMtuAndMeetsTheMtu256Figures() {
        // ConnectX-4 EDR back to back, ib_send_lat medians at path MTU 256 B (the thesis table of docs/calibration.md):
        // 1.58 us at 1 KiB, 2.26 us at 4 KiB, 4.56 us at 32 KiB, the same as at 4 KiB MTU. The HCA streams a payload
        // through its read requests, the wire and its DMA writes, so the MTU changes only the headers on the wire.
        long[] sizes = {1024, 4096, 32768};
        double[] published = {1.58, 2.26, 4.56};
        for (int i = 0; i < sizes.length; i++) {
            double small = sendLat(sizes[i], "256B");
            double big = sendLat(sizes[i], "4KiB");
            assertTrue(Math.abs(small - big) <= 0.05 * big, sizes[i] + " B: " + small + " us at MTU 256, " + big
                    + " us at MTU 4096");
            assertTrue(Math.abs(small - published[i]) <= 0.05 * published[i], sizes[i] + " B at MTU 256: " + small
                    + " us, published " + published[i] + " us");
            assertTrue(small >= big, "smaller packets carry more headers, never less latency");
        }
    }

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
        // 128). Here each Write is waited for: the consumer's poll 40 + post 60 + doorbell occupancy 60 = 160 ns per
        // message, above the send engine's 140 ns (hca.wqe_interval).
        for (String preset : new String[] {"ib-edr", "roce-100g"}) {
            double mpps = messageRate(preset, "");
            assertTrue(mpps >= 2.5 && mpps <= 7.3, preset + ": " + mpps + " Mpps");
            assertEquals(1000.0 / 160, mpps, 0.1,
                    preset + ": the consumer's 160 ns per message (the first 128 posts wait for nothing)");
        }
        // A consumer with nothing but the post to do (perftest polls once per 100 Writes): the send engine bounds it.
        double engine = messageRate("ib-edr", "\"cpu.poll_overhead\": \"0ns\"");
        assertEquals(1000.0 / 140, engine, 0.05, "hca.wqe_interval: " + engine + " Mpps");
        assertTrue(engine <= 7.3, "within the published range");
        // The old costs, a free doorbell and a 70 ns engine: 10 Mpps, above every published single-QP figure.
        double old = messageRate("ib-edr", "\"cpu.doorbell_occupancy\": \"0ns\", \"hca.wqe_interval\": \"70ns\"");
        assertTrue(old > 7.3, "without the doorbell occupancy and with a 70 ns engine: " + old + " Mpps");
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
