package org.datsim.fabric.hca;

import java.util.ArrayDeque;

/**
 * A queue pair's requester-side state that the {@link SendEngine} owns: its send queue (rung, not yet taken up),
 * its place in the engine's round-robin, fences and RDMA Read credits, the packet arbiter's queue, and the
 * congestion controller with its stream positions. Only the send engine writes it (an ArchUnit rule checks);
 * the other parts read it, and reach it only through the send engine's methods (the completions through
 * {@link SendScheduler}).
 */
final class SendState {

    /** The requests whose doorbell has rung and that the engine has not taken up yet, in doorbell order. */
    final ArrayDeque<WorkRequest> notStarted = new ArrayDeque<>(1); // room for one: see QueuePair
    /** In the engine's round-robin of queue pairs with work to take up. */
    boolean queued;
    /** RDMA Read credits (rule 49) as originator: the limit, and the reads (and atomics) outstanding now. */
    int maxReadsOut = Integer.MAX_VALUE;
    int readsOut;
    /** The head of the send queue is an RDMA Read waiting for a read credit. */
    boolean creditBlocked;
    /** The head of the send queue waits behind a barrier fence for earlier RDMA Reads. */
    boolean fenced;

    // Packet arbitration and congestion control (hca.arbitration packet, cc.*).
    /** The work requests whose packets the packet arbiter sends, in sequence order (packet arbitration only). */
    final ArrayDeque<WorkRequest> txQueue = new ArrayDeque<>(1); // room for one: see QueuePair
    /** In the packet arbiter's round-robin. */
    boolean txActive;
    /** The congestion-control state while the queue pair has work in flight, or null. */
    org.datsim.fabric.cc.RateController rc;
    /** Its timers (one simulator event per timer id at most), made with the controller. */
    CcTimerSet ccTimers;
    /** The payload bytes of every request message taken up so far: the stream position of the next new one. */
    long ccStreamEnd;
    /** The payload bytes sent so far, as a stream position (HPCC's snd_nxt; goes back on a go-back-N). */
    long ccSndNxt;
    /** The payload bytes acknowledged (HPCC's snd_una): the largest cumulative count an ACK carried. */
    long ccSndUna;

    /** Sets the read credits as originator (the queue pair's configuration, before it sends). */
    void setMaxReadsOut(int out) {
        maxReadsOut = out;
    }

    /** A new connection: the stream positions start from 0 (the send engine calls it from {@link QueuePair#connect}). */
    void connected() {
        ccStreamEnd = 0;
        ccSndNxt = 0;
        ccSndUna = 0;
    }

    /** The queue pair is reset ({@link Hca#reset}): nothing waits, no read credit is in use. */
    void reset() {
        fenced = false;
        creditBlocked = false;
        notStarted.clear();
        readsOut = 0;
    }
}
