package org.datsim.fabric.hca;

import org.datsim.fabric.link.PacketOperation;

/**
 * One posted operation: a Send, RDMA Write, RDMA Read, IB atomic (Fetch and Add, Compare and Swap) or Receive, with
 * its local scatter/gather list (host virtual addresses), its remote target for RDMA, and its progress. Operation
 * codes are the HCA's own, numbered as ibverbs numbers them ({@code enum ibv_wr_opcode}; a receive, which has no
 * work-request opcode there, as {@code IBV_WC_RECV}); the DAT provider translates DAT operations into them and back.
 */
public final class WorkRequest extends RequestProgress implements PacketOperation {

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

    // The request as posted: what the poster wrote into the WQE. Written only by this class (an ArchUnit rule
    // checks): by the constructor, or by init when a send-queue slot is reused (QueuePair#requestSlot), and by the
    // set* methods below before the post; read-only otherwise. Its progress is in RequestProgress.
    /** The run-unique operation id. */
    public long opId;
    /** The operation code (the constants of this class). */
    public int opcode;
    /** The queue pair it was posted on. */
    public final QueuePair qp;
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
     * completes with them ({@link #setImmediate}, before the post). A receive that such a Write consumed tells
     * so by {@link #hasImmediate()}.
     */
    public boolean withImmediate;
    /** The 32-bit immediate data of an RDMA Write with immediate ({@link #immediateData()} also for a receive). */
    public int immediate;

    /** What an RMR bind binds (the DAT layer's object); null for data transfers. */
    public Object bindTarget;
    /**
     * Payload-free: the operation's packets carry no bytes. Its timing is the same as with them (every DMA read,
     * DMA write, MTT stall and packet length is still modelled), but the sender reads nothing from host memory, its
     * packets get no data buffer, and the receiver writes nothing into host memory: its target buffer keeps the bytes
     * it had. For generated workload flows, whose buffers nothing else reads; a consumer's operations never set it.
     * Set before the post ({@link #setPayloadFree}).
     */
    public boolean payloadFree;

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
        super(); // the progress of an operation not yet posted
        this.qp = qp;
        setPosted(opId, opcode, cookie, flags, segAddress, segLength, remoteAddress, rkey);
    }

    /**
     * Sets every field as a new request's: what the poster gives, and the progress of an operation not yet posted.
     * {@link QueuePair#requestSlot} calls it when a send-queue slot is reused, so a reused slot cannot keep anything
     * of the request it held before.
     */
    void init(long opId, int opcode, long cookie, int flags, long[] segAddress, long[] segLength, long remoteAddress,
            int rkey) {
        setPosted(opId, opcode, cookie, flags, segAddress, segLength, remoteAddress, rkey);
        resetProgress();
    }

    /** Sets the request as posted: what the poster gives, and the before-the-post fields at their defaults. */
    private void setPosted(long opId, int opcode, long cookie, int flags, long[] segAddress, long[] segLength,
            long remoteAddress, int rkey) {
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
        sendFlags = 0;
        compareAdd = 0;
        swap = 0;
        withImmediate = false;
        immediate = 0;
        bindTarget = null;
        payloadFree = false;
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

    /**
     * Sets what the HCA reads of the post's flags ({@link #SEND_FENCE}, {@link #SEND_SOLICITED}); before the post.
     *
     * @param sendFlags the flags
     */
    public void setSendFlags(int sendFlags) {
        this.sendFlags = sendFlags;
    }

    /**
     * Makes an RDMA Write one with immediate data; before the post.
     *
     * @param immediate the 32-bit immediate data its last packet carries
     */
    public void setImmediate(int immediate) {
        this.withImmediate = true;
        this.immediate = immediate;
    }

    /**
     * Sets an atomic's operands; before the post.
     *
     * @param compareAdd the value added (Fetch and Add) or compared (Compare and Swap)
     * @param swap a Compare and Swap's value stored when the remote value equals {@code compareAdd}
     */
    public void setAtomicOperands(long compareAdd, long swap) {
        this.compareAdd = compareAdd;
        this.swap = swap;
    }

    /**
     * Sets what an RMR bind binds (the DAT layer's object); before the post.
     *
     * @param bindTarget the binding
     */
    public void setBindTarget(Object bindTarget) {
        this.bindTarget = bindTarget;
    }

    /**
     * Makes the operation payload-free ({@link #payloadFree}); before the post.
     *
     * @param payloadFree true for payload-free
     */
    public void setPayloadFree(boolean payloadFree) {
        this.payloadFree = payloadFree;
    }

    /**
     * Returns whether immediate data goes with this operation: an RDMA Write with immediate, or a receive such a
     * Write consumed.
     */
    public boolean hasImmediate() {
        return withImmediate || receivedImmediate;
    }

    /** Returns the immediate data: the Write's, or for a receive the data it got (0 if none). */
    public int immediateData() {
        return opcode == RECV ? receivedImmediateData : immediate;
    }

    /** A receive: returns whether the Send that filled it asked for a solicited event. */
    public boolean isSolicited() {
        return receivedSolicited;
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
        walkSegments(memory, off, len, buf, toMemory, null, 0, null);
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
        walkSegments(memory, off, len, null, false, dst, dstAddress, null);
    }

    /**
     * Shares the memory pages holding {@code len} bytes at message offset {@code off} of the local segments into a
     * packet ({@link org.datsim.fabric.link.Packet#addSnapshot}): a DMA read that copies nothing, the pages kept as
     * they are now ({@link org.datsim.fabric.memory.HostMemory#dmaSharePage}).
     *
     * @param memory the host memory of the segments (DMA reads plain)
     * @param off the offset within the message
     * @param len the number of bytes
     * @param p the packet
     */
    void shareSegments(org.datsim.fabric.memory.HostMemory memory, long off, int len,
            org.datsim.fabric.link.Packet p) {
        walkSegments(memory, off, len, null, false, null, 0, p);
    }

    /** The pages holding {@code n} bytes of a segment at {@code a}, each piece shared into packet {@code p}. */
    private static void sharePieces(org.datsim.fabric.memory.HostMemory memory, long a, int n,
            org.datsim.fabric.link.Packet p) {
        int pageSize = org.datsim.fabric.memory.SparseMemory.PAGE_SIZE;
        for (int left = n; left > 0; ) {
            int inPage = (int) (a & (pageSize - 1));
            int m = Math.min(left, pageSize - inPage);
            p.addSnapshot(memory.dmaSharePage(a), inPage, m);
            a += m;
            left -= m;
        }
    }

    /**
     * The segments' pieces of message bytes {@code [off, off + len)}: to or from {@code buf}, into {@code dst}, or
     * shared into packet {@code share}.
     */
    private void walkSegments(org.datsim.fabric.memory.HostMemory memory, long off, int len, byte[] buf,
            boolean toMemory, org.datsim.fabric.memory.HostMemory dst, long dstAddress,
            org.datsim.fabric.link.Packet share) {
        long skip = off;
        int done = 0;
        for (int s = 0; s < segAddress.length && done < len; s++) {
            if (skip >= segLength[s]) {
                skip -= segLength[s];
                continue;
            }
            int n = (int) Math.min(segLength[s] - skip, len - done);
            if (share != null) {
                sharePieces(memory, segAddress[s] + skip, n, share);
            } else if (dst != null) {
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
