package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.stats.StatsRegistry;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.link.PortCounters;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Switch buffers and link-level flow control: an incast of several hosts writing to one host through one switch
 * fills the switch's buffer; InfiniBand credits and PFC hold the senders back instead of letting the buffer
 * overflow (every write completes, no drop), and the stall shows in the port counters. Also cut-through timing and
 * ECMP path spreading.
 */
class FlowControlTest {

    /** An incast: hosts 1..n-1 of a single switch each RDMA-Write {@code bytes} to host 0 at time 0. */
    private static final class Incast {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final List<WorkRequest> writes = new ArrayList<>();
        int completed;

        Incast(Params p, int hosts, long bytes) {
            TopologyBuilder shape = TopologyBuilder.singleSwitch("h", hosts);
            List<String> problems = new ArrayList<>();
            fabric = new Fabric(sim, shape.build(problems), p, Map.of(), new RandomStreams(1),
                    new TraceSource<TraceEvent>("t"));
            Hca target = fabric.hosts().get(0).hca();
            long dst = target.memory().allocate(bytes);
            for (int h = 1; h < hosts; h++) {
                Hca hca = fabric.hosts().get(h).hca();
                QueuePair qa = hca.createQueuePair("a" + h);
                QueuePair qb = target.createQueuePair("b" + h);
                TestFabric.connectPair(qa, qb, wr -> {
                    if (wr.status() == WcStatus.SUCCESS) {
                        completed++;
                    }
                }, status -> { });
                long src = hca.memory().allocate(bytes);
                WorkRequest wr = new WorkRequest(h, WorkRequest.RDMA_WRITE, qa, h, 0, new long[] {src},
                        new long[] {bytes}, dst, 1);
                writes.add(wr);
                hca.postRequest(wr);
            }
            sim.run();
        }

        Switch sw() {
            return fabric.switches().get(0);
        }

        /** The port of host h towards the switch. */
        Port up(int h) {
            return fabric.ports().get(2 * h);
        }

        long maxIngress() {
            long m = 0;
            for (int i = 0; i < sw().ports().size(); i++) {
                m = Math.max(m, sw().maxIngressBytes(i));
            }
            return m;
        }

        long stall() {
            long s = 0;
            for (Port p : fabric.ports()) {
                s += p.counters().stallPs();
            }
            return s;
        }
    }

    @Test
    void ibCreditsKeepEachInputWithinItsBufferAndStallTheSenders() {
        Params p = TestFabric.params("switch.buffer", "16KiB");
        Incast in = new Incast(p, 5, 256 * 1024);
        assertEquals(4, in.completed);
        assertTrue(in.maxIngress() <= 16 * 1024, "an input held " + in.maxIngress() + " bytes");
        assertTrue(in.maxIngress() > 8 * 1024, "the buffer did fill");
        assertTrue(in.stall() > 0, "senders waited for credit");
        assertEquals(0, in.sw().drops());
        for (int i = 0; i < in.sw().ports().size(); i++) {
            assertEquals(0, in.sw().ingressBytes(i), "everything left the switch");
        }
        assertEquals(16 * 1024, in.up(1).credits(), "all credit came back");
    }

    @Test
    void pfcPausesAtXoffAndNeverDropsWithEnoughHeadroom() {
        // Headroom 64 KiB - 32 KiB: far more than 2 x 50 ns x 100 Gb/s + 2 packets.
        Params p = TestFabric.params("link.flow_control", "pfc", "switch.buffer", "64KiB", "pfc.xoff", "32KiB",
                "pfc.xon", "16KiB");
        Incast in = new Incast(p, 5, 256 * 1024);
        assertEquals(4, in.completed);
        assertEquals(0, in.sw().drops());
        assertTrue(in.maxIngress() >= 32 * 1024, "some input reached xoff");
        assertTrue(in.maxIngress() <= 64 * 1024);
        assertTrue(in.stall() > 0, "some sender was paused");
    }

