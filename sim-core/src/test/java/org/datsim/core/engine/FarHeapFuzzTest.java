package org.datsim.core.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A randomised differential test of the event list ({@link CalendarQueue}, through its {@link EventList} contract)
 * against a reference ordering, a TreeSet of (time, seq): inserts with delays from 0 to 2^58 ps after the clock (and
 * a few before it: the list is a general priority queue), cancels (also in bursts), isPending, size, peekTime,
 * peek / head* / pollMin in batches with inserts and cancels between polls (as handlers do), and polls up to a time
 * bound that then moves the clock there (as {@code Simulator.runUntil} does), in five profiles (one of them
 * transport ACK timers, far events that are mostly cancelled). Written by the review of the far-heap change against
 * the Simulator; it now drives the event list directly. The default run is short (2 seeds, 150 steps, a few
 * seconds); a soak run is {@code mvn -o test -pl sim-core -Dtest=FarHeapFuzzTest -Dfuzz.seeds=300
 * -Dfuzz.steps=800} (tens of minutes).
 */
class FarHeapFuzzTest {

    static final class Model {
        final TreeSet<long[]> q = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        final HashMap<Long, long[]> bySeq = new HashMap<>();
        final ArrayList<Long> seqs = new ArrayList<>();
        final HashMap<Long, Long> idOf = new HashMap<>();
    }

    final class Run {
        /** The clock: the time of the last event taken, or the bound of the last bounded drain. */
        long clock;

        final CalendarQueue cq = new CalendarQueue(() -> clock);
        final EventList list = cq;
        final Model m = new Model();
        final SplittableRandom rnd;
        final int profile;
        final EventHandler h = arg -> {
            throw new AssertionError("the list never calls handlers");
        };
        final EventHandler other = arg -> {};
        long nextSeq = 1;
        long lastId;
        long taken;

        Run(long seed, int profile) {
            rnd = new SplittableRandom(seed);
            this.profile = profile;
        }

        /** Takes the earliest event, checks it against the model and acts as a handler would. */
        void takeOne(boolean actAfter) {
            EventHandler got = list.peek();
            long[] exp = m.q.pollFirst();
            if (exp == null) {
                if (got != null) throw new AssertionError("peek found an event, the model none");
                return;
            }
            if (got == null) throw new AssertionError("peek found none, expected seq " + exp[1] + " at " + exp[0]);
            long t = list.headTime();
            long seq = list.headArg();
            if (seq != exp[1] || t != exp[0]) {
                throw new AssertionError("order: got seq " + seq + " at " + t + ", expected " + exp[1] + " at " + exp[0]
                        + " after " + taken);
            }
            if (list.headId() != m.idOf.getOrDefault(seq, list.headId())) throw new AssertionError("headId");
            if (got != (seq % 7 == 0 ? other : h)) throw new AssertionError("handler of seq " + seq);
            list.pollMin();
            m.bySeq.remove(seq);
            clock = Math.max(clock, t);
            taken++;
            if (actAfter) {
                int k = rnd.nextInt(profile == 2 ? 4 : 3);
                for (int j = 0; j < k; j++) {
                    act(true);
                }
            }
        }

        long delay() {
            long d = rawDelay();
            long room = (Long.MAX_VALUE - clock) / 4;
            return d > room ? (room > 0 ? rnd.nextLong(room + 1) : 0) : d;
        }

        long rawDelay() {
            if (profile == 4) {
                int c4 = rnd.nextInt(100);
                if (c4 < 50) return rnd.nextLong(100_000);
                if (c4 < 95) return 250_000_000_000L + rnd.nextLong(1_000_000);
                return rnd.nextLong(1L << 50);
            }
            int c = rnd.nextInt(100);
            if (c < 5) return 0;
            if (c < 20) return rnd.nextLong(16);
            if (c < 60) return rnd.nextLong(1_000_000);
            if (c < 80) return 1_000_000_000L + rnd.nextLong(1_000_000_000_000L);
            if (c < 90) return rnd.nextLong(1L << 50);
            if (c < 95) return (1L << 55) + rnd.nextLong(1L << 58);
            return rnd.nextLong(1000) * 1_000_000_000_000L;
        }

        void insert() {
            long seq = nextSeq++;
            // 2% before the clock (the Simulator never does it, the list must still order them)
            long t = rnd.nextInt(50) == 0 && clock > 0 ? rnd.nextLong(clock + 1) : clock + delay();
            long id = list.insert(t, seq % 7 == 0 ? other : h, seq);
            if (id <= lastId) throw new AssertionError("ids must increase: " + id + " after " + lastId);
            lastId = id;
            long[] e = {t, seq};
            m.q.add(e);
            m.bySeq.put(seq, e);
            m.seqs.add(seq);
            m.idOf.put(seq, id);
            if (m.seqs.size() > 30000) {
                for (int i = 0; i < 10000; i++) m.idOf.remove(m.seqs.get(i));
                m.seqs.subList(0, 10000).clear();
            }
        }

