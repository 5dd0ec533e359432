package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.bench.PartitionedPhold;
import org.junit.jupiter.api.Test;

/**
 * The {@link PartitionedSimulator}: PHOLD gives the same answer (per-LP counts, per-LP checksums of (time, sender),
 * last event time) on a {@code Simulator(owners)} and partitioned with 1 to 8 partitions on 1, 2 and 4 threads; a
 * delivery that breaks the key order is caught by that answer; the lookahead, stop, failures and the statistics.
 */
class PartitionedSimulatorTest {

    /** 64 LPs, 10 ms quantum on a 100 ms lookahead and 1 s mean: several events per instant, so many ties. */
    private static final PartitionedPhold.Config TIES =
            new PartitionedPhold.Config(64, 4, 300_000_000_000_000L, 21, 100_000_000_000L, 1e12, 10_000_000_000L);

    private static void assertSameAnswer(PartitionedPhold.Result exp, PartitionedPhold.Result got, String what) {
        assertArrayEquals(exp.perLpEvents(), got.perLpEvents(), what);
        assertArrayEquals(exp.perLpChecksum(), got.perLpChecksum(), what);
        assertEquals(exp.checksum(), got.checksum(), what);
        assertEquals(exp.events(), got.events(), what);
        assertEquals(exp.lastEventPs(), got.lastEventPs(), what);
    }

    @Test
    void pholdGivesTheSequentialAnswerOnEveryPartitioningAndThreadCount() {
        PartitionedPhold.Result seq = PartitionedPhold.runSequential(TIES);
        assertTrue(seq.events() > 50_000, "events " + seq.events());
        for (int p = 1; p <= 8; p++) {
            for (int t : new int[] {1, 2, 4}) {
                if (t > p) {
                    continue;
                }
                PartitionedPhold.Result r = PartitionedPhold.runPartitioned(TIES, p, t);
                assertSameAnswer(seq, r, p + " partitions, " + t + " threads");
                WindowStats w = r.windows();
                assertEquals(seq.events(), w.events());
                assertEquals(p, w.partitions());
                assertEquals(t, w.threads());
                assertTrue(w.windows() > 100 && w.maxWindowEvents() >= w.eventsPerWindow());
                assertEquals(p == 1, w.crossEvents() == 0);
            }
        }
    }

    @Test
    void aScatteredPartitioningGivesTheSameAnswerToo() {
        PartitionedPhold.Result seq = PartitionedPhold.runSequential(TIES);
        int[] map = new int[TIES.lps()];
        for (int lp = 0; lp < map.length; lp++) {
            map[lp] = (lp * 7 + 3) % 5;
        }
        PartitionedPhold.Result r = PartitionedPhold.runOn(TIES, new PartitionedSimulator(map, 5, TIES.lookaheadPs(), 2));
        assertSameAnswer(seq, r, "owners scattered over 5 partitions");
    }

    @Test
    void theOrderInWhichMailboxesAreDrainedDoesNotMatter() {
        PartitionedPhold.Result seq = PartitionedPhold.runSequential(TIES);
        PartitionedSimulator engine = new PartitionedSimulator(PartitionedSimulator.blocks(64, 4), 4, TIES.lookaheadPs(), 2);
        engine.deliveryFaultForTest = 1;
        assertSameAnswer(seq, PartitionedPhold.runOn(TIES, engine), "mailboxes drained in reverse");
    }

    @Test
    void aDeliveryThatOrdersTiesByArrivalIsCaught() {
        PartitionedPhold.Result seq = PartitionedPhold.runSequential(TIES);
        PartitionedSimulator engine = new PartitionedSimulator(PartitionedSimulator.blocks(64, 4), 4, TIES.lookaheadPs(), 2);
        engine.deliveryFaultForTest = 2;
        PartitionedPhold.Result wrong = PartitionedPhold.runOn(TIES, engine);
        assertNotEquals(seq.checksum(), wrong.checksum(), "ties ordered by arrival must change the answer");
    }

