package org.datsim.fabric.hca;

import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.memory.HostMemory;

/**
 * The responder's side of RDMA Writes and Sends, and the acknowledgements every request gets. An incoming Write or
 * Send is accepted in sequence ({@link ReliableTransport}), checked (remote key; a receive available, else an RNR
 * NAK; its length), placed by DMA and acknowledged once the last packet's DMA write has been issued. ACKs and NAKs
 * leave behind the RDMA Read responses scheduled before them.
 *
 * <p>A part of {@link Hca}. The {@link ReceivePipeline} hands it Writes and Sends that passed the connection checks,
 * and the {@link ResponseEngine} and {@link ReliableTransport} send their ACKs and NAKs through it. It calls the
 * {@link OnChipCaches} (MTT), the {@link DmaWriter}, the {@link Transmitter} and the {@link CompletionSink}.
 */
final class Responder {

    /** The status of a partial ACK (a Send or Write packet before the last one; see {@link #ackInterval}). */
    static final int ACK_PARTIAL = 1;
    /** The reserved bytes of a RoCEv2 CNP after its BTH. */
    private static final int CNP_RESERVED_BYTES = 16;

    private final HcaContext c;
    private final Simulator sim;
    private final TraceSource<TraceEvent> trace;
    private final String hostName;
    private final int hostId;
    private final HostMemory memory;
    private final long pcieLatency;
    /** The wire bytes of an ACK or NAK: the headers and the AETH. */
    private final int replyBytes;
    private final OnChipCaches caches;
    private final DmaWriter dma;
    private final Transmitter transmitter;
    private final CompletionSink completions;
    /**
     * transport.ack_interval in effect: a Send or Write packet whose index + 1 is a multiple of it is acknowledged
     * at once with a partial ACK (congestion-control feedback); 0 for one ACK per message. Set by the {@link Hca}.
     */
    int ackInterval;
    /** The wire bytes of a CNP: the headers and its 16 reserved bytes (RoCEv2). */
    private final int cnpBytes;
    // Allocation-free packet path: events about a packet carry its pool id.
    private final EventHandler transmitHandler = id -> transmit(packet(id));
    private final EventHandler sendReplyHandler = id -> sendReply(packet(id));
    private final EventHandler placeWriteHandler = id -> placeWrite(packet(id));
    private final EventHandler placeSendHandler = id -> placeSend(packet(id));

    Responder(HcaContext c, OnChipCaches caches, DmaWriter dma, Transmitter transmitter, CompletionSink completions) {
        this.c = c;
        this.sim = c.sim;
        this.trace = c.trace;
        this.hostName = c.hostName;
        this.hostId = c.hostId;
        this.memory = c.memory;
        this.pcieLatency = c.pcieLatency;
        this.replyBytes = c.header + c.aeth + c.ackCcHeader;
        this.cnpBytes = c.header + CNP_RESERVED_BYTES;
        this.caches = caches;
        this.dma = dma;
        this.transmitter = transmitter;
        this.completions = completions;
    }

    /**
     * Sends an ACK or NAK for a request of the peer. Responses leave a responder in the order of the requests they
     * answer: an acknowledgement waits until the RDMA Read responses scheduled before it have been handed to the
     * port, so it never overtakes them.
     */
    void reply(QueuePair responder, WorkRequest wr, int kind, int status) {
        sendReply(replyPacket(responder, wr, kind, status));
    }

    /** Builds an ACK or NAK for a request of the peer. */
    private Packet replyPacket(QueuePair responder, WorkRequest wr, int kind, int status) {
        Packet p = c.pool.acquire().set(kind, hostId, wr.qp.hca.hostId, replyBytes, wr, 0, 1, 0, status,
                wr.qp.flow);
        p.endpoint = responder;
        return p;
    }

    /** Sends an ACK or NAK built by {@link #replyPacket}, behind the responses scheduled before it. */
    private void sendReply(Packet p) {
        QueuePair responder = (QueuePair) p.endpoint;
        if (responder.reads.responsesUntil > sim.now()) {
            sim.scheduleAt(responder.reads.responsesUntil, transmitHandler, p.id);
        } else {
            transmitter.transmit(p);
        }
    }

    /**
     * Acknowledges a message once its last DMA write has been issued to PCIe (it crossed PCIe's data rate; its
     * latency overlaps the ACK's flight), so that the requester's completion never precedes the placement.
     */
    void ackAfterWrite(QueuePair responder, WorkRequest wr, long writeDelay) {
        ackAfterWrite(responder, wr, writeDelay, null);
    }

