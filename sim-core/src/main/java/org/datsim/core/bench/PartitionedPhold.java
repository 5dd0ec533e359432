package org.datsim.core.bench;

import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.PartitionedSimulator;
import org.datsim.core.engine.Simulator;
import org.datsim.core.engine.WindowStats;
import org.datsim.core.random.RandomStreams;

/**
 * PHOLD with a lookahead, written the way a model must be for the {@link PartitionedSimulator}: each LP is an owner
 * with its own random stream ({@code "phold.lp.<i>"}) and its own counters; every executed event sends one event to a
 * uniformly chosen LP (itself included) after {@code lookahead + quantum * floor(Exp(mean) / quantum)}, so the
 * lookahead is the minimum delay and a coarse quantum makes many events fall at equal times (ties the key must order
 * the same way on every engine). The run ends at a stop time rather than after an event count, since which events
 * fall within a count depends on the interleaving of partitions.
 *
 * <p>What it checks: per LP, the number of events executed and a checksum folding (time, sending LP) over its events in
 * execution order; and one checksum over the LPs in order. These are identical on a {@link Simulator#Simulator(int)
 * Simulator with owners} and on a partitioned one with any number of partitions and threads; a wrong order of equal
 * times at any LP changes them.
 */
public final class PartitionedPhold {

    private PartitionedPhold() {}

    /**
     * A PHOLD configuration.
     *
     * @param lps the number of LPs (owners), {@code >= 1}
     * @param initialPerLp the initial events per LP, {@code >= 1}
     * @param endPs the stop time: events at times {@code <= endPs} run
     * @param seed the random seed
     * @param lookaheadPs the minimum delay, {@code >= 1}
     * @param meanPs the mean of the exponential part of the delay
     * @param quantumPs the exponential part is rounded down to a multiple of this, {@code >= 1}
     */
    public record Config(int lps, int initialPerLp, long endPs, long seed, long lookaheadPs, double meanPs,
            long quantumPs) {

        /** Checks the ranges. */
        public Config {
            if (lps < 1 || initialPerLp < 1 || endPs < 0 || lookaheadPs < 1 || !(meanPs >= 0) || quantumPs < 1) {
                throw new IllegalArgumentException("PHOLD needs lps >= 1, initialPerLp >= 1, endPs >= 0,"
                        + " lookaheadPs >= 1, meanPs >= 0 and quantumPs >= 1");
            }
        }

        /**
         * The stop time at which about {@code events} events will have run: the population divided by the mean delay
         * gives the rate.
         *
         * @param events the events wanted
         * @return the stop time in picoseconds
         */
        public long endForEvents(long events) {
            double perPs = (double) lps * initialPerLp / (lookaheadPs + meanPs);
            return (long) Math.min(Long.MAX_VALUE / 2.0, events / perPs);
        }
    }

    /**
     * The outcome of one run.
     *
     * @param events the events executed
     * @param lastEventPs the time of the last executed event
     * @param perLpEvents the events executed per LP
     * @param perLpChecksum the checksum of each LP's events in its execution order
     * @param checksum the fold of the per-LP counts and checksums, LP by LP
     * @param wallNanos the wall time of the run (set-up excluded)
     * @param windows the window statistics, null on the sequential engine
     */
    public record Result(long events, long lastEventPs, long[] perLpEvents, long[] perLpChecksum, long checksum,
            long wallNanos, WindowStats windows) {}

    /** Per-LP state and streams, shared by the handlers of every partition; each LP's entries touched by its events. */
    private static final class Lps {
        final int n;
        final Config c;
        final RandomGenerator[] rng;
        final long[] events;
        final long[] checksum;
        final long[] lastPs;
        final EventHandler[] handlerOfLp;

        Lps(Config c) {
            this.c = c;
            this.n = c.lps();
            RandomStreams streams = new RandomStreams(c.seed());
            rng = new RandomGenerator[n];
            for (int i = 0; i < n; i++) {
                rng[i] = streams.stream("phold.lp." + i);
            }
            events = new long[n];
            checksum = new long[n];
            lastPs = new long[n];
            handlerOfLp = new EventHandler[n];
        }

