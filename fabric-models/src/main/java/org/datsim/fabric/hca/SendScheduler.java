package org.datsim.fabric.hca;

/**
 * How the completions tell the send engine that a queue pair's waiting work may go on (a read credit came back, or
 * the request a fence waited for finished), that it failed or was reset. Implemented by {@link SendEngine}, which owns
 * the queue pair's {@link SendState}: the completions change it only through these calls.
 */
interface SendScheduler {

    /** Looks at a queue pair's work again: back in the round-robin if it has work not started, then the engine runs. */
    void wake(QueuePair qp);

    /** Nothing of a queue pair is in flight any more (its congestion controller, if any, stops). */
    void idle(QueuePair qp);

    /**
     * A request operation has finished: its read credit, if it held one, comes back, and a request waiting for that
     * credit or behind a fence the finished one held is looked at again.
     */
    void finished(WorkRequest wr);

    /**
     * The queue pair failed and its outstanding requests are flushed: nothing waits to be taken up, and the read
     * credits of the finished requests come back.
     */
    void flushed(QueuePair qp);

    /** The queue pair is reset ({@link Hca#reset}): its send state back to the initial one, the controller stopped. */
    void reset(QueuePair qp);
}
