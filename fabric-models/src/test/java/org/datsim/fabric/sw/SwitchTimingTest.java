package org.datsim.fabric.sw;

import static org.datsim.fabric.TestFabric.cpuRead;
import static org.datsim.fabric.TestFabric.cpuWrite;
import static org.datsim.fabric.TestFabric.iov;
import static org.datsim.fabric.TestFabric.randomBytes;
import static org.datsim.fabric.TestFabric.remote;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/**
 * A store-and-forward switch: in a three-host star, an RDMA Write from A to C crosses the switch both ways (data
 * and ACK), and each crossing adds exactly the switch latency plus one more link hop (the packet's wire time and
 * the link latency) to the back-to-back times. Per-link bandwidth and latency overrides are honoured.
 */
class SwitchTimingTest {

    private static final long T0 = 100_000_000L;
    private static final int LEN = 4096;

    /** Times of one write: {place at the target, completion at the initiator}. */
    private static long[] writeTimes(TestFabric tf, String from, String to) {
        TestFabric.Pair p = tf.connectedPair(from, to, null, null);
        Lmr src = tf.lmr(p.a, LEN, Dat.MEM_PRIV_ALL);
        Lmr dst = tf.lmr(p.b, LEN, Dat.MEM_PRIV_ALL);
        byte[] data = randomBytes(LEN, 7);
        cpuWrite(p.a, src, 0, data);
        long[] op = new long[1];
        tf.at(T0, () -> op[0] = tf.write(p.epA, iov(src, 0, LEN), 1, remote(dst, 0, LEN), 0));
        tf.run();
        assertEquals(Dat.DTO_SUCCESS, tf.only(p.a.reqEvd).status);
        assertArrayEquals(data, cpuRead(p.b, dst, 0, LEN));
        return new long[] {tf.event(TraceEvent.PLACE, to, op[0]).tPs(), tf.event(TraceEvent.COMPLETE, from,
                op[0]).tPs()};
    }

    @Test
    void aWriteThroughTheSwitchTakesOneExtraHopEachWay() {
        long[] direct = writeTimes(TestFabric.backToBack(), "A", "B");

        TestFabric star = TestFabric.star();
        Switch sw = star.fabric.switches().get(0);
        long[] viaSwitch = new long[2];
        long before = sw.packetsForwarded();
        star.trace.clear();
        long[] t = writeTimes(star, "A", "C");
        viaSwitch[0] = t[0];
        viaSwitch[1] = t[1];
        // Connection setup: REQ, REP, RTU; then the write's one data packet and its ACK.
        assertEquals(3 + 2, sw.packetsForwarded() - before);
        assertEquals(0, star.fabric.hosts().get(1).hca().packetsReceived(), "B saw nothing of A and C's traffic");

        Params p = star.params;
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        long hop = p.get(FabricParams.SWITCH_LATENCY) + p.get(FabricParams.LINK_LATENCY);
        long data = link.transmitTimePs(LEN + p.get(FabricParams.LINK_HEADER_BYTES)
                + p.get(FabricParams.LINK_RETH_BYTES));
        long ack = link.transmitTimePs(p.get(FabricParams.LINK_HEADER_BYTES) + p.get(FabricParams.LINK_AETH_BYTES));
        assertEquals(hop + data, viaSwitch[0] - direct[0], "place: one extra hop for the data packet");
        assertEquals(2 * hop + data + ack, viaSwitch[1] - direct[1],
                "completion: one extra hop for the data packet and one for the ACK");
    }

    @Test
    void switchLatencyOverrideChangesTheTimesByExactlyTwiceTheDifference() {
        long[] fast = writeTimes(TestFabric.star("switch.latency", "100ns"), "A", "C");
        long[] slow = writeTimes(TestFabric.star("switch.latency", "1us"), "A", "C");
        assertEquals(900_000L, slow[0] - fast[0]);
        assertEquals(2 * 900_000L, slow[1] - fast[1]);
    }

    @Test
    void perLinkBandwidthAndLatencyOverridesAreHonoured() {
        long[] dflt = writeTimes(TestFabric.backToBack(), "A", "B");
        TestFabric slow = new TestFabric(List.of("A", "B"), List.of(),
                List.of(new LinkSpec("A", "B", 25_000_000_000L, 1_000_000L)));
        long[] t = writeTimes(slow, "A", "B");
        Params p = slow.params;
        DataRate fast = p.rate(FabricParams.LINK_BANDWIDTH);
        DataRate quarter = DataRate.ofBitsPerSecond(25_000_000_000L);
        long dataBytes = LEN + p.get(FabricParams.LINK_HEADER_BYTES) + p.get(FabricParams.LINK_RETH_BYTES);
        long ackBytes = p.get(FabricParams.LINK_HEADER_BYTES) + p.get(FabricParams.LINK_AETH_BYTES);
        long latency = 1_000_000L - p.get(FabricParams.LINK_LATENCY);
        long placeDelta = quarter.transmitTimePs(dataBytes) - fast.transmitTimePs(dataBytes) + latency;
        assertEquals(placeDelta, t[0] - dflt[0]);
        assertEquals(placeDelta + quarter.transmitTimePs(ackBytes) - fast.transmitTimePs(ackBytes) + latency,
                t[1] - dflt[1]);
    }
}
