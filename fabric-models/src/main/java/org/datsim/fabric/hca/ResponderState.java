package org.datsim.fabric.hca;

import java.util.ArrayDeque;

/**
 * A queue pair's responder-side state for RDMA Writes and Sends that the {@link Responder} owns: its posted
 * receives, the message being received, a message being dropped, the message refused with an RNR NAK, and the
 * bytes accepted in sequence. Only the responder writes it (an ArchUnit rule checks); receives are posted through
 * {@link Responder#postReceive} and flushed, when the queue pair fails, by {@link #flushReceives}.
 */
final class ResponderState {

    /** The receives posted and not yet taken by a message, in posting order. */
    final ArrayDeque<WorkRequest> receives = new ArrayDeque<>(1); // room for one: see QueuePair
    /** The receive the message arriving now fills, or null. */
    WorkRequest inbound;
    /** The message whose later packets are dropped (it failed a check), or null. */
    WorkRequest dropping;
    /** The message refused with an RNR NAK; later packets are dropped until it is sent again. */
    WorkRequest rnrBlocked;
    /** The payload bytes of Sends and Writes accepted in sequence: what an ACK carries (its cumulative count). */
    long ccRxBytes;

    /** A new connection counts accepted bytes from 0. */
    void connected() {
        ccRxBytes = 0;
    }

    /**
     * The queue pair failed ({@link Completions#flush}): the receive being filled goes back to the head of the
     * posted ones; returns them all, in order, for flushing, and leaves none.
     */
    WorkRequest[] flushReceives() {
        if (inbound != null) {
            receives.addFirst(inbound);
            inbound = null;
        }
        WorkRequest[] all = receives.toArray(new WorkRequest[0]);
        receives.clear();
        return all;
    }

    /** The queue pair is reset ({@link Hca#reset}): no message in progress. */
    void reset() {
        inbound = null;
        dropping = null;
        rnrBlocked = null;
    }
}
