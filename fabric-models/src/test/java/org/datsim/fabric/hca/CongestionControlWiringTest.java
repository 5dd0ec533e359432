package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.TestFabric;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/**
 * Congestion control wired into the HCA, on a real fabric: HPCC's run.py fabric for 100 Gb/s (roce-100g, 1000-byte
 * payload per packet, PFC with a 32 MiB shared buffer and dynamic thresholds, RED marking kmin 400 KB / kmax
 * 1600 KB / pmax 20% at 100 Gb/s, an ACK per packet), hosts on one switch, 1 us links. The send engine's packet
 * arbiter enforces each queue pair's rate and window; ACKs carry the cumulative bytes, the ECN echo and the INT
 * records; receivers answer marks with CNPs.
 */
class CongestionControlWiringTest {

    static final long US = 1_000_000L;
    static final long KMIN = 400_000;
    static final long KMAX = 1_600_000;

    /** RDMA Writes from hosts to host 0 of a single-switch fabric, and the bottleneck's queue sampled every us. */
    static final class Incast {
        final Simulator sim = new Simulator();
        final Fabric fabric;
        final List<QueuePair> senders = new ArrayList<>();
        final List<QueuePair> receivers = new ArrayList<>();
        final Port bottleneck;
        int completed;
        long lastCompletion;
        /** The largest queue at the bottleneck sampled at or after {@link #watchFrom}. */
        long maxQueueAfter;
        long watchFrom;
        long maxQueue;
        private long target;

        Incast(int senders, String... overrides) {
            Map<String, String> map = new LinkedHashMap<>(FabricPresets.get("roce-100g").values());
            map.put("hca.mtu", "1000B");
            map.put("link.flow_control", "pfc");
            map.put("switch.buffer_mode", "shared");
            map.put("switch.shared_buffer", "32MiB");
            map.put("link.latency", "1us");
            map.put("ecn.enabled", "true");
            map.put("transport.ack_interval", "1");
            for (int i = 0; i < overrides.length; i += 2) {
                map.put(overrides[i], overrides[i + 1]);
            }
            List<String> problems = new ArrayList<>();
            Params p = Params.defaults(FabricParams.ALL).with(map, problems);
            problems.addAll(FabricParams.crossCheck(p));
            assertTrue(problems.isEmpty(), problems.toString());
            Topology t = TopologyBuilder.singleSwitch("h", senders + 1).build(problems);
            assertTrue(problems.isEmpty(), problems.toString());
            fabric = new Fabric(sim, t, p, Map.of(), new RandomStreams(1), new TraceSource<TraceEvent>("t"));
            Port b = null;
            for (Port port : fabric.switches().get(0).ports()) {
                if (port.peer() == fabric.hosts().get(0).hca()) {
                    b = port;
                }
            }
            bottleneck = b;
            assertNotNull(bottleneck);
        }

        Switch sw() {
            return fabric.switches().get(0);
        }

        /** Posts an RDMA Write of {@code bytes} from host {@code from} to host 0 at {@code atPs}. */
        QueuePair write(int from, long bytes, long atPs) {
            Hca src = fabric.hosts().get(from).hca();
            Hca dst = fabric.hosts().get(0).hca();
            int n = senders.size();
            QueuePair qa = src.createQueuePair("a" + n);
            QueuePair qb = dst.createQueuePair("b" + n);
            TestFabric.connectPair(qa, qb, wr -> {
                assertEquals(Dat.DTO_SUCCESS, wr.status());
                completed++;
                lastCompletion = sim.now();
            }, status -> {
                throw new AssertionError("broken " + status);
            });
            long s = src.memory().allocate(bytes);
            if (target == 0) {
                // one target buffer that every flow writes (as FlowRunner does): the receiver's translations stay
                // in its MTT cache, so the receiving HCA keeps up with the link
                target = dst.memory().allocate(bytes);
            }
            long d = target;
            WorkRequest wr = new WorkRequest(n, WorkRequest.RDMA_WRITE, qa, n, 0, new long[] {s}, new long[] {bytes},
                    d, 1);
            sim.scheduleAt(atPs, () -> src.postRequest(wr));
            senders.add(qa);
            receivers.add(qb);
            return qa;
        }

