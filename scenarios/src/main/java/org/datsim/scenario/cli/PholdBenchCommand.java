package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.datsim.core.bench.PartitionedPhold;
import org.datsim.core.bench.Phold;
import org.datsim.core.engine.WindowStats;
import org.datsim.core.time.SimTime;
import org.datsim.core.time.UnitParseException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code datsim bench phold}: the engine's PHOLD benchmark on the sequential engine (the default, beside a {@link
 * java.util.PriorityQueue} baseline), or with {@code --threads}/{@code --partitions} PHOLD with a lookahead ({@link
 * PartitionedPhold}) on the partitioned engine, beside the same workload on one {@code Simulator(owners)}, with the
 * window statistics.
 */
@Command(name = "phold", mixinStandardHelpOptions = true,
        description = "PHOLD: N logical processes, K initial events each; every event schedules one at"
                + " now + Exp(1 s) to a uniformly random process. Prints key=value lines, ending with"
                + " events_per_second. With --threads or --partitions: every delay is the lookahead plus Exp(1 s),"
                + " run on the partitioned engine and on one simulator with owners (same answer required).")
final class PholdBenchCommand implements Callable<Integer> {

    @Option(names = "--lps", paramLabel = "N", description = "Logical processes (default: 1024, or 65536"
            + " with --large).")
    Integer lps;

    @Option(names = "--initial", paramLabel = "K", description = "Initial events per process (default: 4,"
            + " or 16 with --large).")
    Integer initial;

    @Option(names = "--events", paramLabel = "E", description = "Events to execute (default: 10000000, or"
            + " 5000000 with --large; partitioned, about this many: the run stops at the time they take).")
    Long events;

    @Option(names = "--large", description = "The large variant: N=65536, K=16, 5 million events.")
    boolean large;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Random seed.")
    long seed;

    @Option(names = "--warmup", paramLabel = "E", defaultValue = "2000000",
            description = "Events of an untimed warm-up run first (JIT), 0 for none.")
    long warmup;

    @Option(names = "--baseline", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "Also run the same workload on java.util.PriorityQueue (default: on; sequential engine"
                    + " only).")
    boolean baseline;

    @Option(names = "--threads", paramLabel = "T", description = "Run on the partitioned engine with T worker"
            + " threads (default: the sequential engine).")
    Integer threads;

