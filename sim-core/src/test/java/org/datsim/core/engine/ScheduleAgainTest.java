package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * {@link Simulator#scheduleAgainAt}: a chain of occurrences, each scheduling the next, runs exactly as if all had
 * been scheduled at once when the first was. Differential: the same random model (times on a coarse grid, so that
 * many events tie; chains started before and during the run; far-future events and cancels) is run both ways and
 * must execute the same events in the same order.
 */
class ScheduleAgainTest {

    /** One run of the random model; {@code chained} selects how chains are scheduled. */
    static final class Model {
        final Simulator sim = new Simulator();
        final SplittableRandom rnd;
        final boolean chained;
        final List<String> log = new ArrayList<>();
        final List<long[]> chains = new ArrayList<>();
        final List<Long> cancellable = new ArrayList<>();
        int budget;

        Model(long seed, boolean chained, int budget) {
            this.rnd = new SplittableRandom(seed);
            this.chained = chained;
            this.budget = budget;
        }

        long gap() {
            int c = rnd.nextInt(100);
            if (c < 30) {
                return 0;
            }
            if (c < 90) {
                return 10 * rnd.nextLong(8);
            }
            if (c < 97) {
                return 10 * rnd.nextLong(100_000);
            }
            return 10 * rnd.nextLong(1_000_000_000L); // far ahead
        }

        final EventHandler background = this::onBackground;
        final EventHandler link = this::onLink;

        void onBackground(long arg) {
            log.add("b" + arg + "@" + sim.now());
            act();
        }

        void onLink(long arg) {
            long[] c = chains.get((int) (arg >>> 20));
            int i = (int) (arg & 0xfffff);
            log.add("c" + (arg >>> 20) + "." + i + "@" + sim.now());
            if (chained && i + 1 < c.length) {
                sim.scheduleAgainAt(c[i + 1], this.link, arg + 1);
            }
            if (rnd.nextInt(4) == 0) {
                act();
            }
        }

        void act() {
            int k = rnd.nextInt(3);
            for (int j = 0; j < k && budget > 0; j++, budget--) {
                int what = rnd.nextInt(10);
                if (what < 6) {
                    long id = sim.schedule(gap(), background, budget);
                    if (rnd.nextInt(5) == 0) {
                        cancellable.add(id);
                    }
                } else if (what < 8) {
                    startChain();
                } else if (!cancellable.isEmpty()) {
                    sim.cancel(cancellable.remove(rnd.nextInt(cancellable.size())));
                }
            }
        }

        void startChain() {
            int n = 1 + rnd.nextInt(rnd.nextInt(10) == 0 ? 3000 : 30);
            long[] times = new long[n];
            long t = sim.now();
            for (int i = 0; i < n; i++) {
                t += rnd.nextInt(3) == 0 ? 0 : gap() % 10_000;
                times[i] = t;
            }
            int c = chains.size();
            chains.add(times);
            for (int i = 0; i < (chained ? 1 : n); i++) {
                sim.scheduleAt(times[i], link, ((long) c << 20) | i);
            }
        }

        List<String> run() {
            for (int i = 0; i < 20; i++) {
                startChain();
                sim.schedule(gap(), background, -i);
            }
            sim.run();
            return log;
        }
    }

    @Test
    void aChainRunsExactlyAsItsOccurrencesScheduledAtOnce() {
        for (long seed = 1; seed <= 12; seed++) {
            List<String> upFront = new Model(seed, false, 8_000).run();
            List<String> chained = new Model(seed, true, 8_000).run();
            assertTrue(upFront.size() > 1000, "seed " + seed + ": " + upFront.size());
            assertEquals(upFront, chained, "seed " + seed);
        }
    }

    @Test
    void theExecutingEventIsNotPendingUntilScheduledAgainAndOnlyOnce() {
        Simulator sim = new Simulator();
        long[] seen = new long[4];
        EventHandler[] h = new EventHandler[1];
        h[0] = arg -> {
            long id = seen[0];
            assertFalse(sim.isPending(id));
            assertFalse(sim.cancel(id));
            seen[(int) arg] = sim.scheduleAgainAt(sim.now() + 5, h[0], arg + 1);
            assertTrue(sim.isPending(id));
            assertThrows(IllegalStateException.class, () -> sim.scheduleAgainAt(sim.now() + 7, h[0], 9));
            if (arg == 2) {
                assertTrue(sim.cancel(id));
            }
        };
        seen[0] = sim.schedule(10, h[0], 1);
        sim.run();
        assertEquals(seen[0], seen[1]);
        assertEquals(seen[0], seen[2]);
        assertEquals(15, sim.now()); // the third occurrence was cancelled
        assertThrows(IllegalStateException.class, () -> sim.scheduleAgainAt(30, h[0], 1));
    }
}
