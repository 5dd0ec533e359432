package org.datsim.fabric.hca;

import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.Packet;

/**
 * Reliable delivery on the RC transport. The request messages of a queue pair are numbered in the order the send
 * engine takes them up (the PSNs, per message and packet index). The responder accepts only the next packet it
 * expects: a duplicate of a completed message is answered again, a packet ahead of the expected one is dropped with
 * one sequence-error NAK per gap, and after an RNR NAK every later packet is dropped until the refused message comes
 * again. The requester completes the Sends and Writes an ACK covers, notices missing RDMA Read responses, runs the
 * local ACK timer ({@code hca.ack_timeout}, {@code hca.retry_count}) and goes back N: the first unfinished request
 * and everything after it are sent again (traced as {@link Hca#RETRANSMIT}), at once or after the RNR timer.
 *
 * <p>A part of {@link Hca}. The {@link ReceivePipeline} asks it whether a request packet is in sequence and hands
 * it the requester's ACKs, NAKs and missing read responses; the send engine starts and the completions stop its
 * ACK timer ({@link AckTimer}). It calls the {@link Responder} (a duplicate's ACK, a sequence-error NAK), the
 * {@link ResponseEngine} (a duplicate Read or atomic answered again), the {@link SendEngine} (go-back-N puts
 * requests back in its round-robin), the {@link DmaWriter} and the {@link CompletionSink}. Its static methods
 * ({@link #accepted}, {@link #firstUnfinished}) work on a queue pair's sequencing state only.
 *
 * <p>Congestion control hears ACKs (partial ones too, with {@code transport.ack_interval}) and CNPs in the
 * {@link ReceivePipeline}'s dispatch, which hands them to the {@link SendEngine}; a go-back-N here drops the queue
 * pair's packets not yet sent from the send engine's packet arbiter ({@link SendEngine#dropNotStarted}).
 */
final class ReliableTransport implements AckTimer {

    /** The status of a NAK for a sequence error (IBA NAK code 0: a packet arrived ahead of the expected one). */
    private static final int NAK_SEQUENCE_ERROR = -2;
    /** The status of an RNR NAK (IBA NAK code 1: no receive posted); the requester waits and retries. */
    static final int NAK_RNR = -3;

    private final Simulator sim;
    private final TraceSource<TraceEvent> trace;
    private final String hostName;
    private final HcaContext c;
    private final SendEngine sendEngine;
    private final Responder responder;
    private final ResponseEngine responseEngine;
    private final DmaWriter dma;
    private final CompletionSink completions;
    private final long rnrTimer;
    private final int rnrRetry;
    private final long ackTimeout;
    private final int retryCount;
    /** The stream that spreads the local ACK timeouts (set through {@link Hca#setAckTimerRandom}), or null. */
    RandomGenerator ackTimerRandom;

    ReliableTransport(HcaContext c, Params params, SendEngine sendEngine, Responder responder,
            ResponseEngine responseEngine, DmaWriter dma, CompletionSink completions) {
        this.c = c;
        this.sim = c.sim;
        this.trace = c.trace;
        this.hostName = c.hostName;
        this.sendEngine = sendEngine;
        this.responder = responder;
        this.responseEngine = responseEngine;
        this.dma = dma;
        this.completions = completions;
        this.rnrTimer = params.get(FabricParams.RNR_TIMER);
        this.rnrRetry = (int) params.get(FabricParams.RNR_RETRY);
        this.ackTimeout = params.get(FabricParams.HCA_ACK_TIMEOUT);
        this.retryCount = (int) params.get(FabricParams.HCA_RETRY_COUNT);
    }

    /** Gives a new queue pair its ACK-timer handler (allocated once per queue pair). */
    void initTimer(QueuePair qp) {
        qp.transport.ackTimer = a -> ackTimeout(qp);
    }

    // ---------------------------------------------------------------- responder

    /**
     * Responder: whether a request packet is the next one expected on its connection (message {@code rxSeq}, packet
     * {@code rxIndex}). A duplicate of a message already completed is answered again (the last packet of a Write or
     * Send: an ACK, with no second placement or receive; an RDMA Read: its responses, read again; an atomic: the
     * original value it returned); other duplicates are dropped. A packet ahead of the expected one is dropped and
     * the first of a gap answered with a sequence-error NAK. The caller drops (releases) a packet refused here.
     */
    boolean inSequence(QueuePair qp, Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        if (wr.seq == qp.transport.rxSeq && p.index == qp.transport.rxIndex) {
            return true;
        }
        outOfSequence(qp, p, wr);
        return false;
    }