        /** Runs to the end, sampling the bottleneck queue every microsecond while flows are unfinished. */
        void run() {
            int total = senders.size();
            EventHandler[] sample = new EventHandler[1];
            sample[0] = a -> {
                long q = bottleneck.queuedBytes();
                maxQueue = Math.max(maxQueue, q);
                if (sim.now() >= watchFrom) {
                    maxQueueAfter = Math.max(maxQueueAfter, q);
                }
                if (completed < total) {
                    sim.schedule(US, sample[0], 0);
                }
            };
            sim.schedule(US, sample[0], 0);
            sim.run();
            assertEquals(total, completed, "every flow completed");
        }
    }

    /** The bytes every port of a fabric put on the wire for one 3-packet Write from host 1 to host 0. */
    static long wireBytesOfOneWrite(String... overrides) {
        Incast net = new Incast(1, overrides);
        net.write(1, 3000, 0);
        net.run();
        long bytes = 0;
        for (Port p : net.fabric.ports()) {
            bytes += p.counters().bytes();
        }
        return bytes;
    }

    @Test
    void hpccsIntHeaderTravelsOnEveryDataPacketAndAck() {
        long dcqcn = wireBytesOfOneWrite("cc.algorithm", "dcqcn");
        long hpcc = wireBytesOfOneWrite("cc.algorithm", "hpcc", "ecn.enabled", "false", "cc.int", "true");
        // 3 data packets and 3 ACKs (an ACK per packet), each crossing two ports (host to switch, switch to host)
        assertEquals(2 * (3 + 3) * 42, hpcc - dcqcn);
        long set = wireBytesOfOneWrite("cc.algorithm", "hpcc", "ecn.enabled", "false", "cc.int", "true",
                "cc.header_bytes", "10");
        assertEquals(2 * (3 + 3) * 10, set - dcqcn);
    }

    @Test
    void dcqcnIncastOf16To1KeepsTheQueueBelowKmaxAfterTheFirstRttsWithoutPause() {
        // HPCC's DCQCN parameters (the cc.dcqcn.* defaults): the first cuts bring every sender down within tens of
        // microseconds; the backlog built in the first RTTs (above kmax) drains while every packet is marked, and
        // the rates come back at the 300 us increase timer. The pure-logic harness (CcDynamicsTest) settles below
        // kmax from 3 ms on; here the same bound holds on the fabric.
        Incast net = new Incast(16, "cc.algorithm", "dcqcn");
        for (int h = 1; h <= 16; h++) {
            net.write(h, 4_000_000, 0);
        }
        net.watchFrom = 3_000 * US;
        net.run();
        assertTrue(net.maxQueue > KMIN, "the incast built a queue: " + net.maxQueue);
        assertTrue(net.lastCompletion > 4_000 * US, "the flows outlast the bound: " + net.lastCompletion);
        assertTrue(net.maxQueueAfter < KMAX, "queue below kmax from 3 ms on: " + net.maxQueueAfter);
        assertTrue(net.sw().ecnMarks() > 0, "marks");
        assertEquals(0, net.sw().pausesSent(), "no PFC pause with HPCC's 32 MiB buffer");
        assertEquals(0, net.sw().drops());
    }

    @Test
    void dcqcnCnpOnAckNotifiesThroughTheAcksAndSendsNoCnpPacket() {
        // the DCQCN incast above, with the notification as a flag on the ACK of each marked packet (HPCC's simulator)
        Incast net = new Incast(16, "cc.algorithm", "dcqcn", "cc.dcqcn.cnp_on_ack", "true");
        for (int h = 1; h <= 16; h++) {
            net.write(h, 4_000_000, 0);
        }
        net.watchFrom = 3_000 * US;
        net.run();
        assertTrue(net.maxQueue > KMIN, "the incast built a queue: " + net.maxQueue);
        assertTrue(net.sw().ecnMarks() > 0, "marks");
        assertTrue(net.maxQueueAfter < KMAX, "the flags cut the rates: queue below kmax from 3 ms on: "
                + net.maxQueueAfter);
        // host 0 sent an ACK per data packet (16 x 4000 packets of 1000 B) and no CNP packet
        assertEquals(16 * 4000, net.fabric.hosts().get(0).hca().port().counters().packets());
    }

