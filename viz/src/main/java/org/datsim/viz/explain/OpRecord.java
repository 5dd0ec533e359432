package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.List;

/** Everything the trace says about one operation, gathered by {@link TraceIndex}. */
final class OpRecord {

    /**
     * One miss of an HCA's on-chip cache charged to the operation (a {@code cache_miss} trace line).
     *
     * @param tPs when the HCA looked the entry up
     * @param host the host whose HCA missed
     * @param mtt true for a translation entry (MTT), false for a QP context
     * @param penaltyPs the stall it cost
     */
    record CacheMiss(long tPs, String host, boolean mtt, long penaltyPs) {
    }

    /**
     * A go-back-N retransmission that began with the operation (a {@code retransmit} trace line): the transport sent
     * it, and every later unfinished operation of its endpoint, again.
     *
     * @param tPs when the requester went back
     * @param reason the trace's {@code reason}: {@code ack_timeout}, {@code nak_sequence_error} or
     *     {@code response_missing}
     * @param attempt how many times the transport had then gone back to this operation, from 1
     */
    record Retransmit(long tPs, String reason, long attempt) {
    }

    /**
     * A packet a switch dropped (a {@code drop} trace line).
     *
     * @param tPs when the switch dropped it
     * @param op the operation it belongs to, or -1 (a connection-management packet)
     * @param sw the switch
     * @param port the link it arrived on, {@code FROM->TO}
     * @param reason the trace's {@code reason}: {@code buffer_full} or {@code filter}
     * @param packet its kind, e.g. {@code rdma_write}, {@code ack}
     * @param from the host that sent it
     * @param to the host it was for
     * @param seq its message's sequence number on the requester's queue pair, or -1
     * @param index its index in its message, from 0, or -1
     * @param packets the packets of its message, or -1
     * @param message for a connection-management packet, its message (REQ, REP, RTU, REJ, DREQ, DREP); else ""
     * @param commId for a connection-management packet, its connection's communication id; else -1
     */
    record Drop(long tPs, long op, String sw, String port, String reason, String packet, String from, String to,
            long seq, long index, long packets, String message, long commId) {
    }

    long id;
    String host = "";
    String ep = "";
    String opcode = "?";
    long bytes = -1;
    long cookie;
    boolean hasCookie;
    String flags = "";
    /**
     * Whether the provider posted it inline (the post line's {@code "inline": true}): the CPU copied its payload into
     * the work request at the post, so it carries the bytes of that moment, whatever held its start.
     */
    boolean inline;
    long post = -1;
    final List<Long> starts = new ArrayList<>(1);
    long fenceAt = -1;
    long[] fenceFor;
    String fenceReason = "";
    long creditAt = -1;
    long[] creditFor;
    final List<long[]> tx = new ArrayList<>(1);
    String txHost = "";
    long packets;
    final List<long[]> responseTx = new ArrayList<>(1);
    String responseHost = "";
    final List<Long> rnr = new ArrayList<>(0);
    String rnrHost = "";
    long place = -1;
    String placeHost = "";
    long recvOp = -1;
    long complete = -1;
    String status = "";
    boolean suppressed;
    long heldBehind = -1;
    long finishedPs = -1;
    long dequeue = -1;
    String dequeueProcess = "";
    /** Whether a dat_evd_wait took its completion (rather than dat_evd_dequeue). */
    boolean dequeuedByWait;
    /** The cache misses charged to it, in trace order; null while there are none. */
    List<CacheMiss> cacheMisses;
    /** The retransmissions that began with it, in trace order; null while there are none. */
    List<Retransmit> retransmits;
    /** The drops of its packets (and of the responses and acknowledgements to it), in trace order; null if none. */
    List<Drop> drops;

    /** Tells whether it was posted with DAT_COMPLETION_UNSIGNALLED_FLAG. */
    boolean isUnsignalled() {
        return flags.contains("DAT_COMPLETION_UNSIGNALLED_FLAG");
    }

    /** Tells whether this is one of the IB atomics (Fetch and Add, Compare and Swap). */
    boolean isAtomic() {
        return "fetch_add".equals(opcode) || "cmp_swap".equals(opcode);
    }

    /**
     * Tells whether this is an RDMA Read or an atomic: a request answered by the responder's response engine, which
     * the barrier fence waits for (rules 17 and 18) and which takes a read credit (rule 49).
     */
    boolean isReadLike() {
        return "rdma_read".equals(opcode) || isAtomic();
    }
}
