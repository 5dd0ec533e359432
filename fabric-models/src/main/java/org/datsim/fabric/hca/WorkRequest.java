package org.datsim.fabric.hca;

import org.datsim.fabric.link.PacketOperation;

/**
 * One posted operation: a Send, RDMA Write, RDMA Read, IB atomic (Fetch and Add, Compare and Swap) or Receive, with
 * its local scatter/gather list (host virtual addresses), its remote target for RDMA, and its progress. Operation
 * codes are the HCA's own, numbered as ibverbs numbers them ({@code enum ibv_wr_opcode}; a receive, which has no
 * work-request opcode there, as {@code IBV_WC_RECV}); the DAT provider translates DAT operations into them and back.
 */
public final class WorkRequest implements PacketOperation {

    /** IBV_WR_RDMA_WRITE: an RDMA Write. */
    public static final int RDMA_WRITE = 0;
    /** IBV_WR_SEND: a Send. */
    public static final int SEND = 2;
    /** IBV_WR_RDMA_READ: an RDMA Read. */
    public static final int RDMA_READ = 4;
    /** IBV_WR_ATOMIC_CMP_AND_SWP: an IB atomic Compare and Swap. */
    public static final int CMP_SWAP = 5;
    /** IBV_WR_ATOMIC_FETCH_AND_ADD: an IB atomic Fetch and Add. */
    public static final int FETCH_ADD = 6;
    /** IBV_WR_BIND_MW: a memory window (RMR) bind posted on the request queue. */
    public static final int BIND = 8;
    /** IBV_WC_RECV: a receive. */
    public static final int RECV = 128;
    /** IBV_SEND_FENCE ({@link #sendFlags}): waits for earlier RDMA Reads and atomics of its queue pair. */
    public static final int SEND_FENCE = 1;
    /** IBV_SEND_SOLICITED ({@link #sendFlags}): a Send whose receive completion is a solicited event. */
    public static final int SEND_SOLICITED = 4;
    /** The bytes an atomic reads and writes at the responder and returns to the requester. */
    public static final int ATOMIC_BYTES = 8;

    // What the poster wrote into the WQE: set when the request is created or its send-queue slot is reused
    // (QueuePair#requestSlot), read-only otherwise.
    /** The run-unique operation id. */
    public long opId;
    /** The operation code (the constants of this class). */
    public int opcode;
    /** The queue pair it was posted on. */
    public final QueuePair qp;
    /** A receive: the Send that filled it asked for a solicited event ({@link #SEND_SOLICITED}). */
    public boolean solicited;
    /** The consumer's cookie, returned in the completion. */
    public long cookie;
    /** The consumer's completion flags of the post: the HCA does not read them (the provider does). */
    public int flags;
    /** What the HCA reads of the post's flags: {@link #SEND_FENCE}, {@link #SEND_SOLICITED} (set by the poster). */
    public int sendFlags;
    /** The local segments' host virtual addresses. */
    public long[] segAddress;
    /** The local segments' lengths in bytes. */
    public long[] segLength;
    /** The sum of the local segments' lengths. */
    public long length;
    /** The remote virtual address of an RDMA operation. */
    public long remoteAddress;
    /** The remote key (rmr_context) of an RDMA operation. */
    public int rkey;

    /** An atomic's operand: the value added (Fetch and Add) or compared (Compare and Swap). */
    public long compareAdd;
    /** A Compare and Swap's value, stored when the remote value equals {@link #compareAdd}. */
    public long swap;

    /**
     * An RDMA Write with immediate data (IBV_WR_RDMA_WRITE_WITH_IMM; dat_ib_post_rdma_write_immed): its last packet
     * carries the 4 bytes of {@link #immediate} (the ImmDt header) and consumes a receive at the responder, which
     * completes with them. On a receive: it was consumed by such a Write (set when it completes). Set before the post.
     */
    public boolean withImmediate;
    /** The 32-bit immediate data of an RDMA Write with immediate, or the immediate data a receive got. */
    public int immediate;

