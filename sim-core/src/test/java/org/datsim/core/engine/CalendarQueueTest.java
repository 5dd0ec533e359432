package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Edge cases of the calendar-queue event list behind {@link Simulator}. */
class CalendarQueueTest {

    /**
     * Schedules events whose argument is their scheduling sequence number and records (time, seq)
     * of each executed event; {@link #check()} verifies that exactly the non-cancelled events ran,
     * in (time, seq) order.
     */
    private static class Recorder implements EventHandler {
        final Simulator sim = new Simulator();
        final List<Long> times = new ArrayList<>(); // time of each seq
        final List<Long> ids = new ArrayList<>(); // id of each seq
        final Set<Long> cancelledSeqs = new HashSet<>();
        final List<long[]> executed = new ArrayList<>(); // {time, seq}

        long add(long time) {
            long seq = times.size();
            times.add(time);
            long id = sim.scheduleAt(time, this, seq);
            ids.add(id);
            return seq;
        }

        boolean cancel(long seq) {
            boolean ok = sim.cancel(ids.get((int) seq));
            if (ok) {
                cancelledSeqs.add(seq);
            }
            return ok;
        }

        @Override
        public void handle(long seq) {
            assertEquals((long) times.get((int) seq), sim.now(), "event ran at the wrong time");
            executed.add(new long[] {sim.now(), seq});
        }

        void check() {
            assertEquals(times.size() - cancelledSeqs.size(), executed.size(), "executed count");
            Set<Long> seen = new HashSet<>();
            long lastT = Long.MIN_VALUE;
            long lastSeq = -1;
            for (long[] e : executed) {
                assertTrue(seen.add(e[1]), "ran twice: " + e[1]);
                assertFalse(cancelledSeqs.contains(e[1]), "ran a cancelled event: " + e[1]);
                assertTrue(
                        e[0] > lastT || (e[0] == lastT && e[1] > lastSeq),
                        "out of (time, seq) order: seq " + e[1] + " at " + e[0] + " after seq " + lastSeq
                                + " at " + lastT);
                lastT = e[0];
                lastSeq = e[1];
            }
            assertEquals(0, sim.pendingCount());
        }
    }

    @Test
    void manyEventsAtTheSameTimeRunFifo() {
        Recorder r = new Recorder();
        for (int i = 0; i < 50_000; i++) {
            r.add(1_000);
        }
        for (int i = 0; i < 1_000; i++) { // a few neighbours on both sides
            r.add(999);
            r.add(1_001);
        }
        r.sim.run();
        r.check();
        assertEquals(52_000, r.executed.size());
        for (int i = 1_000; i < 51_000; i++) {
            assertEquals(1_000, r.executed.get(i)[0]);
        }
    }

