package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WcStatus;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.topology.Topology;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The flows' queue pairs exist only while their flows are in progress ({@link FlowRunner.Attached}), and that
 * changes nothing: a run gives what it gave when every queue pair was created before time 0 and kept (an eager
 * reference, below, as FlowRunner did before), and a packet for a destroyed queue pair is dropped and counted.
 */
class LazyQueuePairsTest {

    /**
     * Many flows per host pair (so that switch.ecmp hpcc's per-pair port counter matters), of many sizes, on a small
     * grid of start times with several at once, some host pairs busy while others start.
     */
    static List<Flow> manyFlowsPerPair(int hosts, int count, long seed, long stepPs) {
        Random r = new Random(seed);
        long[] sizes = {1, 999, 1000, 4097, 20_000, 65_536, 150_001, 300_000};
        List<Flow> out = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < count; i++) {
            int src = r.nextInt(4); // few sources and destinations: many flows per pair
            int dst = hosts - 1 - r.nextInt(4);
            out.add(new Flow(src, dst, sizes[r.nextInt(sizes.length)], t, 100 + r.nextInt(3)));
            t += stepPs * r.nextInt(3);
        }
        return out;
    }

    /** What a run shows: FCTs, events, end, the packets of every port, the QP-context caches' hits and misses. */
    record Outcome(long[] fct, long events, long end, long[] packets, long[] qpc) {
        static Outcome of(Simulator sim, Fabric fabric, long[] fct) {
            List<Port> ports = fabric.ports();
            long[] packets = new long[ports.size()];
            for (int i = 0; i < packets.length; i++) {
                packets[i] = ports.get(i).packetsSent();
            }
            List<DatHost> hosts = fabric.hosts();
            long[] qpc = new long[2 * hosts.size()];
            for (int h = 0; h < hosts.size(); h++) {
                qpc[2 * h] = hosts.get(h).hca().qpcCache().hits();
                qpc[2 * h + 1] = hosts.get(h).hca().qpcCache().misses();
            }
            return new Outcome(fct, sim.eventsExecuted(), sim.now(), packets, qpc);
        }
    }

    static Fabric fabric(Simulator sim, Topology t, Params p) {
        return new Fabric(sim, t, p, Map.of(), new RandomStreams(3), new TraceSource<TraceEvent>("lazy-qp-test"));
    }

    static Outcome lazy(Topology t, Params p, List<Flow> flows, boolean send) {
        Simulator sim = new Simulator();
        Fabric fabric = fabric(sim, t, p);
        FlowRunner.Attached net = new FlowRunner.Attached(fabric, flows, send, true);
        for (int i = 0; i < flows.size(); i++) {
            sim.scheduleAt(flows.get(i).startPs(), net.poster, i);
        }
        sim.run();
        assertEquals(0, net.liveQueuePairs(), "every queue pair destroyed at the end");
        assertEquals(0, net.packetsForDestroyed(), "nothing arrives for a destroyed queue pair on a lossless fabric");
        return Outcome.of(sim, fabric, net.fct());
    }

    /** FlowRunner as it was: every queue pair created before time 0 in flow order, receives posted then, none freed. */
    static Outcome eager(Topology t, Params p, List<Flow> flows, boolean send) {
        Simulator sim = new Simulator();
        Fabric fabric = fabric(sim, t, p);
        List<DatHost> hosts = fabric.hosts();
        int n = hosts.size();
        Hca[] hca = new Hca[n];
        long[] maxOut = new long[n];
        long[] maxIn = new long[n];
        for (Flow f : flows) {
            maxOut[f.src()] = Math.max(maxOut[f.src()], f.sizeBytes());
            maxIn[f.dst()] = Math.max(maxIn[f.dst()], f.sizeBytes());
        }
        long[] src = new long[n];
        long[] dst = new long[n];
        for (int h = 0; h < n; h++) {
            hca[h] = hosts.get(h).hca();
            src[h] = maxOut[h] > 0 ? hca[h].memory().allocate(maxOut[h]) : 0;
            dst[h] = maxIn[h] > 0 ? hca[h].memory().allocate(maxIn[h]) : 0;
        }
        long[] done = new long[flows.size()];
        java.util.Arrays.fill(done, -1);
        QueuePair.Listener requester = new Quiet() {
            @Override
            public void requestCompleted(WorkRequest wr) {
                done[(int) wr.cookie] = wr.status() == Dat.DTO_SUCCESS ? sim.now() : -1;
            }
        };
        QueuePair.Listener responder = new Quiet();
        boolean hpccPorts = "hpcc".equals(p.choice(FabricParams.SWITCH_ECMP));
        Map<Long, Integer> nextPort = new HashMap<>();
        WorkRequest[] requests = new WorkRequest[flows.size()];
        for (int i = 0; i < flows.size(); i++) {
            Flow f = flows.get(i);
            QueuePair qa = hca[f.src()].createQueuePair("flow" + i);
            QueuePair qb = hca[f.dst()].createQueuePair("flow" + i + "_r");
            if (hpccPorts) {
                int sport = nextPort.merge((long) f.src() * n + f.dst(), 1, Integer::sum) + 9999;
                qa.setFlowLabel((sport & 0xFFFF) | f.dport() << 16);
            }
            qa.setListener(requester);
            qb.setListener(responder);
            qa.connect(qb);
            qb.connect(qa);
            long[] addr = {src[f.src()]};
            long[] len = {f.sizeBytes()};
            if (send) {
                hca[f.dst()].postReceive(new WorkRequest(-1 - i, WorkRequest.RECV, qb, i, 0,
                        new long[] {dst[f.dst()]}, new long[] {f.sizeBytes()}, 0, 0));
                requests[i] = new WorkRequest(i, WorkRequest.SEND, qa, i, 0, addr, len, 0, 0);
            } else {
                requests[i] = new WorkRequest(i, WorkRequest.RDMA_WRITE, qa, i, 0, addr, len, dst[f.dst()], 1);
            }
            requests[i].setPayloadFree(true);
        }
        for (int i = 0; i < flows.size(); i++) {
            sim.scheduleAt(flows.get(i).startPs(), k -> {
                WorkRequest wr = requests[(int) k];
                wr.qp.hca().postRequest(wr);
            }, i);
        }
        sim.run();
        long[] fct = new long[flows.size()];
        for (int i = 0; i < fct.length; i++) {
            fct[i] = done[i] >= 0 ? done[i] - flows.get(i).startPs() : -1;
        }
        return Outcome.of(sim, fabric, fct);
    }

    /** A listener that hears nothing and allows every access (FlowRunner's responders'). */
    static class Quiet extends FlowRunner.Responder {
    }

    @Test
    void theLiveQueuePairsAreThoseOfTheFlowsInProgress() {
        Topology t = FlowRunnerTest.fatTree();
        Params p = FlowRunnerTest.params("pfc", "cc.algorithm", "dcqcn", "ecn.enabled", "true");
        // 400 flows, a new one every 3 us on average, most a few us long: a handful in progress at a time
        List<Flow> flows = manyFlowsPerPair(t.hosts().size(), 400, 5, 3_000_000L);
        Simulator sim = new Simulator();
        Fabric fabric = fabric(sim, t, p);
        FlowRunner.Attached net = FlowRunner.attach(fabric, flows, false);
        long last = flows.get(flows.size() - 1).startPs();
        List<long[]> samples = new ArrayList<>(); // time, live queue pairs
        for (long at = 0; at <= last + 50_000_000L; at += 100_000L) {
            sim.scheduleAt(at, a -> samples.add(new long[] {sim.now(), net.liveQueuePairs()}), 0);
        }
        sim.run();
        long[] done = net.done;
        int maxLive = 0;
        for (long[] s : samples) {
            int inProgress = 0;
            for (int i = 0; i < flows.size(); i++) {
                if (flows.get(i).startPs() <= s[0] && (done[i] < 0 || done[i] >= s[0])) {
                    inProgress++;
                }
            }
            assertTrue(s[1] <= 2L * inProgress, "at " + s[0] + " ps: " + s[1] + " queue pairs live, " + inProgress
                    + " flows in progress");
            maxLive = (int) Math.max(maxLive, s[1]);
        }
        assertTrue(maxLive > 0, "queue pairs were seen alive");
        assertTrue(maxLive < flows.size() / 4, "at most " + maxLive + " queue pairs live of " + 2 * flows.size());
        assertEquals(0, net.liveQueuePairs(), "none left at the end");
        int reserved = 0;
        for (DatHost h : fabric.hosts()) {
            reserved += h.hca().queuePairCount();
        }
        assertEquals(2 * flows.size(), reserved, "every flow's two numbers reserved");
    }

    @Test
    void aLostLastAckIsAnsweredAgainBecauseTheResponderLivesUntilItsRequesterIsDone() {
        Topology t = FlowRunnerTest.fatTree();
        Params p = FlowRunnerTest.params("pfc", "hca.retry_count", "2", "hca.ack_timeout", "10us");
        List<Flow> flows = List.of(new Flow(0, 15, 5000, 0), new Flow(1, 14, 5000, 0));
        Simulator sim = new Simulator();
        Fabric fabric = fabric(sim, t, p);
        // every switch drops the first ACK it sees: flow 0's only ACK (one per message) never reaches its requester,
        // which times out and sends the message again; its responder's queue pair still lives and answers
        boolean[] dropped = {false};
        for (Switch s : fabric.switches()) {
            s.dropFilter().set(q -> q.kind == Packet.ACK && ((WorkRequest) q.context).cookie == 0
                    && !dropped[0] && (dropped[0] = true));
        }
        FlowRunner.Attached net = FlowRunner.attach(fabric, flows, false);
        sim.run();
        assertTrue(dropped[0]);
        long[] fct = net.fct();
        assertTrue(fct[1] > 0, "the other flow completes");
        assertTrue(fct[0] > fct[1] + 10_000_000L, "flow 0 completes after its ACK timeout: " + fct[0]);
        assertEquals(0, net.packetsForDestroyed(), "nothing arrived for a destroyed queue pair");
        assertEquals(0, net.liveQueuePairs(), "both flows' queue pairs destroyed at the end");
    }

    @Test
    void aPacketForADestroyedQueuePairIsDroppedAndCounted() {
        Topology t = FlowRunnerTest.fatTree();
        Params p = FlowRunnerTest.params("pfc", "hca.retry_count", "2", "hca.ack_timeout", "10us");
        Simulator sim = new Simulator();
        Fabric fabric = fabric(sim, t, p);
        Hca a = fabric.hosts().get(0).hca();
        Hca b = fabric.hosts().get(15).hca();
        QueuePair qa = a.createQueuePair("a", a.reserveQueuePair());
        QueuePair qb = b.createQueuePair("b", b.reserveQueuePair());
        int[] status = {-2};
        qa.setListener(new Quiet() {
            @Override
            public void requestCompleted(WorkRequest wr) {
                status[0] = wr.status();
            }
        });
        qb.setListener(new Quiet());
        qa.connect(qb);
        qb.connect(qa);
        b.destroyQueuePair(qb); // the responder's host let it go before the message came: an invalid QPN
        assertEquals(0, b.liveQueuePairs());
        long src = a.memory().allocate(5000);
        long dst = b.memory().allocate(5000);
        WorkRequest wr = new WorkRequest(0, WorkRequest.RDMA_WRITE, qa, 0, 0, new long[] {src}, new long[] {5000}, dst,
                1);
        wr.setPayloadFree(true);
        a.postRequest(wr);
        sim.run();
        long mtu = p.get(FabricParams.HCA_MTU);
        // sent once and again retry_count times, each time in all its packets, each dropped at the destroyed QP
        assertEquals((5000 + mtu - 1) / mtu * 3, b.packetsForDestroyed(), "packets dropped at the destroyed QP");
        assertTrue(status[0] != WcStatus.SUCCESS && status[0] >= 0, "retries exhausted: " + status[0]);
        assertThrows(IllegalArgumentException.class, () -> a.destroyQueuePair(qb), "a host destroys only its own");
    }
}
