package org.datsim.core.engine;

/**
 * Told by a {@link PartitionedSimulator} when a window starts in a partition, in that partition's thread, before the
 * partition takes the events sent to it during the previous window: a point where everything the other partitions did
 * before the previous window's barrier is visible, and nothing they do in this window is yet. A model uses it to take
 * back, in bulk and without locks, what other partitions hand it through per-window buffers of its own (for
 * example, objects released by another partition into lists it fills by window parity).
 */
@FunctionalInterface
public interface WindowListener {

    /**
     * A window starts in the listener's partition.
     *
     * @param window the window's number, from 0 in the first run, counting across runs
     */
    void windowStarting(long window);
}
