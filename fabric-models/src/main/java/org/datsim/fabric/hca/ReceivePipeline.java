package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.cc.CongestionControl;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.memory.HostMemory;

/**
 * The receive pipeline. Every arriving packet needs its QP context: a request's
 * target QP, or the requester's own QP for its acknowledgements and read responses. A miss stalls the pipeline
 * (packets leave it in arrival order), which then spends {@code hca.rx_process} and hands the packet on: requests to
 * the {@link Responder} (Writes, Sends) or the {@link ResponseEngine} (Reads, atomics), ACKs and NAKs to the
 * {@link ReliableTransport}; RDMA Read responses and atomic acknowledgements are placed here, at the requester,
 * through the {@link DmaWriter} (in arrival order at {@code pcie.bandwidth}, each page translated, landing
 * {@code pcie.latency} later).
 *
 * <p>A part of {@link Hca}, the first of a packet's way in: {@link Hca#receive} hands it every packet but the
 * connection manager's, and it calls the {@link OnChipCaches}, the {@link ReliableTransport} (connection checks, ACKs,
 * NAKs, missing responses), the {@link Responder}, the {@link ResponseEngine}, the {@link DmaWriter} and the
 * {@link CompletionSink}; nothing calls back into it.
 *
 * <p>Congestion control's receive side: {@link #enterPipeline} sees every arriving packet first; an ECN-marked Send or
 * Write packet goes to its queue pair's DCQCN notification point, which may send a CNP back through the
 * {@link Responder}. ACKs (their cumulative bytes, ECN echo and INT records) and CNPs for this HCA's own queue pairs go
 * to the {@link SendEngine}'s controllers.
 */
final class ReceivePipeline {

    private final HcaContext c;
    private final Simulator sim;
    private final TraceSource<TraceEvent> trace;
    private final String hostName;
    private final HostMemory memory;
    private final OnChipCaches caches;
    private final DmaWriter dma;
    private final Responder responder;
    private final ResponseEngine responseEngine;
    private final ReliableTransport transport;
    private final CompletionSink completions;

    private final long rxProcess;
    /** The congestion control when it uses CNPs (DCQCN), else null: set by the {@link Hca}. */
    CongestionControl cnpSource;
    /** The send engine, which hears congestion-control feedback (ACKs, CNPs) for its queue pairs. */
    SendEngine sendEngine;
    /** When the last stall (a QP-context miss) ends; packets leave the pipeline in arrival order. */
    private long rxStallFree;
    private final ArrayDeque<Packet> rxQueue = new ArrayDeque<>();
    private final EventHandler rxDeliver = a -> deliver(rxQueue.pollFirst());
    /** Packets dropped because their queue pair had been destroyed when they left the pipeline. */
    private long destroyedDrops;
    private final EventHandler placeReadResponseHandler = id -> placeReadResponse(packet(id));

    ReceivePipeline(HcaContext c, Params params, OnChipCaches caches, DmaWriter dma, Responder responder,
            ResponseEngine responseEngine, ReliableTransport transport, CompletionSink completions) {
        this.c = c;
        this.sim = c.sim;
        this.trace = c.trace;
        this.hostName = c.hostName;
        this.memory = c.memory;
        this.caches = caches;
        this.dma = dma;
        this.responder = responder;
        this.responseEngine = responseEngine;
        this.transport = transport;
        this.completions = completions;
        this.rxProcess = params.get(FabricParams.HCA_RX_PROCESS);
    }

    /** A packet other than a connection-management datagram arrived at this HCA. */
    void enterPipeline(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = queuePairOf(p);
        long now = sim.now();
        if (p.ecn && cnpSource != null && (p.kind == Packet.SEND || p.kind == Packet.RDMA_WRITE)
                && (qp == null || !qp.destroyed)) {
            notified(qp, wr, now);
        }
        long stall = caches.qpcCost(qp, wr);
        if (stall == 0 && rxProcess == 0 && rxStallFree <= now && rxQueue.isEmpty()) {
            dispatchOrDrop(p, qp);
            return;
        }
        long t = Math.max(now, rxStallFree) + stall;
        rxStallFree = t;
        rxQueue.addLast(p);
        sim.scheduleAt(t + rxProcess, rxDeliver, 0);
    }

    /** The queue pair a packet is for: the responder's (its endpoint) or the requester's (its request's). */
    private static QueuePair queuePairOf(Packet p) {
        boolean toResponder = p.kind == Packet.SEND || p.kind == Packet.RDMA_WRITE || p.kind == Packet.READ_REQUEST
                || p.kind == Packet.ATOMIC;
        return toResponder ? (QueuePair) p.endpoint : ((WorkRequest) p.context).qp;
    }

    /** A packet leaves the pipeline: dispatched, or dropped if its queue pair was destroyed meanwhile. */
    private void deliver(Packet p) {
        dispatchOrDrop(p, queuePairOf(p));
    }

