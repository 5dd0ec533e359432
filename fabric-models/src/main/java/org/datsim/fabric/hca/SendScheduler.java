package org.datsim.fabric.hca;

/**
 * How the completions tell the send engine that a queue pair's waiting work may go on (a read credit came back, or
 * the request a fence waited for finished). Implemented by {@link SendEngine}.
 */
interface SendScheduler {

    /** Looks at a queue pair's work again: back in the round-robin if it has work not started, then the engine runs. */
    void wake(QueuePair qp);

    /** Nothing of a queue pair is in flight any more (its congestion controller, if any, stops). */
    void idle(QueuePair qp);
}
