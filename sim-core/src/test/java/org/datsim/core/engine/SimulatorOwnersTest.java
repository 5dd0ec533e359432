package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** A {@link Simulator} with owners: the owner an event runs as, and the (time, source owner, count) order. */
class SimulatorOwnersTest {

    /** A workload with many ties whose handlers schedule more events, recorded in execution order. */
    private static List<Long> workload(Simulator sim) {
        List<Long> seen = new ArrayList<>();
        SplittableRandom rnd = new SplittableRandom(9);
        EventHandler[] h = new EventHandler[1];
        h[0] = arg -> {
            seen.add(sim.now() * 1_000_000 + arg);
            if (seen.size() < 20_000) {
                sim.schedule(rnd.nextInt(3) * 10L, h[0], rnd.nextInt(1000));
                if (rnd.nextInt(4) == 0) {
                    sim.schedule(rnd.nextInt(2) * 10L, h[0], rnd.nextInt(1000));
                }
            }
        };
        for (int i = 0; i < 200; i++) {
            sim.schedule(rnd.nextInt(5) * 10L, h[0], i);
        }
        sim.run();
        return seen;
    }

    @Test
    void withEveryEventOwnerZerosTheOrderIsTheDefault() {
        assertEquals(workload(new Simulator()), workload(new Simulator(1)));
        assertEquals(workload(new Simulator()), workload(new Simulator(50)));
    }

    @Test
    void equalTimesRunInTheOrderOfTheSchedulingOwnerThenItsCount() {
        Simulator sim = new Simulator(4);
        List<String> log = new ArrayList<>();
        EventHandler record = arg -> log.add("e" + arg + "@" + sim.owner());
        // owner 3 runs at 5 and schedules two events for time 10; owner 1 runs at 6 and schedules one for time 10
        sim.sendAt(3, 5, arg -> {
            sim.sendAt(2, 10, record, 1);
            sim.schedule(5, record, 2);
        }, 0);
        sim.sendAt(1, 6, arg -> sim.sendAt(0, 10, record, 3), 0);
        assertEquals(0, sim.owner());
        sim.run();
        // owner 1's event first (smaller source), then owner 3's two in its own order
        assertEquals(List.of("e3@0", "e1@2", "e2@3"), log);
        assertEquals(0, sim.owner());
        assertEquals(4, sim.owners());
    }

    @Test
    void anEventForNowFromASmallerOwnerRunsBeforePendingOnesOfLargerOwners() {
        Simulator sim = new Simulator(3);
        List<Integer> log = new ArrayList<>();
        sim.sendAt(2, 1, arg -> sim.sendAt(0, 10, a -> log.add(2), 0), 0);
        sim.sendAt(1, 10, arg -> {
            log.add(1);
            sim.send(1, 0, a -> log.add(0), 0); // key (1, .) < (2, .): before owner 2's pending event at 10
        }, 0);
        sim.run();
        assertEquals(List.of(1, 0, 2), log);
    }

    @Test
    void scheduleAgainKeepsTheOwnerAndTheKey() {
        Simulator sim = new Simulator(3);
        List<String> log = new ArrayList<>();
        int[] left = {3};
        EventHandler tick = new EventHandler() {
            @Override
            public void handle(long arg) {
                log.add("tick@" + sim.owner() + "t" + sim.now());
                if (--left[0] > 0) {
                    sim.scheduleAgainAt(sim.now() + 10, this, arg);
                }
            }
        };
        sim.sendAt(2, 10, tick, 0); // key (0, 1): before the set-up's later events of equal time
        sim.sendAt(1, 20, arg -> log.add("other@" + sim.owner()), 0);
        sim.run();
        assertEquals(List.of("tick@2t10", "tick@2t20", "other@1", "tick@2t30"), log);
    }

    @Test
    void ownersAreChecked() {
        Simulator plain = new Simulator();
        assertEquals(0, plain.owners());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> plain.send(1, 0, a -> {}, 0));
        assertTrue(e.getMessage().contains("no owners"), e.getMessage());
        assertTrue(plain.send(0, 5, a -> {}, 0) > 0);
        Simulator sim = new Simulator(2);
        e = assertThrows(IllegalArgumentException.class, () -> sim.send(2, 0, a -> {}, 0));
        assertTrue(e.getMessage().contains("0 to 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> sim.send(-1, 0, a -> {}, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.send(1, -1, a -> {}, 0));
        assertThrows(IllegalArgumentException.class, () -> new Simulator(0));
        sim.runUntil(100);
        assertThrows(IllegalArgumentException.class, () -> sim.sendAt(1, 99, a -> {}, 0));
    }

    @Test
    void keysPackTheOwnerAndItsCount() {
        EventKeys k = EventKeys.of(5);
        long a = k.next(4);
        long b = k.next(4);
        long c = k.next(0);
        assertEquals(4, EventKeys.ownerOf(a));
        assertEquals(1, EventKeys.sequenceOf(a));
        assertEquals(2, EventKeys.sequenceOf(b));
        assertTrue(c < a && a < b);
        assertEquals(5, k.owners());
    }
}
