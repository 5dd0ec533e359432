package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * {@code hca.arbiter_wake one_pending}, HPCC's NIC (QbbNetDevice::DequeueAndTransmit): when no queue pair may send,
 * it schedules its one next look at the earliest next-available time of the queue pairs with bytes left, only if that
 * is later than now. A queue pair held by its window keeps its next-available time from its last packet, in the past,
 * so while one is held no look is scheduled, and a queue pair paced by its rate waits for the next ACK or link
 * freeing instead of leaving at its own time.
 *
 * <p>Host h0 sends flow A to h1, whose 25 Gb/s link is the bottleneck (HPCC paces A near 24 Gb/s, a packet each
 * ~0.35 us), and flow B to h2, 10 us away: with a 100 KB window (above A's bandwidth-delay product, below B's) B is
 * held by its window and A is paced by its rate.
 */
class ArbiterWakeTest {

    private static final Flow A = new Flow(0, 1, 200_000, 1_000_000);
    private static final Flow B = new Flow(0, 2, 2_000_000, 1_000_000);

    private static long[] fcts(List<Flow> flows, String wake, String window) throws InterruptedException {
        List<String> problems = new ArrayList<>();
        Topology t = new TopologyBuilder(List.of("h0", "h1", "h2"), List.of("s0"),
                List.of(new LinkSpec("h0", "s0", 0, -1), new LinkSpec("h1", "s0", 25_000_000_000L, -1),
                        new LinkSpec("h2", "s0", 0, 10_000_000))).build(problems);
        assertEquals(List.of(), problems);
        Params p = LoneFlowLineRateTest.params("hpcc-ns3", "hpcc",
                Map.of(FabricParams.HCA_ARBITER_WAKE.name(), wake, "cc.window", window));
        FlowRunner.Result r = FlowRunner.run(t, p, flows, false, 1, false);
        assertEquals(0, r.failed());
        return r.fctPs();
    }

    @Test
    void aQueuePairHeldByItsWindowKeepsThePacedOneWaitingForAnAck() throws Exception {
        long[] earliest = fcts(List.of(A, B), "earliest", "100000B");
        long[] pending = fcts(List.of(A, B), "one_pending", "100000B");
        assertTrue(pending[0] > earliest[0] * 1.01, "A waits for ACKs: " + pending[0] + " vs " + earliest[0]);
        assertEquals(earliest[1], pending[1], "B, held by its window, is woken by its ACKs either way");
    }

    @Test
    void withNoQueuePairHeldTheLooksAreTheSame() throws Exception {
        // the default window (the largest bandwidth-delay product, B's) holds neither
        assertArrayEquals(fcts(List.of(A, B), "earliest", "0B"), fcts(List.of(A, B), "one_pending", "0B"));
        // alone, A's own next-available time is the earliest: the look is scheduled at it
        assertArrayEquals(fcts(List.of(A), "earliest", "100000B"), fcts(List.of(A), "one_pending", "100000B"));
    }
}