    @Test
    void sameTimeEventsScheduledByHandlersRunAfterQueuedOnes() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        EventHandler[] h = new EventHandler[1];
        h[0] =
                arg -> {
                    log.add(arg);
                    if (arg < 10_000) {
                        sim.schedule(0, h[0], arg + 10_000); // same time, behind everything queued for now
                    }
                };
        for (long i = 0; i < 10_000; i++) {
            sim.scheduleAt(77, h[0], i);
        }
        sim.run();
        assertEquals(20_000, log.size());
        for (int i = 0; i < 20_000; i++) {
            assertEquals(i, (long) log.get(i));
        }
        assertEquals(77, sim.now());
    }

    @Test
    void hugeAndTinyTimeGapsMix() {
        Recorder r = new Recorder();
        long big = 1L << 60;
        for (int i = 0; i < 2_000; i++) {
            r.add(i); // 1 ps apart
        }
        for (int k = 1; k <= 3; k++) {
            for (int i = 0; i < 500; i++) {
                r.add(k * big + i); // dense clusters 2^60 ps apart
            }
        }
        r.add((1L << 62) + 5);
        r.add(1L << 62);
        r.add(Long.MAX_VALUE);
        r.add(Long.MAX_VALUE - 1);
        r.add(big - 1);
        r.sim.run();
        r.check();
        assertEquals(Long.MAX_VALUE, r.sim.now());
    }

    @Test
    void hugeGapsWhileRunning() {
        Simulator sim = new Simulator();
        SplittableRandom rnd = new SplittableRandom(11);
        long[] last = {-1};
        long[] count = {0};
        EventHandler[] h = new EventHandler[1];
        h[0] =
                arg -> {
                    assertTrue(sim.now() >= last[0]);
                    last[0] = sim.now();
                    if (++count[0] < 20_000) {
                        long delay = rnd.nextInt(50) == 0 ? (1L << 50) + rnd.nextInt(3) : rnd.nextInt(3);
                        sim.schedule(delay, h[0], 0);
                    }
                };
        for (int i = 0; i < 300; i++) {
            sim.schedule(rnd.nextInt(1_000), h[0], 0);
        }
        sim.run();
        assertEquals(20_000 + 300 - 1, count[0]);
    }

    @Test
    void resizesUpAndDownKeepOrder() {
        SplittableRandom rnd = new SplittableRandom(3);
        Recorder r =
                new Recorder() {
                    @Override
                    public void handle(long seq) {
                        super.handle(seq);
                        // phase by phase: grow to ~100k, shrink to a handful, grow again
                        long n = executed.size();
                        boolean growing = (n / 40_000) % 2 == 0;
                        int k = growing ? 2 + (rnd.nextInt(4) == 0 ? 1 : 0) : (rnd.nextInt(3) == 0 ? 1 : 0);
                        if (times.size() > 400_000) {
                            k = 0;
                        }
                        for (int j = 0; j < k; j++) {
                            add(sim.now() + rnd.nextLong(1_000_000_000L));
                        }
                    }
                };
        for (int i = 0; i < 100; i++) {
            r.add(rnd.nextLong(1_000_000_000L));
        }
        int maxPending = 0;
        int minPendingAfterPeak = Integer.MAX_VALUE;
        while (r.sim.pendingCount() > 0) {
            r.sim.setMaxEvents(r.sim.eventsExecuted() + 1_000);
            r.sim.run();
            maxPending = Math.max(maxPending, r.sim.pendingCount());
            if (maxPending > 20_000) {
                minPendingAfterPeak = Math.min(minPendingAfterPeak, r.sim.pendingCount());
            }
        }
        r.check();
        assertTrue(maxPending > 20_000, "grew to " + maxPending);
        assertTrue(minPendingAfterPeak < 5_000, "shrank to " + minPendingAfterPeak);
    }

    @Test
    void cancelInEveryPosition() {
        SplittableRandom rnd = new SplittableRandom(5);
        int n = 300;
        long[] times = new long[n];
        for (int i = 0; i < n; i++) {
            // duplicates, dense and sparse times, some far in the future (later calendar years)
            times[i] =
                    switch (i % 4) {
                        case 0 -> rnd.nextLong(100);
                        case 1 -> 50;
                        case 2 -> rnd.nextLong(1_000_000);
                        default -> rnd.nextLong(1L << 40);
                    };
        }
        for (int victim = 0; victim < n; victim++) {
            for (int phase = 0; phase < 2; phase++) {
                Recorder r = new Recorder();
                for (long t : times) {
                    r.add(t);
                }
                if (phase == 1) {
                    r.sim.runUntil(50); // partway: the current bucket has been sorted out of the calendar
                }
                boolean ran = times[victim] <= 50 && phase == 1;
                assertEquals(!ran, r.cancel(victim));
                assertFalse(r.cancel(victim), "double cancel");
                assertEquals(n - r.executed.size() - (ran ? 0 : 1), r.sim.pendingCount());
                r.sim.run();
                r.check();
            }
        }
    }

    @Test
    void cancelEverythingThenReuse() {
        Recorder r = new Recorder();
        for (int i = 0; i < 5_000; i++) {
            r.add(i * 7L);
        }
        for (int i = 0; i < 5_000; i++) {
            assertTrue(r.cancel(i));
        }
        assertEquals(0, r.sim.pendingCount());
        assertEquals(Long.MAX_VALUE, r.sim.nextEventTimePs());
        for (int i = 0; i < 100; i++) {
            r.add(40_000 + i);
        }
        r.sim.run();
        r.check();
        assertEquals(100, r.executed.size());
    }

    @Test
    void runUntilWithEventsBeyondTheBound() {
        Recorder r = new Recorder();
        SplittableRandom rnd = new SplittableRandom(9);
        for (int i = 0; i < 20_000; i++) {
            r.add(rnd.nextLong(1L << 45));
        }
        r.add(1L << 61);
        long bound = 0;
        while (r.sim.pendingCount() > 1) {
            bound += 1L << 38;
            int before = r.executed.size();
            RunResult res = r.sim.runUntil(bound);
            assertEquals(StopReason.UNTIL_TIME, res.reason());
            assertEquals(bound, r.sim.now());
            for (int i = before; i < r.executed.size(); i++) {
                assertTrue(r.executed.get(i)[0] <= bound);
            }
            assertTrue(r.sim.nextEventTimePs() > bound);
            // an event between the bound and the next pending event runs first
            long next = r.sim.nextEventTimePs();
            if (next > bound + 1) {
                long seq = r.add(bound + 1);
                assertEquals(bound + 1, r.sim.nextEventTimePs());
                r.sim.runUntil(bound + 1);
                assertEquals(seq, r.executed.get(r.executed.size() - 1)[1]);
                bound++;
            }
        }
        RunResult res = r.sim.runUntil(Long.MAX_VALUE - 1);
        assertEquals(StopReason.NO_EVENTS, res.reason());
        r.check();
    }

    @Test
    void schedulingBeforeAPeekedEventRunsItFirst() {
        Simulator sim = new Simulator();
        List<Long> log = new ArrayList<>();
        EventHandler rec = log::add;
        sim.scheduleAt(1_000_000, rec, 3);
        for (int i = 0; i < 100; i++) {
            sim.scheduleAt(5_000_000 + i, rec, 100 + i);
        }
        assertEquals(1_000_000, sim.nextEventTimePs()); // the calendar advances to that bucket
        sim.scheduleAt(999_999, rec, 2);
        sim.scheduleAt(10, rec, 1);
        sim.scheduleAt(1_000_000, rec, 4);
        assertEquals(10, sim.nextEventTimePs());
        sim.runUntil(1_000_000);
        assertEquals(List.of(1L, 2L, 3L, 4L), log);
        sim.run();
        assertEquals(104, log.size());
    }

    @Test
    void matchesOrderUnderVariedDistributions() {
        for (long seed = 1; seed <= 15; seed++) {
            SplittableRandom rnd = new SplittableRandom(seed);
            int kind = (int) (seed % 5);
            Recorder r =
                    new Recorder() {
                        @Override
                        public void handle(long seq) {
                            super.handle(seq);
                            int k = rnd.nextInt(3);
                            for (int j = 0; j < k && times.size() < 40_000; j++) {
                                add(sim.now() + delay(rnd, kind));
                            }
                            if (rnd.nextInt(4) == 0) {
                                long victim = rnd.nextLong(times.size());
                                boolean wasPending = sim.isPending(ids.get((int) victim));
                                assertEquals(wasPending, cancel(victim));
                            }
                        }
                    };
            for (int i = 0; i < 10_000; i++) {
                r.add(delay(rnd, kind));
            }
            for (int i = 0; i < 3_000; i++) {
                r.cancel(rnd.nextLong(r.times.size()));
            }
            r.sim.run();
            r.check();
        }
    }

    /**
     * Transport ACK timers: every operation sets a timer a quarter of a second ahead (a far event) and cancels it
     * when it completes, while the near population grows and shrinks (rebuilds). The far heap outlives rebuilds;
     * the order must hold, and cancelled far timers must not make the queue hold more than about twice the pending
     * events.
     */
    @Test
    void ackTimersCancelledAcrossRebuildsKeepOrderAndBoundMemory() {
        SplittableRandom rnd = new SplittableRandom(11);
        long[] timerOf = new long[400_000]; // operation seq -> its timer's seq + 1 (0: none)
        int[] maxExcess = {0};
        int[] maxFar = {0};
        int[] cancels = {0};
        Recorder r =
                new Recorder() {
                    @Override
                    public void handle(long seq) {
                        super.handle(seq);
                        if (timerOf[(int) seq] == 0) {
                            return; // a timer that fired, or an initial event
                        }
                        if (cancel(timerOf[(int) seq] - 1)) { // the operation completed: its timer stops
                            cancels[0]++;
                        }
                        long n = executed.size();
                        boolean growing = (n / 30_000) % 2 == 0;
                        int k = growing ? 2 : (rnd.nextInt(2) == 0 ? 1 : 0);
                        for (int j = 0; j < k && times.size() < 300_000; j++) {
                            long op = add(sim.now() + 1 + rnd.nextLong(50_000));
                            timerOf[(int) op] = add(sim.now() + 250_000_000_000L + rnd.nextLong(1_000_000)) + 1;
                        }
                        maxExcess[0] = Math.max(maxExcess[0], sim.eventList().heldEvents() - 2 * sim.pendingCount());
                        maxFar[0] = Math.max(maxFar[0], sim.eventList().farEvents());
                    }
                };
        for (int i = 0; i < 200; i++) {
            long op = r.add(rnd.nextLong(10_000));
            timerOf[(int) op] = r.add(250_000_000_000L + rnd.nextLong(1_000_000)) + 1;
        }
        r.sim.run();
        r.check();
        assertTrue(cancels[0] > 100_000, "timers cancelled: " + cancels[0]);
        assertTrue(maxFar[0] > 10_000, "the timers went to the far heap: at most " + maxFar[0]);
        assertTrue(maxExcess[0] <= 2 * 1024, "held events beyond twice the pending ones: " + maxExcess[0]);
    }

    private static long delay(SplittableRandom rnd, int kind) {
        switch (kind) {
            case 0: // exponential, mean 1 s
                return (long) (-1e12 * Math.log(1.0 - rnd.nextDouble()));
            case 1: // bimodal: near and very far
                return rnd.nextInt(10) == 0 ? (1L << 40) + rnd.nextLong(1L << 20) : rnd.nextLong(1_000);
            case 2: // coarse ticks with many ties
                return 1_000L * rnd.nextInt(20);
            case 4: // nanosecond steps among timers a quarter of a second away (far events: the far heap)
                return rnd.nextInt(4) == 0 ? 250_000_000_000L + rnd.nextLong(1L << 30) : rnd.nextLong(5_000);
            default: // log-uniform over 1 ps .. 2^50 ps
                return rnd.nextLong(1L << rnd.nextInt(51)) + (rnd.nextBoolean() ? 0 : 1);
        }
    }

    /** Alternates between short and long delays so that the calendar re-estimates its width. */
    private static final class Drift implements EventHandler {
        final Simulator sim;
        long x = 0x9E3779B97F4A7C15L;
        long count;

        Drift(Simulator sim) {
            this.sim = sim;
        }

        @Override
        public void handle(long arg) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            boolean phaseLong = (++count / 50_000) % 2 == 1;
            long d = (x >>> 44) & 0xFFFF;
            sim.schedule(phaseLong ? d << 20 : d, this, arg + 1);
        }
    }

    @Test
    void widthReestimationDoesNotAllocateInSteadyState() {
        java.lang.management.ThreadMXBean bean =
                java.lang.management.ManagementFactory.getThreadMXBean();
        if (!(bean instanceof com.sun.management.ThreadMXBean)) {
            return;
        }
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) bean;
        if (!mx.isThreadAllocatedMemorySupported() || !mx.isThreadAllocatedMemoryEnabled()) {
            return;
        }
        Simulator sim = new Simulator();
        Drift drift = new Drift(sim);
        for (int i = 0; i < 4096; i++) {
            sim.schedule(i, drift, 0);
        }
        sim.setMaxEvents(400_000);
        sim.run(); // several phase changes: arrays reach their final sizes
        sim.setMaxEvents(1_400_000);
        long before = mx.getCurrentThreadAllocatedBytes();
        RunResult r = sim.run();
        long allocated = mx.getCurrentThreadAllocatedBytes() - before;
        assertEquals(1_000_000, r.events());
        assertTrue(allocated < 16_384, "allocated " + allocated + " bytes for 1,000,000 events");
    }

    /**
     * A freed slot is reused by the next insertion (the free slots are a stack), under a new id: the old id no longer
     * names a pending event, cancelling it does nothing, and ids still increase with insertion order.
     */
    @Test
    void aReusedSlotGivesANewIdAndTheOldIdIsDead() {
        CalendarQueue q = new CalendarQueue(() -> 0);
        EventHandler h = a -> { };
        long a = q.insert(10, h, 1);
        long b = q.insert(20, h, 2);
        assertTrue(b > a);
        q.peek();
        assertEquals(a, q.headId());
        q.pollMin(); // a's slot stays taken until the next pollMin
        long c = q.insert(30, h, 3);
        assertTrue(c > b);
        assertTrue(q.isPending(b) && q.isPending(c));
        q.peek();
        q.pollMin(); // takes b; frees a's slot
        long d = q.insert(40, h, 4); // takes the slot freed last: a's
        assertTrue(d > c);
        assertEquals(a & ((1 << 26) - 1), d & ((1 << 26) - 1), "the slot freed last is reused");
        assertFalse(q.isPending(a));
        assertFalse(q.cancel(a), "a dead id sharing a slot with a pending event cancels nothing");
        assertTrue(q.isPending(d));
        assertFalse(q.isPending(d + (1L << 26)), "an id not handed out yet");
        assertTrue(q.cancel(d));
        assertFalse(q.cancel(d));
        q.peek();
        assertEquals(c, q.headId());
        assertEquals(3, q.headArg());
    }

    /**
     * A symmetric fabric: a thousand hosts doing the same thing at the same instants, so each distinct time holds a
     * thousand events. The width estimate counts gaps per event, so a bucket spans a fraction of the gap between
     * instants and holds one instant's events; with a width of several instants (the estimate per distinct time),
     * the events scheduled by a batch land in its middle and each shifts the later entries of the sorted bottom.
     */
    @Test
    void manyEventsPerInstantGetBucketsNarrowerThanTheGapBetweenInstants() {
        Recorder r = new Recorder();
        long gap = 1_000_000; // 1 us between instants
        for (int instant = 1; instant <= 100; instant++) {
            for (int host = 0; host < 1000; host++) {
                r.add(instant * gap);
            }
        }
        long width = r.sim.eventList().bucketWidthPs();
        assertTrue(width < gap, "bucket width " + width + " ps is not below the gap between instants, " + gap + " ps");
        r.sim.run();
        r.check();
    }
}
