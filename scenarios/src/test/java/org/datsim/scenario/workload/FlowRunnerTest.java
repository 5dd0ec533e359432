package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.memory.HostMemory;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

class FlowRunnerTest {

    static Params params(String flowControl, String... nameValues) {
        Map<String, String> map = new LinkedHashMap<>(FabricPresets.get("roce-100g").values());
        map.put(FabricParams.LINK_FLOW_CONTROL.name(), flowControl);
        for (int i = 0; i < nameValues.length; i += 2) {
            map.put(nameValues[i], nameValues[i + 1]);
        }
        List<String> problems = new ArrayList<>();
        Params p = Params.defaults(FabricParams.ALL).with(map, problems);
        assertTrue(problems.isEmpty(), problems.toString());
        return p;
    }

    static Topology fatTree() {
        List<String> problems = new ArrayList<>();
        Topology t = TopologyBuilder.fatTree("h", 4, 3).build(problems);
        assertTrue(problems.isEmpty(), problems.toString());
        return t;
    }

    /** Crossing flows of many sizes (1 byte to several MTUs, with partial last packets), some at the same instant. */
    static List<Flow> flows(int hosts) {
        List<Flow> flows = new ArrayList<>();
        long[] sizes = {1, 999, 4096, 4097, 20_000, 65_536, 150_001, 7, 300_000, 12_345};
        for (int i = 0; i < 40; i++) {
            int src = (i * 7) % hosts;
            int dst = (src + 1 + (i * 5) % (hosts - 1)) % hosts;
            flows.add(new Flow(src, dst, sizes[i % sizes.length], (i / 3) * 2_000_000L));
        }
        return flows;
    }

    @Test
    void payloadFreeFlowsTakeExactlyTheTimeOfFlowsMovingTheirBytes() throws Exception {
        Topology t = fatTree();
        for (String fc : new String[] {"pfc", "ib_credits"}) {
            Params p = params(fc);
            List<Flow> flows = flows(t.hosts().size());
            for (boolean send : new boolean[] {false, true}) {
                FlowRunner.Result bytes = FlowRunner.run(t, p, flows, send, 5, true, false);
                FlowRunner.Result free = FlowRunner.run(t, p, flows, send, 5, true, true);
                assertEquals(0, bytes.failed());
                assertArrayEquals(bytes.fctPs(), free.fctPs(), fc + " send=" + send);
                assertArrayEquals(bytes.idealPs(), free.idealPs(), fc + " send=" + send);
                if (send) {
                    assertEquals(bytes.events(), free.events());
                } else {
                    // a payload-free Write packet is released on arrival, without the placement event that copies
                    // the bytes of the other run
                    assertTrue(free.events() < bytes.events(), fc);
                }
                assertEquals(bytes.endPs(), free.endPs());
                assertEquals(bytes.packets(), free.packets());
            }
        }
    }

    @Test
    void payloadFreeFlowsLeaveTheTargetBuffersAsTheyWere() {
        Topology t = fatTree();
        for (boolean payloadFree : new boolean[] {false, true}) {
            Simulator sim = new Simulator();
            Fabric fabric = new Fabric(sim, t, params("pfc"), Map.of(), new RandomStreams(1),
                    new TraceSource<TraceEvent>("t"));
            List<Flow> flows = List.of(new Flow(0, 5, 10_000, 0));
            FlowRunner.Attached net = new FlowRunner.Attached(fabric, flows, false, payloadFree);
            HostMemory target = fabric.hosts().get(5).hca().memory();
            // host 5 sends nothing: its only buffer is the flow's target, at the first address
            target.cpuFill(HostMemory.BASE_ADDRESS, 10_000, (byte) 0x5a);
            net.post(0);
            sim.run();
            assertTrue(net.fct()[0] > 0);
            byte expected = payloadFree ? (byte) 0x5a : 0; // the source buffer holds zeros
            byte[] seen = target.cpuRead(HostMemory.BASE_ADDRESS, 10_000);
            for (byte b : seen) {
                assertEquals(expected, b, "payloadFree=" + payloadFree);
            }
        }
    }

