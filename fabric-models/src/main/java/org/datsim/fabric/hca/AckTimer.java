package org.datsim.fabric.hca;

/**
 * The reliable transport as the parts below it see it: the requester's local ACK timer of a queue pair, started when
 * a request starts on a queue pair with nothing in flight and stopped when nothing is left in flight, and the
 * numbering of a request whose doorbell rang. Implemented by {@link ReliableTransport}, which owns the queue pair's
 * {@link TransportState}; the send engine starts the timer and has requests numbered, the completions stop and
 * reset it.
 */
interface AckTimer {

    /** A request starts on a queue pair with nothing in flight: its ACK timer starts (one pending event per QP). */
    void start(QueuePair qp, long now);

    /** Cancels a queue pair's pending ACK-timer event, if any. */
    void stop(QueuePair qp);

    /**
     * A request's doorbell rang: it gets its place in the doorbell order and, unless it is an RMR bind, its sequence
     * number, and is in flight (rung) until it finishes.
     */
    void rung(WorkRequest wr);

    /** The queue pair is reset ({@link Hca#reset}): the timer stopped, nothing rung, not paused. */
    void reset(QueuePair qp);
}
