package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * HPCC's NIC chooses its next packet when its link has finished the one before (QbbNetDevice::TransmitComplete
 * calls DequeueAndTransmit), scanning its queue pairs in the order they were added from the one after the last
 * served (RdmaEgressQueue::GetNextQindex): {@code hca.arbiter_at link_free} and {@code hca.arbiter_order fixed}, both
 * set by the hpcc-ns3 preset. A one-packet flow that starts while another flow of its host is on the wire shows
 * both: its packet goes one packet earlier when the arbiter chooses at the link's freeing (not at the start of the
 * packet before), and up to two earlier when it joins at the end of the fixed order (not behind the queue pair just
 * served).
 */
class HpccNicArbiterTest {

    /** A 1000-byte payload with HPCC's 48 header bytes at 100 Gb/s, truncated to ns-3's nanoseconds. */
    private static final long PACKET_PS = 83_000;
    private static final long T0 = 1_000_000;
    /**
     * The FCTs are compared to 1 ns: a flow's FCT ends with its ACK, which meets the other flows' ACKs and packets
     * on the way, so the differences are one or two packets give or take the picoseconds of those meetings.
     */
    private static final double NS = 1000;

    private static long[] fcts(List<Flow> flows, String at, String order) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        Topology t = TopologyBuilder.fatTree("h", 4, 3).build(problems);
        assertEquals(List.of(), problems);
        Params p = LoneFlowLineRateTest.params("hpcc-ns3", "none", Map.of(FabricParams.HCA_MTU.name(), "1000B",
                FabricParams.HCA_ARBITER_AT.name(), at, FabricParams.HCA_ARBITER_ORDER.name(), order));
        FlowRunner.Result r = FlowRunner.run(t, p, flows, false, 1, false);
        assertEquals(0, r.failed());
        return r.fctPs();
    }

    @Test
    void choosingAtTheLinksFreeingSendsANewFlowsPacketOnePacketSooner() throws Exception {
        // flow 1 starts 40 ns into flow 0's first packet, from the same host to the same host
        List<Flow> flows = List.of(new Flow(0, 1, 100_000, T0), new Flow(0, 1, 1000, T0 + 40_000));
        long[] free = fcts(flows, "link_free", "fixed");
        long[] read = fcts(flows, "read", "fixed");
        // chosen at the start of flow 0's first packet, flow 0's second one is already waiting for the link
        assertEquals(PACKET_PS, read[1] - free[1], NS, "one packet of flow 0 goes before it when chosen at the start");
        assertEquals(PACKET_PS - 40_000, free[1] - lone(1000), NS, "it waits for the end of flow 0's first packet");
    }

    @Test
    void aQueuePairThatGetsWorkJoinsAtTheEndOfTheFixedOrder() throws Exception {
        // flows 0 and 1 alternate packets (0, 1, 0, 1, ...); flow 2 starts 40 ns into the fourth packet, flow 1's:
        // fixed, the scan goes on after flow 1 and reaches flow 2 first; rotate, flow 2 waits behind 0 and 1
        List<Flow> flows = List.of(new Flow(0, 1, 100_000, T0), new Flow(0, 1, 100_000, T0),
                new Flow(0, 1, 1000, T0 + 3 * PACKET_PS + 40_000));
        long[] fixed = fcts(flows, "link_free", "fixed");
        long[] rotate = fcts(flows, "link_free", "rotate");
        assertEquals(PACKET_PS - 40_000, fixed[2] - lone(1000), NS, "fixed: it goes at the end of flow 1's packet");
        assertEquals(2 * PACKET_PS, rotate[2] - fixed[2], NS, "rotate: behind one packet of flow 0 and one of flow 1");
    }

    private static long lone(long bytes) throws InterruptedException {
        return fcts(List.of(new Flow(0, 1, bytes, T0)), "link_free", "fixed")[0];
    }
}
