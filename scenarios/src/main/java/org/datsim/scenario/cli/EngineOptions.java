package org.datsim.scenario.cli;

import java.io.PrintWriter;
import picocli.CommandLine.Option;

/**
 * The options that put a bench's fabric on the partitioned engine ({@code --threads}, {@code --partitions}), shared
 * by {@code bench fattree} and {@code bench hpcc} (docs/parallel.md).
 */
final class EngineOptions {

    @Option(names = "--threads", paramLabel = "T", description = "Run on the partitioned engine with T threads (one"
            + " partition per thread unless --partitions says otherwise): the fabric is split by pods and every output"
            + " is the same for every T and partitioning. Without it, the sequential engine (events of equal time in"
            + " scheduling order, so its outputs can differ from the partitioned engine's in ties).")
    Integer threads;

    @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the fabric (default: --threads;"
            + " from --threads to the number of hosts, at most 64).")
    Integer partitions;

    /** The threads and partitions asked for, checked; {0, 0} for the sequential engine; null after a message. */
    int[] resolve(int hosts, PrintWriter err) {
        if (threads == null && partitions == null) {
            return new int[] {0, 0};
        }
        int t = threads != null ? threads : 1;
        if (t < 1) {
            err.println("datsim: --threads must be at least 1, found " + t);
            return null;
        }
        int p = partitions != null ? partitions : t;
        int most = Math.min(64, hosts);
        if (p < t || p > most) {
            err.println("datsim: --partitions must be from --threads (" + t + ") to " + most + ", found " + p);
            return null;
        }
        return new int[] {t, p};
    }
}
