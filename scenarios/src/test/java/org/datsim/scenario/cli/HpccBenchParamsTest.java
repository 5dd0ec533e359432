package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.junit.jupiter.api.Test;

/** {@code datsim bench hpcc}'s fabric per {@code --cc}: what HPCC's run.py sets for each algorithm. */
class HpccBenchParamsTest {

    private static Params params(String cc, String... overrides) {
        List<String> problems = new ArrayList<>();
        Params p = HpccBenchCommand.params(cc, "datsim", 100, List.of(overrides), problems);
        assertEquals(List.of(), problems, cc);
        assertNotNull(p);
        return p;
    }

    @Test
    void acksAreQueuedWithTheDataAtSwitchesAndSentFirstByTheNicAsInHpccsSimulator() {
        // third.cc's ACK_HIGH_PRIO sets only the NIC's RdmaEgressQueue::ack_q_idx; switches keep AckHighPrio 0
        for (String cc : new String[] {"none", "dcqcn", "timely", "hpcc", "dctcp"}) {
            assertEquals(0, params(cc).get(FabricParams.LINK_CONTROL_PRIORITY), cc);
            assertEquals(1, params(cc).get(FabricParams.HCA_CONTROL_FIRST), cc);
        }
        assertEquals(1, params("hpcc", "link.control_priority=true").get(FabricParams.LINK_CONTROL_PRIORITY),
                "--param overrides it");
    }

    @Test
    void timelyRunsWithoutEcnOrIntAndEachAlgorithmGetsWhatItNeeds() {
        Params t = params("timely");
        assertEquals("timely", t.choice(FabricParams.CC_ALGORITHM));
        assertEquals(0, t.get(FabricParams.ECN_ENABLED));
        assertEquals(0, t.get(FabricParams.CC_INT));
        assertEquals(1, params("dctcp").get(FabricParams.ECN_ENABLED));
        assertEquals(1, params("dcqcn").get(FabricParams.ECN_ENABLED));
        assertEquals(1, params("hpcc").get(FabricParams.CC_INT));
        List<String> problems = new ArrayList<>();
        assertNull(HpccBenchCommand.params("timely", "datsim", 100, List.of("cc.timely.t_low=1ms"), problems));
        assertEquals(List.of("cc.timely.t_low (1ms) must be below cc.timely.t_high (500us)"), problems);
        problems.clear();
        assertNull(HpccBenchCommand.params("swift", "datsim", 100, List.of(), problems));
        assertEquals(List.of("--cc: expected one of [none, dcqcn, hpcc, dctcp, timely], found \"swift\""), problems);
        problems.clear();
        assertNull(HpccBenchCommand.params("hpcc", "ns3", 100, List.of(), problems));
        assertEquals(List.of("--model: expected datsim or hpcc-ns3, found \"ns3\""), problems);
    }

    @Test
    void dctcpMarksAsRunPyConfiguresItAndHpccNs3ModelsNoHost() {
        Params d = params("dctcp");
        assertEquals(300_000, d.get(FabricParams.ECN_KMIN));
        assertEquals(300_000, d.get(FabricParams.ECN_KMAX));
        assertEquals(100, d.get(FabricParams.ECN_PMAX_PERCENT));
        List<String> problems = new ArrayList<>();
        Params n = HpccBenchCommand.params("hpcc", "hpcc-ns3", 100, List.of(), problems);
        assertEquals(List.of(), problems);
        assertEquals(48, n.get(FabricParams.LINK_HEADER_BYTES));
        assertEquals(0, n.get(FabricParams.PCIE_LATENCY));
        assertEquals(0, n.get(FabricParams.SWITCH_LATENCY));
        assertEquals(0, n.get(FabricParams.HCA_RX_PROCESS));
        assertEquals(1000, n.get(FabricParams.HCA_MTU));
        assertEquals(82, params("hpcc").get(FabricParams.LINK_HEADER_BYTES), "datsim's own model: RoCE headers");
    }

    private static Params at(String cc, String model, long bw) {
        List<String> problems = new ArrayList<>();
        Params p = HpccBenchCommand.params(cc, model, bw, List.of(), problems);
        assertEquals(List.of(), problems);
        return p;
    }