    @Test
    void pfcWithTooLittleHeadroomDropsAndCountsIt() {
        // A 5 us cable holds 62.5 KB in flight each way: far beyond the 8.2 KiB of headroom.
        Params p = TestFabric.params("link.flow_control", "pfc", "link.latency", "5us", "switch.buffer", "24KiB",
                "pfc.xoff", "16KiB", "pfc.xon", "8KiB");
        Incast in = new Incast(p, 3, 256 * 1024);
        assertTrue(in.sw().drops() > 0);
        long counted = 0;
        for (Port port : in.fabric.ports()) {
            counted += port.counters().drops();
        }
        assertEquals(in.sw().drops(), counted, "each drop is counted on the port that sent the packet");
    }

    @Test
    void withoutFlowControlTheBufferIsUnbounded() {
        Params p = TestFabric.params("link.flow_control", "none", "switch.buffer", "16KiB");
        Incast in = new Incast(p, 5, 256 * 1024);
        assertEquals(4, in.completed);
        assertTrue(in.maxIngress() > 16 * 1024, "an input held " + in.maxIngress() + " bytes");
        assertEquals(0, in.stall());
    }

    @Test
    void flowControlDoesNotDelayAnUncongestedWrite() {
        Incast credits = new Incast(TestFabric.params(), 2, 64 * 1024);
        Incast none = new Incast(TestFabric.params("link.flow_control", "none"), 2, 64 * 1024);
        assertEquals(none.sim.now(), credits.sim.now());
    }

    @Test
    void cutThroughSavesOneSerialisationOfTheDataAndOfTheAck() {
        Incast sf = new Incast(TestFabric.params(), 2, 1024);
        Incast ct = new Incast(TestFabric.params("switch.mode", "cut_through"), 2, 1024);
        Params p = TestFabric.params();
        DataRate link = p.rate(FabricParams.LINK_BANDWIDTH);
        long data = link.transmitTimePs(p.get(FabricParams.LINK_HEADER_BYTES) + 1024 + p.get(FabricParams.LINK_RETH_BYTES));
        long ack = link.transmitTimePs(p.get(FabricParams.LINK_HEADER_BYTES) + p.get(FabricParams.LINK_AETH_BYTES));
        assertEquals(data, sf.fabric.ports().get(1).lastDeliveryPs() - ct.fabric.ports().get(1).lastDeliveryPs(),
                "the data's last bit reaches the target one serialisation earlier");
        assertEquals(data + ack, sf.sim.now() - ct.sim.now(), "the completion comes back two serialisations earlier");
    }

    @Test
    void portCountersAreRegisteredByName() {
        Incast in = new Incast(TestFabric.params(), 3, 8192);
        StatsRegistry reg = new StatsRegistry();
        in.fabric.registerStats(reg);
        PortCounters down = (PortCounters) reg.get("port.s0->h0");
        assertEquals(4, down.packets(), "2 data packets from each of h1 and h2; the ACKs go the other way");
        assertTrue(down.bytes() > 2 * 8192);
        assertEquals(6, reg.stats().size());
    }

    @Test
    void ecmpSpreadsFlowsOverTheCoreAndKeepsEachFlowOnOnePath() {
        TopologyBuilder shape = TopologyBuilder.fatTree("h", 4, 3);
        List<String> problems = new ArrayList<>();
        Fabric f = new Fabric(new Simulator(), shape.build(problems), TestFabric.params(), Map.of(),
                new RandomStreams(1), new TraceSource<TraceEvent>("t"));
        Switch edge = null;
        for (Switch s : f.switches()) {
            if (s.name().equals("edge_0_0")) {
                edge = s;
            }
        }
        int remote = 15; // in pod 3
        assertEquals(2, edge.routeChoices(remote).length, "two aggregation switches lead up");
        assertEquals(1, edge.routeChoices(0).length, "host 0 hangs off this edge switch");
        java.util.Set<Integer> used = new java.util.TreeSet<>();
        for (int flow = 0; flow < 64; flow++) {
            used.add(edge.route(remote, flow * 7919));
            assertEquals(edge.route(remote, flow * 7919), edge.route(remote, flow * 7919));
        }
        assertEquals(2, used.size(), "flows use both uplinks");
    }
}