    @Test
    void withoutCongestionControlTheSameIncastPauses() {
        Incast net = new Incast(16, "cc.algorithm", "none", "hca.arbitration", "packet");
        for (int h = 1; h <= 16; h++) {
            net.write(h, 4_000_000, 0);
        }
        net.run();
        assertTrue(net.maxQueue > 10 * KMAX, "the queue grows far past kmax: " + net.maxQueue);
        assertTrue(net.sw().pausesSent() > 0, "and the switch pauses its inputs");
        assertEquals(0, net.sw().drops());
    }

    @Test
    void hpccIncastOf16To1KeepsTheQueueNearZeroAfterOneRtt() {
        Incast net = new Incast(16, "cc.algorithm", "hpcc", "ecn.enabled", "false", "cc.int", "true");
        for (int h = 1; h <= 16; h++) {
            net.write(h, 2_000_000, 0);
        }
        // the first RTT: every sender puts its window (one BDP at line rate) on the wire before any feedback; that
        // backlog drains at line rate while the senders send below it in all
        // (two links each way, 1 us each, a packet's time per hop, and the switch and both hosts: Fabric.maxRttAndBdp)
        long rtt = net.fabric.ccBaseRttPs();
        assertTrue(rtt > 4 * US + 4 * 80_000, "the round trip covers more than the links: " + rtt);
        long bdp = net.fabric.ccWindowBytes();
        assertEquals(rtt * 100 / 8 / 1000, bdp, 1);
        long drain = 16 * bdp * 8 / 100 * 1000 + 10 * rtt;
        net.watchFrom = drain;
        net.run();
        // a window counts payload bytes, the queue wire bytes: 1000-byte payloads with 82 header bytes and HPCC's
        // 42-byte INT header (cc.header_bytes)
        assertTrue(net.maxQueue <= 16 * bdp * 1124 / 1000 + 16 * 1200, "at most the 16 initial windows: " + net.maxQueue + " (bdp " + bdp + ", rtt " + rtt + ")");
        assertTrue(net.maxQueueAfter <= bdp, "then the queue stays near zero (below one BDP, " + bdp + " B): "
                + net.maxQueueAfter);
        assertEquals(0, net.sw().pausesSent());
        double goodput = 16 * 2_000_000.0 * 8 * 1e12 / net.lastCompletion;
        assertTrue(goodput > 80e9, "with the link busy: " + goodput);
    }

    @Test
    void withControlPriorityAcksAndCnpsOvertakeDataAndIgnoreAPause() {
        Simulator sim = new Simulator();
        org.datsim.fabric.link.PacketPool pool = new org.datsim.fabric.link.PacketPool();
        List<Integer> arrived = new ArrayList<>();
        org.datsim.fabric.link.NetworkNode sink = new org.datsim.fabric.link.NetworkNode() {
            @Override
            public String name() {
                return "sink";
            }

            @Override
            public void receive(org.datsim.fabric.link.Packet p, int inPort) {
                arrived.add(p.kind);
                p.release();
            }
        };
        for (boolean priority : new boolean[] {false, true}) {
            arrived.clear();
            Port port = new Port(sim, org.datsim.core.time.DataRate.ofBitsPerSecond(100_000_000_000L), US);
            port.connect(sink, 0);
            port.setFlowControl(org.datsim.fabric.link.FlowControl.PFC, 0);
            if (priority) {
                port.prioritiseControl();
            }
            port.receivePfc(org.datsim.fabric.link.PfcFrame.pause(0));
            port.send(pool.acquire().set(org.datsim.fabric.link.Packet.RDMA_WRITE, 0, 1, 1082, null, 0, 1, 0, 0, 0));
            port.send(pool.acquire().set(org.datsim.fabric.link.Packet.ACK, 0, 1, 86, null, 0, 1, 0, 0, 0));
            port.send(pool.acquire().set(org.datsim.fabric.link.Packet.CNP, 0, 1, 98, null, 0, 1, 0, 0, 0));
            sim.runUntil(sim.now() + 10 * US);
            assertEquals(priority ? List.of(org.datsim.fabric.link.Packet.ACK, org.datsim.fabric.link.Packet.CNP)
                    : List.of(), arrived, "paused: only the control class leaves, and only with the priority");
            port.receivePfc(org.datsim.fabric.link.PfcFrame.resume(0));
            sim.runUntil(sim.now() + 10 * US);
            assertEquals(3, arrived.size());
        }
    }

