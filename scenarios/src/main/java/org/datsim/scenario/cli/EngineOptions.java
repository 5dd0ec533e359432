package org.datsim.scenario.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * The options that choose the engine of a bench's fabric ({@code --threads}, {@code --partitions}), shared by
 * {@code bench fattree} and {@code bench hpcc} (docs/parallel.md). Every choice gives the same outputs: events of equal
 * time are ordered by owner keys on one thread as on many, so the options change only the speed.
 */
final class EngineOptions {

    /**
     * Below this many hosts per thread a window holds too few events to pay for the barrier, so more threads would
     * only be slower. Measured on 2 cores (docs/parallel.md): the k=8 fat-tree (64 hosts per thread) is slower on two
     * threads than on one; HPCC's fat-tree (160 per thread) and the k=16 fat-tree (512) gain.
     */
    static final int MIN_HOSTS_PER_THREAD = 128;

    @Option(names = "--threads", paramLabel = "T", description = "Threads that run the fabric, each its partitions"
            + " (the fabric is split by pods). Default: the available cores, as many as the fabric has "
            + MIN_HOSTS_PER_THREAD + " hosts for, so 1 on a small fabric. Every output is the same for every T and"
            + " partitioning; only the speed differs. Without --partitions, a fabric with fewer than "
            + MIN_HOSTS_PER_THREAD + " hosts per thread runs on one thread, and says so.")
    Integer threads;

    @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the fabric (default: the threads;"
            + " from the threads to the number of hosts, at most 64). One partition is the sequential engine.")
    Integer partitions;

    /**
     * The engine chosen.
     *
     * @param threads the threads, 1 to {@code partitions}
     * @param partitions the partitions: 1 for the sequential engine
     * @param fromDefault whether the threads are the default (not {@code --threads})
     * @param note why fewer threads than asked run, or null
     */
    record Choice(int threads, int partitions, boolean fromDefault, String note) {
    }

    /** The engine for a fabric of {@code hosts} hosts on {@code cores} cores; null after a message. */
    Choice resolve(int hosts, int cores, PrintWriter err) {
        if (threads != null && threads < 1) {
            err.println("datsim: --threads must be at least 1, found " + threads);
            return null;
        }
        int most = Math.max(1, Math.min(64, hosts));
        if (partitions != null && (partitions < 1 || partitions > most)) {
            err.println("datsim: --partitions must be from 1 to " + most + ", found " + partitions);
            return null;
        }
        int fit = Math.max(1, hosts / MIN_HOSTS_PER_THREAD);
        if (threads == null) {
            int t = Math.max(1, Math.min(cores, fit));
            int p = partitions != null ? partitions : t;
            return new Choice(Math.min(t, p), p, true, null);
        }
        int t = threads;
        int p = partitions != null ? partitions : Math.min(t, most);
        if (p < t && partitions != null) {
            err.println("datsim: --partitions must be from --threads (" + t + ") to " + most + ", found " + p);
            return null;
        }
        if (t > most) {
            err.println("datsim: --threads must be at most " + most + " (one partition per thread), found " + t);
            return null;
        }
        if (t > 1 && t > fit) {
            String small = "a fabric of " + hosts + " hosts is too small to gain from " + t + " threads (fewer than "
                    + MIN_HOSTS_PER_THREAD + " hosts per thread)";
            if (partitions != null) { // the partitioning asked for, as asked: say so, and run it
                return new Choice(t, p, false, small + ": it runs as asked, likely slower than on one thread");
            }
            // the outputs do not depend on the threads: the sequential engine gives the same answer
            return new Choice(1, 1, false, small + ": it runs on one thread");
        }
        return new Choice(t, p, false, null);
    }

    /**
     * The engine for a run that stays on one thread whatever is asked ({@code why}: what it holds that the partitioned
     * engine does not run): the options are checked as {@link #resolve} checks them, and asking for more than one
     * thread or partition gets a note saying why not. Null after a message.
     */
    Choice sequential(String why, PrintWriter err) {
        if (threads != null && threads < 1) {
            err.println("datsim: --threads must be at least 1, found " + threads);
            return null;
        }
        if (partitions != null && partitions < 1) {
            err.println("datsim: --partitions must be at least 1, found " + partitions);
            return null;
        }
        boolean asked = threads != null && threads > 1 || partitions != null && partitions > 1;
        return new Choice(1, 1, threads == null, asked ? "this scenario runs on one thread: " + why : null);
    }

    /**
     * Puts the engine's window statistics (a partitioned run) into a bench's key=value output: the windows, how the
     * events split over the partitions, and each thread's wait at the barrier.
     */
    static void putWindows(KeyValues kv, org.datsim.core.engine.WindowStats w, long lookaheadPs) {
        StringBuilder byPartition = new StringBuilder();
        for (long e : w.partitionEvents()) {
            byPartition.append(byPartition.length() == 0 ? "" : ",").append(e);
        }
        StringBuilder byThread = new StringBuilder();
        for (long n : w.threadWaitNanos()) {
            byThread.append(byThread.length() == 0 ? "" : ",")
                    .append(String.format(java.util.Locale.ROOT, "%.1f", n / 1e6));
        }
        kv.put("lookahead_ps", lookaheadPs).put("windows", w.windows())
                .put("events_per_window", w.eventsPerWindow(), 1).put("max_window_events", w.maxWindowEvents())
                .put("cross_partition_events", w.crossEvents())
                .put("events_by_partition", byPartition.toString())
                .put("partition_imbalance", w.partitionImbalance(), 3)
                .put("barrier_wait_ms", w.barrierWaitNanos() / 1e6, 1)
                .put("barrier_wait_ms_by_thread", byThread.toString());
    }
}