    private void dispatchOrDrop(Packet p, QueuePair qp) {
        if (qp != null && qp.destroyed) {
            dropForDestroyed(p);
        } else {
            dispatch(p);
        }
    }

    /**
     * A packet for a destroyed queue pair: an HCA finds no valid context for its QPN and drops it silently (no NAK,
     * no completion); counted ({@link Hca#packetsForDestroyed}).
     */
    private void dropForDestroyed(Packet p) {
        destroyedDrops++;
        p.release();
    }

    /** Returns the packets dropped because their queue pair had been destroyed. */
    long destroyedDrops() {
        return destroyedDrops;
    }

    /**
     * DCQCN's notification point: an ECN-marked Send or Write packet arrived at a responder queue pair, which
     * sends a CNP back to the sender when its notification point says so.
     */
    private void notified(QueuePair qp, WorkRequest wr, long now) {
        if (qp.pipeline.np == null) {
            qp.pipeline.np = cnpSource.newNotificationPoint();
        }
        if (qp.pipeline.np.onMarkedPacket(now)) {
            responder.sendCnp(qp, wr);
        }
    }

    /**
     * The connection checks every request packet passes first: the go-back-N drop after an RNR NAK, then, on an
     * active queue pair, the sequence check (a duplicate is answered again, a gap NAK'd). A packet refused here is
     * released.
     */
    private boolean admitted(Packet p) {
        QueuePair qp = (QueuePair) p.endpoint;
        if (Responder.blockedByRnr(qp, p) || (qp.active && !transport.inSequence(qp, p))) {
            p.release();
            return false;
        }
        return true;
    }

    /** An ACK arrived (a method of its own, so that {@link #dispatch} stays small enough for the JIT to inline). */
    private void onAck(Packet p) {
        WorkRequest acked = (WorkRequest) p.context;
        boolean partial = p.status == Responder.ACK_PARTIAL;
        if (sendEngine.perPacket) {
            sendEngine.onAckFeedback(acked.qp, p);
        }
        p.release();
        if (partial) {
            transport.progress(acked.qp); // a packet before the last: the message goes on
        } else {
            transport.onAck(acked);
        }
    }

    private void dispatch(Packet p) {
        switch (p.kind) {
            case Packet.RDMA_WRITE:
                if (admitted(p)) {
                    responder.onWrite(p);
                }
                break;
            case Packet.SEND:
                if (admitted(p)) {
                    responder.onSend(p);
                }
                break;
            case Packet.READ_REQUEST:
                if (admitted(p)) {
                    responseEngine.onReadRequest(p);
                    p.release();
                }
                break;
            case Packet.READ_RESPONSE:
                onReadResponse(p);
                break;
            case Packet.ATOMIC:
                if (admitted(p)) {
                    responseEngine.onAtomicRequest(p);
                    p.release();
                }
                break;
            case Packet.ATOMIC_ACK:
                onReadResponse(p); // the original value, placed like a one-packet RDMA Read response
                break;
            case Packet.ACK:
                onAck(p);
                break;
            case Packet.CNP:
                WorkRequest cnpFor = (WorkRequest) p.context;
                p.release();
                sendEngine.onCnp(cnpFor.qp);
                break;
            case Packet.NAK:
                WorkRequest naked = (WorkRequest) p.context;
                int status = p.status;
                p.release();
                transport.onNak(naked, status);
                break;
            default:
                throw new IllegalStateException("unknown packet kind " + p.kind);
        }
    }

    /** Requester: an RDMA Read response or atomic acknowledgement; placed if it is the next one expected. */
    private void onReadResponse(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        if (wr.done) {
            p.release();
            return;
        }
        if (p.index != wr.responses) {
            // A response of an earlier attempt already placed, or one ahead of a lost one: not placed (again).
            if (p.index > wr.responses) {
                transport.responseMissing(wr);
            }
            p.release();
            return;
        }
        wr.responses++;
        transport.progress(wr.qp);
        long stall = caches.mttCostLocal(wr, p.offset, p.length, wr.qp.name, sim.now());
        sim.schedule(dma.dmaWriteArrived(p, p.length, stall), placeReadResponseHandler, p.id);
    }

    /** The DMA write of an RDMA Read response's payload, when it lands ({@link DmaWriter#dmaWriteArrived}). */
    private void placeReadResponse(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        if (wr.done) {
            p.release();
            return;
        }
        if (!wr.payloadFree) {
            wr.copySegments(memory, p.offset, p.data, p.length, true);
        }
        int count = p.count;
        p.release();
        if (++wr.placed == count) {
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.PLACE, hostName).ep(wr.qp.name).op(wr.opId)
                        .attr(TraceKey.BYTES, wr.length));
            }
            wr.transferred = wr.length;
            completions.transportDone(wr, WcStatus.SUCCESS);
        }
    }

    /** The pooled packet an event about a packet names by its pool id. */
    private Packet packet(long id) {
        return c.pool.get(id);
    }
}
