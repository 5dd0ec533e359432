package org.datsim.fabric.hca;

import java.util.ArrayDeque;

/**
 * The transport state of one reliable-connected endpoint on an HCA: its send queue (posted, not yet started), its
 * outstanding request operations in posting order, its posted receives, and its connection to the peer queue pair.
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
    final ArrayDeque<WorkRequest> notStarted = new ArrayDeque<>();
    final ArrayDeque<WorkRequest> outstanding = new ArrayDeque<>();
    /**
     * How many of {@link #outstanding} a fence can wait for (RDMA Reads, IB atomics and RMR binds, finished or not):
     * while it is zero no fence can hold anything, and the send engine skips the scan of the outstanding queue.
     */
    int fenceSources;
    final ArrayDeque<WorkRequest> receives = new ArrayDeque<>();
    boolean queued;
    /** Requester: set from an RNR NAK until the retransmission restarts; the send engine skips this QP. */
    boolean paused;
    /** RDMA Read credits (rule 49): limits and the reads outstanding in each direction. */
    int maxReadsOut = Integer.MAX_VALUE;
    int maxReadsIn = Integer.MAX_VALUE;
    int readsOut;
    int readsIn;
    /** Requester: the head of the send queue is an RDMA Read waiting for a read credit. */
    boolean creditBlocked;
    /** Requester: the head of the send queue waits behind a barrier fence for earlier RDMA Reads. */
    boolean fenced;
    WorkRequest inbound;
    WorkRequest dropping;
    /** Responder: when the RDMA Read responses scheduled so far have all been handed to the port. */
    long responsesUntil;
    /** Responder: the message refused with an RNR NAK; later packets are dropped until it is sent again. */
    WorkRequest rnrBlocked;
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
    boolean slotsUnsafe;

    // Reliable delivery (the PSNs of the RC transport, counted per message), requester side.
    /** The sequence number the next request message whose doorbell rings gets (RMR binds get none). */
    int nextSeq;
    /** Doorbells rung so far, for {@link WorkRequest#ringOrder} (never reset: it only orders). */
    long rings;
    /**
     * Every request whose doorbell has rung and that had not finished when last looked at, in doorbell order (the
     * order the send engine takes them up, so sequence order): finished ones are dropped from the head lazily.
     */
    final ArrayDeque<WorkRequest> rung = new ArrayDeque<>();
    /** When the requester last heard from the responder (an ACK, NAK or response), or last retransmitted. */
    long progressPs;
    /** The current local ACK timeout: hca.ack_timeout plus a draw below it, drawn when the timer is set afresh. */
    long ackWaitPs;
    /** Local ACK timeouts in a row without progress (at most hca.retry_count are retried). */
    int retries;
    /** The pending ACK-timer event, or 0 when none is pending (the queue pair had nothing in flight). */
    long ackTimerEvent;
    /** Runs this queue pair's ACK timer (set by the HCA at creation). */
    org.datsim.core.engine.EventHandler ackTimer;

    // Packet arbitration and congestion control (hca.arbitration packet, cc.*), requester side.
    /** The work requests whose packets the packet arbiter sends, in sequence order (packet arbitration only). */
    final ArrayDeque<WorkRequest> txQueue = new ArrayDeque<>();
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

    // Responder side.
    /** The payload bytes of Sends and Writes accepted in sequence: what an ACK carries (its cumulative count). */
    long ccRxBytes;
    /** DCQCN's notification point for this receiving queue pair, made at its first ECN-marked packet, or null. */
    org.datsim.fabric.cc.DcqcnNotificationPoint np;
    /** The sequence number of the next request message this responder accepts. */
    int rxSeq;
    /** The index of the packet of message {@link #rxSeq} it accepts next. */
    int rxIndex;
    /** A sequence-error NAK was sent for the expected packet: later packets ahead of it are dropped silently. */
    boolean nakSent;

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
        this.maxReadsIn = in;
        this.maxReadsOut = out;
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
            ReliableTransport.firstUnfinished(this); // drops the finished requests at the head of the rung queue
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

    /** Takes the receive for the next incoming message: from the shared receive queue if any, else its own. */
    WorkRequest takeReceive() {
        return srq != null ? srq.take(this) : receives.pollFirst();
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
        this.nextSeq = 0;
        this.rung.clear();
        this.retries = 0;
        this.rxSeq = 0;
        this.rxIndex = 0;
        this.nakSent = false;
        this.ccStreamEnd = 0;
        this.ccSndNxt = 0;
        this.ccSndUna = 0;
        this.ccRxBytes = 0;
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
        for (WorkRequest w : outstanding) {
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
        return outstanding.size();
    }

    /** Returns the number of receives posted and not yet completed. */
    public int postedReceives() {
        return receives.size() + (inbound != null ? 1 : 0);
    }
}
