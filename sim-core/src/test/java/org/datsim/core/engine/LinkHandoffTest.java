package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayDeque;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The pattern a fabric's links use across partitions (docs/parallel.md, stage 2), on a test model: packets, objects
 * that travel from node to node, committed to a link ahead of their start and taken back by a pause before it, as a
 * port does. In one partition a packet's arrival is scheduled when it is committed, keyed then ({@link
 * Simulator#sendKeyed}), and the receiving node takes it from the sender's in-flight list; across partitions the
 * sender takes the key at the commit ({@link Simulator#takeKey}) and hands the packet over at arrival minus the
 * lookahead, when it can no longer be taken back ({@link Simulator#sendCarried}). Every node's log of what it received
 * (time, kind, packet) is the same on one {@code Simulator(owners)} and on 1 to 4 partitions with 1 or 2 threads; a
 * handover keyed at the handover instead of the commit changes it (the key is what makes the answer independent of
 * the partitioning); set-up through {@link Simulator#setUpAs} and the window listener are checked too.
 */
class LinkHandoffTest {

    private static final long GRID = 1_000;
    private static final long DELAY = 20 * GRID; // every link's propagation delay; the lookahead
    private static final int NODES = 12;

    /** A packet: an object that crosses partitions. */
    static final class Pkt {
        final long id;
        int hops;
        long startPs;
        long arrivalPs;
        long key;
        long event; // its arrival (direct) or handover (across partitions), for a take-back

        Pkt(long id) {
            this.id = id;
        }
    }

    /** The ring: node i sends to node i + 1 over a link with a pausable output; owners are 1 to NODES. */
    static final class Ring {
        final Node[] nodes = new Node[NODES + 1];
        final boolean handoverKeyedLate;

        Ring(Simulator[] simOf, int[] partitionOf, boolean handoverKeyedLate) {
            this.handoverKeyedLate = handoverKeyedLate;
            for (int o = 1; o <= NODES; o++) {
                nodes[o] = new Node(this, o, simOf[o]);
            }
            for (int o = 1; o <= NODES; o++) {
                Node n = nodes[o];
                n.next = nodes[o % NODES + 1];
                n.cut = partitionOf != null && partitionOf[o] != partitionOf[n.next.owner];
            }
        }

        void setUp() {
            for (int o = 1; o <= NODES; o++) {
                Node n = nodes[o];
                n.sim.setUpAs(o);
                for (int k = 0; k < 6; k++) {
                    n.forward(new Pkt(o * 1000L + k));
                }
                n.sim.send(o, (3 + o % 4) * GRID, n.pauser, 0);
                n.sim.setUpAs(0);
            }
        }

        long[] logs() {
            long[] out = new long[2 * NODES + 1];
            for (int o = 1; o <= NODES; o++) {
                out[2 * o - 2] = nodes[o].log;
                out[2 * o - 1] = nodes[o].received;
                out[2 * NODES] += nodes[o].takenBack;
            }
            return out;
        }
    }

    static final class Node implements Carrier {
        static final long DIRECT = 0;
        static final long CARRIED = 1;
        static final long CONTROL = 2;

        final Ring ring;
        final int owner;
        final Simulator sim;
        Node next;
        boolean cut;
        final SplittableRandom rng;
        long busyUntil;
        Pkt lastCommitted;
        final ArrayDeque<Pkt> inFlight = new ArrayDeque<>(); // sender's: committed, not yet arrived or handed over
        final ArrayDeque<Pkt> inbox = new ArrayDeque<>(); // receiver's: carried, not yet arrived
        final ArrayDeque<Pkt> paused = new ArrayDeque<>();
        boolean isPaused;
        long log = 17;
        long received;
        long takenBack;
        final EventHandler pauser = this::pause;
        final EventHandler handover = this::handover;

        Node(Ring ring, int owner, Simulator sim) {
            this.ring = ring;
            this.owner = owner;
            this.sim = sim;
            this.rng = new SplittableRandom(owner * 0x9E3779B97F4A7C15L);
        }

        /** Commits a packet to the link: it starts when the link is free, or waits out a pause. */
        void forward(Pkt p) {
            if (isPaused) {
                paused.add(p);
                return;
            }
            long now = sim.now();
            p.startPs = Math.max(now, busyUntil);
            busyUntil = p.startPs + GRID * (1 + p.id % 3);
            p.arrivalPs = busyUntil + DELAY;
            p.key = sim.takeKey();
            inFlight.add(p);
            lastCommitted = p;
            if (cut) {
                p.event = sim.sendKeyed(owner, p.arrivalPs - DELAY, handover, 0, p.key);
            } else {
                p.event = sim.sendKeyed(next.owner, p.arrivalPs, next, DIRECT, p.key);
            }
            if (rng.nextInt(4) == 0) { // a control message on the link, which can tie with an arrival
                sim.send(next.owner, DELAY + GRID * rng.nextInt(4), next, CONTROL + owner);
            }
        }

        /** A pause: takes back the last packet if it has not started, and resumes a few grid steps later. */
        void pause(long resume) {
            if (resume == 1) {
                isPaused = false;
                while (!paused.isEmpty() && !isPaused) {
                    forward(paused.poll());
                }
                sim.send(owner, GRID * (5 + rng.nextInt(7)), pauser, 0);
                return;
            }
            isPaused = true;
            Pkt p = lastCommitted;
            if (p != null && p.startPs > sim.now() && inFlight.peekLast() == p) {
                assertTrue(sim.cancel(p.event), "a packet not yet started has its event pending");
                inFlight.pollLast();
                busyUntil = p.startPs;
                lastCommitted = null;
                paused.add(p);
                takenBack++;
            }
            sim.send(owner, GRID * (1 + rng.nextInt(3)), pauser, 1);
        }

        /** Across partitions: the head packet can no longer be taken back; it goes to the next node's partition. */
        void handover(long unused) {
            Pkt p = inFlight.poll();
            assertTrue(p.startPs <= sim.now(), "handed over before its start");
            long key = ring.handoverKeyedLate ? -1 : p.key;
            sim.sendCarried(next.owner, p.arrivalPs, next, CARRIED, p, key);
        }

        @Override
        public void carry(long arg, Object ref) {
            inbox.add((Pkt) ref);
        }

        @Override
        public void handle(long arg) {
            if (arg >= CONTROL) {
                record(sim.now(), arg, 0);
                return;
            }
            Pkt p = arg == DIRECT ? ring.nodes[owner == 1 ? NODES : owner - 1].inFlight.poll() : inbox.poll();
            assertEquals(sim.now(), p.arrivalPs);
            record(sim.now(), 1, p.id);
            received++;
            if (++p.hops < 40) {
                forward(p);
            }
        }

        private void record(long t, long kind, long id) {
            log = log * 1_000_003 + t * 31 + kind * 7 + id;
        }
    }

    private static long[] sequential(boolean late) {
        Simulator sim = new Simulator(NODES + 1);
        Simulator[] simOf = new Simulator[NODES + 1];
        java.util.Arrays.fill(simOf, sim);
        Ring ring = new Ring(simOf, null, late);
        ring.setUp();
        sim.runUntil(3_000 * GRID);
        return ring.logs();
    }

    private static long[] partitioned(int partitions, int threads, boolean late, long[] windowsSeen) {
        int[] map = new int[NODES + 1];
        for (int o = 1; o <= NODES; o++) {
            map[o] = (o - 1) * partitions / NODES;
        }
        PartitionedSimulator engine = new PartitionedSimulator(map, partitions, DELAY, threads);
        Simulator[] simOf = new Simulator[NODES + 1];
        for (int o = 0; o <= NODES; o++) {
            simOf[o] = engine.simulatorOf(o);
        }
        Ring ring = new Ring(simOf, map, late);
        ring.setUp();
        if (windowsSeen != null) {
            for (int q = 0; q < partitions; q++) {
                int part = q;
                Thread[] first = new Thread[1];
                engine.setWindowListener(q, w -> {
                    windowsSeen[part]++;
                    if (first[0] == null) {
                        first[0] = Thread.currentThread();
                    }
                    assertEquals(first[0], Thread.currentThread(), "a partition's windows start on its own thread");
                });
            }
        }
        engine.runUntil(3_000 * GRID);
        if (windowsSeen != null) {
            windowsSeen[partitions] = engine.stats().windows();
        }
        return ring.logs();
    }

    @Test
    void everyPartitioningGivesTheSequentialLogs() {
        long[] seq = sequential(false);
        long total = 0;
        for (int o = 0; o < NODES; o++) {
            total += seq[2 * o + 1];
        }
        assertTrue(seq[2 * NODES] > 50, "packets taken back by a pause: " + seq[2 * NODES]);
        assertEquals(NODES * 6 * 40, total, "every packet made its 40 hops");
        for (int p = 1; p <= 4; p++) {
            for (int t = 1; t <= Math.min(p, 2); t++) {
                assertArrayEquals(seq, partitioned(p, t, false, null), p + " partitions, " + t + " threads");
            }
        }
    }

    @Test
    void aHandoverKeyedWhenItHappensChangesTheAnswer() {
        // The same handover keyed at its own instant: a control message sent between the commit and the handover
        // now goes before the arrival it tied with and came after. One partition has no handover: it is unchanged.
        long[] seq = sequential(false);
        assertArrayEquals(seq, partitioned(1, 1, true, null));
        assertNotEquals(java.util.Arrays.toString(seq), java.util.Arrays.toString(partitioned(3, 1, true, null)));
    }

    @Test
    void theWindowListenerIsToldOncePerWindowInThePartitionsThread() {
        long[] seen = new long[4];
        partitioned(3, 2, false, seen);
        assertTrue(seen[3] > 10, "windows " + seen[3]);
        for (int q = 0; q < 3; q++) {
            assertEquals(seen[3], seen[q], "partition " + q);
        }
    }

    @Test
    void keysAndSetUpAreChecked() {
        int[] map = {0, 0, 1};
        PartitionedSimulator engine = new PartitionedSimulator(map, 2, DELAY, 1);
        Simulator a = engine.simulatorOf(1);
        Simulator b = engine.simulatorOf(2);
        a.setUpAs(1);
        long key = a.takeKey();
        assertEquals(1, EventKeys.ownerOf(key));
        EventHandler h = x -> { };
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> b.sendKeyed(2, 5, h, 0, key));
        assertTrue(e.getMessage().contains("not taken in this partition"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> a.setUpAs(3));
        assertThrows(NullPointerException.class, () -> a.sendCarried(2, 5, new Node(null, 1, a), 0, null, -1));
        Simulator plain = new Simulator();
        assertThrows(IllegalArgumentException.class, () -> plain.setUpAs(1));
        assertEquals(0, plain.takeKey());
        long[] got = new long[1];
        plain.sendCarried(0, 7, new Carrier() {
            @Override
            public void carry(long arg, Object ref) {
                got[0] = (Long) ref;
            }

            @Override
            public void handle(long arg) {
                got[0] += arg;
            }
        }, 3, 40L, -1);
        assertEquals(40, got[0], "carried at once without partitions");
        plain.run();
        assertEquals(43, got[0]);
        Simulator keyed = new Simulator(3);
        keyed.setUpAs(2);
        long k = keyed.takeKey();
        assertEquals(2, EventKeys.ownerOf(k));
        keyed.sendKeyed(1, 4, x -> assertEquals(1, keyed.owner()), 0, k);
        keyed.run();
        assertEquals(0, keyed.owner(), "a run resets the set-up owner");
        keyed.sendAt(1, 9, x -> assertThrows(IllegalStateException.class, () -> keyed.setUpAs(1)), 0);
        keyed.run();
    }
}
