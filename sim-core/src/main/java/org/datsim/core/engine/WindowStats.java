package org.datsim.core.engine;

/**
 * What the windows of a {@link PartitionedSimulator} did, over all its runs so far. The barrier time is measured
 * with {@link System#nanoTime()}: it is reported, never used to decide anything.
 *
 * @param partitions the number of partitions
 * @param threads the number of worker threads
 * @param windows the windows run
 * @param events the events executed, over every partition
 * @param maxWindowEvents the most events executed in one window, over every partition
 * @param crossEvents the events sent from one partition to another during runs
 * @param partitionEvents the events each partition executed (its handovers included): how evenly the work is split
 * @param threadWaitNanos the wall time each worker thread spent waiting at the barrier: the thread that waits least
 *     is the one the others wait for
 */
public record WindowStats(
        int partitions,
        int threads,
        long windows,
        long events,
        long maxWindowEvents,
        long crossEvents,
        long[] partitionEvents,
        long[] threadWaitNanos) {

    /**
     * Returns the wall time the worker threads spent waiting at the window barrier, summed over them.
     *
     * @return the time, ns
     */
    public long barrierWaitNanos() {
        long sum = 0;
        for (long w : threadWaitNanos) {
            sum += w;
        }
        return sum;
    }

    /**
     * Returns how unevenly the events are split: the busiest partition's events over the mean.
     *
     * @return at least 1; 1 for an even split (or no event)
     */
    public double partitionImbalance() {
        long max = 0;
        long sum = 0;
        for (long e : partitionEvents) {
            max = Math.max(max, e);
            sum += e;
        }
        return sum == 0 ? 1 : (double) max * partitionEvents.length / sum;
    }

    /**
     * Returns the mean number of events per window.
     *
     * @return events / windows, 0 with no window
     */
    public double eventsPerWindow() {
        return windows == 0 ? 0 : (double) events / windows;
    }

    /**
     * Returns the mean wait at the barrier per window and thread, in microseconds.
     *
     * @return barrierWaitNanos() / (windows * threads) / 1000, 0 with no window
     */
    public double barrierWaitMicrosPerWindow() {
        return windows == 0 ? 0 : barrierWaitNanos() / 1e3 / windows / threads;
    }
}