    @Test
    void aFlowItsCongestionControlThrottlesAloneHasASlowdownAboveOne() throws Exception {
        Topology t = fatTree();
        List<Flow> one = List.of(new Flow(0, 15, 10_000_000, 0));
        // a window of 8 KiB, far below the path's bandwidth-delay product, holds a lone 10 MB flow back
        FlowRunner.Result hpcc = FlowRunner.run(t, params("pfc", "cc.algorithm", "hpcc", "cc.int", "true",
                "cc.window", "8KiB"), one, false, 5, true);
        double slowdown = (double) hpcc.fctPs()[0] / hpcc.idealPs()[0];
        assertTrue(slowdown > 1.5, "hpcc alone: fct " + hpcc.fctPs()[0] + " ideal " + hpcc.idealPs()[0]);
        // with its default window hpcc runs the link at eta (95%) with its 42-byte INT header on every packet: a
        // slowdown a little above 1, where an ideal that kept hpcc would say exactly 1
        FlowRunner.Result eta = FlowRunner.run(t, params("pfc", "cc.algorithm", "hpcc", "cc.int", "true"), one,
                false, 5, true);
        double etaSlowdown = (double) eta.fctPs()[0] / eta.idealPs()[0];
        assertTrue(etaSlowdown > 1.05 && etaSlowdown < 1.15, "hpcc at eta: " + etaSlowdown);
        // the ideal is the flow alone with congestion control off but hpcc's packet arbitration and per-packet ACKs
        FlowRunner.Result none = FlowRunner.run(t, params("pfc", "hca.arbitration", "packet",
                "transport.ack_interval", "1"), one, false, 5, true);
        assertEquals(none.fctPs()[0], hpcc.idealPs()[0]);
        assertEquals(none.fctPs()[0], none.idealPs()[0], "no congestion control: slowdown 1");
        // with the defaults (request arbitration, one ACK per message) too
        FlowRunner.Result plain = FlowRunner.run(t, params("pfc"), one, false, 5, true);
        assertEquals(plain.fctPs()[0], plain.idealPs()[0]);
        // HPCC's formula for the same flow: six hops of roce-100g, no host and no switch latency, 48-byte headers
        assertEquals(new StandaloneFct(t, params("pfc")).fctPs(0, 15, 10_000_000), hpcc.standalonePs()[0]);
        assertTrue(hpcc.standalonePs()[0] < plain.fctPs()[0]);
    }

    @Test
    void theIdealFabricKeepsWhatTheRunResolvedAndTurnsOffOnlyCongestionControl() {
        Params dcqcn = params("pfc", "cc.algorithm", "dcqcn", "ecn.enabled", "true");
        Params ideal = FlowRunner.idealParams(dcqcn, dcqcn);
        assertEquals("none", ideal.choice(FabricParams.CC_ALGORITHM));
        assertEquals(0, ideal.get(FabricParams.ECN_ENABLED));
        assertEquals("packet", ideal.choice(FabricParams.HCA_ARBITRATION));
        assertEquals(0, ideal.get(FabricParams.ACK_INTERVAL), "dcqcn keeps one ACK per message");
        Params hpcc = params("pfc", "cc.algorithm", "hpcc", "cc.int", "true", "transport.ack_interval", "0");
        ideal = FlowRunner.idealParams(hpcc, hpcc);
        assertEquals(0, ideal.get(FabricParams.CC_INT));
        assertEquals(1, ideal.get(FabricParams.ACK_INTERVAL), "hpcc: an ACK per packet");
        Params every4 = params("pfc", "cc.algorithm", "hpcc", "cc.int", "true", "transport.ack_interval", "4");
        assertEquals(4, FlowRunner.idealParams(every4, every4).get(FabricParams.ACK_INTERVAL));
        Params none = params("pfc");
        assertEquals(none.asText(), FlowRunner.idealParams(none, none).asText(), "no congestion control: unchanged");
        Map<String, String> differ = new LinkedHashMap<>();
        Map<String, String> a = hpcc.asText();
        FlowRunner.idealParams(hpcc, hpcc).asText().forEach((k, v) -> {
            if (!v.equals(a.get(k))) {
                differ.put(k, v);
            }
        });
        assertEquals(Map.of("cc.algorithm", "none", "cc.int", "false", "hca.arbitration", "packet",
                "transport.ack_interval", "1"), differ);
    }
}
