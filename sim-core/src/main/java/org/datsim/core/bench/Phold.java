package org.datsim.core.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.PriorityQueue;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.RunResult;
import org.datsim.core.engine.Simulator;
import org.datsim.core.random.RandomStreams;

/**
 * The PHOLD benchmark: {@code lps} logical processes (LPs) each start with {@code initialPerLp}
 * events; every executed event schedules exactly one new event, at {@code now + Exp(mean 1 s)}
 * (rounded to the nearest picosecond) for a uniformly chosen LP. The population of pending events
 * is therefore constant and the cost per event is dominated by the event queue.
 *
 * <p>Random numbers come from {@code new RandomStreams(seed).stream("phold")} (a commons-math3
 * {@code Well512a}), used directly: the exponential delay is drawn by inversion, {@code -mean *
 * log(1 - u)} with {@code u = nextDouble()}, which consumes exactly one uniform per draw and
 * measured about twice as fast as the commons-math3 {@code ExponentialDistribution} sampler
 * (Ahrens-Dieter, a variable number of uniforms). {@link Math#log(double)} (a JIT intrinsic) is used
 * rather than {@code StrictMath.log} or {@code FastMath.log}, which were markedly slower here; a
 * given JVM on a given CPU architecture always returns the same value, so checksums are
 * reproducible there, but may differ in the last bit on another platform. The target LP is {@code
 * nextInt(lps)}. Initial events draw their times from the same distribution, LP by LP.
 *
 * <p>Both engines draw the same numbers in the same order and order simultaneous events by
 * scheduling order, so for a given seed they execute identical event sequences and report the same
 * {@link Result#checksum()} and {@link Result#finalTimePs()}.
 */
public final class Phold {

    /** The mean of the exponential delay: 1 s in picoseconds. */
    public static final double MEAN_DELAY_PS = 1e12;

    private static final long FOLD_PRIME = 0x100000001b3L;

    private Phold() {}

    /**
     * The outcome of one benchmark run.
     *
     * @param engine the engine measured ({@code "datsim"} or {@code "java.util.PriorityQueue"})
     * @param events the number of events executed
     * @param wallNanos the wall-clock time of the event loop in nanoseconds (setup excluded)
     * @param eventsPerSecond {@code events / wall seconds}
     * @param finalTimePs the simulated time of the last executed event, in picoseconds
     * @param checksum a fold of (LP id, time) over the executed events, in execution order
     */
    public record Result(
            String engine,
            long events,
            long wallNanos,
            double eventsPerSecond,
            long finalTimePs,
            long checksum) {}

    /**
     * Folds one executed event into the checksum. Order-sensitive; costs a multiplication.
     *
     * @param checksum the checksum so far
     * @param lp the LP of the event
     * @param timePs the time of the event in picoseconds
     * @return the new checksum
     */
    public static long fold(long checksum, long lp, long timePs) {
        return (checksum ^ timePs) * FOLD_PRIME + lp;
    }

    /**
     * Draws an exponential delay with mean {@link #MEAN_DELAY_PS}, rounded to a whole picosecond.
     *
     * @param rng the generator (one {@code nextDouble()} is consumed)
     * @return the delay in picoseconds, {@code >= 0}
     */
    public static long drawDelay(RandomGenerator rng) {
        return (long) (-MEAN_DELAY_PS * Math.log(1.0 - rng.nextDouble()) + 0.5);
    }

    /** The PHOLD event handler for the datsim engine; the argument is the LP id. */
    private static final class PholdHandler implements EventHandler {
        private final Simulator sim;
        private final RandomGenerator rng;
        private final int lps;
        long checksum;

        PholdHandler(Simulator sim, RandomGenerator rng, int lps) {
            this.sim = sim;
            this.rng = rng;
            this.lps = lps;
        }

        @Override
        public void handle(long lp) {
            checksum = fold(checksum, lp, sim.now());
            long delay = drawDelay(rng);
            int dest = rng.nextInt(lps);
            sim.schedule(delay, this, dest);
        }
    }

    private static void checkArgs(int lps, int initialPerLp, long events) {
        if (lps <= 0 || initialPerLp <= 0 || events < 0) {
            throw new IllegalArgumentException(
                    "PHOLD needs lps > 0, initialPerLp > 0 and events >= 0, found lps="
                            + lps
                            + ", initialPerLp="
                            + initialPerLp
                            + ", events="
                            + events);
        }
    }

    /**
     * Runs PHOLD on the datsim {@link Simulator}, through the allocation-free {@code (EventHandler,
     * long)} scheduling path, stopping with the simulator's event limit.
     *
     * @param lps the number of logical processes, {@code > 0}
     * @param initialPerLp the initial events per LP, {@code > 0}
     * @param events the number of events to execute, {@code >= 0}
     * @param seed the random seed
     * @return the measurements
     */
    public static Result run(int lps, int initialPerLp, long events, long seed) {
        checkArgs(lps, initialPerLp, events);
        RandomGenerator rng = new RandomStreams(seed).stream("phold");
        Simulator sim = new Simulator();
        PholdHandler handler = new PholdHandler(sim, rng, lps);
        for (int lp = 0; lp < lps; lp++) {
            for (int k = 0; k < initialPerLp; k++) {
                sim.scheduleAt(drawDelay(rng), handler, lp);
            }
        }
        sim.setMaxEvents(events);
        long t0 = System.nanoTime();
        RunResult r = sim.run();
        long wall = System.nanoTime() - t0;
        return new Result("datsim", r.events(), wall, rate(r.events(), wall), sim.now(), handler.checksum);
    }

