package org.datsim.fabric.topology;

import static org.datsim.fabric.TestFabric.link;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Topology validation and routing: a disconnected fabric, a host with two links, a link to an unknown node, a
 * self-loop and a duplicate name are reported with messages naming the problem; a valid star routes through its
 * switch.
 */
class TopologyTest {

    private static List<String> problems(List<String> hosts, List<String> switches, List<LinkSpec> links) {
        List<String> problems = new ArrayList<>();
        Topology t = Topology.build(hosts, switches, links, problems);
        assertNull(t, "a topology with problems is not built");
        return problems;
    }

    @Test
    void aDisconnectedFabricIsReported() {
        List<String> p = problems(List.of("A", "B", "C", "D"), List.of(),
                List.of(link("A", "B"), link("C", "D")));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("not connected"), p.get(0));
        assertTrue(p.get(0).contains("[A, B]") && p.get(0).contains("[C, D]"), p.get(0));
    }

    @Test
    void aHostWithTwoLinksIsReported() {
        List<String> p = problems(List.of("A", "B", "C"), List.of("S"),
                List.of(link("A", "S"), link("A", "B"), link("B", "S"), link("C", "S")));
        assertEquals(2, p.size(), p.toString());
        assertTrue(p.get(0).contains("host \"A\" has 2 links"), p.get(0));
        assertTrue(p.get(1).contains("host \"B\" has 2 links"), p.get(1));
    }

    @Test
    void aHostWithoutALinkIsReported() {
        List<String> p = problems(List.of("A", "B", "C"), List.of(), List.of(link("A", "B")));
        assertEquals(List.of("host \"C\" has 0 links; each host has one single-port HCA and needs exactly one link"),
                p);
    }

    @Test
    void anUnknownNodeIsReported() {
        List<String> p = problems(List.of("A", "B"), List.of(), List.of(link("A", "B"), link("B", "X")));
        assertTrue(p.contains("links[1]: no host or switch is named \"X\""), p.toString());
    }

    @Test
    void aSelfLoopAndADuplicateNameAreReported() {
        List<String> p = problems(List.of("A", "B"), List.of("A", "S"), List.of(link("A", "B"), link("S", "S")));
        assertTrue(p.contains("node name \"A\" is used twice"), p.toString());
        assertTrue(p.contains("links[1]: a link cannot join \"S\" to itself"), p.toString());
    }

    @Test
    void aStarRoutesEveryHostThroughItsSwitch() {
        List<String> problems = new ArrayList<>();
        LinkSpec as = link("A", "S");
        LinkSpec bs = link("B", "S");
        LinkSpec cs = new LinkSpec("C", "S", 40_000_000_000L, 1000);
        Topology t = Topology.build(List.of("A", "B", "C"), List.of("S"), List.of(as, bs, cs), problems);
        assertEquals(List.of(), problems);
        assertNotNull(t);
        assertEquals(List.of("A", "B", "C"), t.hosts());
        assertEquals(List.of("S"), t.switches());
        assertEquals(as, t.nextHop("A", "C"));
        assertEquals(cs, t.nextHop("S", "C"));
        assertEquals(bs, t.nextHop("S", "B"));
        assertNull(t.nextHop("C", "C"));
    }
}
