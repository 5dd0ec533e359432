package org.datsim.fabric.hca;

/**
 * The requester's local ACK timer of a queue pair, started when a request starts on a queue pair with nothing in
 * flight and stopped when nothing is left in flight. Implemented by {@link ReliableTransport}; the send engine starts
 * it, the completions stop it.
 */
interface AckTimer {

    /** A request starts on a queue pair with nothing in flight: its ACK timer starts (one pending event per QP). */
    void start(QueuePair qp, long now);

    /** Cancels a queue pair's pending ACK-timer event, if any. */
    void stop(QueuePair qp);
}
