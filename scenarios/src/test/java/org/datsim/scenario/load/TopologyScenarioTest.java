package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.FILE;
import static org.datsim.scenario.ScenarioJson.baseCalls;
import static org.datsim.scenario.ScenarioJson.process;
import static org.datsim.scenario.ScenarioJson.scenario;
import static org.datsim.scenario.ScenarioJson.withParams;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code fabric.topology} (generated back-to-back, single-switch and fat-tree fabrics) and the flow-control
 * parameters that constrain each other: valid ones build the expected topology, invalid ones are rejected before
 * the run with the JSON path of the problem.
 */
class TopologyScenarioTest {

    private static String onHost0(String fabric) {
        return scenario(fabric, process("p", "h0", baseCalls()));
    }

    private static List<String> problems(String json) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(FILE, json),
                () -> "expected the scenario to be rejected:\n" + json);
        return e.problems();
    }

    private static void assertOnlyProblemAt(String json, String path, String... fragments) {
        List<String> p = problems(json);
        assertEquals(1, p.size(), () -> "expected exactly one problem, got " + p);
        assertTrue(p.get(0).startsWith(FILE + ": " + path + ": "), () -> "expected the path " + path + " in " + p);
        for (String f : fragments) {
            assertTrue(p.get(0).contains(f), () -> "expected <" + f + "> in <" + p.get(0) + ">");
        }
    }

    @Test
    void threeLevelFatTreeHasTheTextbookSizes() throws ScenarioException {
        Scenario s = ScenarioLoader.parse(FILE, onHost0("{\"topology\": {\"fat_tree\": {\"k\": 4, \"levels\": 3}}}"));
        assertEquals(16, s.topology().hosts().size());
        assertEquals(20, s.topology().switches().size());
        assertEquals(48, s.topology().links().size());
        assertEquals("h0", s.topology().hosts().get(0));
    }

    @Test
    void twoLevelFatTreeSingleSwitchAndBackToBack() throws ScenarioException {
        Scenario two = ScenarioLoader.parse(FILE, onHost0("{\"topology\": {\"fat_tree\": {\"k\": 4, \"levels\": 2}}}"));
        assertEquals(8, two.topology().hosts().size());
        assertEquals(6, two.topology().switches().size());
        Scenario one = ScenarioLoader.parse(FILE, onHost0("{\"topology\": {\"single_switch\": {\"hosts\": 5}}}"));
        assertEquals(5, one.topology().hosts().size());
        assertEquals(List.of("s0"), one.topology().switches());
        Scenario b2b = ScenarioLoader.parse(FILE, scenario("{\"topology\": {\"back_to_back\": {\"host_prefix\":"
                + " \"n\"}}, \"params\": {\"link.flow_control\": \"pfc\"}}", process("p", "n1", baseCalls())));
        assertEquals(List.of("n0", "n1"), b2b.topology().hosts());
    }

    @Test
    void aBadPresetOrLinkAttributeDoesNotHideTheShapeProblems() {
        String fabric = "{\"preset\": \"ib-qdr\", \"hosts\": [\"A\", \"B\", \"C\"], \"switches\": [\"S\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"S\", \"bandwidth\": \"-5Gbps\"}, {\"a\": \"B\", \"b\": \"Z\"},"
                + " {\"a\": \"B\", \"b\": \"S\"}], \"params\": {\"hca.mtu\": \"3000B\"}}";
        List<String> p = problems(scenario(fabric, process("p", "A", baseCalls())));
        String all = String.join("\n", p);
        for (String at : new String[] {"$.fabric.links[0].bandwidth: ", "$.fabric.preset: ", "$.fabric.params.hca.mtu: ",
            "$.fabric.links[1]: no host or switch is named \"Z\"", "$.fabric: host \"C\" has 0 links"}) {
            assertTrue(all.contains(FILE + ": " + at), () -> "expected <" + at + "> among:\n" + all);
        }
        assertEquals(5, p.size(), all);
    }

    @Test
    void aLinkThatCannotBeReadLeavesTheShapeUnchecked() {
        // Its endpoints are unknown, so the shape would be wrong: no spurious "has 0 links" for B.
        String fabric = "{\"hosts\": [\"A\", \"B\"], \"switches\": [\"S\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"S\"}, {\"a\": \"B\"}]}";
        List<String> p = problems(scenario(fabric, process("p", "A", baseCalls())));
        assertEquals(1, p.size(), String.join("\n", p));
        assertTrue(p.get(0).startsWith(FILE + ": $.fabric.links[1]"), p.get(0));
    }

    @Test
    void oddRadixIsRejected() {
        assertOnlyProblemAt(onHost0("{\"topology\": {\"fat_tree\": {\"k\": 5}}}"), "$.fabric.topology.fat_tree.k",
                "even");
    }

    @Test
    void oversizedFatTreeIsRejected() {
        assertOnlyProblemAt(onHost0("{\"topology\": {\"fat_tree\": {\"k\": 64, \"levels\": 3}}}"),
                "$.fabric.topology.fat_tree.k", "from 2 to 32");
        assertOnlyProblemAt(onHost0("{\"topology\": {\"single_switch\": {\"hosts\": 0}}}"),
                "$.fabric.topology.single_switch.hosts", "from 1 to");
    }

    @Test
    void unknownTopologyAndExtraKeysAreRejected() {
        assertOnlyProblemAt(onHost0("{\"topology\": {\"torus\": {}}}"), "$.fabric.topology.torus",
                "unknown topology");
        assertOnlyProblemAt(onHost0("{\"topology\": {\"fat_tree\": {\"k\": 4, \"radix\": 4}}}"),
                "$.fabric.topology.fat_tree.radix", "unknown field");
        assertOnlyProblemAt(onHost0("{\"topology\": {\"single_switch\": {\"hosts\": 2}}, \"hosts\": [\"A\"]}"),
                "$.fabric.hosts", "not allowed with $.fabric.topology");
    }

    @Test
    void processOnAHostTheTopologyDoesNotMakeIsRejected() {
        List<String> p = problems(scenario("{\"topology\": {\"single_switch\": {\"hosts\": 2}}}",
                process("p", "h7", baseCalls())));
        assertEquals(1, p.size(), p::toString);
        assertTrue(p.get(0).contains("$.processes[0].host") && p.get(0).contains("h7"), p::toString);
    }

    @Test
    void pfcThresholdsMustBeOrderedAndLeaveHeadroom() {
        assertOnlyProblemAt(withParams("{\"link.flow_control\": \"pfc\", \"pfc.xon\": \"100KiB\","
                + " \"pfc.xoff\": \"90KiB\"}"), "$.fabric.params", "pfc.xon", "below pfc.xoff");
        assertOnlyProblemAt(withParams("{\"link.flow_control\": \"pfc\", \"switch.buffer\": \"128KiB\","
                + " \"pfc.xoff\": \"127KiB\"}"), "$.fabric.params", "headroom");
    }

    @Test
    void bufferMustHoldTheLargestPacket() {
        assertOnlyProblemAt(withParams("{\"switch.buffer\": \"2KiB\"}"), "$.fabric.params", "switch.buffer",
                "largest packet");
    }

    @Test
    void unknownFlowControlIsRejected() {
        List<String> p = problems(withParams("{\"link.flow_control\": \"xon\"}"));
        assertEquals(1, p.size(), p::toString);
        assertTrue(p.get(0).contains("$.fabric.params") && p.get(0).contains("ib_credits"), p::toString);
    }

    @Test
    void aPresetAppliesToAGeneratedTopologyAndParamsOverrideIt() throws ScenarioException {
        Scenario roce = ScenarioLoader.parse(FILE, onHost0("{\"preset\": \"roce-100g\", \"topology\":"
                + " {\"single_switch\": {\"hosts\": 4}}}"));
        assertEquals(4, roce.topology().hosts().size());
        assertEquals("pfc", roce.params().choice(org.datsim.fabric.FabricParams.LINK_FLOW_CONTROL),
                "lossless RoCE: the preset turns on priority flow control");
        assertEquals(1024, roce.params().get(org.datsim.fabric.FabricParams.HCA_MTU));
        Scenario edr = ScenarioLoader.parse(FILE, onHost0("{\"preset\": \"ib-edr\", \"topology\":"
                + " {\"back_to_back\": {}}, \"params\": {\"link.flow_control\": \"none\"}}"));
        assertEquals("none", edr.params().choice(org.datsim.fabric.FabricParams.LINK_FLOW_CONTROL),
                "params override the preset");
        assertEquals(10_000, edr.params().get(org.datsim.fabric.FabricParams.LINK_LATENCY), "the preset's cable");
        assertEquals(40_000, edr.params().get(org.datsim.fabric.FabricParams.HCA_PHY_LATENCY),
                "the preset's PHY per HCA: 90 ns back to back");
        // The cross-checks see the preset's values: pfc, and its largest packet (82 B of headers + 1 KiB MTU + 16).
        assertOnlyProblemAt(onHost0("{\"preset\": \"roce-100g\", \"topology\": {\"back_to_back\": {}},"
                + " \"params\": {\"switch.buffer\": \"64KiB\"}}"), "$.fabric.params", "pfc.xoff", "(1122 B)");
    }
}
