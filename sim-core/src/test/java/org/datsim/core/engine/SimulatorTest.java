package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import org.datsim.core.time.SimTime;
import org.junit.jupiter.api.Test;

class SimulatorTest {

    @Test
    void runsEventsInTimeOrderThenSchedulingOrder() {
        Simulator sim = new Simulator();
        List<String> log = new ArrayList<>();
        EventHandler rec = arg -> log.add(sim.now() + ":" + arg);
        sim.schedule(30, rec, 1);
        sim.schedule(10, rec, 2);
        sim.schedule(20, rec, 3);
        sim.schedule(10, rec, 4);
        sim.schedule(10, rec, 5);
        sim.scheduleAt(20, rec, 6);
        sim.schedule(0, rec, 7);
        RunResult r = sim.run();
        assertEquals(List.of("0:7", "10:2", "10:4", "10:5", "20:3", "20:6", "30:1"), log);
        assertEquals(StopReason.NO_EVENTS, r.reason());
        assertEquals(30, r.endTimePs());
        assertEquals(7, r.events());
        assertEquals(30, sim.now());
    }

    @Test
    void eventScheduledForNowRunsAfterEventsAlreadyScheduledForNow() {
        Simulator sim = new Simulator();
        List<String> log = new ArrayList<>();
        sim.schedule(
                5,
                arg -> {
                    log.add("a");
                    sim.schedule(0, x -> log.add("c"), 0);
                },
                0);
        sim.schedule(5, arg -> log.add("b"), 0);
        sim.run();
        assertEquals(List.of("a", "b", "c"), log);
    }

    @Test
    void manySimultaneousEventsKeepFifoOrder() {
        Simulator sim = new Simulator();
        List<Long> order = new ArrayList<>();
        EventHandler rec = order::add;
        for (int i = 0; i < 5000; i++) {
            sim.schedule(i % 3 == 0 ? 7 : 3, rec, i);
        }
        sim.run();
        List<Long> expected = new ArrayList<>();
        for (long i = 0; i < 5000; i++) {
            if (i % 3 != 0) {
                expected.add(i);
            }
        }
        for (long i = 0; i < 5000; i++) {
            if (i % 3 == 0) {
                expected.add(i);
            }
        }
        assertEquals(expected, order);
    }

    @Test
    void idsArePositiveUniqueAndIncreasing() {
        Simulator sim = new Simulator();
        long last = 0;
        for (int i = 0; i < 10_000; i++) {
            long id = sim.schedule(i % 17, arg -> {}, 0);
            assertTrue(id > last);
            last = id;
        }
    }

    /** Random schedules, cancels and nested schedules, checked against a reference model. */
    @Test
    void matchesReferenceModelUnderRandomOperations() {
        for (long seed = 1; seed <= 8; seed++) {
            checkAgainstModel(seed, seed % 2 == 0 ? 50 : 1_000_000);
        }
    }

    private static final class Model {
        final Simulator sim = new Simulator();
        final SplittableRandom rnd;
        final long timeRange;
        final java.util.Map<Long, long[]> bySeq = new java.util.HashMap<>(); // seq -> {time, seq, id}
        final java.util.Set<Long> pending = new java.util.HashSet<>();
        final java.util.Set<Long> cancelled = new java.util.HashSet<>();
        final List<Long> allSeqs = new ArrayList<>();
        final List<Long> executed = new ArrayList<>();
        long nextSeq;
        final EventHandler handler = this::onEvent;

        Model(long seed, long timeRange) {
            this.rnd = new SplittableRandom(seed);
            this.timeRange = timeRange;
        }

        void add(long time) {
            long seq = nextSeq++;
            long id = sim.scheduleAt(time, handler, seq);
            bySeq.put(seq, new long[] {time, seq, id});
            pending.add(seq);
            allSeqs.add(seq);
        }

        void cancelRandom() {
            long victim = allSeqs.get(rnd.nextInt(allSeqs.size()));
            long id = bySeq.get(victim)[2];
            boolean expected = pending.contains(victim);
            assertEquals(expected, sim.isPending(id));
            assertEquals(expected, sim.cancel(id));
            if (expected) {
                pending.remove(victim);
                cancelled.add(victim);
            }
            assertFalse(sim.isPending(id));
        }

        void onEvent(long seq) {
            assertTrue(pending.remove(seq), "ran an event that was not pending: " + seq);
            assertEquals(bySeq.get(seq)[0], sim.now());
            executed.add(seq);
            assertEquals(pending.size(), sim.pendingCount());
            int k = rnd.nextInt(3);
            for (int j = 0; j < k && nextSeq < 60_000; j++) {
                long delay = rnd.nextInt(4) == 0 ? 0 : rnd.nextLong(timeRange);
                add(sim.now() + delay);
            }
            if (rnd.nextInt(3) == 0) {
                cancelRandom();
            }
            assertEquals(pending.size(), sim.pendingCount());
        }
    }