    /**
     * {@link #ackAfterWrite(QueuePair, WorkRequest, long)} for the last packet of a message: the ACK carries the
     * cumulative bytes received, and echoes that packet's ECN mark, INT records and send time (congestion-control
     * feedback).
     */
    private void ackAfterWrite(QueuePair responder, WorkRequest wr, long writeDelay, Packet last) {
        long issued = writeDelay - pcieLatency;
        Packet ack = replyPacket(responder, wr, Packet.ACK, 0);
        if (last != null) {
            echo(ack, responder, last);
        }
        if (issued <= 0) {
            sendReply(ack);
        } else {
            sim.schedule(issued, sendReplyHandler, ack.id);
        }
    }

    /**
     * Congestion-control feedback on an ACK: the cumulative payload bytes received, the ECN mark, the INT records,
     * the send time.
     */
    private static void echo(Packet ack, QueuePair qp, Packet data) {
        ack.offset = qp.responder.ccRxBytes;
        ack.ecn = data.ecn;
        ack.timestampPs = data.timestampPs;
        if (data.intHops > 0) {
            ack.copyIntFrom(data);
        }
    }

    /**
     * A Send or Write packet was accepted in sequence: its bytes count in the cumulative received, and a packet
     * before the last is acknowledged at once when transport.ack_interval asks for it.
     */
    private void acceptedData(QueuePair qp, WorkRequest wr, Packet p) {
        qp.responder.ccRxBytes += p.length;
        if (ackInterval > 0 && !p.isLast() && (p.index + 1) % ackInterval == 0) {
            Packet ack = replyPacket(qp, wr, Packet.ACK, ACK_PARTIAL);
            echo(ack, qp, p);
            sendReply(ack);
        }
    }

    /**
     * Sends a CNP to the sender of an ECN-marked packet (DCQCN's notification point decided to), on the requester's
     * flow.
     */
    void sendCnp(QueuePair responder, WorkRequest wr) {
        Packet cnp = c.pool.acquire().set(Packet.CNP, hostId, wr.qp.hca.hostId, cnpBytes, wr, 0, 1, 0, 0,
                wr.qp.flow);
        cnp.endpoint = responder;
        transmitter.transmit(cnp);
    }

    /** A packet of an RDMA Write arrived. */
    void onWrite(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = (QueuePair) p.endpoint;
        if (p.index == 0 && !admitFirstOfWrite(qp, wr, p)) {
            return;
        }
        if (wr.remoteFailed || !qp.active) {
            p.release();
            return; // refused, or the queue pair was flushed while the message was arriving: drop, no ACK
        }
        ReliableTransport.accepted(qp, p);
        acceptedData(qp, wr, p);
        boolean last = p.isLast();
        p.aux = qp;
        if (last && wr.withImmediate && qp.responder.inbound != null) {
            p.aux = qp.responder.inbound; // the receive the immediate data completes; its queue pair is its takenBy
            qp.responder.inbound = null;
        }
        long stall = caches.mttCost(wr.remoteAddress + p.offset, p.length, qp.name, wr, sim.now(),
                wr.remoteAddress + wr.length);
        long delay = dma.dmaWriteArrived(p, p.length, stall);
        if (wr.payloadFree && !wr.withImmediate && !(last && trace.isEnabled())) {
            // no bytes to place and nothing to trace: the placement would only release the packet
            if (last) {
                ackAfterWrite(qp, wr, delay, p);
            }
            p.release();
            return;
        }
        sim.schedule(delay, placeWriteHandler, p.id);
        if (sim.exploring() && !wr.payloadFree) {
            HcaChoices.writeArrived(c, wr, p.offset, p.length);
        }
        if (last) {
            ackAfterWrite(qp, wr, delay, p); // the packet is released by its placement, an event later
        }
    }

