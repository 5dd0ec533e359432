package org.datsim.fabric.hca;

import java.util.ArrayDeque;

/**
 * One reliable-connected endpoint on an HCA: its identity (HCA, name, QP-context key, flow label, send-queue slots)
 * and its connection (listener, peer, active or in error, shared receive queue). What each part of the HCA keeps about
 * it is in a state object of that part, written only by it ({@code HcaStateOwnershipTest}): {@link SendState},
 * {@link TransportState}, {@link ResponderState}, {@link ReadResponderState}, {@link CompletionState} and
 * {@link PipelineState}.
 *
 * <p>Their five queues of work requests start with room for one (an {@code ArrayDeque} grows by doubling when it
 * must): most queue pairs hold one or two requests at a time, and a fabric of a million queue pairs (a k=32 fat-tree
 * with 64 peers a host) would otherwise keep 64 bytes of empty room in each of five queues of each, 320 MB.
 */
public final class QueuePair {

    /** What the HCA tells the owner of a queue pair (the DAT endpoint). */
    public interface Listener {
        /**
         * A request operation's completion has been written; called in posting order, also for suppressed
         * successful completions (the listener decides whether an event is generated).
         *
         * @param wr the operation
         */
        void requestCompleted(WorkRequest wr);

        /**
         * A receive has completed (successfully or flushed); called in posting order.
         *
         * @param wr the receive
         */
        void receiveCompleted(WorkRequest wr);

        /**
         * The queue pair went to the error state: every outstanding operation has been or will be flushed.
         *
         * @param status the DTO status that broke it
         */
        void broken(int status);

        /**
         * Checks an incoming RDMA access against the memory registered on this queue pair's host.
         *
         * @param rkey the remote key (rmr_context)
         * @param address the first address
         * @param length the number of bytes
         * @param write true for an RDMA Write, false for an RDMA Read
         * @return {@link WcStatus#SUCCESS} or the error status to report (IBV_WC_REM_ACCESS_ERR)
         */
        int checkRemoteAccess(int rkey, long address, long length, boolean write);

        /**
         * Checks an incoming IB atomic against the memory registered on this queue pair's host: like an RDMA Write,
         * but the region needs the remote-atomic privilege (DAT_IB_MEM_PRIV_REMOTE_ATOMIC).
         *
         * @param rkey the remote key (rmr_context)
         * @param address the address of the 8-byte value
         * @return {@link WcStatus#SUCCESS} or the error status to report (IBV_WC_REM_ACCESS_ERR)
         */
        default int checkRemoteAtomic(int rkey, long address) {
            return checkRemoteAccess(rkey, address, WorkRequest.ATOMIC_BYTES, true);
        }

        /**
         * The first packet of a request from the peer arrived; on a passive endpoint still waiting for the
         * connection manager's RTU this establishes the connection (InfiniBand's communication-established event).
         */
        default void requestArrived() {
        }

        /**
         * The HCA executes an RMR bind: from now on the new rmr_context is valid and the old one is not.
         *
         * @param wr the bind
         * @return {@link WcStatus#SUCCESS}, or {@link WcStatus#MW_BIND_ERR} if the bind cannot be done (the connection breaks)
         */
        default int bindExecuted(WorkRequest wr) {
            return WcStatus.SUCCESS;
        }
    }

    /**
     * A shared receive queue (DAT SRQ) that queue pairs attached to it take their receives from, in place of their
     * own receive queue.
     */
    public interface SharedReceiveQueue {
        /**
         * Takes the next receive for a message arriving at a queue pair.
         *
         * @param qp the queue pair the message arrived at
         * @return the receive, or null if none is posted (the sender is then refused with RNR, as without an SRQ)
         */
        WorkRequest take(QueuePair qp);
    }