    @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the LPs, in contiguous blocks,"
            + " T to N (default: T).")
    Integer partitions;

    @Option(names = "--lookahead", paramLabel = "TIME", defaultValue = "100ms", description = "Partitioned: the"
            + " minimum delay of every event, the engine's lookahead (default: ${DEFAULT-VALUE}; the mean of the"
            + " rest is 1 s).")
    String lookahead;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        int n = lps != null ? lps : large ? 65536 : 1024;
        int k = initial != null ? initial : large ? 16 : 4;
        long e = events != null ? events : large ? 5_000_000L : 10_000_000L;
        if (n < 1 || k < 1 || e < 1) {
            return invalid("--lps, --initial and --events must be positive");
        }
        if (threads != null || partitions != null) {
            return partitioned(o, n, k, e);
        }
        KeyValues kv = new KeyValues();
        kv.put("lps", n).put("initial_per_lp", k).put("events", e).put("seed", seed).writeTo(o);
        if (warmup > 0) {
            Phold.run(n, k, warmup, seed);
            if (baseline) {
                Phold.runPriorityQueueBaseline(n, k, warmup, seed);
            }
        }
        Phold.Result base = null;
        if (baseline) {
            base = Phold.runPriorityQueueBaseline(n, k, e, seed);
            kv.put("baseline_engine", base.engine()).put("baseline_events_per_second", base.eventsPerSecond(), 0)
                    .put("baseline_wall_ms", base.wallNanos() / 1_000_000).writeTo(o);
        }
        Phold.Result r = Phold.run(n, k, e, seed);
        kv.put("engine", r.engine()).put("final_time_ps", r.finalTimePs()).put("checksum", r.checksum())
                .put("wall_ms", r.wallNanos() / 1_000_000);
        if (base != null) {
            kv.put("speedup_vs_baseline", r.eventsPerSecond() / base.eventsPerSecond(), 2)
                    .put("same_result_as_baseline", base.checksum() == r.checksum());
        }
        kv.put("events_per_second", r.eventsPerSecond(), 0).writeTo(o);
        if (base != null && base.checksum() != r.checksum()) {
            spec.commandLine().getErr().println("datsim: the engine and the baseline executed different"
                    + " events (checksums differ): the engine's ordering is broken");
            return 1;
        }
        return 0;
    }

    private int invalid(String message) {
        spec.commandLine().getErr().println("datsim: " + message);
        return DatsimCli.EXIT_INVALID;
    }

    /** PHOLD with a lookahead on the partitioned engine, then on one simulator with owners; both must agree. */
    private int partitioned(PrintWriter o, int n, int k, long e) {
        int t = threads != null ? threads : 1;
        if (t < 1) {
            return invalid("--threads must be at least 1, found " + t);
        }
        int p = partitions != null ? partitions : t;
        if (p < t || p > n) {
            return invalid("--partitions must be from --threads (" + t + ") to --lps (" + n + "), found " + p);
        }
        long la;
        try {
            la = SimTime.parse(lookahead);
        } catch (UnitParseException ex) {
            return invalid("--lookahead: " + ex.getMessage());
        }
        if (la < 1) {
            return invalid("--lookahead must be positive");
        }
        PartitionedPhold.Config probe = new PartitionedPhold.Config(n, k, 0, seed, la, Phold.MEAN_DELAY_PS, 1);
        PartitionedPhold.Config c = new PartitionedPhold.Config(n, k, probe.endForEvents(e), seed, la,
                Phold.MEAN_DELAY_PS, 1);
        KeyValues kv = new KeyValues();
        kv.put("lps", n).put("initial_per_lp", k).put("seed", seed).put("lookahead_ps", la).put("end_ps", c.endPs())
                .put("threads", t).put("partitions", p).writeTo(o);
        if (warmup > 0) {
            PartitionedPhold.Config w = new PartitionedPhold.Config(n, k, probe.endForEvents(warmup), seed + 1, la,
                    Phold.MEAN_DELAY_PS, 1);
            PartitionedPhold.runPartitioned(w, p, t);
            PartitionedPhold.runSequential(w);
        }
        PartitionedPhold.Result r = PartitionedPhold.runPartitioned(c, p, t);
        WindowStats ws = r.windows();
        kv.put("engine", "partitioned").put("events", r.events()).put("final_time_ps", r.lastEventPs())
                .put("checksum", r.checksum()).put("windows", ws.windows())
                .put("events_per_window", ws.eventsPerWindow(), 1).put("max_window_events", ws.maxWindowEvents())
                .put("cross_partition_events", ws.crossEvents())
                .put("barrier_wait_ms", ws.barrierWaitNanos() / 1_000_000)
                .put("barrier_wait_us_per_window", ws.barrierWaitMicrosPerWindow(), 1)
                .put("wall_ms", r.wallNanos() / 1_000_000).writeTo(o);
        PartitionedPhold.Result s = PartitionedPhold.runSequential(c);
        boolean same = s.checksum() == r.checksum() && s.events() == r.events();
        kv.put("sequential_wall_ms", s.wallNanos() / 1_000_000)
                .put("sequential_events_per_second", rate(s.events(), s.wallNanos()), 0)
                .put("same_result_as_sequential", same)
                .put("events_per_second", rate(r.events(), r.wallNanos()), 0).writeTo(o);
        if (!same) {
            spec.commandLine().getErr().println("datsim: the partitioned and the sequential engine executed different"
                    + " events (checksums differ): the partitioned engine's ordering is broken");
            return 1;
        }
        return 0;
    }

    private static double rate(long events, long wallNanos) {
        return wallNanos <= 0 ? 0 : events * 1e9 / wallNanos;
    }
}