    /** A packet that is not the next expected: a duplicate (answered again if complete) or ahead of it (NAK). */
    private void outOfSequence(QueuePair qp, Packet p, WorkRequest wr) {
        wr.qp.markSlotsUnsafe(); // duplicates and NAKs name requests the requester may have finished
        int seq = wr.seq;
        if (seq < qp.transport.rxSeq) {
            switch (p.kind) {
                case Packet.SEND:
                case Packet.RDMA_WRITE:
                    if (p.isLast()) {
                        responder.ackAfterWrite(qp, wr, dma.dmaWriteDelay(0, 0)); // after the DMA writes issued so far
                    }
                    break;
                case Packet.READ_REQUEST:
                    responseEngine.replayRead(qp, wr);
                    break;
                default:
                    responseEngine.replayAtomicLater(qp, wr);
                    break;
            }
        } else if (seq > qp.transport.rxSeq || p.index > qp.transport.rxIndex) {
            if (!qp.transport.nakSent) {
                qp.transport.nakSent = true;
                responder.reply(qp, wr, Packet.NAK, NAK_SEQUENCE_ERROR);
            }
        }
    }

    /** Responder: a request packet was accepted; the next one of its message, or the next message, is expected. */
    static void accepted(QueuePair qp, Packet p) {
        qp.transport.nakSent = false;
        if (p.isLast()) {
            qp.transport.rxSeq++;
            qp.transport.rxIndex = 0;
        } else {
            qp.transport.rxIndex++;
        }
    }

    // ---------------------------------------------------------------- requester

    /** An ACK arrived: the message it acknowledges (and every earlier one) has been placed. */
    void onAck(WorkRequest wr) {
        QueuePair qp = wr.qp;
        progress(qp);
        if (wr.done) {
            return;
        }
        if (qp.transport.rung.peekFirst() != wr) { // usually the head: earlier ones finished and were dropped from it
            acknowledgeEarlier(qp, wr);
        }
        wr.transferred = wr.length;
        completions.transportDone(wr, WcStatus.SUCCESS);
    }

    /**
     * An ACK covers every earlier message (the responder accepts messages in order): earlier Sends and Writes whose
     * own ACK was lost complete now; an earlier RDMA Read or atomic still missing a response lost it, and the
     * requester goes back to it at once.
     */
    private void acknowledgeEarlier(QueuePair qp, WorkRequest wr) {
        if (wr.seq < 0) {
            return;
        }
        for (WorkRequest o = qp.transport.firstUnfinished(); o != null && o != wr && o.started && o.seq >= 0 && o.seq < wr.seq;
                o = qp.transport.firstUnfinished()) {
            if (o.isReadLike()) {
                if (o.responses < responseCount(o)) {
                    responseMissing(o);
                }
                return;
            }
            qp.markSlotsUnsafe(); // an ACK was lost: it may still be somewhere
            o.transferred = o.length;
            completions.transportDone(o, WcStatus.SUCCESS);
        }
    }

    /** The response packets an RDMA Read or atomic gets. */
    private int responseCount(WorkRequest wr) {
        return wr.isAtomic() ? 1 : c.packetCount(wr.length);
    }

    /**
     * A response of an RDMA Read or atomic is missing (one ahead of it arrived, or a later message's ACK): the
     * requester sends the request again, with everything after its first unfinished request, once per gap.
     */
    void responseMissing(WorkRequest wr) {
        QueuePair qp = wr.qp;
        if (wr.gapAt == wr.responses || !qp.active || qp.transport.paused) {
            return;
        }
        wr.gapAt = wr.responses;
        progress(qp);
        retransmit(qp, qp.transport.firstUnfinished(), "response_missing");
    }

    /** The requester heard from the responder: the ACK timer counts from now and the retry count starts again. */
    void progress(QueuePair qp) {
        qp.transport.progressPs = sim.now();
        qp.transport.retries = 0;
    }

    /**
     * The local ACK timer of a queue pair fires. If a request is on its way and nothing was heard from the
     * responder for {@code hca.ack_timeout}, the requester retransmits (go-back-N from the first unfinished request)
     * or, after {@code hca.retry_count} retries without progress, fails that request with IBV_WC_RETRY_EXC_ERR
     * (DAT_DTO_ERR_TRANSPORT), flushing the rest. Otherwise the timer is set again for the deadline (it fired early:
     * progress moved it) or stays off until a request starts (nothing is in flight).
     */
    private void ackTimeout(QueuePair qp) {
        qp.transport.ackTimerEvent = 0;
        if (!qp.active) {
            return;
        }
        WorkRequest first = qp.transport.firstUnfinished();
        if (first == null || !first.started) {
            return;
        }
        long now = sim.now();
        long deadline = plus(qp.transport.progressPs, qp.transport.ackWaitPs);
        if (deadline > now || qp.transport.paused) {
            // Progress since it was set, or an RNR NAK's wait (progress too): wait for the new deadline.
            qp.transport.ackTimerEvent = sim.scheduleAt(deadline > now ? deadline : plus(now, qp.transport.ackWaitPs), qp.transport.ackTimer, 0);
            return;
        }
        if (qp.transport.retries >= retryCount) {
            completions.fail(qp, first, WcStatus.RETRY_EXC_ERR); // transport retry counter exceeded
            return;
        }
        qp.transport.retries++;
        qp.transport.progressPs = now;
        qp.transport.ackWaitPs = drawAckWait();
        qp.transport.ackTimerEvent = sim.scheduleAt(plus(now, qp.transport.ackWaitPs), qp.transport.ackTimer, 0);
        retransmit(qp, first, "ack_timeout");
    }