    /** What an RMR bind binds (the DAT layer's object); null for data transfers. */
    public Object bindTarget;
    /**
     * Payload-free: the operation's packets carry no bytes. Its timing is the same as with them (every DMA read,
     * DMA write, MTT stall and packet length is still modelled), but the sender reads nothing from host memory, its
     * packets get no data buffer, and the receiver writes nothing into host memory: its target buffer keeps the bytes
     * it had. For generated workload flows, whose buffers nothing else reads; a consumer's operations never set it.
     * Set before the post.
     */
    public boolean payloadFree;

    int status = -1;
    boolean done;
    /** Its completion has been handed to the queue pair's listener (set just before the call). */
    boolean reported;
    /** It is in its queue pair's {@link QueuePair#rung} queue. */
    boolean inRung;
    /** The packets (and the payload DMA read) that hold it as their context now. */
    int references;
    /**
     * The order of this request's doorbell among its queue pair's (the engine's processing order); Long.MAX_VALUE
     * until it rings, which orders it after every request already rung.
     */
    long ringOrder = Long.MAX_VALUE;
    boolean fenceTraced;
    boolean creditTraced;
    boolean readCounted;
    long transferred;
    int rnrRetries;
    int placed;
    boolean remoteFailed;
    /** When it was posted, in explored runs only ({@link HcaChoices#WRITE_ORDER}); -1 otherwise. */
    long postedPs = -1;
    /** When the transport finished it (ACK, last read response placed, bind executed), or -1. */
    long finishedPs = -1;
    /** The earlier operation whose completion held this one's back (rule 2), or -1. */
    long heldBehind = -1;
    /**
     * A Send or RDMA Write whose payload the HCA read from memory that an earlier RDMA Read of its queue pair had not
     * yet filled (traced only): the Read, and per piece read the address and the bytes carried; null if none.
     */
    WorkRequest capturedBeforeRead;
    java.util.ArrayList<long[]> capturedAt;
    java.util.ArrayList<byte[]> capturedBytes;
    /** The RDMA Read whose data this operation's payload missed (bytes carried differ from memory then), or -1. */
    long overtookRead = -1;
    /** A receive: the queue pair whose incoming Send took it (its own, or one of its shared receive queue's). */
    QueuePair takenBy;
    /** The payload of an inline Send or RDMA Write, copied by the CPU at post time; null if not inline. */
    byte[] inlineData;
    /**
     * The message's sequence number on its queue pair (the RC transport's PSN, per message), given when its doorbell
     * rings and kept on retransmission; -1 for an RMR bind or before the doorbell.
     */
    int seq = -1;
    /** The send engine has taken it up at least once (its packets may be on their way). */
    boolean started;
    /** Requester: the response packets of an RDMA Read or atomic accepted so far (in order, each once). */
    int responses;
    /** Requester: the value of {@link #responses} at which a missing response last caused a retransmission. */
    int gapAt = -1;
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
    long ccBase = -1;
    /**
     * An RDMA Read whose data a choice point fetched at once ({@link HcaChoices#READ_FETCH}): its responses carry
     * these bytes; null in runs that do not explore, and for the timing model's fetch.
     */
    byte[] readSnapshot;
    /**
     * Explored runs: an RDMA Read's choice at {@link HcaChoices#READ_FETCH}: -1 not offered, 0 the timing model's
     * fetch, j >= 1 fetched after the first j - 1 of {@link #fetchLater}.
     */
    int fetchChoice = -1;
    /** Explored runs: a Send's (or a Write with immediate's) message has taken its receive at the responder. */
    boolean delivered;
    /** Explored runs: {@link HcaChoices#PAYLOAD_FETCH}'s choice for a Send or Write, -1 before it is made. */
    int payloadChoice = -1;
    /** Explored runs: the later unfenced Writes of its endpoint over its range when the Read was admitted. */
    java.util.ArrayList<WorkRequest> fetchLater;
    /** Responder: an atomic has been executed and {@link #atomicOriginal} holds the value it returned. */
    boolean atomicExecuted;
    /** Responder: the original value an executed atomic returned, answered again to a duplicate request. */
    long atomicOriginal;

