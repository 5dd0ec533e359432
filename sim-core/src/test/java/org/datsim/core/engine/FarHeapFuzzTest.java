package org.datsim.core.engine;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A randomised differential test of the event list against a TreeSet of (time, seq): schedules with delays from 0 to
 * 2^58 ps, cancels (also in bursts), isPending, pendingCount, runUntil, nextEventTimePs and event-limited runs, in
 * five profiles (one of them transport ACK timers, far events that are mostly cancelled). Written by the review of
 * the far-heap change. The default run is short (2 seeds, 150 steps, a few seconds); the soak run the review made is
 * {@code mvn -o test -pl sim-core -Dtest=FarHeapFuzzTest -Dfuzz.seeds=300 -Dfuzz.steps=800} (tens of minutes).
 */
class FarHeapFuzzTest {

    static final class Model {
        final TreeSet<long[]> q = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        final HashMap<Long, long[]> bySeq = new HashMap<>();
        final ArrayList<Long> seqs = new ArrayList<>();
        final HashMap<Long, Long> idOf = new HashMap<>();
    }

    final class Run {
        final Simulator sim = new Simulator();
        final Model m = new Model();
        final SplittableRandom rnd;
        final int profile;
        long nextSeq = 1;
        long dispatched;
        boolean draining;
        String fail;

        Run(long seed, int profile) {
            rnd = new SplittableRandom(seed);
            this.profile = profile;
        }

        final EventHandler h = this::handle;

        void handle(long arg) {
            long[] exp = m.q.pollFirst();
            if (exp == null || exp[1] != arg || exp[0] != sim.now()) {
                throw new AssertionError("order: got seq " + arg + " at " + sim.now() + ", expected "
                        + (exp == null ? "none" : exp[1] + " at " + exp[0]) + " after " + dispatched);
            }
            m.bySeq.remove(arg);
            dispatched++;
            int k = draining ? 0 : rnd.nextInt(profile == 2 ? 4 : 3);
            for (int j = 0; j < k; j++) {
                act(true);
            }
        }

        long delay() {
            long d = rawDelay();
            long room = (Long.MAX_VALUE - sim.now()) / 4;
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

        void schedule() {
            long d = delay();
                        long seq = nextSeq++;
            long t = sim.now() + d;
            long id = rnd.nextBoolean() ? sim.schedule(d, h, seq) : sim.scheduleAt(t, h, seq);
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
            boolean got = sim.cancel(id);
            if (got != expect) throw new AssertionError("cancel(" + id + ") returned " + got + " expected " + expect);
        }

        void check() {
            if (sim.pendingCount() != m.q.size())
                throw new AssertionError("pendingCount " + sim.pendingCount() + " model " + m.q.size());
            if (!m.seqs.isEmpty()) {
                long seq = m.seqs.get(rnd.nextInt(m.seqs.size()));
                if (sim.isPending(m.idOf.get(seq)) != m.bySeq.containsKey(seq))
                    throw new AssertionError("isPending mismatch for seq " + seq);
            }
        }

        void act(boolean inHandler) {
            int c = rnd.nextInt(100);
            int sched = profile == 1 ? 40 : profile == 4 ? 55 : 60;
            if (c < sched) {
                schedule();
            } else if (c < 97) {
                int n = (profile == 1 && rnd.nextInt(50) == 0) || (profile == 4 && rnd.nextInt(20) == 0) ? 3000 : 1;
                for (int i = 0; i < n; i++) cancelOne();
            } else {
                check();
            }
            if ((profile == 3 || profile == 4) && !inHandler && rnd.nextInt(200) == 0) {
                int n = 2000 + rnd.nextInt(4000);
                for (int i = 0; i < n; i++) schedule();
            }
        }

        void outer() {
            int c = rnd.nextInt(10);
            if (c < 3) {
                int n = 1 + rnd.nextInt(profile == 3 ? 3000 : 200);
                for (int i = 0; i < n; i++) act(false);
            } else if (c < 5) {
                long nt = sim.nextEventTimePs();
                long exp = m.q.isEmpty() ? Long.MAX_VALUE : m.q.first()[0];
                if (nt != exp) throw new AssertionError("nextEventTimePs " + nt + " expected " + exp);
            } else if (c < 7) {
                long span = delay();
                                long until = sim.now() + span;
                sim.setMaxEvents(Long.MAX_VALUE);
                RunResult r = sim.runUntil(until);
                if (!m.q.isEmpty() && m.q.first()[0] <= until) throw new AssertionError("runUntil left an event due");
                if (sim.now() != until) throw new AssertionError("now after runUntil");
            } else {
                sim.setMaxEvents(sim.eventsExecuted() + 1 + rnd.nextInt(5000));
                sim.run();
                sim.setMaxEvents(Long.MAX_VALUE);
            }
            check();
            if (sim.heldEvents() > 2 * sim.pendingCount() + 2 * 1024 + 8)
                throw new AssertionError("memory bound: held " + sim.heldEvents() + " pending " + sim.pendingCount());
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
                        if (r.m.q.size() > 60_000) { // drain
                            r.draining = true;
                            r.sim.run();
                            r.draining = false;
                        }
                    }
                    r.draining = true;
                    r.sim.run();
                    if (!r.m.q.isEmpty()) throw new AssertionError("model not empty after run: " + r.m.q.size());
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
