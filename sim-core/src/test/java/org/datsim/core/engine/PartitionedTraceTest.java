package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.datsim.core.trace.TraceSource;
import org.junit.jupiter.api.Test;

/**
 * {@link PartitionedTrace}: a model whose events fire trace records at many equal times, in several owners of several
 * partitions, gives the sequential keyed run's stream record for record, on 1 to 4 threads; records fired at set-up
 * go straight through; a trace nobody reads builds nothing; the window-end action can stop the run.
 */
class PartitionedTraceTest {

    private static final int OWNERS = 24;
    private static final long LOOKAHEAD = 1_000;
    private static final long END = 400 * LOOKAHEAD;

    /** Owner o's events: fire one or two records, then schedule one event of a random owner 1 to 3 lookaheads on. */
    private static final class Node implements EventHandler {
        final int owner;
        final SplittableRandom random;
        Simulator sim;
        TraceSource<String> trace;
        Node[] all;
        int fired;

        Node(int owner) {
            this.owner = owner;
            this.random = new SplittableRandom(1000 + owner);
        }

        @Override
        public void handle(long arg) {
            long now = sim.now();
            trace.fire(now + " owner " + owner + " record " + fired++ + " from " + arg);
            if (random.nextInt(3) == 0) {
                trace.fire(now + " owner " + owner + " record " + fired++ + " second");
            }
            long at = now + LOOKAHEAD * (1 + random.nextInt(3));
            if (at <= END) {
                int dst = random.nextInt(OWNERS);
                sim.send(dst, at - now, all[dst], owner);
            }
        }
    }

    private static Node[] nodes() {
        Node[] n = new Node[OWNERS];
        for (int o = 0; o < OWNERS; o++) {
            n[o] = new Node(o);
        }
        for (Node x : n) {
            x.all = n;
        }
        return n;
    }

    /** The nodes on a partitioned engine, each firing into its partition's source, the trace attached. */
    private static Node[] nodesOn(PartitionedSimulator engine, PartitionedTrace<String> pt) {
        Node[] n = nodes();
        for (Node x : n) {
            x.sim = engine.simulatorOf(x.owner);
            x.trace = pt.of(engine.partitionOf(x.owner));
        }
        pt.attach();
        return n;
    }

    private static List<String> sequential() {
        Simulator sim = new Simulator(OWNERS);
        TraceSource<String> trace = new TraceSource<>("seq");
        List<String> out = new ArrayList<>();
        trace.subscribe(out::add);
        Node[] n = nodes();
        for (Node x : n) {
            x.sim = sim;
            x.trace = trace;
        }
        trace.fire("set-up");
        for (int o = 1; o < OWNERS; o++) {
            sim.sendAt(o, (o % 3) * LOOKAHEAD, n[o], -1);
        }
        sim.run();
        return out;
    }

    private static List<String> partitioned(int partitions, int threads) {
        PartitionedSimulator engine = new PartitionedSimulator(PartitionedSimulator.blocks(OWNERS, partitions),
                partitions, LOOKAHEAD, threads);
        TraceSource<String> trace = new TraceSource<>("merged");
        List<String> out = new ArrayList<>();
        trace.subscribe(out::add);
        PartitionedTrace<String> pt = new PartitionedTrace<>(engine, trace);
        Node[] n = nodesOn(engine, pt);
        pt.of(partitions - 1).fire("set-up");
        for (int o = 1; o < OWNERS; o++) {
            engine.sendAt(o, (o % 3) * LOOKAHEAD, n[o], -1);
        }
        engine.run();
        assertEquals(0, pt.held(), "every window's records are fired by its end");
        return out;
    }

    /** Equal lists, else a message naming the first record that differs (not the whole stream). */
    private static void assertSameStream(List<String> exp, List<String> got, String what) {
        for (int i = 0; i < Math.min(exp.size(), got.size()); i++) {
            int at = i;
            assertEquals(exp.get(i), got.get(i), () -> what + ": record " + at + " differs");
        }
        assertEquals(exp.size(), got.size(), what + ": records");
    }

    @Test
    void theMergedStreamIsTheSequentialOneOnEveryPartitioningAndThreadCount() {
        List<String> seq = sequential();
        assertTrue(seq.size() > 1_000, "records " + seq.size());
        assertEquals("set-up", seq.get(0));
        // the test has teeth: at some time, an owner of a later block fires before one of an earlier block
        boolean crossed = false;
        for (int i = 2; i < seq.size() && !crossed; i++) {
            String[] a = seq.get(i - 1).split(" ");
            String[] b = seq.get(i).split(" ");
            crossed = a[0].equals(b[0]) && Integer.parseInt(a[2]) >= OWNERS / 2 && Integer.parseInt(b[2]) < OWNERS / 2;
        }
        assertTrue(crossed, "equal times interleave the partitions' owners, so a concatenation would differ");
        for (int p = 1; p <= 4; p++) {
            for (int t = 1; t <= p; t *= 2) {
                assertSameStream(seq, partitioned(p, t), p + " partitions, " + t + " threads");
            }
        }
    }

    @Test
    void aTraceWithoutSinksStaysDisabledInThePartitions() {
        PartitionedSimulator engine = new PartitionedSimulator(PartitionedSimulator.blocks(4, 2), 2, LOOKAHEAD, 1);
        PartitionedTrace<String> pt = new PartitionedTrace<>(engine, new TraceSource<>("nobody"));
        pt.attach();
        assertTrue(!pt.of(0).isEnabled() && !pt.of(1).isEnabled(), "models build no records nobody reads");
    }

    @Test
    void theWindowEndActionStopsTheRunAtTheEndOfItsWindow() {
        PartitionedSimulator engine = new PartitionedSimulator(PartitionedSimulator.blocks(OWNERS, 2), 2, LOOKAHEAD, 2);
        TraceSource<String> trace = new TraceSource<>("guarded");
        List<String> out = new ArrayList<>();
        trace.subscribe(r -> {
            out.add(r);
            if (out.size() == 50) {
                engine.stopAfterWindow(); // as the output guard does
            }
        });
        PartitionedTrace<String> pt = new PartitionedTrace<>(engine, trace);
        Node[] n = nodesOn(engine, pt);
        for (int o = 1; o < OWNERS; o++) {
            engine.sendAt(o, 0, n[o], -1);
        }
        RunResult r = engine.run();
        assertEquals(StopReason.STOPPED, r.reason(), r.message());
        assertTrue(r.message().contains("window-end action"), r.message());
        assertTrue(out.size() >= 50 && out.size() < sequential().size(), "records " + out.size());
    }
}
