package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;
import org.junit.jupiter.api.Test;

/** HPCC's standalone FCT: a hand computation, and HPCC's own figures for its reference run. */
class StandaloneFctTest {

    /** roce-100g (whose links are PFC's) with the overrides. */
    private static Params params(String... nameValues) {
        return FlowRunnerTest.params("pfc", nameValues);
    }

    @Test
    void baseRttPlusTheMessageWithHpccsHeadersAtTheBottleneckByHand() {
        // h0 -100G 1us- s0 -400G 500ns- s1 -25G default latency- h1; h2 -default rate and latency- s0
        List<String> problems = new ArrayList<>();
        Topology t = Topology.build(List.of("h0", "h1", "h2"), List.of("s0", "s1"), List.of(
                new LinkSpec("h0", "s0", 100_000_000_000L, 1_000_000), new LinkSpec("s0", "s1", 400_000_000_000L,
                        500_000), new LinkSpec("s1", "h1", 25_000_000_000L, -1), new LinkSpec("h2", "s0", 0, -1)),
                problems);
        assertNotNull(t, problems.toString());
        Params p = params("hca.mtu", "1000B", "link.latency", "300ns", "link.bandwidth", "50Gbps");
        StandaloneFct s = new StandaloneFct(t, p);
        // one way 1 us + 500 ns + 300 ns; one 1000-byte payload at 100, 400 and 25 Gb/s: 80 + 20 + 320 ns
        assertEquals(2 * 1_800_000 + 420_000, s.baseRttPs(0, 1));
        assertEquals(25_000_000_000L, s.bottleneckBps(0, 1));
        // 2500 bytes: 3 packets, 2500 + 3 x 48 = 2644 bytes = 21152 bits at 25 Gb/s = 846.08 ns
        assertEquals(4_020_000 + 846_080, s.fctPs(0, 1, 2500));
        // 1 byte from h2 to h0: 49 bytes at 50 Gb/s = 7.84 ns; one way 300 ns + 1 us; payload 160 + 80 ns
        assertEquals(2 * 1_300_000 + 240_000 + 7_840, s.fctPs(2, 0, 1));
        // exactly one MTU is one packet, one byte more two
        assertEquals(4_020_000 + (1000 + 48) * 8 * 40, s.fctPs(0, 1, 1000));
        assertEquals(4_020_000 + (1001 + 96) * 8 * 40, s.fctPs(0, 1, 1001));
        // a 10 GB flow: no overflow
        long big = 10_000_000_000L;
        assertEquals(4_020_000 + (big + big / 1000 * 48) * 8 * 40, s.fctPs(0, 1, big));
        assertEquals(List.of(s.fctPs(0, 1, 2500), s.fctPs(2, 0, 1)), java.util.Arrays.stream(StandaloneFct.of(t, p,
                List.of(new Flow(0, 1, 2500, 0), new Flow(2, 0, 1, 5)))).boxed().toList());
    }

    @Test
    void equalsHpccsOwnStandaloneFctsOfItsReferenceRun() throws Exception {
        // HPCC's fat-tree (shipped with bench hpcc) and the FCT output of HPCC's own run of the WebSearch trace at 30%
        // load under dcqcn (a test resource, from ../shared/anchors/hpcc/)
        List<String> problems = new ArrayList<>();
        HpccFiles.Topology ht = HpccFiles.topology("fat.topology", resource("fat.topology"), problems);
        assertNotNull(ht, problems.toString());
        Topology t = ht.lists().build(problems);
        assertNotNull(t, problems.toString());
        Map<Integer, Integer> hostOf = new LinkedHashMap<>();
        for (int i = 0; i < ht.hostNodes().length; i++) {
            hostOf.put(ht.hostNodes()[i], i);
        }
        StandaloneFct s = new StandaloneFct(t, params("hca.mtu", "1000B"));
        int lines = 0;
        for (String line : resource("fct-dcqcn-ws30-5ms.txt").split("\n")) {
            // sip dip sport dport size start_ns fct_ns standalone_fct_ns; a node's number is ip bits 8 to 23
            String[] f = line.trim().split("\\s+");
            int src = hostOf.get((int) (Long.parseLong(f[0], 16) >> 8) & 0xffff);
            int dst = hostOf.get((int) (Long.parseLong(f[1], 16) >> 8) & 0xffff);
            long hpccPs = Long.parseLong(f[7]) * 1000;
            long ours = s.fctPs(src, dst, Long.parseLong(f[4]));
            // every hop's payload time is a whole number of ns at 100 and 400 Gb/s: only HPCC's truncation of the
            // message's time to ns remains
            assertTrue(ours >= hpccPs && ours < hpccPs + 1000, line + ": ours " + ours + " ps");
            lines++;
        }
        assertEquals(3143, lines);
    }

    static String resource(String name) throws java.io.IOException {
        try (java.io.InputStream in = HpccFiles.class.getResourceAsStream("/org/datsim/scenario/hpcc/" + name)) {
            assertNotNull(in, name);
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        }
    }
}
