package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.FILE;
import static org.datsim.scenario.ScenarioJson.withFabric;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.datsim.core.param.ParamSpec;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.junit.jupiter.api.Test;

/** {@code fabric.preset} and the checks of bad fabric descriptions, each rejected before t=0 with its JSON path. */
class FabricPresetValidationTest {

    private static final String LINKS = "\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]";

    private static String onlyProblem(String json) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(FILE, json));
        assertEquals(1, e.problems().size(), () -> "expected one problem, got " + e.problems());
        return e.problems().get(0);
    }

    private static Scenario parse(String json) {
        try {
            return ScenarioLoader.parse(FILE, json);
        } catch (ScenarioException e) {
            throw new AssertionError(e.problems().toString(), e);
        }
    }

    private static void assertProblemAt(String json, String path, String... fragments) {
        String p = onlyProblem(json);
        assertTrue(p.startsWith(FILE + ": " + path + ": "), () -> "expected a problem at " + path + ", got " + p);
        for (String f : fragments) {
            assertTrue(p.contains(f), () -> "expected <" + f + "> in <" + p + ">");
        }
    }

    @Test
    void aPresetReplacesTheDefaultsAndParamsHostParamsAndLinksOverrideIt() throws ScenarioException {
        Scenario s = ScenarioLoader.parse(FILE, withFabric("{\"preset\": \"ib-edr\", " + LINKS
                + ", \"params\": {\"hca.wqe_process\": \"99ns\"}, \"host_params\": {\"B\": {\"pcie.latency\":"
                + " \"1us\"}}}"));
        Params edr = FabricPresets.get("ib-edr").params();
        assertEquals(edr.get(FabricParams.LINK_LATENCY), s.params().get(FabricParams.LINK_LATENCY));
        assertEquals(edr.get(FabricParams.HCA_MAX_INLINE), s.params().get(FabricParams.HCA_MAX_INLINE));
        assertEquals(99_000L, s.params().get(FabricParams.HCA_WQE_PROCESS), "params override the preset");
        Params b = s.hostParams().get("B");
        assertEquals(1_000_000L, b.get(FabricParams.PCIE_LATENCY), "host_params override it too");
        assertEquals(99_000L, b.get(FabricParams.HCA_WQE_PROCESS), "and inherit the fabric's overrides");
        assertEquals(edr.get(FabricParams.PCIE_BANDWIDTH), b.get(FabricParams.PCIE_BANDWIDTH));
    }

    @Test
    void everyPresetIsValidAndNamesOnlyDeclaredParameters() {
        assertEquals(List.of("ib-edr", "ib-hdr", "ib-ndr", "roce-100g", "ideal", "hpcc-ns3"), FabricPresets.names());
        for (String n : FabricPresets.names()) {
            FabricPresets.Preset p = FabricPresets.get(n);
            Params params = p.params(); // throws if a value does not parse or a name is not declared
            // an InfiniBand MTU, but for the comparison preset, which has HPCC's 1000-byte payload
            assertTrue(Long.bitCount(params.get(FabricParams.HCA_MTU)) == 1 || "hpcc-ns3".equals(n), n);
            assertTrue(p.values().size() > 0, n);
        }
        assertEquals(2 * FabricPresets.get("ib-edr").params().get(FabricParams.LINK_BANDWIDTH),
                FabricPresets.get("ib-hdr").params().get(FabricParams.LINK_BANDWIDTH));
        assertEquals(4 * FabricPresets.get("ib-edr").params().get(FabricParams.LINK_BANDWIDTH),
                FabricPresets.get("ib-ndr").params().get(FabricParams.LINK_BANDWIDTH));
        assertTrue(FabricPresets.get("roce-100g").params().get(FabricParams.LINK_HEADER_BYTES)
                > FabricPresets.get("ib-edr").params().get(FabricParams.LINK_HEADER_BYTES),
                "RoCEv2 carries Ethernet, IP and UDP headers instead of LRH and VCRC");
        Params ideal = FabricPresets.get("ideal").params();
        for (ParamSpec spec : FabricParams.ALL) {
            // Timers of the transport are not overheads (hca.ack_timeout: a loss-recovery timer, like the RNR timer;
            // cm.response_timeout: the connection manager's; cc.*: congestion control's timers and base RTT).
            if (spec.kind() == ParamSpec.Kind.TIME && !spec.name().startsWith("transport.")
                    && !spec.name().startsWith("cc.")
                    && spec != FabricParams.HCA_ACK_TIMEOUT && spec != FabricParams.CM_RESPONSE_TIMEOUT) {
                assertEquals(0L, ideal.get(spec), "ideal has no overhead: " + spec.name());
            }
        }
        assertEquals(0L, ideal.get(FabricParams.LINK_HEADER_BYTES));
    }

    @Test
    void unknownPresetListsTheKnownOnes() {
        assertProblemAt(withFabric("{\"preset\": \"ib-qdr\", " + LINKS + "}"), "$.fabric.preset",
                "expected one of [ib-edr, ib-hdr, ib-ndr, roce-100g, ideal, hpcc-ns3]", "ib-qdr");
        assertProblemAt(withFabric("{\"preset\": 4, " + LINKS + "}"), "$.fabric.preset", "expected one of");
    }

    @Test
    void mtuMustBeAPowerOfTwoFrom256To4096() {
        assertProblemAt(withFabric("{" + LINKS + ", \"params\": {\"hca.mtu\": \"3000B\"}}"),
                "$.fabric.params.hca.mtu", "expected a power of two", "found 3000 bytes");
        assertProblemAt(withFabric("{" + LINKS + ", \"params\": {\"hca.mtu\": \"8KiB\"}}"),
                "$.fabric.params.hca.mtu", "expected a value from 256B to 4KiB");
        assertProblemAt(withFabric("{" + LINKS + ", \"host_params\": {\"B\": {\"hca.mtu\": 1500}}}"),
                "$.fabric.host_params.B.hca.mtu", "expected a power of two");
        assertProblemAt(withFabric("{" + LINKS + ", \"params\": {\"hca.mtt_page_size\": \"6KiB\"}}"),
                "$.fabric.params.hca.mtt_page_size", "expected a power of two");
        // HPCC's 1000-byte payload: the hpcc-ns3 comparison preset alone takes it (and no MTU below 256 bytes)
        assertEquals(1000L, parse(withFabric("{\"preset\": \"hpcc-ns3\", " + LINKS + "}")).params()
                .get(FabricParams.HCA_MTU));
        assertEquals(1500L, parse(withFabric("{\"preset\": \"hpcc-ns3\", " + LINKS
                + ", \"params\": {\"hca.mtu\": \"1500B\"}}")).params().get(FabricParams.HCA_MTU));
        assertProblemAt(withFabric("{\"preset\": \"roce-100g\", " + LINKS + ", \"params\": {\"hca.mtu\": \"1000B\"}}"),
                "$.fabric.params.hca.mtu", "expected a power of two");
    }

    @Test
    void zeroOrNegativeBandwidthIsRejected() {
        assertProblemAt(withFabric("{" + LINKS + ", \"params\": {\"link.bandwidth\": \"0Gbps\"}}"),
                "$.fabric.params.link.bandwidth", "must be positive");
        assertProblemAt(withFabric("{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\","
                + " \"bandwidth\": \"-5Gbps\"}]}"), "$.fabric.links[0].bandwidth", "must be positive");
        assertProblemAt(withFabric("{" + LINKS + ", \"params\": {\"pcie.bandwidth\": \"-1Gbps\"}}"),
                "$.fabric.params.pcie.bandwidth", "must be positive");
    }

    @Test
    void aLinkToAMissingNodeAndADisconnectedFabricAreRejected() {
        assertProblemAt(withFabric("{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"},"
                + " {\"a\": \"B\", \"b\": \"S9\"}]}"), "$.fabric.links[1]", "no host or switch is named \"S9\"");
        assertProblemAt(withFabric("{\"hosts\": [\"A\", \"B\", \"C\", \"D\"], \"links\": [{\"a\": \"A\", \"b\":"
                + " \"B\"}, {\"a\": \"C\", \"b\": \"D\"}]}"), "$.fabric", "not connected");
    }
}