    @Test
    void runPysSettingsFollowItsNicBandwidthAsRunPyComputesThem() {
        // --bw 100, the matrix's: datsim's defaults, but for HPCC's INT_MULTI 100 / 25 = 4 under hpcc-ns3
        assertEquals(512, at("hpcc", "hpcc-ns3", 100).get(org.datsim.fabric.cc.CcParams.HPCC_INT_BYTE_UNIT));
        assertEquals(320, at("hpcc", "hpcc-ns3", 100).get(org.datsim.fabric.cc.CcParams.HPCC_INT_QLEN_UNIT));
        assertEquals(1, at("hpcc", "datsim", 100).get(org.datsim.fabric.cc.CcParams.HPCC_INT_BYTE_UNIT),
                "datsim's own model reads INT exactly");
        assertEquals(40_000_000L, at("hpcc", "hpcc-ns3", 100).get(org.datsim.fabric.cc.CcParams.HPCC_RATE_AI));
        assertEquals(20_000_000L, at("dcqcn", "hpcc-ns3", 100).get(org.datsim.fabric.cc.CcParams.DCQCN_RATE_AI));
        assertEquals(32L << 20, at("dcqcn", "hpcc-ns3", 100).get(FabricParams.SWITCH_SHARED_BUFFER));
        // --bw 25: Python 2's integer division
        assertEquals(128, at("hpcc", "hpcc-ns3", 25).get(org.datsim.fabric.cc.CcParams.HPCC_INT_BYTE_UNIT));
        assertEquals(10_000_000L, at("hpcc", "hpcc-ns3", 25).get(org.datsim.fabric.cc.CcParams.HPCC_RATE_AI));
        assertEquals(5_000_000L, at("dcqcn", "datsim", 25).get(org.datsim.fabric.cc.CcParams.DCQCN_RATE_AI));
        assertEquals(50_000_000L, at("dcqcn", "datsim", 25).get(org.datsim.fabric.cc.CcParams.DCQCN_RATE_HAI));
        assertEquals(25_000_000L, at("timely", "datsim", 25).get(org.datsim.fabric.cc.CcParams.TIMELY_RATE_AI));
        assertEquals(125_000_000L, at("timely", "datsim", 25).get(org.datsim.fabric.cc.CcParams.TIMELY_RATE_HAI));
        assertEquals(8L << 20, at("timely", "datsim", 25).get(FabricParams.SWITCH_SHARED_BUFFER));
        // DCTCP's K = 30 x 25 / 10 = 75 KB at a 25 Gb/s port: 300 KB at the 100 Gb/s reference ecn.kmin is given at
        assertEquals(300_000, at("dctcp", "datsim", 25).get(FabricParams.ECN_KMIN));
    }

    @Test
    void runPysBandwidthIsTheHostLinksRateAndHostLinksAtTwoRatesAreALocatedError() {
        List<String> problems = new ArrayList<>();
        // HPCC's fat-tree at --bw 25: 25 Gb/s host links, 100 Gb/s above
        org.datsim.scenario.workload.HpccFiles.Topology t25 = org.datsim.scenario.workload.HpccFiles.topology("t25",
                "4 2 3\n2 3\n0 2 25Gbps 1us 0\n1 3 25Gbps 1us 0\n2 3 100Gbps 1us 0\n", problems);
        assertEquals(25, HpccBenchCommand.nicGbps(t25, "t25", problems));
        assertEquals(List.of(), problems);
        org.datsim.scenario.workload.HpccFiles.Topology mixed = org.datsim.scenario.workload.HpccFiles.topology("m",
                "4 2 3\n2 3\n0 2 100Gbps 1us 0\n1 3 25Gbps 1us 0\n2 3 400Gbps 1us 0\n", problems);
        assertEquals(100, HpccBenchCommand.nicGbps(mixed, "m", problems));
        assertEquals(List.of("m: host link 1-3 runs at 25 Gb/s but host link 0-2 at 100 Gb/s; run.py's --bw, from"
                + " which bench hpcc derives HPCC's settings, is one NIC rate for every host"), problems);
        problems.clear();
        org.datsim.scenario.workload.HpccFiles.Topology odd = org.datsim.scenario.workload.HpccFiles.topology("o",
                "3 1 2\n2\n0 2 40.5Gbps 1us 0\n1 2 40.5Gbps 1us 0\n", problems);
        HpccBenchCommand.nicGbps(odd, "o", problems);
        assertEquals(List.of("o: host link 0-2 runs at 40.5 Gb/s; run.py's --bw, from which bench hpcc derives HPCC's"
                + " settings, is whole Gb/s"), problems);
    }
}
