package org.datsim.fabric.hca;

import java.util.ArrayDeque;

/**
 * A queue pair's outstanding request operations in posting order, which {@link Completions} owns: a post adds one
 * ({@link CompletionSink#posted}), a completion written in posting order removes it. Only the completions write it
 * (an ArchUnit rule checks); the send engine, the payload reader and the explored choices read it.
 */
final class CompletionState {

    /** The request operations posted and not yet reported, in posting order. */
    final ArrayDeque<WorkRequest> outstanding = new ArrayDeque<>(1); // room for one: see QueuePair
    /**
     * How many of {@link #outstanding} a fence can wait for (RDMA Reads, IB atomics and RMR binds, finished or not):
     * while it is zero no fence can hold anything, and the send engine skips the scan of the outstanding queue.
     */
    int fenceSources;

    /** The queue pair is reset ({@link Hca#reset}): nothing outstanding. */
    void reset() {
        outstanding.clear();
        fenceSources = 0;
    }
}