    final Hca hca;
    final String name;
    /** The key of this queue pair's context in its HCA's QP-context cache (its index on the HCA). */
    final int cacheKey;
    Listener listener;
    /** The shared receive queue this queue pair takes its receives from, or null for its own queue. */
    SharedReceiveQueue srq;
    QueuePair peer;
    boolean active;
    boolean errored;
    /** Destroyed by its HCA ({@link Hca#destroyQueuePair}): packets arriving for it are dropped. */
    boolean destroyed;
    /** The send engine's state of this queue pair (send queue, fences, read credits out, arbiter, CC). */
    final SendState send = new SendState();
    /** The reliable transport's state (PSNs, the requests rung, the ACK timer, the RNR pause). */
    final TransportState transport = new TransportState();
    /** The responder's state for Writes and Sends (posted receives, the message being received). */
    final ResponderState responder = new ResponderState();
    /** The response engine's state (read credits in, the responses' schedule). */
    final ReadResponderState reads = new ReadResponderState();
    /** The completions' state (the outstanding requests in posting order). */
    final CompletionState completion = new CompletionState();
    /** The receive pipeline's state (DCQCN's notification point). */
    final PipelineState pipeline = new PipelineState();
    /** The flow hash of this queue pair's packets (and of the responses to them), for ECMP. */
    int flow;

    /**
     * Sets the flow label that switches hash for ECMP on this queue pair's packets and the responses to them (by
     * default a hash of the host and the queue pair's number). With {@code switch.ecmp hpcc} it is HPCC's UDP ports,
     * {@code sport | dport << 16}.
     *
     * @param label the label
     */
    public void setFlowLabel(int label) {
        this.flow = label;
    }

    /**
     * The send queue's slots ({@link #requestSlot}): the work-request objects posted last, one per slot of the queue's
     * depth, reused round-robin as a provider reuses a completed WQE slot; empty while the depth is 0.
     */
    private WorkRequest[] slots = new WorkRequest[0];
    private int slotNext;
    /**
     * A request of this queue pair was retransmitted, refused, answered out of sequence or failed: responder state,
     * duplicates and late answers may still name a finished request, so its slots are never reused again.
     */
    private boolean slotsUnsafe;

    /**
     * Marks this queue pair's slots as never to be reused again (a request was retransmitted, refused, answered out
     * of sequence or failed); any part may call it, and nothing clears it.
     */
    void markSlotsUnsafe() {
        slotsUnsafe = true;
    }

    /** Returns whether this queue pair's slots may no longer be reused ({@link #markSlotsUnsafe}). */
    boolean slotsUnsafe() {
        return slotsUnsafe;
    }

    QueuePair(Hca hca, String name, int cacheKey) {
        this.hca = hca;
        this.name = name;
        this.cacheKey = cacheKey;
    }

    /**
     * Sets the RDMA Read limits of this queue pair.
     *
     * @param in reads served at once as their target; more break the connection
     * @param out reads outstanding at once as their originator; more wait in the send queue
     */
    public void setReadCredits(int in, int out) {
        reads.setMaxReadsIn(in);
        send.setMaxReadsOut(out);
    }

    /**
     * Sets the depth of the send queue's ring of slots that {@link #requestSlot} reuses (0, the default: every
     * request is a new object).
     *
     * @param depth the slots, at least 0
     */
    public void setSendQueueDepth(int depth) {
        if (depth < 0) {
            throw new IllegalArgumentException("send queue depth " + depth + " < 0");
        }
        slots = new WorkRequest[depth];
        slotNext = 0;
    }

