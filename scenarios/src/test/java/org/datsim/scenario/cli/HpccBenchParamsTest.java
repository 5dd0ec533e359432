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
}