    @Test
    void twoDcqcnFlowsConvergeToFairShares() {
        // The paper's timers (HPCC run.py --cc dcqcn_paper: alpha 50 us, decrease 50 us, increase 55 us), as the
        // pure-logic test in CcDynamicsTest, which converges within 15 ms of the second flow's start.
        Incast net = new Incast(2, "cc.algorithm", "dcqcn", "cc.dcqcn.alpha_interval", "50us",
                "cc.dcqcn.rate_decrease_interval", "50us", "cc.dcqcn.rp_timer", "55us");
        long join = 2_000 * US;
        net.write(1, 400_000_000, 0);
        net.write(2, 400_000_000, join);
        QueuePair ra = net.receivers.get(0);
        QueuePair rb = net.receivers.get(1);
        long window = 1_000 * US;
        int windows = 20;
        double[] a = new double[windows];
        double[] b = new double[windows];
        long[] last = new long[2];
        int[] w = {-1};
        EventHandler[] tick = new EventHandler[1];
        tick[0] = x -> {
            if (w[0] >= 0) {
                a[w[0]] = (ra.responder.ccRxBytes - last[0]) * 8e12 / window;
                b[w[0]] = (rb.responder.ccRxBytes - last[1]) * 8e12 / window;
            }
            last[0] = ra.responder.ccRxBytes;
            last[1] = rb.responder.ccRxBytes;
            if (++w[0] < windows) {
                net.sim.schedule(window, tick[0], 0);
            }
        };
        net.sim.scheduleAt(join, tick[0], 0);
        net.sim.runUntil(join + (windows + 1) * window);
        // What the receiving host takes in without congestion control (its PCIe writes may be below the link's
        // goodput): one flow alone for 5 ms.
        Incast alone = new Incast(1, "cc.algorithm", "none", "hca.arbitration", "packet");
        QueuePair only = alone.write(1, 400_000_000, 0);
        alone.sim.runUntil(1_000 * US);
        long from = alone.receivers.get(0).responder.ccRxBytes;
        alone.sim.runUntil(6_000 * US);
        double capacity = (alone.receivers.get(0).responder.ccRxBytes - from) * 8e12 / (5_000 * US);
        assertNotNull(only);
        int converged = -1;
        for (int i = 0; i < windows; i++) {
            assertTrue(a[i] + b[i] > 0.9 * capacity, "the bottleneck stays busy: window " + i + ": "
                    + (a[i] + b[i]) + " of " + capacity);
            boolean fair = Math.abs(a[i] - b[i]) <= 0.1 * (a[i] + b[i]);
            if (fair && converged < 0) {
                converged = i;
            } else if (!fair) {
                converged = -1;
            }
        }
        assertTrue(converged >= 0 && converged <= 15, "within 10% of each other from at most 15 ms after the join"
                + " on: from window " + converged + "; " + java.util.Arrays.toString(a) + " "
                + java.util.Arrays.toString(b));
    }

    /** The switch port towards a host. */
    private static Port switchPortTo(Incast net, int host) {
        for (Port port : net.sw().ports()) {
            if (port.peer() == net.fabric.hosts().get(host).hca()) {
                return port;
            }
        }
        throw new AssertionError("no port to host " + host);
    }

    @Test
    void timelyAcksEchoTheSendTimeTheirDataPacketCarries() {
        Incast net = new Incast(1, "cc.algorithm", "timely", "ecn.enabled", "false");
        QueuePair qa = net.write(1, 200_000, 0);
        // data packets as they leave the switch for the receiver, keyed by the cumulative bytes their ACK carries
        Map<Long, Long> sent = new java.util.HashMap<>();
        long[] lastSent = {-1};
        int[] acks = {0};
        switchPortTo(net, 0).setListener((pk, start) -> {
            if (start && pk.kind == org.datsim.fabric.link.Packet.RDMA_WRITE) {
                assertTrue(pk.timestampPs >= 0 && pk.timestampPs <= net.sim.now(), "stamped before it reached the"
                        + " switch: " + pk.timestampPs + " at " + net.sim.now());
                assertTrue(pk.timestampPs > lastSent[0], "one packet at a time, in order");
                lastSent[0] = pk.timestampPs;
                sent.put(pk.offset + pk.length, pk.timestampPs);
            }
        });
        switchPortTo(net, 1).setListener((pk, start) -> {
            if (start && pk.kind == org.datsim.fabric.link.Packet.ACK) {
                assertEquals(sent.get(pk.offset), pk.timestampPs, "the ACK of the data up to " + pk.offset
                        + " echoes its send time");
                acks[0]++;
            }
        });
        // the controller's RTT samples come from the echo: between the unloaded RTT and a few microseconds more
        long[] rtt = {0};
        net.sim.scheduleAt(10 * US, () -> rtt[0] = ((org.datsim.fabric.cc.Timely) qa.send.rc).lastRttPs());
        net.run();
        assertEquals(200, acks[0], "an ACK per packet (timely implies transport.ack_interval 1)");
        assertTrue(rtt[0] > 4 * US && rtt[0] < 10 * US, "RTT from the echoed send time: " + rtt[0]);
    }