    /**
     * Creates a work request.
     *
     * @param opId the run-unique operation id
     * @param opcode the operation (a constant of this class)
     * @param qp the queue pair
     * @param cookie the consumer's cookie
     * @param flags the completion flags
     * @param segAddress local segment addresses
     * @param segLength local segment lengths in bytes
     * @param remoteAddress the remote address (RDMA only)
     * @param rkey the remote key (RDMA only)
     */
    public WorkRequest(long opId, int opcode, QueuePair qp, long cookie, int flags, long[] segAddress,
            long[] segLength, long remoteAddress, int rkey) {
        this.qp = qp;
        init(opId, opcode, cookie, flags, segAddress, segLength, remoteAddress, rkey);
    }

    /**
     * Sets every field as a new request's: what the poster gives, and the progress of an operation not yet posted.
     * The constructor and {@link QueuePair#requestSlot} (a send-queue slot reused) call it, so a reused slot cannot
     * keep anything of the request it held before.
     */
    void init(long opId, int opcode, long cookie, int flags, long[] segAddress, long[] segLength, long remoteAddress,
            int rkey) {
        this.opId = opId;
        this.opcode = opcode;
        this.cookie = cookie;
        this.flags = flags;
        this.segAddress = segAddress;
        this.segLength = segLength;
        long sum = 0;
        for (long l : segLength) {
            sum += l;
        }
        this.length = sum;
        this.remoteAddress = remoteAddress;
        this.rkey = rkey;
        solicited = false;
        sendFlags = 0;
        compareAdd = 0;
        swap = 0;
        withImmediate = false;
        immediate = 0;
        bindTarget = null;
        payloadFree = false;
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
        fetchLater = null;
        payloadChoice = -1;
        delivered = false;
        atomicExecuted = false;
        atomicOriginal = 0;
    }

    /**
     * Whether nothing of the model refers to this request any more, so that its send-queue slot may hold a new one
     * ({@link QueuePair#requestSlot}): its completion has been reported, no packet, payload read or queue of its
     * queue pair holds it, and its queue pair never retransmitted, failed or was refused (after which responder
     * state, duplicates and late answers may still name it: its slots are then never reused).
     */
    boolean reusable() {
        return reported && references == 0 && !inRung && !qp.slotsUnsafe();
    }

    @Override
    public void packetTaken() {
        references++;
    }

    @Override
    public void packetReleased() {
        references--;
    }

    /** Returns the completion status (a {@link WcStatus}), or -1 while in progress. */
    public int status() {
        return status;
    }

    /** Explored runs: returns whether this message has taken its receive at the responder. */
    public boolean isDelivered() {
        return delivered;
    }

    /** Returns whether its completion has been handed to its queue pair's listener. */
    public boolean isReported() {
        return reported;
    }

    /** Returns true once the operation has finished, successfully or not. */
    public boolean isDone() {
        return done;
    }

    /**
     * Returns the message's sequence number on its queue pair (the RC transport's PSN, per message), given when its
     * doorbell rings and kept on retransmission; -1 for an RMR bind or before the doorbell.
     */
    public int seq() {
        return seq;
    }

    @Override
    public String requesterHost() {
        return qp.hca().name();
    }

    @Override
    public String requesterEndpoint() {
        return qp.name();
    }

    @Override
    public long operationId() {
        return opId;
    }

    @Override
    public long operationCookie() {
        return cookie;
    }

    @Override
    public int sequence() {
        return seq;
    }

    /** Returns the bytes transferred; meaningful only for a successful completion. */
    public long transferred() {
        return transferred;
    }

    /**
     * Returns the id of the earlier operation of the queue pair whose completion this one's was held behind (rule 2:
     * completions in posting order), or -1 if its completion was not held back.
     */
    public long heldBehind() {
        return heldBehind;
    }

