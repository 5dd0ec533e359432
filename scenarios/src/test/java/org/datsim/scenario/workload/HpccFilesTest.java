package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.datsim.fabric.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/** HPCC's topology and flow files: parsing, naming, and one located message per malformed line. */
class HpccFilesTest {

    private static final String TOPO = "5 2 4\n3 4\n0 3 100Gbps 1000ns 0.000000\n1 3 100Gbps 1000ns 0\n"
            + "2 4 25Gbps 0.001ms 0\n3 4 400Gbps 1us 0\n";

    @Test
    void topologyNamesHostsAndSwitchesByNumber() {
        List<String> p = new ArrayList<>();
        HpccFiles.Topology t = HpccFiles.topology("t.txt", TOPO, p);
        assertNotNull(t, p.toString());
        assertEquals(List.of("h0", "h1", "h2"), t.lists().hosts());
        assertEquals(List.of("s3", "s4"), t.lists().switches());
        assertEquals(new LinkSpec("h2", "s4", 25_000_000_000L, 1_000_000), t.lists().links().get(2));
        assertEquals(new LinkSpec("s3", "s4", 400_000_000_000L, 1_000_000), t.lists().links().get(3));
        assertNotNull(t.lists().build(p), p.toString());
    }

    @Test
    void flowsMapNodesToHostsWithExactStartTimesOrAsHpccsSimulatorTakesThem() {
        List<String> p = new ArrayList<>();
        HpccFiles.Topology t = HpccFiles.topology("t.txt", TOPO, p);
        String text = "3\n0 2 3 100 43849 2.000000350\n2 1 3 4791 7 0\n1 2 3 100 554 2.000000155\n";
        assertEquals(List.of(new Flow(0, 2, 43849, 2_000_000_350_000L), new Flow(2, 1, 7, 0, 4791),
                new Flow(1, 2, 554, 2_000_000_155_000L)), HpccFiles.flows("f.txt", text, t.hostNodes(), p), p.toString());
        // third.cc: a double, then ns-3's Seconds() on its nanosecond clock, rounded down: 2.000000155's double is
        // just below it, and HPCC's FCT file starts that flow (134 -> 127, 554 B, held-out fat25 FbHdp 50%) at
        // 2000000154 ns; 2.000000350's double is just above, 2000000350 ns
        assertEquals(List.of(new Flow(0, 2, 43849, 2_000_000_350_000L), new Flow(2, 1, 7, 0, 4791),
                new Flow(1, 2, 554, 2_000_000_154_000L)), HpccFiles.flows("f.txt", text, t.hostNodes(), true, p),
                p.toString());
    }

    @Test
    void malformedTopologyLinesAreLocated() {
        List<String> p = new ArrayList<>();
        assertNull(HpccFiles.topology("t.txt", "5 2 4\n3 4\n0 3 100Gbps 1000ns 0\n1 9 100Gbps 1000ns 0\n"
                + "2 4 fast 1000ns 0\n3 4 400Gbps 1us 0.01\n", p));
        assertEquals(List.of("t.txt:4: expected a node number from 0 to 4, found \"9\"",
                "t.txt:5: expected a rate such as 100Gbps, found \"fast\"",
                "t.txt:6: error rate 0.01: datsim's links do not drop packets at random; expected 0"), p);
        p.clear();
        assertNull(HpccFiles.topology("t.txt", "5 2\n", p));
        assertEquals(List.of("t.txt:1: expected \"nodes switches links\", found \"5 2\""), p);
        p.clear();
        assertNull(HpccFiles.topology("t.txt", "5 2 4\n3 4\n0 3 100Gbps 1000ns 0\n", p));
        assertEquals(List.of("t.txt:4: expected 4 links, found 1"), p);
        p.clear();
        assertNull(HpccFiles.topology("t.txt", "2000000 2 4\n", p));
        assertTrue(p.get(0).startsWith("t.txt:1: expected 2 to 100000 nodes"), p.get(0));
    }