    @Test
    void aPooledPacketLosesItsTimestampWhenItIsSetAgain() {
        org.datsim.fabric.link.PacketPool pool = new org.datsim.fabric.link.PacketPool();
        org.datsim.fabric.link.Packet p = pool.acquire().set(org.datsim.fabric.link.Packet.RDMA_WRITE, 0, 1, 1082,
                null, 0, 1, 0, 0, 0);
        p.timestampPs = 5;
        p.release();
        org.datsim.fabric.link.Packet q = pool.acquire();
        assertTrue(q == p, "the pool hands the same packet back");
        q.set(org.datsim.fabric.link.Packet.ACK, 1, 0, 86, null, 0, 1, 0, 0, 0);
        assertEquals(org.datsim.fabric.link.Packet.NO_TIMESTAMP, q.timestampPs);
    }

    /** Payload bytes a receiver took in over [from, to), as bits per second. */
    private static double goodput(Incast net, QueuePair receiver, long from, long to) {
        net.sim.runUntil(from);
        long b = receiver.responder.ccRxBytes;
        net.sim.runUntil(to);
        return (receiver.responder.ccRxBytes - b) * 8e12 / (to - from);
    }

    @Test
    void aTimelyFlowAloneReachesTheRateOfOneWithoutCongestionControl() {
        // With the defaults the RTT stays at its unloaded value (about 5.3 us, below T_low = 50 us): every update
        // increases. With T_low 2 us and no caches (no MTT miss delays some packets by a PCIe round trip) the RTT
        // is constant, the gradient 0: every update increases too. (With T_low 2 us and the caches, the misses'
        // RTT noise reads as gradients: measured 31 Gb/s against 56 Gb/s without congestion control.)
        String[][] cases = {{"cc.timely.t_low", "50us"},
            {"cc.timely.t_low", "2us", "hca.mtt_entries", "0", "hca.qpc_entries", "0"}};
        for (String[] c : cases) {
            List<String> o = new ArrayList<>(List.of("hca.arbitration", "packet", "ecn.enabled", "false"));
            o.addAll(List.of(c).subList(2, c.length));
            o.addAll(List.of("cc.algorithm", "none"));
            Incast alone = new Incast(1, o.toArray(new String[0]));
            alone.write(1, 400_000_000, 0);
            double none = goodput(alone, alone.receivers.get(0), 1_000 * US, 2_000 * US);
            o.addAll(List.of("cc.algorithm", "timely", c[0], c[1]));
            Incast net = new Incast(1, o.toArray(new String[0]));
            net.write(1, 400_000_000, 0);
            double timely = goodput(net, net.receivers.get(0), 1_000 * US, 2_000 * US);
            assertTrue(timely >= 0.95 * none, List.of(c) + ": " + timely + " against " + none);
        }
    }

