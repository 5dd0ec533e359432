package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * {@code switch.ecmp hpcc} against HPCC's simulator itself: the uplink each flow took at ToR switch 320 of HPCC's
 * fat-tree, read from HPCC's own packet trace (ENABLE_TRACE 1 on the first 0.9 ms of a WebSearch 30% trace made by
 * its traffic_gen.py, DCQCN; every data packet's Enqu line at node 320 names its output device, the link of that
 * index in fat.txt's order). The hash alone, or the next hops in ascending node order, match none of these.
 */
class HpccEcmpTraceTest {

    /** Source host, destination host, source port (destination port 100), the neighbour HPCC sent the flow to. */
    static final int[][] SEEN = {{0, 69, 10000, 340}, {9, 95, 10000, 340}, {9, 98, 10000, 340}, {9, 302, 10000, 340},
        {2, 34, 10000, 341}, {0, 87, 10000, 342}, {6, 109, 10000, 342}, {8, 95, 10000, 342}, {9, 149, 10000, 342},
        {10, 49, 10000, 342}, {10, 126, 10000, 342}, {12, 80, 10000, 342}, {13, 116, 10000, 342},
        {13, 117, 10000, 342}, {13, 238, 10000, 342}, {14, 258, 10000, 342}, {15, 84, 10000, 342},
        {15, 256, 10000, 342}, {0, 74, 10000, 343}, {5, 259, 10000, 343}, {6, 47, 10000, 343}, {11, 239, 10000, 343},
        {12, 48, 10000, 343}, {13, 117, 10001, 343}};

    @Test
    void everyFlowLeavesTor320ByTheUplinkHpccsOwnTraceShows() throws Exception {
        String text;
        try (InputStream in = HpccFiles.class.getResourceAsStream("/org/datsim/scenario/hpcc/fat.topology")) {
            text = new String(in.readAllBytes(), StandardCharsets.US_ASCII);
        }
        List<String> problems = new ArrayList<>();
        HpccFiles.Topology topo = HpccFiles.topology("fat.topology", text, problems);
        Topology t = topo.lists().build(problems);
        assertTrue(problems.isEmpty(), problems.toString());
        Fabric f = new Fabric(new Simulator(), t, FabricPresets.get("hpcc-ns3").params(), Map.of(),
                new RandomStreams(1), new TraceSource<TraceEvent>("t"));
        Switch tor = null;
        for (Switch s : f.switches()) {
            if ("s320".equals(s.name())) {
                tor = s;
            }
        }
        PacketPool pool = new PacketPool();
        int matched = 0;
        for (int[] seen : SEEN) {
            int src = t.hosts().indexOf("h" + seen[0]);
            int dst = t.hosts().indexOf("h" + seen[1]);
            Packet p = pool.acquire().set(Packet.RDMA_WRITE, src, dst, 1048, null, 0, 1, 0, 0, seen[2] | 100 << 16);
            String port = tor.ports().get(tor.route(p)).name();
            assertEquals("s320->s" + seen[3], port, "flow h" + seen[0] + " -> h" + seen[1] + " port " + seen[2]);
            p.release();
            matched++;
        }
        assertEquals(24, matched);
    }
}