        long delay(int lp) {
            long q = c.quantumPs();
            double x = -c.meanPs() * Math.log(1.0 - rng[lp].nextDouble());
            return c.lookaheadPs() + q * (long) (x / q);
        }
    }

    /** The event of one partition's LPs; the argument is (sending LP << 32) | LP. */
    private static final class LpHandler implements EventHandler {
        private final Simulator sim;
        private final Lps lps;

        LpHandler(Simulator sim, Lps lps) {
            this.sim = sim;
            this.lps = lps;
        }

        @Override
        public void handle(long arg) {
            int lp = (int) arg;
            int from = (int) (arg >>> 32);
            Lps s = lps;
            s.events[lp]++;
            long now = sim.now();
            s.checksum[lp] = Phold.fold(s.checksum[lp], from, now);
            s.lastPs[lp] = now;
            long d = s.delay(lp);
            int dst = s.rng[lp].nextInt(s.n);
            sim.send(dst, d, s.handlerOfLp[dst], ((long) lp << 32) | dst);
        }
    }

    /**
     * Runs on one {@link Simulator#Simulator(int) Simulator with owners}.
     *
     * @param c the configuration
     * @return the result
     */
    public static Result runSequential(Config c) {
        Lps s = new Lps(c);
        Simulator sim = new Simulator(c.lps());
        LpHandler h = new LpHandler(sim, s);
        java.util.Arrays.fill(s.handlerOfLp, h);
        for (int lp = 0; lp < s.n; lp++) {
            for (int k = 0; k < c.initialPerLp(); k++) {
                sim.sendAt(lp, s.delay(lp), h, ((long) lp << 32) | lp);
            }
        }
        long t0 = System.nanoTime();
        sim.runUntil(c.endPs());
        long wall = System.nanoTime() - t0;
        return result(s, wall, null);
    }

    /**
     * Runs on a partitioned simulator with the LPs in contiguous blocks.
     *
     * @param c the configuration
     * @param partitions the partitions, 1 to lps
     * @param threads the threads, 1 to partitions
     * @return the result
     */
    public static Result runPartitioned(Config c, int partitions, int threads) {
        return runOn(c, new PartitionedSimulator(PartitionedSimulator.blocks(c.lps(), partitions), partitions,
                c.lookaheadPs(), threads));
    }

    /**
     * Runs on a given partitioned simulator, new (no event run yet), with owners for the LPs and the lookahead of
     * the configuration.
     *
     * @param c the configuration
     * @param engine the engine
     * @return the result
     */
    public static Result runOn(Config c, PartitionedSimulator engine) {
        if (engine.owners() != c.lps() || engine.lookaheadPs() > c.lookaheadPs()) {
            throw new IllegalArgumentException("the engine needs one owner per LP and a lookahead of at most "
                    + c.lookaheadPs() + " ps");
        }
        Lps s = new Lps(c);
        LpHandler[] ofPartition = new LpHandler[engine.partitions()];
        for (int p = 0; p < ofPartition.length; p++) {
            ofPartition[p] = new LpHandler(engine.partition(p), s);
        }
        for (int lp = 0; lp < s.n; lp++) {
            s.handlerOfLp[lp] = ofPartition[engine.partitionOf(lp)];
        }
        for (int lp = 0; lp < s.n; lp++) {
            for (int k = 0; k < c.initialPerLp(); k++) {
                engine.sendAt(lp, s.delay(lp), s.handlerOfLp[lp], ((long) lp << 32) | lp);
            }
        }
        long t0 = System.nanoTime();
        engine.runUntil(c.endPs());
        long wall = System.nanoTime() - t0;
        return result(s, wall, engine.stats());
    }

    private static Result result(Lps s, long wall, WindowStats w) {
        long total = 0;
        long sum = 0;
        long last = 0;
        for (int lp = 0; lp < s.n; lp++) {
            total += s.events[lp];
            last = Math.max(last, s.lastPs[lp]);
            sum = Phold.fold(sum, lp, s.events[lp] ^ s.checksum[lp]);
        }
        return new Result(total, last, s.events.clone(), s.checksum.clone(), sum, wall, w);
    }
}
