package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/** {@code switch.ecmp hpcc}: HPCC's simulator's ECMP hash and next-hop order. */
class HpccEcmpTest {

    @Test
    void theHashIsHpccsEcmpHashBitForBit() {
        // values printed by HPCC's SwitchNode::EcmpHash (switch-node.cc), compiled with gcc on x86-64, for the 12-byte
        // key {sip, dip, sport | dport << 16} and the seed
        assertEquals((int) 3940792700L, Switch.hpccHash(0x0b000001, 0x0b000101, 10000 | 100 << 16, 320));
        assertEquals((int) 3595463576L, Switch.hpccHash(0x0b000001 + (300 << 8), 0x0b000001 + (7 << 8),
                100 | 10003 << 16, 375));
        assertEquals(833978745, Switch.hpccHash(0x0b000001 + (17 << 8), 0x0b000001 + (250 << 8),
                10000 | 100 << 16, 0));
    }

    /**
     * Hosts h0 and h1 under ToRs s2 and s5, joined by spines s3 and s4; s2's links are listed spine s3 first. HPCC
     * searches from h1: s5, then its neighbours from the highest number down, s4 then s3, each of which reaches s2:
     * s2's next hops towards h1 are s4 then s3, whatever the order of the file's links (HPCC's order on its own trace:
     * see HpccEcmp).
     */
    @Test
    void nextHopsComeInTheOrderOfHpccsBreadthFirstSearchFromTheHost() {
        List<String> problems = new ArrayList<>();
        Topology t = new TopologyBuilder(List.of("h0", "h1"), List.of("s2", "s4", "s3", "s5"), List.of(
                TestFabric.link("h0", "s2"), TestFabric.link("s2", "s3"), TestFabric.link("s2", "s4"),
                TestFabric.link("s5", "s3"), TestFabric.link("s5", "s4"), TestFabric.link("h1", "s5")))
                .build(problems);
        assertTrue(problems.isEmpty(), problems.toString());
        Fabric f = new Fabric(new Simulator(), t, TestFabric.params("switch.ecmp", "hpcc"), Map.of(),
                new RandomStreams(1), new TraceSource<TraceEvent>("t"));
        Switch s2 = f.switches().get(0);
        assertEquals("s2", s2.name());
        int[] towardsH1 = s2.hpccRouteChoices(1);
        assertEquals(2, towardsH1.length);
        assertEquals("s2->s4", s2.ports().get(towardsH1[0]).name());
        assertEquals("s2->s3", s2.ports().get(towardsH1[1]).name());
        assertArrayEquals(new int[] {portTo(s2, "s2->h0")}, s2.hpccRouteChoices(0));
        Fabric plain = new Fabric(new Simulator(), t, TestFabric.params(), Map.of(), new RandomStreams(1),
                new TraceSource<TraceEvent>("t"));
        assertNull(plain.switches().get(0).hpccRouteChoices(1), "datsim's ECMP by default");
    }

    private static int portTo(Switch s, String name) {
        List<Port> ports = s.ports();
        for (int i = 0; i < ports.size(); i++) {
            if (name.equals(ports.get(i).name())) {
                return i;
            }
        }
        throw new AssertionError(name);
    }

    @Test
    void nodesAreNumberedByTheirNamesWhenEveryNameIsAnHpccNumber() {
        assertArrayEquals(new int[] {7, 3, 12}, HpccEcmp.numbers(List.of("h7", "h3", "s12")));
        assertArrayEquals(new int[] {0, 1, 2}, HpccEcmp.numbers(List.of("h7", "host3", "s12")), "else their order");
        assertArrayEquals(new int[] {0, 1, 2}, HpccEcmp.numbers(List.of("h7", "s7", "s12")), "numbers unique");
        List<String> problems = new ArrayList<>();
        Topology ft = TopologyBuilder.fatTree("h", 4, 3).build(problems);
        assertTrue(problems.isEmpty());
        new Fabric(new Simulator(), ft, TestFabric.params("switch.ecmp", "hpcc"), Map.of(), new RandomStreams(1),
                new TraceSource<TraceEvent>("t")); // a generated topology is numbered in its order
    }

    @Test
    void hcaControlFirstGivesAcksTheirClassAtTheHcasOnlyAndLinkControlPriorityEverywhere() {
        List<String> problems = new ArrayList<>();
        Topology t = TopologyBuilder.singleSwitch("h", 2).build(problems);
        assertTrue(problems.isEmpty());
        for (String[] c : new String[][] {{"false", "false", "0"}, {"true", "false", "2"}, {"false", "true", "4"}}) {
            Fabric f = new Fabric(new Simulator(), t, TestFabric.params("hca.control_first", c[0],
                    "link.control_priority", c[1]), Map.of(), new RandomStreams(1), new TraceSource<TraceEvent>("t"));
            int prioritised = 0;
            for (Port p : f.ports()) {
                if (p.controlPrioritised()) {
                    prioritised++;
                    assertTrue("true".equals(c[1]) || p.name().startsWith("h"), p.name() + " is an HCA's port");
                }
            }
            assertEquals(Integer.parseInt(c[2]), prioritised, String.join(",", c));
        }
    }
}