    /** A small event object for the baseline. */
    private static final class Ev implements Comparable<Ev> {
        final long time;
        final long seq;
        final int lp;

        Ev(long time, long seq, int lp) {
            this.time = time;
            this.seq = seq;
            this.lp = lp;
        }

        @Override
        public int compareTo(Ev o) {
            int c = Long.compare(time, o.time);
            return c != 0 ? c : Long.compare(seq, o.seq);
        }
    }

    /**
     * Runs the same workload on a plain {@link PriorityQueue} of small event objects ordered by
     * (time, sequence number): the straightforward baseline, allocating one object per event.
     *
     * @param lps the number of logical processes, {@code > 0}
     * @param initialPerLp the initial events per LP, {@code > 0}
     * @param events the number of events to execute, {@code >= 0}
     * @param seed the random seed
     * @return the measurements
     */
    public static Result runPriorityQueueBaseline(
            int lps, int initialPerLp, long events, long seed) {
        checkArgs(lps, initialPerLp, events);
        RandomGenerator rng = new RandomStreams(seed).stream("phold");
        PriorityQueue<Ev> queue = new PriorityQueue<>(lps * initialPerLp);
        long seq = 0;
        for (int lp = 0; lp < lps; lp++) {
            for (int k = 0; k < initialPerLp; k++) {
                queue.add(new Ev(drawDelay(rng), seq++, lp));
            }
        }
        long now = 0;
        long checksum = 0;
        long done = 0;
        long t0 = System.nanoTime();
        while (done < events) {
            Ev e = queue.poll();
            now = e.time;
            done++;
            checksum = fold(checksum, e.lp, now);
            long delay = drawDelay(rng);
            int dest = rng.nextInt(lps);
            queue.add(new Ev(now + delay, seq++, dest));
        }
        long wall = System.nanoTime() - t0;
        return new Result(
                "java.util.PriorityQueue", done, wall, rate(done, wall), now, checksum);
    }

    private static double rate(long events, long wallNanos) {
        return wallNanos <= 0 ? 0 : events * 1e9 / wallNanos;
    }

    /**
     * Command-line entry point. Options (all optional): {@code --lps N}, {@code --initial K}, {@code
     * --events E}, {@code --seed S}, {@code --engine datsim|pq|both}, {@code --warmup E} (events per
     * warm-up run, 0 for none) and {@code --variant default|large|both}, where {@code default} is
     * N=1024, K=4, 10M events and {@code large} is N=65536, K=16, 5M events. Explicit {@code --lps},
     * {@code --initial} or {@code --events} override the variant. For each measured run it prints
     * {@code key=value} lines ending with {@code events_per_second=<n>}, then a blank line.
     *
     * @param args the options
     */
    public static void main(String[] args) {
        Integer lps = null;
        Integer initial = null;
        Long events = null;
        long seed = 42;
        String engine = "both";
        long warmup = 2_000_000;
        String variant = "both";
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--lps":
                    lps = Integer.parseInt(v);
                    i++;
                    break;
                case "--initial":
                    initial = Integer.parseInt(v);
                    i++;
                    break;
                case "--events":
                    events = Long.parseLong(v);
                    i++;
                    break;
                case "--seed":
                    seed = Long.parseLong(v);
                    i++;
                    break;
                case "--engine":
                    engine = v;
                    i++;
                    break;
                case "--warmup":
                    warmup = Long.parseLong(v);
                    i++;
                    break;
                case "--variant":
                    variant = v;
                    i++;
                    break;
                default:
                    System.err.println("unknown option " + a);
                    System.exit(2);
            }
        }
        List<long[]> variants = new ArrayList<>();
        if (variant.equals("default") || variant.equals("both")) {
            variants.add(new long[] {1024, 4, 10_000_000});
        }
        if (variant.equals("large") || variant.equals("both")) {
            variants.add(new long[] {65536, 16, 5_000_000});
        }
        boolean core = !engine.equals("pq");
        boolean pq = !engine.equals("datsim");
        for (long[] vr : variants) {
            int n = lps != null ? lps : (int) vr[0];
            int k = initial != null ? initial : (int) vr[1];
            long e = events != null ? events : vr[2];
            if (warmup > 0) {
                if (core) {
                    run(n, k, warmup, seed + 1);
                }
                if (pq) {
                    runPriorityQueueBaseline(n, k, warmup, seed + 1);
                }
            }
            if (core) {
                print(run(n, k, e, seed), n, k, seed);
            }
            if (pq) {
                print(runPriorityQueueBaseline(n, k, e, seed), n, k, seed);
            }
        }
    }

    private static void print(Result r, int lps, int k, long seed) {
        StringBuilder sb = new StringBuilder();
        sb.append("engine=").append(r.engine()).append('\n');
        sb.append("lps=").append(lps).append('\n');
        sb.append("initial_per_lp=").append(k).append('\n');
        sb.append("seed=").append(seed).append('\n');
        sb.append("events=").append(r.events()).append('\n');
        sb.append("final_time_ps=").append(r.finalTimePs()).append('\n');
        sb.append("checksum=").append(r.checksum()).append('\n');
        sb.append("wall_ms=").append(String.format(Locale.ROOT, "%.1f", r.wallNanos() / 1e6)).append('\n');
        sb.append("events_per_second=")
                .append(String.format(Locale.ROOT, "%.0f", r.eventsPerSecond()))
                .append('\n');
        System.out.println(sb);
        System.out.flush();
    }
}