    /** Nothing was in flight on a queue pair and a request starts: its ACK timer starts (one pending event per QP). */
    @Override
    public void start(QueuePair qp, long now) {
        qp.transport.progressPs = now;
        qp.transport.ackWaitPs = drawAckWait();
        qp.transport.ackTimerEvent = sim.scheduleAt(plus(now, qp.transport.ackWaitPs), qp.transport.ackTimer, 0);
    }

    @Override
    public void rung(WorkRequest wr) {
        TransportState t = wr.qp.transport;
        wr.ringOrder = t.rings++;
        if (wr.opcode != WorkRequest.BIND) {
            wr.seq = t.nextSeq++; // the send engine takes requests up in doorbell order: so they go on the wire
        }
        t.rung.addLast(wr);
        wr.inRung = true;
    }

    @Override
    public void reset(QueuePair qp) {
        stop(qp);
        qp.transport.reset();
    }

    /** Cancels a queue pair's pending ACK-timer event, if any. */
    @Override
    public void stop(QueuePair qp) {
        if (qp.transport.ackTimerEvent != 0) {
            sim.cancel(qp.transport.ackTimerEvent);
            qp.transport.ackTimerEvent = 0;
        }
    }

    /**
     * The wait of a local ACK timeout: {@code hca.ack_timeout} plus a uniform draw below it. HCAs check their timers
     * with a coarse granularity and randomise them so that queue pairs that lost packets together do not retry in
     * step (and lose them together again).
     */
    private long drawAckWait() {
        if (ackTimerRandom == null) {
            return ackTimeout;
        }
        return plus(ackTimeout, (long) (ackTimerRandom.nextDouble() * ackTimeout));
    }

    /** a + b for non-negative times, saturating at Long.MAX_VALUE. */
    private static long plus(long a, long b) {
        long sum = a + b;
        return sum < 0 ? Long.MAX_VALUE : sum;
    }

    /**
     * Go-back-N: sends {@code first} and every later request of its queue pair whose doorbell has rung and that has
     * not finished again, in doorbell order; the send engine reads their payloads again. Traced as
     * {@code retransmit}.
     */
    private void retransmit(QueuePair qp, WorkRequest first, String reason) {
        first.retransmits++;
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), Hca.RETRANSMIT, hostName).ep(qp.name).op(first.opId)
                    .cookie(first.cookie).attr(TraceKey.OPCODE, first.opName()).attr(TraceKey.REASON, reason)
                    .attr(TraceKey.ATTEMPT, (long) first.retransmits));
        }
        requeueFrom(qp, first);
    }

    /** Puts {@code first} and every later unfinished request of the queue pair back into its send queue. */
    private void requeueFrom(QueuePair qp, WorkRequest first) {
        qp.markSlotsUnsafe(); // copies of finished requests' packets may still be on their way
        sendEngine.requeueFrom(qp, first);
    }

    /** A NAK arrived: a sequence error (go back N), an RNR NAK (wait, then go back), or a fatal error. */
    void onNak(WorkRequest wr, int status) {
        QueuePair nakked = wr.qp;
        nakked.markSlotsUnsafe();
        progress(nakked);
        if (status == NAK_SEQUENCE_ERROR) {
            // Something before the packet the responder refused was lost: go back to the first unfinished request.
            // While an RNR NAK's wait runs, the retransmission after it goes back anyway.
            WorkRequest first = nakked.transport.firstUnfinished();
            if (nakked.active && !nakked.transport.paused && first != null && first.started) {
                retransmit(nakked, first, "nak_sequence_error");
            }
            return;
        }
        if (wr.done) {
            return;
        }
        if (status == NAK_RNR && (rnrRetry == 7 || wr.rnrRetries < rnrRetry)) {
            wr.rnrRetries++;
            QueuePair qp = wr.qp;
            qp.transport.paused = true;
            sendEngine.dropNotStarted(qp, wr);
            sim.schedule(rnrTimer, () -> retransmitFrom(wr));
            return;
        }
        completions.fail(wr.qp, wr, status == NAK_RNR ? WcStatus.RNR_RETRY_EXC_ERR : status);
    }

    /**
     * Restarts a queue pair after the RNR timer: the refused message and every later operation whose doorbell has
     * rung and that has not finished are sent again, in doorbell order (posting order, unless an inline doorbell was
     * overtaken), which is the order of their sequence numbers.
     */
    private void retransmitFrom(WorkRequest wr) {
        QueuePair qp = wr.qp;
        qp.transport.paused = false;
        if (wr.done || !qp.active) {
            return;
        }
        requeueFrom(qp, wr);
    }
}