    @Test
    void aSendAcrossPartitionsBelowTheLookaheadIsAnError() {
        PartitionedSimulator engine = new PartitionedSimulator(new int[] {0, 1}, 2, 1000, 2);
        Simulator a = engine.simulatorOf(0);
        engine.sendAt(0, 10, arg -> {
            a.send(0, 1, x -> {}, 0); // local: any delay
            a.send(1, 999, x -> {}, 0);
        }, 0);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, engine::run);
        assertTrue(e.getMessage().contains("below the lookahead of 1000 ps"), e.getMessage());
        assertTrue(e.getMessage().contains("owner 0 (partition 0)") && e.getMessage().contains("owner 1 (partition 1)"),
                e.getMessage());
    }

    @Test
    void aHandlersExceptionIsRethrownByTheRun() {
        PartitionedSimulator engine = new PartitionedSimulator(new int[] {0, 1, 1}, 2, 50, 2);
        IllegalStateException boom = new IllegalStateException("boom");
        engine.sendAt(2, 7, arg -> {
            throw boom;
        }, 0);
        engine.sendAt(0, 3, arg -> {}, 0);
        assertSame(boom, assertThrows(IllegalStateException.class, engine::run));
    }

    @Test
    void stopEndsTheRunAtTheWindowsEndAndTheRunResumes() {
        PartitionedSimulator engine = new PartitionedSimulator(new int[] {0, 1}, 2, 100, 2);
        List<Long> log0 = new ArrayList<>();
        List<Long> log1 = new ArrayList<>();
        Simulator s0 = engine.simulatorOf(0);
        Simulator s1 = engine.simulatorOf(1);
        EventHandler ping0 = new EventHandler() {
            @Override
            public void handle(long n) {
                log0.add(s0.now());
                if (n == 3) {
                    s0.stop();
                }
                if (n < 6) {
                    s0.send(0, 30, this, n + 1);
                }
            }
        };
        engine.sendAt(0, 0, ping0, 0);
        engine.sendAt(1, 0, arg -> log1.add(s1.now()), 0);
        engine.sendAt(1, 95, arg -> log1.add(s1.now()), 0);
        engine.sendAt(1, 150, arg -> log1.add(s1.now()), 0);
        RunResult r = engine.run();
        assertEquals(StopReason.STOPPED, r.reason());
        // the first window is [0, 99]: partition 0 runs 0, 30, 60, 90 (stop at n = 3), partition 1 runs 0 and 95
        assertEquals(List.of(0L, 30L, 60L, 90L), log0);
        assertEquals(List.of(0L, 95L), log1);
        assertEquals(6, r.events());
        r = engine.run();
        assertEquals(StopReason.NO_EVENTS, r.reason());
        assertEquals(List.of(0L, 30L, 60L, 90L, 120L, 150L, 180L), log0);
        assertEquals(List.of(0L, 95L, 150L), log1);
        assertEquals(180, r.endTimePs());
        assertEquals(0, engine.pendingCount());
    }

    @Test
    void runUntilStopsAtTheBoundAndMovesEveryClockThere() {
        PartitionedSimulator engine = new PartitionedSimulator(new int[] {0, 1, 2}, 3, 10, 3);
        EventHandler hop = new EventHandler() {
            @Override
            public void handle(long owner) {
                Simulator me = engine.simulatorOf((int) owner);
                assertEquals(owner, me.owner());
                int next = (int) ((owner + 1) % 3);
                me.send(next, 10, this, next); // every hop crosses partitions, at exactly the lookahead
            }
        };
        engine.sendAt(0, 0, hop, 0);
        RunResult r = engine.runUntil(1000);
        assertEquals(StopReason.UNTIL_TIME, r.reason());
        assertEquals(101, r.events()); // times 0, 10, ..., 1000
        for (int p = 0; p < 3; p++) {
            assertEquals(1000, engine.partition(p).now());
        }
        assertEquals(1, engine.pendingCount()); // the hop at 1010, delivered to its partition at the end of the run
        assertEquals(1010, engine.partition(101 % 3).nextEventTimePs());
        assertEquals(1000, engine.lastEventPs());
        assertEquals(101, engine.stats().crossEvents());
        r = engine.runUntil(1020);
        assertEquals(2, r.events());
        assertEquals(103, engine.stats().crossEvents());
        assertEquals(103, engine.stats().events());
        assertEquals(103, engine.eventsExecuted());
        assertTrue(engine.stats().barrierWaitNanos() >= 0);
    }

    @Test
    void argumentsAreChecked() {
        assertThrows(IllegalArgumentException.class, () -> new PartitionedSimulator(new int[] {0}, 1, 10, 2));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedSimulator(new int[] {0}, 1, 10, 0));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedSimulator(new int[] {0}, 1, 0, 1));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedSimulator(new int[] {0}, 0, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> new PartitionedSimulator(new int[] {0, 2}, 2, 10, 1));
        assertThrows(IllegalArgumentException.class, () -> PartitionedSimulator.blocks(2, 3));
        assertArrayEquals(new int[] {0, 0, 1, 1, 2}, PartitionedSimulator.blocks(5, 3));
    }
}