    /**
     * A work request for the next post on this queue pair, in the send queue's next slot: the slot's earlier request
     * object, set afresh, if nothing of the model refers to that request any more (its completion reported; none of
     * its packets, payload reads or queue entries left; the queue pair never retransmitted, failed or was refused;
     * the run not explored), as a provider writes a new WQE into a completed slot; otherwise a new object, which
     * takes the slot. Its fields are those the constructor would give. The caller posts it with
     * {@link Hca#postRequest}; a listener that reuses a slot from within {@link Listener#requestCompleted} must have
     * read what it needs of the completed request first, since the same object may come back.
     *
     * @param opId the run-unique operation id
     * @param opcode the operation (a constant of {@link WorkRequest})
     * @param cookie the consumer's cookie
     * @param flags the completion flags
     * @param segAddress local segment addresses
     * @param segLength local segment lengths in bytes
     * @param remoteAddress the remote address (RDMA only)
     * @param rkey the remote key (RDMA only)
     * @return the work request, not yet posted
     */
    public WorkRequest requestSlot(long opId, int opcode, long cookie, int flags, long[] segAddress,
            long[] segLength, long remoteAddress, int rkey) {
        if (slots.length == 0) {
            return new WorkRequest(opId, opcode, this, cookie, flags, segAddress, segLength, remoteAddress, rkey);
        }
        int k = slotNext;
        slotNext = k + 1 == slots.length ? 0 : k + 1;
        WorkRequest wr = slots[k];
        if (wr != null && wr.inRung && wr.reported) {
            transport.firstUnfinished(); // drops the finished requests at the head of the rung queue
        }
        if (wr != null && wr.reusable() && !hca.exploring()) {
            wr.init(opId, opcode, cookie, flags, segAddress, segLength, remoteAddress, rkey);
            return wr;
        }
        wr = new WorkRequest(opId, opcode, this, cookie, flags, segAddress, segLength, remoteAddress, rkey);
        slots[k] = wr;
        return wr;
    }

    /** Returns the name used in traces (the DAT endpoint's name). */
    public String name() {
        return name;
    }

    /** Returns the HCA this queue pair lives on. */
    public Hca hca() {
        return hca;
    }

    /**
     * Attaches this queue pair to a shared receive queue: incoming Sends then take their receives from it.
     *
     * @param srq the shared receive queue
     */
    public void setSharedReceiveQueue(SharedReceiveQueue srq) {
        this.srq = srq;
    }


    /** Sets the owner that hears completions and errors. */
    public void setListener(Listener listener) {
        this.listener = listener;
    }

    /**
     * Connects this queue pair to its peer and makes it ready to send and receive (RTS).
     *
     * @param peer the remote queue pair
     */
    public void connect(QueuePair peer) {
        this.peer = peer;
        this.active = true;
        this.errored = false;
        // A new connection numbers its messages from 0 in both directions.
        transport.connected();
        send.connected();
        responder.connected();
    }

    /** Its HCA destroyed it ({@link Hca#destroyQueuePair}). */
    void markDestroyed() {
        destroyed = true;
    }

    /** Returns true once its HCA destroyed it ({@link Hca#destroyQueuePair}). */
    public boolean isDestroyed() {
        return destroyed;
    }

    /** The queue pair failed ({@link Completions#flush}): it moves no data until it is reset. */
    void broken() {
        active = false;
        errored = true;
    }

    /** The queue pair is reset ({@link Hca#reset}): not connected, not in error. */
    void disconnected() {
        peer = null;
        active = false;
        errored = false;
    }

    /** Returns true while the queue pair may move data. */
    public boolean isActive() {
        return active;
    }

    /**
     * Collects the outstanding request operations whose completion has not been reported yet (explored runs: the
     * completions that may still come, for {@code evd.reap_order}).
     *
     * @param messagesOnly only Sends and RDMA Writes with immediate data (those that complete a receive at the peer)
     * @param into receives them
     */
    public void unreportedRequests(boolean messagesOnly, java.util.List<WorkRequest> into) {
        for (WorkRequest w : completion.outstanding) {
            if (!w.reported && (!messagesOnly || w.opcode == WorkRequest.SEND || w.withImmediate)) {
                into.add(w);
            }
        }
        hca.reporting(this, messagesOnly, into);
    }

    /** Returns the queue pair this one is connected to, or null. */
    public QueuePair peer() {
        return peer;
    }

    /** Returns the number of request operations posted and not yet reported. */
    public int outstandingRequests() {
        return completion.outstanding.size();
    }

    /** Returns the number of receives posted and not yet completed. */
    public int postedReceives() {
        return responder.receives.size() + (responder.inbound != null ? 1 : 0);
    }
}