    /**
     * An RDMA Write with immediate data takes a receive when its first packet arrives, as a Send does (the receive's
     * buffer is not written: the payload goes to the remote address; the receive completes with the Write's length
     * and immediate data when the last packet, which carries them, is placed). InfiniBand consumes the receive at the
     * last packet; datsim takes it at the first because its RNR NAK, when none is posted, has the whole message sent
     * again (go-back-N from the refused message), as for a Send.
     *
     * @return false if no receive was posted: the message was refused with an RNR NAK
     */
    private boolean takeReceiveForImmediate(QueuePair qp, WorkRequest wr) {
        WorkRequest recv = takeReceive(qp); // own queue or the shared receive queue
        if (recv != null) {
            wr.delivered = true;
        }
        if (recv == null) {
            qp.responder.rnrBlocked = wr;
            wr.qp.markSlotsUnsafe(); // the responder keeps naming the request
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceKind.RNR_NAK, hostName).ep(qp.name).op(wr.opId)
                        .attr(TraceKey.REASON, "no receive posted"));
            }
            reply(qp, wr, Packet.NAK, ReliableTransport.NAK_RNR);
            return false;
        }
        recv.takenBy = qp;
        qp.responder.inbound = recv;
        return true;
    }

    /**
     * The checks of an RDMA Write's first packet (a method of its own, so that {@link #onWrite} stays small enough
     * for the JIT to inline): the queue pair active, the remote access allowed, a receive for immediate data.
     *
     * @return false if the message was refused (the packet is released and the NAK sent)
     */
    private boolean admitFirstOfWrite(QueuePair qp, WorkRequest wr, Packet p) {
        if (!qp.active) {
            wr.remoteFailed = true;
            p.release();
            reply(qp, wr, Packet.NAK, WcStatus.REM_OP_ERR);
            return false;
        }
        qp.listener.requestArrived();
        int status = qp.listener.checkRemoteAccess(wr.rkey, wr.remoteAddress, wr.length, true);
        if (status != WcStatus.SUCCESS) {
            wr.remoteFailed = true;
            p.release();
            reply(qp, wr, Packet.NAK, status);
            completions.fail(qp, null, status);
            return false;
        }
        if (wr.withImmediate && !takeReceiveForImmediate(qp, wr)) {
            p.release();
            return false;
        }
        return true;
    }

    /** The DMA write of an RDMA Write packet's payload, when it lands in host memory. */
    private void placeWrite(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        WorkRequest recv = p.aux instanceof WorkRequest r ? r : null; // the last packet of a Write with immediate
        QueuePair qp = recv != null ? recv.takenBy : (QueuePair) p.aux;
        long address = wr.remoteAddress + p.offset;
        int length = p.length;
        if (!wr.payloadFree) {
            byte[] before = sim.exploring() ? HcaChoices.bytesBefore(c, address, length) : null;
            if (p.payloadPending) { // straight from the initiator's memory (see PayloadReader)
                ((PayloadReader) p.payloadSource).placeReferenced(p, memory, address);
            } else if (p.snapCount != 0) { // from the initiator's shared pages (a partitioned fabric)
                long at = address;
                for (int i = 0; i < p.snapCount; i++) {
                    memory.dmaWrite(at, p.snapPages[i], p.snapOffsets[i], p.snapLengths[i]);
                    at += p.snapLengths[i];
                }
                p.clearSnapshot();
            } else {
                memory.dmaWrite(address, p.data, 0, length);
            }
            if (sim.exploring()) {
                HcaChoices.writePlaced(c, qp, wr, address, p.data, length, before);
            }
        }
        if (p.isLast() && trace.isEnabled()) {
            TraceEvent e = TraceEvent.of(sim.now(), TraceEvent.PLACE, hostName).ep(qp.name).op(wr.opId)
                    .attr(TraceKey.ADDRESS, address + length - wr.length).attr(TraceKey.BYTES, wr.length);
            if (recv != null) {
                e.attr(TraceKey.RECV_OP, recv.opId).attr(TraceKey.IMMEDIATE, (long) wr.immediate & 0xffffffffL);
            }
            trace.fire(e);
        }
        p.release();
        if (recv != null && !recv.done) { // (a receive flushed meanwhile has completed already)
            recv.receivedImmediate = true;
            recv.receivedImmediateData = wr.immediate;
            recv.transferred = wr.length;
            completions.receivePlaced(qp, recv);
        }
    }

    /** A packet of a Send arrived. */
    void onSend(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = (QueuePair) p.endpoint;
        if (p.index == 0) {
            qp.responder.dropping = null;
            WorkRequest taken = qp.active ? takeReceive(qp) : null; // own queue or the shared receive queue
            if (!qp.active) {
                qp.responder.dropping = wr;
                wr.qp.markSlotsUnsafe(); // the responder keeps naming the request
                reply(qp, wr, Packet.NAK, WcStatus.REM_OP_ERR);
            } else if (taken == null) {
                qp.responder.dropping = wr;
                qp.responder.rnrBlocked = wr;
                wr.qp.markSlotsUnsafe(); // the responder keeps naming the request
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), TraceKind.RNR_NAK, hostName).ep(qp.name).op(wr.opId)
                            .attr(TraceKey.REASON, "no receive posted"));
                }
                reply(qp, wr, Packet.NAK, ReliableTransport.NAK_RNR);
            } else {
                qp.listener.requestArrived();
                WorkRequest recv = taken;
                wr.delivered = true;
                if (wr.length > recv.length) {
                    // A length error is an invalid request: NAK-Invalid Request, IBV_WC_REM_INV_REQ_ERR at the
                    // requester (DAT_DTO_ERR_REMOTE_RESPONDER), IBV_WC_LOC_LEN_ERR on the receive.
                    qp.responder.dropping = wr;
                    wr.qp.markSlotsUnsafe(); // the responder keeps naming the request
                    recv.transferred = 0;
                    reply(qp, wr, Packet.NAK, WcStatus.REM_INV_REQ_ERR);
                    completions.failReceive(qp, recv, WcStatus.LOC_LEN_ERR);
                    p.release();
                    return;
                }
                recv.takenBy = qp;
                qp.responder.inbound = recv;
            }
        }
        WorkRequest recv = qp.responder.inbound;
        if (qp.responder.dropping == wr || recv == null || !qp.active) {
            p.release();
            return; // refused, or the queue pair was flushed while the message was arriving: drop, no ACK
        }
        ReliableTransport.accepted(qp, p);
        acceptedData(qp, wr, p);
        boolean last = p.isLast();
        if (last) {
            qp.responder.inbound = null;
        }
        p.aux = recv;
        long stall = caches.mttCostLocal(recv, p.offset, p.length, qp.name, sim.now());
        long delay = dma.dmaWriteArrived(p, p.length, stall);
        sim.schedule(delay, placeSendHandler, p.id);
        if (last) {
            ackAfterWrite(qp, wr, delay, p); // the packet is released by its placement, an event later
        }
    }

    /** The DMA write of a Send packet's payload into its receive, when it lands. */
    private void placeSend(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        WorkRequest recv = (WorkRequest) p.aux;
        QueuePair qp = recv.takenBy; // the receiving queue pair (a receive of a shared receive queue has none)
        if (recv.done) {
            p.release();
            return; // flushed meanwhile
        }
        if (!wr.payloadFree) {
            recv.copySegments(memory, p.offset, p.data, p.length, true);
        }
        if (p.isLast()) {
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.PLACE, hostName).ep(qp.name).op(wr.opId)
                        .attr(TraceKey.RECV_OP, recv.opId).attr(TraceKey.BYTES, wr.length));
            }
            recv.receivedSolicited = (wr.sendFlags & WorkRequest.SEND_SOLICITED) != 0;
            recv.transferred = wr.length;
            p.release();
            completions.receivePlaced(qp, recv);
            return;
        }
        p.release();
    }

    private void transmit(Packet p) {
        transmitter.transmit(p);
    }

    /** The pooled packet an event about a packet names by its pool id. */
    private Packet packet(long id) {
        return c.pool.get(id);
    }

    /**
     * Go-back-N after an RNR NAK: a responder that refused a message drops every later packet of the connection
     * until the refused message arrives again, as an InfiniBand responder does with packets after a NAK'd PSN.
     *
     * @return true if the packet must be dropped
     */
    static boolean blockedByRnr(QueuePair qp, Packet p) {
        if (qp.responder.rnrBlocked == null) {
            return false;
        }
        if (p.context == qp.responder.rnrBlocked && p.index == 0) {
            qp.responder.rnrBlocked = null;
            return false;
        }
        return true;
    }

    /** Takes the receive for the next incoming message: from the shared receive queue if any, else its own. */
    private static WorkRequest takeReceive(QueuePair qp) {
        return qp.srq != null ? qp.srq.take(qp) : qp.responder.receives.pollFirst();
    }

    /** A receive is posted ({@link Hca#postReceive}) on a queue pair not in error: it waits for a message. */
    static void postReceive(QueuePair qp, WorkRequest wr) {
        qp.responder.receives.addLast(wr);
    }
}
