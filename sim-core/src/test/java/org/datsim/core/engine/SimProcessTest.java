package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.random.RandomStreams;
import org.junit.jupiter.api.Test;

class SimProcessTest {

    /** Sleeps a fixed list of delays, recording the time of every resume, then finishes. */
    static final class Sleeper extends SimProcess {
        final long[] delays;
        final List<Long> resumes = new ArrayList<>();
        int step;

        Sleeper(Simulator sim, String name, long... delays) {
            super(sim, name);
            this.delays = delays;
        }

        @Override
        protected void resume() {
            resumes.add(sim().now());
            if (step == delays.length) {
                finish();
                return;
            }
            wakeAfter(delays[step++]);
        }
    }

    @Test
    void sleepsInSimulatedTimeAndFinishes() {
        Simulator sim = new Simulator();
        Sleeper p = new Sleeper(sim, "p", 10, 5, 0, 20);
        p.start(100);
        assertFalse(p.isFinished());
        sim.run();
        assertEquals(List.of(100L, 110L, 115L, 115L, 135L), p.resumes);
        assertTrue(p.isFinished());
        assertEquals("p", p.name());
        assertEquals(135, sim.now());
    }

    /** Waits until a counter reaches a target; woken by producers. */
    static final class Waiter extends SimProcess {
        int available;
        int resumes;
        int consumed;

        Waiter(Simulator sim) {
            super(sim, "waiter");
        }

        @Override
        protected void resume() {
            resumes++;
            while (available > 0) {
                available--;
                consumed++;
            }
            if (consumed >= 3) {
                finish();
            }
        }
    }

    @Test
    void wakeIsIdempotentWithinAnInstant() {
        Simulator sim = new Simulator();
        Waiter w = new Waiter(sim);
        w.start(0);
        sim.schedule(
                10,
                arg -> {
                    w.available += 2;
                    w.wake();
                    w.wake();
                    w.wake();
                },
                0);
        sim.run();
        assertEquals(2, w.resumes, "start plus one resume for three wake() calls");
        assertEquals(2, w.consumed);
        // a later wake at another instant resumes again
        sim.schedule(
                5,
                arg -> {
                    w.available++;
                    w.wake();
                },
                0);
        sim.run();
        assertEquals(3, w.resumes);
        assertTrue(w.isFinished());
    }

    @Test
    void wakeRunsAfterEventsAlreadyScheduledForNow() {
        Simulator sim = new Simulator();
        List<String> log = new ArrayList<>();
        SimProcess p =
                new SimProcess(sim, "p") {
                    @Override
                    protected void resume() {
                        log.add("resume@" + sim().now());
                    }
                };
        sim.schedule(
                7,
                arg -> {
                    p.wake();
                    log.add("first");
                },
                0);
        sim.schedule(7, arg -> log.add("second"), 0);
        sim.run();
        assertEquals(List.of("first", "second", "resume@7"), log);
    }

    @Test
    void noResumeAfterFinish() {
        Simulator sim = new Simulator();
        int[] resumes = {0};
        SimProcess p =
                new SimProcess(sim, "p") {
                    @Override
                    protected void resume() {
                        resumes[0]++;
                        wakeAfter(50); // a timer left pending when finishing
                        wakeAfter(60);
                        finish();
                    }
                };
        p.start(1);
        sim.schedule(10, arg -> p.wake(), 0);
        sim.run();
        assertEquals(1, resumes[0]);
        assertTrue(p.isFinished());
        p.wake();
        sim.run();
        assertEquals(1, resumes[0]);
        assertThrows(IllegalStateException.class, () -> p.start(sim.now()));
    }

    /** A process that counts resumes and can be finished from outside. */
    static final class Stoppable extends SimProcess {
        int resumes;

        Stoppable(Simulator sim) {
            super(sim, "stoppable");
        }

        @Override
        protected void resume() {
            resumes++;
        }

        void stopNow() {
            finish();
        }
    }

    @Test
    void finishCancelsPendingWake() {
        Simulator sim = new Simulator();
        Stoppable p = new Stoppable(sim);
        sim.schedule(5, arg -> p.wake(), 0);
        sim.schedule(5, arg -> p.stopNow(), 0);
        sim.run();
        assertEquals(0, p.resumes);
        assertEquals(0, sim.pendingCount());
        assertTrue(p.isFinished());
    }

    @Test
    void startTwiceIsRejected() {
        Simulator sim = new Simulator();
        Sleeper p = new Sleeper(sim, "p");
        p.start(0);
        assertThrows(IllegalStateException.class, () -> p.start(1));
    }

    /** A timer and a wake-up race; the process re-checks its condition and cancels the timer. */
    static final class TimeoutWaiter extends SimProcess {
        boolean ready;
        long timer;
        String outcome;
        int resumes;
        final long timeout;

        TimeoutWaiter(Simulator sim, long timeout) {
            super(sim, "tw");
            this.timeout = timeout;
        }

        @Override
        protected void resume() {
            resumes++;
            if (ready) {
                cancelWake(timer);
                outcome = "ready@" + sim().now();
                finish();
            } else if (timer == 0) {
                timer = wakeAfter(timeout);
            } else if (sim().now() >= timeout) {
                outcome = "timeout@" + sim().now();
                finish();
            }
        }
    }

    @Test
    void timerAndWakeBothResumeAndTimerCanBeCancelled() {
        Simulator sim = new Simulator();
        TimeoutWaiter w = new TimeoutWaiter(sim, 100);
        w.start(0);
        sim.schedule(
                40,
                arg -> {
                    w.ready = true;
                    w.wake();
                },
                0);
        sim.run();
        assertEquals("ready@40", w.outcome);
        assertEquals(2, w.resumes);
        assertEquals(40, sim.now(), "the cancelled timer never ran");

        Simulator sim2 = new Simulator();
        TimeoutWaiter w2 = new TimeoutWaiter(sim2, 100);
        w2.start(0);
        sim2.run();
        assertEquals("timeout@100", w2.outcome);
    }

    /** Sleeps a random number of random intervals drawn from its own stream, then finishes. */
    static final class RandomSleeper extends SimProcess {
        final RandomGenerator rng;
        final List<String> finished;
        int remaining;

        RandomSleeper(Simulator sim, int i, RandomStreams streams, List<String> finished) {
            super(sim, "p" + i);
            this.rng = streams.stream("proc." + i);
            this.finished = finished;
            this.remaining = 1 + rng.nextInt(10);
        }

        @Override
        protected void resume() {
            if (remaining-- == 0) {
                finished.add(name() + "@" + sim().now());
                finish();
                return;
            }
            wakeAfter(rng.nextInt(1000) * 1000L);
        }
    }

    private static List<String> runTenThousand(long seed) {
        Simulator sim = new Simulator();
        RandomStreams streams = new RandomStreams(seed);
        List<String> finished = new ArrayList<>();
        List<RandomSleeper> procs = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) {
            RandomSleeper p = new RandomSleeper(sim, i, streams, finished);
            procs.add(p);
            p.start(i % 7);
        }
        RunResult r = sim.run();
        assertEquals(StopReason.NO_EVENTS, r.reason());
        for (RandomSleeper p : procs) {
            assertTrue(p.isFinished());
        }
        return finished;
    }

    @Test
    void tenThousandProcessesFinishDeterministically() {
        List<String> a = runTenThousand(42);
        List<String> b = runTenThousand(42);
        assertEquals(10_000, a.size());
        assertEquals(a, b);
        assertFalse(a.equals(runTenThousand(43)));
    }
}
