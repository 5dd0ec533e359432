package org.datsim.fabric.hca;

/**
 * The progress of a posted operation ({@link WorkRequest}): how far the HCA's parts have taken it, from the doorbell
 * to the completion. Everything here is mutable and written only by the parts of the HCA that advance the operation
 * (an ArchUnit rule names the writers of each field); what the poster wrote is in {@link WorkRequest}'s own fields.
 *
 * <p>{@link #resetProgress} is the one place that gives every field its initial value: the constructor calls it, and
 * so does a send-queue slot reused for a new post ({@link QueuePair#requestSlot}), so a reused slot cannot keep
 * anything of the operation it held before (a test sets every field and checks that a reset equals a fresh object).
 * A superclass rather than a separate object so that the per-packet reads of progress cost no extra indirection.
 */
abstract class RequestProgress {

    int status;
    boolean done;
    /** Its completion has been handed to the queue pair's listener (set just before the call). */
    boolean reported;
    /** It is in its queue pair's {@link TransportState#rung} queue. */
    boolean inRung;
    /** The packets (and the payload DMA read) that hold it as their context now. */
    int references;
    /**
     * The order of this request's doorbell among its queue pair's (the engine's processing order); Long.MAX_VALUE
     * until it rings, which orders it after every request already rung.
     */
    long ringOrder;
    boolean fenceTraced;
    boolean creditTraced;
    boolean readCounted;
    long transferred;
    int rnrRetries;
    int placed;
    boolean remoteFailed;
    /** When it was posted, in explored runs only ({@link HcaChoices#WRITE_ORDER}); -1 otherwise. */
    long postedPs;
    /** When the transport finished it (ACK, last read response placed, bind executed), or -1. */
    long finishedPs;
    /** The earlier operation whose completion held this one's back (rule 2), or -1. */
    long heldBehind;
    /**
     * A Send or RDMA Write whose payload the HCA read from memory that an earlier RDMA Read of its queue pair had not
     * yet filled (traced only): the Read, and per piece read the address and the bytes carried; null if none.
     */
    WorkRequest capturedBeforeRead;
    java.util.ArrayList<long[]> capturedAt;
    java.util.ArrayList<byte[]> capturedBytes;
    /** The RDMA Read whose data this operation's payload missed (bytes carried differ from memory then), or -1. */
    long overtookRead;
    /** A receive: the queue pair whose incoming Send took it (its own, or one of its shared receive queue's). */
    QueuePair takenBy;
    /** The payload of an inline Send or RDMA Write, copied by the CPU at post time; null if not inline. */
    byte[] inlineData;
    /**
     * The message's sequence number on its queue pair (the RC transport's PSN, per message), given when its doorbell
     * rings and kept on retransmission; -1 for an RMR bind or before the doorbell.
     */
    int seq;
    /** The send engine has taken it up at least once (its packets may be on their way). */
    boolean started;
    /** Requester: the response packets of an RDMA Read or atomic accepted so far (in order, each once). */
    int responses;
    /** Requester: the value of {@link #responses} at which a missing response last caused a retransmission. */
    int gapAt;
    /** How many times the transport has retransmitted from this operation (ACK timeout or sequence error). */
    int retransmits;
    /** Packet arbitration: the index of the next packet to send, and when the first may be read (WQE fetched). */
    int txNext;
    long txReadyPs;
    /** Packet arbitration: how far the payload's read requests have read (the send engine's read position). */
    long txReadPos;
    /** Packet arbitration: when the last payload read request issued for this request is in. */
    long txReadIn;
    /** Congestion control: the stream position of this message's first payload byte, or -1 before it is taken up. */
    long ccBase;
    /**
     * An RDMA Read whose data a choice point fetched at once ({@link HcaChoices#READ_FETCH}): its responses carry
     * these bytes; null in runs that do not explore, and for the timing model's fetch.
     */
    byte[] readSnapshot;
    /**
     * Explored runs: an RDMA Read's choice at {@link HcaChoices#READ_FETCH}: -1 not offered, 0 the timing model's
     * fetch, j >= 1 fetched after the first j - 1 of {@link #fetchLater}.
     */
    int fetchChoice;
    /** Explored runs: a Send's (or a Write with immediate's) message has taken its receive at the responder. */
    boolean delivered;
    /** Explored runs: {@link HcaChoices#PAYLOAD_FETCH}'s choice for a Send or Write, -1 before it is made. */
    int payloadChoice;
    /** Explored runs: the later unfenced Writes of its endpoint over its range when the Read was admitted. */
    java.util.ArrayList<WorkRequest> fetchLater;
    /** Responder: an atomic has been executed and {@link #atomicOriginal} holds the value it returned. */
    boolean atomicExecuted;
    /** Responder: the original value an executed atomic returned, answered again to a duplicate request. */
    long atomicOriginal;

    /** A receive: the Send that filled it asked for a solicited event ({@link WorkRequest#SEND_SOLICITED}). */
    boolean receivedSolicited;
    /** A receive: it was consumed by an RDMA Write with immediate data (set when it completes). */
    boolean receivedImmediate;
    /** A receive consumed by an RDMA Write with immediate data: the 32-bit immediate data it got. */
    int receivedImmediateData;

    /** Gives every field of the progress its initial value: that of an operation not yet posted. */
    RequestProgress() {
        resetProgress();
    }

    /** Sets every progress field to its initial value (see the class comment). */
    final void resetProgress() {
        status = -1;
        done = false;
        reported = false;
        inRung = false;
        references = 0;
        ringOrder = Long.MAX_VALUE;
        fenceTraced = false;
        creditTraced = false;
        readCounted = false;
        transferred = 0;
        rnrRetries = 0;
        placed = 0;
        remoteFailed = false;
        postedPs = -1;
        finishedPs = -1;
        heldBehind = -1;
        capturedBeforeRead = null;
        capturedAt = null;
        capturedBytes = null;
        overtookRead = -1;
        takenBy = null;
        inlineData = null;
        seq = -1;
        started = false;
        responses = 0;
        gapAt = -1;
        retransmits = 0;
        txNext = 0;
        txReadyPs = 0;
        txReadPos = 0;
        txReadIn = 0;
        ccBase = -1;
        readSnapshot = null;
        fetchChoice = -1;
        delivered = false;
        payloadChoice = -1;
        fetchLater = null;
        atomicExecuted = false;
        atomicOriginal = 0;
        receivedSolicited = false;
        receivedImmediate = false;
        receivedImmediateData = 0;
    }
}
