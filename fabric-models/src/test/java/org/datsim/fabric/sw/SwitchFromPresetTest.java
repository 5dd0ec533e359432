package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.link.FlowControl;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/** Fabric chooses each switch's policies from the parameters: the presets give the switches they describe. */
class SwitchFromPresetTest {

    private static Switch build(String preset, String... overrides) {
        List<String> problems = new ArrayList<>();
        Topology t = TopologyBuilder.singleSwitch("h", 3).build(problems);
        assertTrue(problems.isEmpty(), problems.toString());
        Map<String, String> o = new java.util.LinkedHashMap<>();
        for (int i = 0; i < overrides.length; i += 2) {
            o.put(overrides[i], overrides[i + 1]);
        }
        Params p = FabricPresets.get(preset).params().with(o, problems);
        assertTrue(problems.isEmpty(), problems.toString());
        Fabric f = new Fabric(new Simulator(), t, p, Map.of(), new RandomStreams(1), new TraceSource<TraceEvent>("t"));
        return f.switches().get(0);
    }

    @Test
    void ibEdrHasAStaticBufferUnderInfinibandCreditAndDatsimsEcmp() {
        Switch sw = build("ib-edr");
        StaticBuffer b = assertInstanceOf(StaticBuffer.class, sw.buffer());
        assertEquals(FlowControl.IB_CREDITS, b.flowControl());
        assertEquals(3, b.ports());
        assertFalse(sw.routes().isHpcc());
        assertNull(sw.ecn());
        assertNull(sw.intStamper());
        assertNotNull(sw.dropFilter());
    }

    @Test
    void roceHasAStaticBufferUnderPfc() {
        StaticBuffer b = assertInstanceOf(StaticBuffer.class, build("roce-100g").buffer());
        assertEquals(FlowControl.PFC, b.flowControl());
    }

    @Test
    void hpccNs3HasTheSharedBufferHpccsEcmpAndWithItsCongestionControlEcnOrTelemetry() {
        Switch sw = build("hpcc-ns3");
        SharedBuffer b = assertInstanceOf(SharedBuffer.class, sw.buffer());
        assertEquals(37_500, b.headroom(0), "3 x 100 Gb/s x 1 us");
        assertTrue(sw.routes().isHpcc());
        assertNull(sw.ecn());
        Switch dcqcn = build("hpcc-ns3", "ecn.enabled", "true", "ecn.kmin", "100KB", "ecn.kmax", "400KB");
        assertNotNull(dcqcn.ecn());
        assertEquals(100_000, dcqcn.ecn().kmin(0));
        assertNull(dcqcn.intStamper());
        Switch hpcc = build("hpcc-ns3", "cc.int", "true");
        assertNotNull(hpcc.intStamper());
        assertEquals(100_000_000_000L, hpcc.intStamper().rate(2));
    }

    @Test
    void everyPortIsPairedWithTheUpstreamPortItSendsPfcFramesTo() {
        Switch sw = build("roce-100g");
        for (Port p : sw.ports()) {
            assertNotNull(p.reverse(), p.name());
            assertSame(p, p.reverse().reverse());
            assertEquals(p.name().split("->")[0], p.reverse().name().split("->")[1], p.name());
        }
    }
}