    /**
     * Returns the id of an earlier RDMA Read of the queue pair that this Send or RDMA Write overtook: its payload was
     * read from the Read's target before the Read's data landed there, and the bytes it carried differ from what that
     * memory held when the Read finished; -1 if not (or if the trace was off, which is when this is looked for).
     */
    public long overtookRead() {
        return overtookRead;
    }

    /** Returns when the transport finished the operation, in picoseconds, or -1 if unknown (failed or flushed). */
    public long finishedPs() {
        return finishedPs;
    }

    /** Returns true for the IB atomics (Fetch and Add, Compare and Swap). */
    public boolean isAtomic() {
        return opcode == FETCH_ADD || opcode == CMP_SWAP;
    }

    /**
     * Returns true for the operations the responder answers with data: RDMA Reads and atomics. They use read credits
     * (max_rdma_read_out/in) and are what a barrier fence waits for (rules 17, 18, 49).
     */
    public boolean isReadLike() {
        return opcode == RDMA_READ || opcode == FETCH_ADD || opcode == CMP_SWAP;
    }

    /** Returns the name of the operation, for example "rdma_write". */
    public String opName() {
        switch (opcode) {
            case FETCH_ADD:
                return "fetch_add";
            case CMP_SWAP:
                return "cmp_swap";
            case SEND:
                return "send";
            case RDMA_WRITE:
                return "rdma_write";
            case RDMA_READ:
                return "rdma_read";
            case BIND:
                return "rmr_bind";
            default:
                return "recv";
        }
    }

    /**
     * Copies {@code len} bytes at message offset {@code off} between the local segments and a buffer.
     *
     * @param memory the host memory of the segments
     * @param off the offset within the message
     * @param buf the buffer
     * @param len the number of bytes
     * @param toMemory true to write the buffer into the segments, false to read the segments into the buffer
     */
    void copySegments(org.datsim.fabric.memory.HostMemory memory, long off, byte[] buf, int len, boolean toMemory) {
        walkSegments(memory, off, len, buf, toMemory, null, 0);
    }

    /**
     * Copies {@code len} bytes at message offset {@code off} of the local segments straight into another host's
     * memory ({@link org.datsim.fabric.memory.HostMemory#dmaCopyTo}: a DMA read here, a DMA write there, no buffer).
     *
     * @param memory the host memory of the segments
     * @param off the offset within the message
     * @param len the number of bytes
     * @param dst the memory written
     * @param dstAddress where the bytes land in it
     */
    void copySegmentsTo(org.datsim.fabric.memory.HostMemory memory, long off, int len,
            org.datsim.fabric.memory.HostMemory dst, long dstAddress) {
        walkSegments(memory, off, len, null, false, dst, dstAddress);
    }

    /** The segments' pieces of message bytes {@code [off, off + len)}: to or from {@code buf}, or into {@code dst}. */
    private void walkSegments(org.datsim.fabric.memory.HostMemory memory, long off, int len, byte[] buf,
            boolean toMemory, org.datsim.fabric.memory.HostMemory dst, long dstAddress) {
        long skip = off;
        int done = 0;
        for (int s = 0; s < segAddress.length && done < len; s++) {
            if (skip >= segLength[s]) {
                skip -= segLength[s];
                continue;
            }
            int n = (int) Math.min(segLength[s] - skip, len - done);
            if (dst != null) {
                memory.dmaCopyTo(segAddress[s] + skip, dst, dstAddress + done, n);
            } else if (toMemory) {
                memory.dmaWrite(segAddress[s] + skip, buf, done, n);
            } else {
                memory.dmaRead(segAddress[s] + skip, buf, done, n);
            }
            done += n;
            skip = 0;
        }
    }

    /** Whether a fence waits for this operation: an RDMA Read or IB atomic (rules 17, 18) or an RMR bind (rule 23). */
    boolean fenceSource() {
        return isReadLike() || opcode == BIND;
    }
}