        void cancelOne() {
            if (m.seqs.isEmpty()) return;
            long seq = m.seqs.get(rnd.nextInt(m.seqs.size()));
            long id = m.idOf.get(seq);
            long[] e = m.bySeq.remove(seq);
            boolean expect = e != null;
            if (e != null) m.q.remove(e);
            boolean got = list.cancel(id);
            if (got != expect) throw new AssertionError("cancel(" + id + ") returned " + got + " expected " + expect);
        }

        void check() {
            if (list.size() != m.q.size())
                throw new AssertionError("size " + list.size() + " model " + m.q.size());
            if (!m.seqs.isEmpty()) {
                long seq = m.seqs.get(rnd.nextInt(m.seqs.size()));
                if (list.isPending(m.idOf.get(seq)) != m.bySeq.containsKey(seq))
                    throw new AssertionError("isPending mismatch for seq " + seq);
            }
            if (list.isPending(0) || list.isPending(-1) || list.isPending(lastId + 1) || list.cancel(lastId + 1))
                throw new AssertionError("an id never handed out is pending or cancellable");
        }

        void act(boolean inHandler) {
            int c = rnd.nextInt(100);
            int sched = profile == 1 ? 40 : profile == 4 ? 55 : 60;
            if (c < sched) {
                insert();
            } else if (c < 97) {
                int n = (profile == 1 && rnd.nextInt(50) == 0) || (profile == 4 && rnd.nextInt(20) == 0) ? 3000 : 1;
                for (int i = 0; i < n; i++) cancelOne();
            } else {
                check();
            }
            if ((profile == 3 || profile == 4) && !inHandler && rnd.nextInt(200) == 0) {
                int n = 2000 + rnd.nextInt(4000);
                for (int i = 0; i < n; i++) insert();
            }
        }

        void outer() {
            int c = rnd.nextInt(10);
            if (c < 3) {
                int n = 1 + rnd.nextInt(profile == 3 ? 3000 : 200);
                for (int i = 0; i < n; i++) act(false);
            } else if (c < 5) {
                long nt = list.peekTime();
                long exp = m.q.isEmpty() ? Long.MAX_VALUE : m.q.first()[0];
                if (nt != exp) throw new AssertionError("peekTime " + nt + " expected " + exp);
            } else if (c < 7) { // take every event up to a bound, then move the clock there
                long until = clock + delay();
                while (list.peekTime() <= until) {
                    takeOne(true);
                }
                if (!m.q.isEmpty() && m.q.first()[0] <= until) throw new AssertionError("an event due was left");
                clock = Math.max(clock, until);
            } else {
                int n = 1 + rnd.nextInt(5000);
                for (int i = 0; i < n && list.size() > 0; i++) {
                    takeOne(true);
                }
            }
            check();
            if (cq.heldEvents() > 2 * list.size() + 2 * 1024 + 8)
                throw new AssertionError("memory bound: held " + cq.heldEvents() + " pending " + list.size());
        }

        void drain() {
            while (list.size() > 0) {
                takeOne(false);
            }
            if (list.peek() != null || list.peekTime() != Long.MAX_VALUE) throw new AssertionError("not empty");
        }
    }

    @Test
    void fuzz() {
        int seeds = Integer.getInteger("fuzz.seeds", 2);
        int steps = Integer.getInteger("fuzz.steps", 150);
        StringBuilder failures = new StringBuilder();
        int nfail = 0;
        for (int s = 1; s <= seeds; s++) {
            for (int p = Integer.getInteger("fuzz.p0", 0); p < 5; p++) {
                Run r = new Run(s * 31L + p, p);
                try {
                    for (int i = 0; i < steps; i++) {
                        r.outer();
                        if (r.m.q.size() > 60_000) {
                            r.drain();
                        }
                    }
                    r.drain();
                    if (!r.m.q.isEmpty()) throw new AssertionError("model not empty after drain: " + r.m.q.size());
                } catch (Throwable t) {
                    nfail++;
                    if (nfail < 10) failures.append("seed ").append(s).append(" profile ").append(p).append(": ")
                            .append(t).append('\n');
                }
            }
        }
        if (nfail > 0) throw new AssertionError(nfail + " failures\n" + failures);
    }
}