    @Test
    void malformedFlowLinesAreLocated() {
        List<String> p = new ArrayList<>();
        int[] hosts = {0, 1, 2};
        assertNull(HpccFiles.flows("f.txt", "3\n0 2 3 100 10 1.5\n0 3 3 100 10 1\n1 1 3 100 10 1\n", hosts, p));
        assertEquals(List.of("f.txt:3: expected the node number of a host of the topology, found \"3\"",
                "f.txt:4: a flow from host 1 to itself"), p);
        p.clear();
        assertNull(HpccFiles.flows("f.txt", "2\n0 2 3 100 0 1\n0 2 3 100 10 -1\n", hosts, p));
        assertEquals(List.of("f.txt:2: expected a size from 1 to 2^40 bytes, found \"0\"",
                "f.txt:3: expected a start time in seconds from 0 to 1e6, found \"-1\""), p);
        p.clear();
        assertNull(HpccFiles.flows("f.txt", "3\n0 2 3 100 10 1\n", hosts, p));
        assertEquals(List.of("f.txt:3: expected 3 flows as the first line says, found 1"), p);
        p.clear();
        assertNull(HpccFiles.flows("f.txt", "1\n0 2 3 100 10 1\n1 2 3 100 10 1\n", hosts, p));
        assertEquals(List.of("f.txt:3: more flows than the 1 the first line says"), p);
        p.clear();
        assertNull(HpccFiles.flows("f.txt", "1\n0 2 3 10 1\n", hosts, p));
        assertEquals(List.of("f.txt:2: expected \"src dst priority dport size_bytes start_s\", found \"0 2 3 10 1\""),
                p);
        p.clear();
        assertNull(HpccFiles.flows("f.txt", "1\n0 2 3 70000 10 1\n", hosts, p));
        assertEquals(List.of("f.txt:2: expected a dport from 0 to 65535, found \"70000\""), p);
    }

    @Test
    void valuesAreShownEscapedAndCut() {
        List<String> p = new ArrayList<>();
        int[] hosts = {0, 1, 2};
        // a control character, a line separator and a byte-order mark inside a field, and a 200,000-character field
        assertNull(HpccFiles.flows("f.txt", "3\n0 2 3 100 1\u0006 1\n0 2 3 100 10 1\u2028\n0 2 3 100 \uFEFF"
                + "9".repeat(200_000) + " 1\n", hosts, p));
        assertEquals(3, p.size(), p.toString());
        for (String m : p) {
            assertTrue(m.length() < 300 && m.chars().noneMatch(c -> c < 0x20 || c == 0x2028 || c == 0xFEFF),
                    m.substring(0, Math.min(100, m.length())));
        }
        assertTrue(p.get(0).endsWith("found \"0 2 3 100 1\\u0006 1\""), p.get(0));
        assertTrue(p.get(2).contains("(200"), p.get(2));
        p.clear();
        assertNull(HpccFiles.topology("t.txt", "3 1 2\n2\n0 2 100Gbps\u0007 1us 0\n1 2 100Gbps " + "x".repeat(100_000)
                + " 0\n", p));
        assertEquals(2, p.size(), p.toString());
        for (String m : p) {
            assertTrue(m.length() < 300 && m.chars().noneMatch(c -> c < 0x20), m.substring(0, Math.min(100, m.length())));
        }
    }

    @Test
    void theReferenceFilesParse() throws Exception {
        // the copies of HPCC's reference files that bench hpcc ships
        List<String> p = new ArrayList<>();
        HpccFiles.Topology t = HpccFiles.topology("fat.topology", StandaloneFctTest.resource("fat.topology"), p);
        assertNotNull(t, p.toString());
        assertEquals(320, t.lists().hosts().size());
        assertEquals(56, t.lists().switches().size());
        assertEquals(480, t.lists().links().size());
        assertNotNull(t.lists().build(p), p.toString());
        List<Flow> f = HpccFiles.flows("ws30-5ms.flows", StandaloneFctTest.resource("ws30-5ms.flows"), t.hostNodes(),
                p);
        assertNotNull(f, p.toString());
        assertEquals(3143, f.size());
        long bytes = f.stream().mapToLong(Flow::sizeBytes).sum();
        assertEquals(5.4e9, bytes, 0.1e9);
    }
}
