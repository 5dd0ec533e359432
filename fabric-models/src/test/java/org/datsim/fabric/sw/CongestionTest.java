package org.datsim.fabric.sw;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.TestFabric;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.link.FlowControl;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * The switch side of congestion control: RED ECN marking at egress (HPCC's SwitchMmu::ShouldSendCN), the shared
 * buffer with dynamic PFC thresholds (HPCC's switch-mmu.cc), in-band network telemetry (HPCC's IntHeader), the port
 * sampler, and the validation of their parameters.
 */
class CongestionTest {

    /** RDMA Writes between hosts of a fabric, all posted at time 0. */
    private static final class Net {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final List<TraceEvent> events = new ArrayList<>();
        int completed;
        private int next;

        Net(Topology topology, Params p) {
            TraceSource<TraceEvent> source = new TraceSource<>("t");
            source.subscribe(events::add);
            fabric = new Fabric(sim, topology, p, Map.of(), new RandomStreams(1), source);
        }

        void write(int from, int to, long bytes) {
            Hca src = fabric.hosts().get(from).hca();
            Hca dst = fabric.hosts().get(to).hca();
            next++;
            QueuePair qa = src.createQueuePair("a" + next);
            QueuePair qb = dst.createQueuePair("b" + next);
            TestFabric.connectPair(qa, qb, wr -> {
                if (wr.status() == Dat.DTO_SUCCESS) {
                    completed++;
                }
            }, status -> { });
            long s = src.memory().allocate(bytes);
            long d = dst.memory().allocate(bytes);
            src.postRequest(new WorkRequest(next, WorkRequest.RDMA_WRITE, qa, next, 0, new long[] {s},
                    new long[] {bytes}, d, 1));
        }

        Switch sw(int i) {
            return fabric.switches().get(i);
        }

        long count(String kind) {
            return events.stream().filter(e -> e.kind().equals(kind)).count();
        }
    }

    private static Topology singleSwitch(int hosts) {
        List<String> problems = new ArrayList<>();
        Topology t = TopologyBuilder.singleSwitch("h", hosts).build(problems);
        assertTrue(problems.isEmpty(), problems.toString());
        return t;
    }

    /** A bare switch with {@code n} 100 Gb/s ports, each with an upstream port, for driving its buffer directly. */
    private static Switch bareSwitch(Simulator sim, int n, SwitchBuffer buffer, EcnMarker ecn) {
        Switch.Builder b = Switch.builder("S", sim);
        for (int i = 0; i < n; i++) {
            b.port(new Port(sim, DataRate.ofBitsPerSecond(100_000_000_000L), 1_000_000),
                    new Port(sim, DataRate.ofBitsPerSecond(100_000_000_000L), 1_000_000));
        }
        Switch sw = b.buffer(buffer != null ? buffer : StaticBuffer.uniform(FlowControl.PFC, n, 1 << 20, 1 << 19,
                1 << 18)).ecn(ecn).build();
        // hosts 0 and 1 through the last port (a switch routes a packet as it receives it; these tests do not run
        // the simulator, so it stays there)
        sw.routes().setRoutes(new int[] {0, 0}, new int[][] {{n - 1}});
        return sw;
    }

    /** A bare switch with {@code n} 100 Gb/s ports whose ECN thresholds at 100 Gb/s are given. */
    private static Switch ecnSwitch(Simulator sim, int n, RandomGenerator random, long kmin, long kmax, double pmax) {
        long[] bps = new long[n];
        java.util.Arrays.fill(bps, 100_000_000_000L);
        return bareSwitch(sim, n, null, EcnMarker.scaled(random, kmin, kmax, pmax, bps));
    }

    private static double markedFraction(Switch sw, PacketPool pool, int port, long queued, int kind, int n) {
        int marked = 0;
        for (int i = 0; i < n; i++) {
            Packet p = pool.acquire().set(kind, 0, 1, 1000, null, 0, 1, 0, 0, 0);
            sw.dequeued(port, p, queued, 0);
            if (p.ecn) {
                marked++;
            }
            p.release();
        }
        return marked / (double) n;
    }

    @Test
    void redMarksNothingUpToKminLinearlyUpToPmaxAtKmaxAndEverythingAbove() {
        Simulator sim = new Simulator();
        // HPCC's run.py at 100 Gb/s: kmin 400 KB, kmax 1600 KB, pmax 0.2
        Switch sw = ecnSwitch(sim, 2, new RandomStreams(42).stream("switch/S/ecn"), 400_000, 1_600_000, 0.2);
        PacketPool pool = new PacketPool();
        int n = 200_000;
        assertEquals(0.0, markedFraction(sw, pool, 0, 0, Packet.RDMA_WRITE, n));
        assertEquals(0.0, markedFraction(sw, pool, 0, 400_000, Packet.RDMA_WRITE, n), "at kmin: never");
        // halfway: pmax / 2 = 0.1; three quarters: 0.15 (binomial sd over 200000 draws < 0.001)
        assertEquals(0.10, markedFraction(sw, pool, 0, 1_000_000, Packet.RDMA_WRITE, n), 0.005);
        assertEquals(0.15, markedFraction(sw, pool, 0, 1_300_000, Packet.RDMA_WRITE, n), 0.005);
        assertEquals(0.20, markedFraction(sw, pool, 0, 1_600_000, Packet.RDMA_WRITE, n), 0.005, "at kmax: pmax");
        assertEquals(1.0, markedFraction(sw, pool, 0, 1_600_001, Packet.RDMA_WRITE, n), "above kmax: always");
        assertEquals(0.0, markedFraction(sw, pool, 0, 5_000_000, Packet.ACK, 1000), "ACKs are not ECN-capable");
        assertEquals(1.0, markedFraction(sw, pool, 0, 5_000_000, Packet.READ_RESPONSE, 1000));
        assertEquals(sw.ports().get(0).counters().ecnMarks(), sw.ecnMarks(), "marks counted on the egress port");
    }

    @Test
    void kminEqualToKmaxIsDctcpsStepMarkingAtK() {
        Simulator sim = new Simulator();
        // HPCC's run.py for dctcp at 100 Gb/s: kmin = kmax = 300 KB, pmax 1
        Switch sw = ecnSwitch(sim, 2, new RandomStreams(7).stream("switch/S/ecn"), 300_000, 300_000, 1.0);
        PacketPool pool = new PacketPool();
        assertEquals(0.0, markedFraction(sw, pool, 0, 300_000, Packet.RDMA_WRITE, 1000), "at K: never");
        assertEquals(1.0, markedFraction(sw, pool, 0, 300_001, Packet.RDMA_WRITE, 1000), "above K: always");
    }

    @Test
    void redThresholdsScaleWithThePortRate() {
        Simulator sim = new Simulator();
        Switch sw = Switch.builder("S", sim).port(new Port(sim, DataRate.ofBitsPerSecond(400_000_000_000L), 0),
                new Port(sim, DataRate.ofBitsPerSecond(400_000_000_000L), 0))
                .buffer(StaticBuffer.uniform(FlowControl.PFC, 1, 1 << 20, 1 << 19, 1 << 18))
                .ecn(EcnMarker.scaled(new RandomStreams(1).stream("e"), 400_000, 1_600_000, 0.2,
                        new long[] {400_000_000_000L})).build();
        PacketPool pool = new PacketPool();
        // 400 Gb/s: kmin 1600 KB, kmax 6400 KB (HPCC's KMIN_MAP / KMAX_MAP for 400 Gb/s)
        assertEquals(0.0, markedFraction(sw, pool, 0, 1_600_000, Packet.SEND, 10_000));
        assertEquals(0.1, markedFraction(sw, pool, 0, 4_000_000, Packet.SEND, 100_000), 0.006);
        assertEquals(1.0, markedFraction(sw, pool, 0, 6_400_001, Packet.SEND, 1000));
    }

    @Test
    void sameSeedSameMarks() {
        long[] counts = new long[2];
        for (int r = 0; r < 2; r++) {
            Switch sw = ecnSwitch(new Simulator(), 1, new RandomStreams(9).stream("switch/S/ecn"), 400_000, 1_600_000,
                    0.2);
            markedFraction(sw, new PacketPool(), 0, 900_000, Packet.RDMA_WRITE, 10_000);
            counts[r] = sw.ecnMarks();
        }
        assertEquals(counts[0], counts[1]);
        assertTrue(counts[0] > 0);
    }

    @Test
    void dynamicThresholdPausesAtAlphaTimesFreeBufferAndResumesWithHysteresis() {
        Simulator sim = new Simulator();
        // 100000 B buffer, 2 inputs of 20000 B headroom and 4096 B reserve: a pool of 51808 B; alpha 1/8
        Switch sw = bareSwitch(sim, 2, new SharedBuffer(100_000, 4096, 3072, new long[] {20_000, 20_000},
                new int[] {3, 3}), null);
        assertEquals(51_808 >> 3, sw.dynamicThreshold(0));
        PacketPool pool = new PacketPool();
        // 1000-byte packets into input 0: the first 4 fit the reserve; packet k then holds 1000 k - 4096 shared
        // bytes. Packet 9: 4904 <= (51808 - 3904) / 8 = 5988, admitted to the pool, no pause.
        for (int k = 1; k <= 9; k++) {
            sw.receive(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), 0);
            assertFalse(sw.pausing(0), "paused after packet " + k);
        }
        assertEquals(4904, sw.sharedUsed());
        // Packet 10: 5904 shared would exceed alpha x free = (51808 - 4904) / 8 = 5863: it goes to the headroom and
        // the input is paused
        sw.receive(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), 0);
        assertTrue(sw.pausing(0));
        assertEquals(1000, sw.headroomBytes(0));
        assertEquals(4904, sw.sharedUsed());
        assertEquals(1, sw.pausesSent());
        // Departures: the first empties the headroom (4904 + 3072 > 5863: still paused), the second leaves 3904
        // shared (6976 > 5988), the third 2904 (2904 + 3072 = 5976 <= (51808 - 2904) / 8 = 6113): resumed
        Packet any = pool.acquire();
        sw.departed(any, 0, 1000);
        assertTrue(sw.pausing(0));
        assertEquals(0, sw.headroomBytes(0));
        sw.departed(any, 0, 1000);
        assertTrue(sw.pausing(0));
        assertEquals(3904, sw.sharedUsed());
        sw.departed(any, 0, 1000);
        assertFalse(sw.pausing(0));
        assertEquals(2904, sw.sharedUsed());
        assertEquals(7000, sw.ingressBytes(0));
    }

    @Test
    void aPacketFittingNeitherHeadroomNorThresholdIsDropped() {
        Simulator sim = new Simulator();
        // the same pool of 51808 B as above, with 1500 B of headroom per input
        Switch sw = bareSwitch(sim, 2, new SharedBuffer(63_000, 4096, 3072, new long[] {1500, 1500}, new int[] {3, 3}),
                null);
        assertEquals(51_808 >> 3, sw.dynamicThreshold(0));
        PacketPool pool = new PacketPool();
        for (int k = 1; k <= 10; k++) {
            sw.receive(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), 0);
        }
        assertEquals(0, sw.drops());
        sw.receive(pool.acquire().set(Packet.RDMA_WRITE, 0, 1, 1000, null, 0, 1, 0, 0, 0), 0);
        assertEquals(1, sw.drops(), "1000 + 1000 headroom bytes exceed 1500 and the pool is over the threshold");
        assertEquals(10_000, sw.ingressBytes(0));
    }

    private static Params shared(String buffer, String... more) {
        List<String> o = new ArrayList<>(List.of("link.flow_control", "pfc", "switch.buffer_mode", "shared",
                "switch.shared_buffer", buffer, "link.latency", "1us"));
        o.addAll(List.of(more));
        return TestFabric.params(o.toArray(new String[0]));
    }

    @Test
    void incastOf16To1WithASmallSharedBufferPausesWithoutLoss() {
        Net net = new Net(singleSwitch(17), shared("300KiB"));
        for (int h = 1; h <= 16; h++) {
            net.write(h, 0, 256 * 1024);
        }
        net.sim.run();
        assertEquals(16, net.completed);
        Switch sw = net.sw(0);
        assertTrue(sw.pausesSent() > 0, "the inputs were paused");
        assertEquals(0, sw.drops(), "the headroom absorbed what was in flight");
        long paused = 0;
        for (Port p : net.fabric.ports()) {
            paused += p.pausedPs();
        }
        assertTrue(paused > 0);
        assertEquals(0, sw.sharedUsed(), "the buffer emptied");

        // The same incast with HPCC's 32 MB buffer never reaches the threshold
        Net big = new Net(singleSwitch(17), shared("32MiB"));
        for (int h = 1; h <= 16; h++) {
            big.write(h, 0, 256 * 1024);
        }
        big.sim.run();
        assertEquals(16, big.completed);
        assertEquals(0, big.sw(0).pausesSent());
    }

    @Test
    void incastWithEcnMarksAtTheBottleneckAndTracesEachMark() {
        Net net = new Net(singleSwitch(9), shared("32MiB", "ecn.enabled", "true", "ecn.kmin", "20KB", "ecn.kmax",
                "200KB"));
        for (int h = 1; h <= 8; h++) {
            net.write(h, 0, 256 * 1024);
        }
        net.sim.run();
        assertEquals(8, net.completed);
        Switch sw = net.sw(0);
        Port bottleneck = null;
        for (Port p : sw.ports()) {
            if (p.peer() == net.fabric.hosts().get(0).hca()) {
                bottleneck = p;
            }
        }
        assertTrue(sw.ecnMarks() > 0);
        assertEquals(sw.ecnMarks(), bottleneck.counters().ecnMarks(), "every mark is on the congested egress");
        assertEquals(sw.ecnMarks(), net.count(Switch.ECN_MARK));
    }

    @Test
    void intHopRecordsAreFilledPerHopWithTheEgressState() {
        List<String> problems = new ArrayList<>();
        // A, C, D -> S1 -> S2 -> B: the S1->S2 queue builds
        Topology t = Topology.build(List.of("A", "B", "C", "D"), List.of("S1", "S2"), List.of(
                TestFabric.link("A", "S1"), TestFabric.link("C", "S1"), TestFabric.link("D", "S1"),
                TestFabric.link("S1", "S2"), TestFabric.link("S2", "B")), problems);
        assertTrue(problems.isEmpty(), problems.toString());
        Net net = new Net(t, TestFabric.params("cc.int", "true"));
        Port s1s2 = port(net, "S1->S2");
        Port s2b = port(net, "S2->B");
        // what each egress looked like when a data packet left its queue
        Map<Packet, long[]> atS1 = new IdentityHashMap<>();
        int[] checked = new int[1];
        long[] deepest = new long[1];
        s1s2.setListener((p, start) -> {
            if (start && Packet.isData(p.kind)) {
                assertEquals(1, p.intHops);
                atS1.put(p, new long[] {net.sim.now(), s1s2.queuedBytes(), s1s2.startedBytes() - p.wireBytes});
            }
        });
        s2b.setListener((p, start) -> {
            if (start && Packet.isData(p.kind)) {
                assertEquals(2, p.intHops);
                long[] s1 = atS1.remove(p);
                assertEquals(s1[0], p.intTimePs(0));
                assertEquals(s1[1], p.intQueueBytes(0));
                assertEquals(s1[2], p.intTxBytes(0));
                assertEquals(net.sim.now(), p.intTimePs(1));
                assertEquals(s2b.queuedBytes(), p.intQueueBytes(1));
                assertEquals(s2b.startedBytes() - p.wireBytes, p.intTxBytes(1));
                assertEquals(100_000_000_000L, p.intRateBps(0));
                assertEquals(100_000_000_000L, p.intRateBps(1));
                assertTrue(p.intTimePs(1) > p.intTimePs(0));
                deepest[0] = Math.max(deepest[0], p.intQueueBytes(0));
                checked[0]++;
            } else if (start) {
                assertEquals(0, p.intHops, "only data packets carry telemetry");
            }
        });
        net.write(0, 1, 64 * 1024);
        net.write(2, 1, 64 * 1024);
        net.write(3, 1, 64 * 1024);
        net.sim.run();
        assertEquals(3, net.completed);
        assertEquals(3 * 16, checked[0], "every data packet (3 x 16 of 4 KiB) checked");
        assertTrue(deepest[0] > 2 * 4096, "three senders into one 100 Gb/s link queue: " + deepest[0]);
    }

    @Test
    void intKeepsAtMostFiveHopsAndCopies() {
        PacketPool pool = new PacketPool();
        Packet p = pool.acquire().set(Packet.SEND, 0, 1, 100, null, 0, 1, 0, 0, 0);
        for (int i = 0; i < 7; i++) {
            p.pushIntHop(i, 10 * i, 100 * i, 1000);
        }
        assertEquals(Packet.INT_MAX_HOPS, p.intHops);
        assertEquals(4, p.intTimePs(4));
        Packet ack = pool.acquire().set(Packet.ACK, 1, 0, 30, null, 0, 1, 0, 0, 0);
        ack.copyIntFrom(p);
        assertEquals(5, ack.intHops);
        assertEquals(400, ack.intQueueBytes(4));
        assertEquals(30, ack.intTxBytes(3));
        Packet plain = pool.acquire().set(Packet.SEND, 0, 1, 100, null, 0, 1, 0, 0, 0);
        ack.copyIntFrom(plain);
        assertEquals(0, ack.intHops, "copying no telemetry clears it");
        p.release();
        Packet again = pool.acquire().set(Packet.SEND, 0, 1, 100, null, 0, 1, 0, 0, 0);
        assertEquals(0, again.intHops, "set() resets the hop count");
        assertFalse(again.ecn, "set() resets the CE mark");
    }

    @Test
    void portSamplerTracesEveryPortAndStopsWithTheRun() {
        Net net = new Net(singleSwitch(5), shared("400KiB", "trace.port_sample_interval", "2us"));
        for (int h = 1; h <= 4; h++) {
            net.write(h, 0, 128 * 1024);
        }
        net.sim.run();
        assertEquals(4, net.completed);
        List<TraceEvent> samples = net.events.stream().filter(e -> e.kind().equals(PortSampler.PORT_SAMPLE)).toList();
        assertFalse(samples.isEmpty());
        assertEquals(0, samples.size() % 5, "one sample per port (5) each interval");
        assertTrue(samples.stream().anyMatch(e -> e.attrLong("pausing", 0) == 1), "an input pausing its sender");
        assertTrue(samples.stream().allMatch(e -> e.attrLong("paused", 0) == 0), "hosts never pause the switch");
        String toH0 = net.fabric.switches().get(0).name() + "->h0";
        assertTrue(samples.stream().anyMatch(e -> toH0.equals(e.attrValue("port"))
                && ((Number) e.attrValue("utilisation")).doubleValue() > 0.9), "the bottleneck was busy");
        long last = samples.get(samples.size() - 1).tPs();
        assertTrue(last >= net.sim.now() - 2_000_000, "sampled up to the end and then stopped");
    }

    @Test
    void badParametersGetOneMessageEach() {
        Params p = TestFabric.params("switch.buffer_mode", "shared");
        assertTrue(FabricParams.crossCheck(p).contains(
                "switch.buffer_mode shared needs link.flow_control pfc (it is ib_credits)"), FabricParams.crossCheck(p).toString());
        Params e = TestFabric.params("ecn.enabled", "true", "ecn.kmin", "2MB", "ecn.kmax", "1MB");
        assertEquals(List.of("ecn.kmin (2000000 B) must not be above ecn.kmax (1000000 B; equal is DCTCP's step"
                + " marking at K)"), FabricParams.crossCheck(e));
        assertEquals(List.of(), FabricParams.crossCheck(
                TestFabric.params("ecn.enabled", "true", "ecn.kmin", "300KB", "ecn.kmax", "300KB")), "step marking");
        Params s = TestFabric.params("link.flow_control", "pfc", "switch.buffer_mode", "shared",
                "switch.shared_buffer", "2KiB");
        assertTrue(FabricParams.crossCheck(s).get(0).startsWith("switch.shared_buffer (2048 B) must hold"));
        Params h = TestFabric.params("link.flow_control", "pfc", "switch.buffer_mode", "shared", "pfc.headroom", "1KiB");
        assertEquals(List.of("pfc.headroom (1024 B) must hold at least the largest packet (4138 B), or 0 to derive it"
                + " from each link"), FabricParams.crossCheck(h));
        List<String> problems = new ArrayList<>();
        Params.defaults(FabricParams.ALL).with(Map.of("ecn.pmax_percent", "150"), problems);
        assertEquals(1, problems.size());
        assertTrue(problems.get(0).contains("ecn.pmax_percent"), problems.toString());
        assertTrue(FabricParams.crossCheck(TestFabric.params()).isEmpty(), "the defaults are consistent");
    }

    private static Port port(Net net, String name) {
        for (Port p : net.fabric.ports()) {
            if (p.name().equals(name)) {
                return p;
            }
        }
        throw new AssertionError("no port " + name);
    }
}