    private static void checkAgainstModel(long seed, long timeRange) {
        Model m = new Model(seed, timeRange);
        for (int i = 0; i < 20_000; i++) {
            m.add(m.rnd.nextLong(timeRange));
        }
        for (int i = 0; i < 8_000; i++) { // enough to trigger heap compaction
            m.cancelRandom();
        }
        assertEquals(m.pending.size(), m.sim.pendingCount());
        m.sim.run();
        assertEquals(0, m.sim.pendingCount());
        assertTrue(m.pending.isEmpty(), "events left pending: " + m.pending.size());
        assertEquals(m.nextSeq - m.cancelled.size(), m.executed.size());
        long lastT = -1;
        long lastSeq = -1;
        for (long seq : m.executed) {
            long[] e = m.bySeq.get(seq);
            assertFalse(m.cancelled.contains(seq));
            boolean ordered = e[0] > lastT || (e[0] == lastT && e[1] > lastSeq);
            assertTrue(ordered, "out of (time, seq) order at seq " + seq + ", time " + e[0]);
            lastT = e[0];
            lastSeq = e[1];
        }
    }

    @Test
    void cancelSemantics() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        EventHandler rec = log::add;
        long a = sim.schedule(10, rec, 1);
        long b = sim.schedule(20, rec, 2);
        assertTrue(sim.isPending(a));
        assertTrue(sim.cancel(a));
        assertFalse(sim.isPending(a));
        assertFalse(sim.cancel(a), "double cancel");
        assertEquals(1, sim.pendingCount());
        sim.run();
        assertEquals(List.of(2L), log);
        assertFalse(sim.isPending(b));
        assertFalse(sim.cancel(b), "already ran");
        assertFalse(sim.cancel(0));
        assertFalse(sim.cancel(-5));
        assertFalse(sim.cancel(Long.MAX_VALUE));
        assertFalse(sim.isPending(12345));
        assertEquals(20, sim.now(), "a cancelled event does not advance the clock");
    }

    @Test
    void runningEventIsNotPendingAndCannotBeCancelled() {
        Simulator sim = new Simulator();
        long[] id = new long[1];
        boolean[] seen = new boolean[2];
        id[0] =
                sim.schedule(
                        5,
                        arg -> {
                            seen[0] = sim.isPending(id[0]);
                            seen[1] = sim.cancel(id[0]);
                        },
                        0);
        sim.run();
        assertFalse(seen[0]);
        assertFalse(seen[1]);
        assertEquals(1, sim.eventsExecuted());
    }

    @Test
    void cancelFromHandlerPreventsLaterEvent() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        long victim = sim.schedule(10, log::add, 99);
        sim.schedule(
                5,
                arg -> {
                    assertEquals(1, sim.pendingCount());
                    assertTrue(sim.cancel(victim));
                    assertEquals(0, sim.pendingCount());
                },
                0);
        sim.run();
        assertEquals(List.of(), log);
        assertEquals(5, sim.now());
    }

    @Test
    void massCancellationKeepsCountsExact() {
        Simulator sim = new Simulator();
        List<Long> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            ids.add(sim.schedule(1000 - (i % 1000), arg -> {}, i));
        }
        int cancelledCount = 0;
        for (int i = 0; i < ids.size(); i++) {
            if (i % 10 != 0) {
                assertTrue(sim.cancel(ids.get(i)));
                cancelledCount++;
            }
        }
        assertEquals(10_000 - cancelledCount, sim.pendingCount());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(i % 10 == 0, sim.isPending(ids.get(i)));
        }
        RunResult r = sim.run();
        assertEquals(1000, r.events());
        assertEquals(0, sim.pendingCount());
    }

    @Test
    void runUntilLeavesClockAtTheBound() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        EventHandler rec = log::add;
        sim.schedule(SimTime.ns(1), rec, 1);
        sim.schedule(SimTime.ns(2), rec, 2);
        sim.schedule(SimTime.ns(3), rec, 3);
        RunResult r = sim.runUntil(SimTime.ns(2));
        assertEquals(StopReason.UNTIL_TIME, r.reason());
        assertEquals(List.of(1L, 2L), log, "events at exactly the bound run");
        assertEquals(SimTime.ns(2), sim.now());
        assertEquals(SimTime.ns(2), r.endTimePs());
        assertEquals(2, r.events());
        assertEquals(1, sim.pendingCount());
        r = sim.runUntil(SimTime.ns(2) + 500);
        assertEquals(StopReason.UNTIL_TIME, r.reason());
        assertEquals(SimTime.ns(2) + 500, sim.now());
        assertEquals(0, r.events());
        r = sim.runUntil(SimTime.us(1));
        assertEquals(StopReason.NO_EVENTS, r.reason());
        assertEquals(SimTime.us(1), sim.now());
        assertEquals(List.of(1L, 2L, 3L), log);
        assertThrows(IllegalArgumentException.class, () -> sim.runUntil(5));
    }

    @Test
    void stopEndsRunAfterCurrentEvent() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        sim.schedule(1, log::add, 1);
        sim.schedule(
                2,
                arg -> {
                    log.add(2L);
                    sim.stop();
                    sim.schedule(0, log::add, 4);
                },
                0);
        sim.schedule(2, log::add, 3);
        RunResult r = sim.run();
        assertEquals(StopReason.STOPPED, r.reason());
        assertEquals(List.of(1L, 2L), log);
        assertEquals(2, sim.now());
        assertEquals(2, sim.pendingCount());
        assertTrue(r.message().contains("stop()"), r.message());
        r = sim.run();
        assertEquals(StopReason.NO_EVENTS, r.reason());
        assertEquals(List.of(1L, 2L, 3L, 4L), log);
    }

    @Test
    void stopOutsideARunHasNoEffect() {
        Simulator sim = new Simulator();
        sim.schedule(1, arg -> {}, 0);
        sim.stop();
        assertEquals(StopReason.NO_EVENTS, sim.run().reason());
    }

    @Test
    void eventLimitEndsRunWithMessage() {
        Simulator sim = new Simulator();
        EventHandler[] tick = new EventHandler[1];
        tick[0] = arg -> sim.schedule(SimTime.NS, tick[0], arg + 1);
        sim.schedule(0, tick[0], 0);
        sim.setMaxEvents(10);
        RunResult r = sim.run();
        assertEquals(StopReason.EVENT_LIMIT, r.reason());
        assertTrue(r.hitLimit());
        assertEquals(10, sim.eventsExecuted());
        assertEquals(10, r.events());
        assertEquals(SimTime.ns(9), sim.now());
        assertEquals(
                "stopped after 10 events (the event limit); raise it with --max-events if the run is not"
                        + " runaway",
                r.message());
        sim.setMaxEvents(15);
        r = sim.run();
        assertEquals(StopReason.EVENT_LIMIT, r.reason());
        assertEquals(5, r.events());
        assertEquals(15, sim.eventsExecuted());
    }

    @Test
    void timeLimitEndsRunWithMessage() {
        Simulator sim = new Simulator();
        EventHandler[] tick = new EventHandler[1];
        tick[0] = arg -> sim.schedule(SimTime.US, tick[0], 0);
        sim.schedule(0, tick[0], 0);
        sim.setMaxTimePs(SimTime.us(5) + 1);
        RunResult r = sim.run();
        assertEquals(StopReason.TIME_LIMIT, r.reason());
        assertTrue(r.hitLimit());
        assertEquals(SimTime.us(5), sim.now(), "the clock stays at the last executed event");
        assertEquals(6, r.events());
        assertTrue(r.message().contains("beyond the time limit"), r.message());
        assertTrue(r.message().contains("--max-time"), r.message());
        assertTrue(r.message().contains("6us"), r.message());
    }

    @Test
    void schedulingInThePastIsRejected() {
        Simulator sim = new Simulator();
        sim.schedule(100, arg -> {}, 0);
        sim.run();
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleAt(99, arg -> {}, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(-1, arg -> {}, 0));
        assertThrows(IllegalArgumentException.class, () -> sim.scheduleAt(99, () -> {}));
        assertThrows(IllegalArgumentException.class, () -> sim.schedule(-1, () -> {}));
        assertThrows(NullPointerException.class, () -> sim.schedule(1, (EventHandler) null, 0));
        sim.scheduleAt(100, arg -> {}, 0); // now is allowed
        assertThrows(IllegalArgumentException.class, () -> sim.setMaxEvents(-1));
        assertThrows(IllegalArgumentException.class, () -> sim.setMaxTimePs(-1));
    }

    @Test
    void runnableConveniences() {
        Simulator sim = new Simulator();
        List<String> log = new ArrayList<>();
        sim.schedule(5, () -> log.add("b@" + sim.now()));
        sim.scheduleAt(2, () -> log.add("a@" + sim.now()));
        long id = sim.schedule(7, () -> log.add("never"));
        assertTrue(sim.cancel(id));
        sim.run();
        assertEquals(List.of("a@2", "b@5"), log);
    }

    @Test
    void runWhileChecksConditionBeforeEachEvent() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            sim.schedule(i, log::add, i);
        }
        RunResult r = sim.runWhile(() -> log.size() < 4);
        assertEquals(StopReason.STOPPED, r.reason());
        assertEquals(4, log.size());
        assertEquals(4, sim.now());
        assertTrue(r.message().contains("condition"), r.message());
        r = sim.runWhile(() -> true);
        assertEquals(StopReason.NO_EVENTS, r.reason());
        assertEquals(10, log.size());
    }

    @Test
    void handlerExceptionsPropagateUnchangedAndSimulatorStaysUsable() {
        Simulator sim = new Simulator();
        IllegalStateException boom = new IllegalStateException("boom");
        List<Long> log = new ArrayList<>();
        sim.schedule(1, arg -> {
            throw boom;
        }, 0);
        sim.schedule(2, log::add, 2);
        IllegalStateException thrown = assertThrows(IllegalStateException.class, sim::run);
        assertSame(boom, thrown);
        assertFalse(sim.isRunning());
        assertEquals(1, sim.pendingCount());
        assertEquals(StopReason.NO_EVENTS, sim.run().reason());
        assertEquals(List.of(2L), log);
    }

    @Test
    void runMethodsAreNotReentrant() {
        Simulator sim = new Simulator();
        Throwable[] caught = new Throwable[1];
        sim.schedule(
                1,
                arg -> {
                    try {
                        sim.run();
                    } catch (IllegalStateException e) {
                        caught[0] = e;
                    }
                },
                0);
        sim.run();
        assertTrue(caught[0] instanceof IllegalStateException);
    }

    @Test
    void nextEventTimeSkipsCancelledEvents() {
        Simulator sim = new Simulator();
        assertEquals(Long.MAX_VALUE, sim.nextEventTimePs());
        long a = sim.schedule(3, arg -> {}, 0);
        sim.schedule(8, arg -> {}, 0);
        assertEquals(3, sim.nextEventTimePs());
        sim.cancel(a);
        assertEquals(8, sim.nextEventTimePs());
    }

    @Test
    void largeRandomWorkloadRunsInOrder() {
        Simulator sim = new Simulator();
        SplittableRandom rnd = new SplittableRandom(7);
        long[] last = {-1};
        long[] count = {0};
        EventHandler[] self = new EventHandler[1];
        self[0] =
                arg -> {
                    assertTrue(sim.now() >= last[0]);
                    last[0] = sim.now();
                    count[0]++;
                    if (count[0] < 300_000) {
                        sim.schedule(rnd.nextLong(1_000_000), self[0], 0);
                    }
                };
        for (int i = 0; i < 100_000; i++) {
            sim.schedule(rnd.nextLong(1_000_000), self[0], 0);
        }
        assertEquals(100_000, sim.pendingCount());
        sim.run();
        assertEquals(100_000 + 300_000 - 1, count[0]);
        assertEquals(count[0], sim.eventsExecuted());
    }

    /** A self-rescheduling handler with a cheap deterministic generator. */
    private static final class Churn implements EventHandler {
        final Simulator sim;
        long x = 0x9E3779B97F4A7C15L;

        Churn(Simulator sim) {
            this.sim = sim;
        }

        @Override
        public void handle(long arg) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            sim.schedule((x >>> 44) & 0xFFFF, this, arg + 1);
        }
    }

    @Test
    void schedulingAndDispatchDoNotAllocate() {
        java.lang.management.ThreadMXBean bean = java.lang.management.ManagementFactory.getThreadMXBean();
        if (!(bean instanceof com.sun.management.ThreadMXBean)) {
            return; // allocation counters unavailable on this JVM
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        if (!mx.isThreadAllocatedMemorySupported() || !mx.isThreadAllocatedMemoryEnabled()) {
            return;
        }
        Simulator sim = new Simulator();
        Churn churn = new Churn(sim);
        for (int i = 0; i < 4096; i++) {
            sim.schedule(i, churn, 0);
        }
        sim.setMaxEvents(200_000);
        sim.run(); // reach steady state: arrays have grown to their final size
        sim.setMaxEvents(1_200_000);
        long before = mx.getCurrentThreadAllocatedBytes();
        RunResult r = sim.run();
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertEquals(1_000_000, r.events());
        // only the RunResult and its message: nothing per event
        assertTrue(allocated < 16_384, "allocated " + allocated + " bytes for 1,000,000 events");
    }
}
