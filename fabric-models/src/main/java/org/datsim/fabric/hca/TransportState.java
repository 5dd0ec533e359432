package org.datsim.fabric.hca;

import java.util.ArrayDeque;

/**
 * A queue pair's reliable-delivery state that the {@link ReliableTransport} owns: the sequence numbers (the RC
 * transport's PSNs, per message) in both directions, the requests rung and not yet finished, the local ACK timer
 * and the RNR pause. Only the reliable transport writes it (an ArchUnit rule checks); the send engine numbers a
 * request through {@link AckTimer#rung}, and everyone may read.
 */
final class TransportState {

    // Requester side.
    /** The sequence number the next request message whose doorbell rings gets (RMR binds get none). */
    int nextSeq;
    /** Doorbells rung so far, for {@link WorkRequest#ringOrder} (never reset: it only orders). */
    long rings;
    /**
     * Every request whose doorbell has rung and that had not finished when last looked at, in doorbell order (the
     * order the send engine takes them up, so sequence order): finished ones are dropped from the head lazily, by
     * {@link #firstUnfinished}.
     */
    final ArrayDeque<WorkRequest> rung = new ArrayDeque<>(1); // room for one: see QueuePair
    /** Set from an RNR NAK until the retransmission restarts; the send engine skips this queue pair. */
    boolean paused;
    /** When the requester last heard from the responder (an ACK, NAK or response), or last retransmitted. */
    long progressPs;
    /** The current local ACK timeout: hca.ack_timeout plus a draw below it, drawn when the timer is set afresh. */
    long ackWaitPs;
    /** Local ACK timeouts in a row without progress (at most hca.retry_count are retried). */
    int retries;
    /** The pending ACK-timer event, or 0 when none is pending (the queue pair had nothing in flight). */
    long ackTimerEvent;
    /** Runs this queue pair's ACK timer (set by the reliable transport when the queue pair is created). */
    org.datsim.core.engine.EventHandler ackTimer;

    // Responder side.
    /** The sequence number of the next request message this responder accepts. */
    int rxSeq;
    /** The index of the packet of message {@link #rxSeq} it accepts next. */
    int rxIndex;
    /** A sequence-error NAK was sent for the expected packet: later packets ahead of it are dropped silently. */
    boolean nakSent;

    /**
     * The first request, in doorbell order, that has not finished, or null; drops the finished ones at the head of
     * {@link #rung} (a lazy trim that changes nothing a reader sees, so any part may call it).
     */
    WorkRequest firstUnfinished() {
        WorkRequest w = rung.peekFirst();
        while (w != null && w.done) {
            rung.pollFirst();
            w.inRung = false;
            w = rung.peekFirst();
        }
        return w;
    }

    /** A new connection numbers its messages from 0 in both directions. */
    void connected() {
        nextSeq = 0;
        rung.clear();
        retries = 0;
        rxSeq = 0;
        rxIndex = 0;
        nakSent = false;
    }

    /** The queue pair is reset ({@link Hca#reset}): nothing rung, not paused (the timer is stopped by the owner). */
    void reset() {
        paused = false;
        rung.clear();
    }
}