    @Test
    void timelysRateFollowsItsRttGradientAndTwoFlowsShareTheBottleneck() {
        // T_low lowered to 2 us, below the unloaded RTT (about 5.3 us), so that every update is decided by the
        // gradient (or T_high). HPCC's NIC has no caches (as bench hpcc): without them no MTT miss adds a PCIe round
        // trip to some packets' RTTs.
        Incast net = new Incast(2, "cc.algorithm", "timely", "ecn.enabled", "false", "cc.timely.t_low", "2us",
                "hca.mtt_entries", "0", "hca.qpc_entries", "0");
        long join = 1_000 * US;
        QueuePair a = net.write(1, 400_000_000, 0);
        QueuePair b = net.write(2, 400_000_000, join);
        // every update of both controllers for 300 us after the second flow joins (both at line rate: the queue
        // builds), sampled each microsecond (updates are an RTT, at least 5 us, apart)
        long[] lastRtt = new long[2];
        long[] lastRate = new long[2];
        List<List<long[]>> seen = List.of(new ArrayList<>(), new ArrayList<>());
        long[] peakRtt = new long[2];
        List<String> wrong = new ArrayList<>();
        EventHandler[] tick = new EventHandler[1];
        tick[0] = x -> {
            QueuePair[] qps = {a, b};
            for (int i = 0; i < 2; i++) {
                org.datsim.fabric.cc.Timely t = (org.datsim.fabric.cc.Timely) qps[i].send.rc;
                long rtt = t.lastRttPs();
                long rate = t.rateBps();
                if (lastRate[i] != 0 && (rtt != lastRtt[i] || rate != lastRate[i])) {
                    seen.get(i).add(new long[] {rtt, rate});
                    peakRtt[i] = Math.max(peakRtt[i], rtt);
                    double g = t.lastGradient();
                    if (g > 0 && rate >= lastRate[i] && rate > 1_000_000_000L) {
                        wrong.add("flow " + i + " at " + net.sim.now() + ": gradient " + g + " but rate "
                                + lastRate[i] + " -> " + rate);
                    }
                    if (g <= 0 && rtt < 500 * US && rate <= lastRate[i] && lastRate[i] < 100_000_000_000L) {
                        wrong.add("flow " + i + " at " + net.sim.now() + ": gradient " + g + " but rate "
                                + lastRate[i] + " -> " + rate);
                    }
                }
                lastRtt[i] = rtt;
                lastRate[i] = rate;
            }
            if (net.sim.now() < join + 300 * US) {
                net.sim.schedule(US, tick[0], 0);
            }
        };
        net.sim.scheduleAt(join + US, tick[0], 0);
        net.sim.runUntil(join + 301 * US);
        assertEquals(List.of(), wrong, "a positive gradient decreases, a non-positive one increases");
        for (int i = 0; i < 2; i++) {
            // measured: RTT 6 -> 12 -> 24 -> 38 us over the first updates, the rate 100 -> 79 -> 44 -> 20 Gb/s
            assertTrue(peakRtt[i] > 20 * US, "flow " + i + ": the joint line rates queue up: " + peakRtt[i]);
            List<long[]> u = seen.get(i);
            assertTrue(u.size() >= 10, "flow " + i + ": updates once per RTT: " + u.size());
            for (int k = 1; k < 3; k++) {
                assertTrue(u.get(k)[0] > u.get(k - 1)[0] && u.get(k)[1] < u.get(k - 1)[1], "flow " + i
                        + ": while the queue builds, the RTT rises and the rate falls, update " + k + ": "
                        + u.get(k - 1)[0] + " ps " + u.get(k - 1)[1] + " b/s -> " + u.get(k)[0] + " ps " + u.get(k)[1]
                        + " b/s");
            }
        }
        // the second half of 10 ms after the join: 5 windows of 1 ms
        net.sim.runUntil(join + 5_000 * US);
        long maxQueue = 0;
        double[] ga = new double[5];
        double[] gb = new double[5];
        for (int w = 0; w < 5; w++) {
            long from = join + (5_000 + 1_000L * w) * US;
            long ra = net.receivers.get(0).responder.ccRxBytes;
            long rb = net.receivers.get(1).responder.ccRxBytes;
            for (long t = from + 10 * US; t <= from + 1_000 * US; t += 10 * US) {
                net.sim.runUntil(t);
                maxQueue = Math.max(maxQueue, net.bottleneck.queuedBytes());
            }
            ga[w] = (net.receivers.get(0).responder.ccRxBytes - ra) * 8e12 / (1_000 * US);
            gb[w] = (net.receivers.get(1).responder.ccRxBytes - rb) * 8e12 / (1_000 * US);
            // measured: 22.1 and 19.5 Gb/s in every window (1.13x); TIMELY's gradient rule has no single fair point
            // (Zhu et al., CoNEXT 2016), so the bound is 2x, not equality
            double ratio = Math.max(ga[w], gb[w]) / Math.min(ga[w], gb[w]);
            assertTrue(ga[w] > 0 && gb[w] > 0 && ratio <= 2, "window " + w + ": " + ga[w] + " and " + gb[w]);
        }
        // measured: at most one packet; the RTT noise a packet's wait adds (0.3 us) already reads as a gradient
        assertTrue(maxQueue <= 5 * 1082, "no standing queue at the bottleneck: " + maxQueue);
    }
}
