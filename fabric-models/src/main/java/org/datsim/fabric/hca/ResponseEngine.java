package org.datsim.fabric.hca;

import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.memory.HostMemory;

/**
 * The responder's response engine: answers RDMA Read requests (DMA-reads the data and sends response packets) and
 * executes the IB atomics (Fetch and Add, Compare and Swap: reads, modifies and writes the 8 bytes and returns the
 * original value in an atomic acknowledgement), one request after another in arrival order, each after a PCIe round
 * trip and the configured read jitter. Both are checked first and use the responder's read credits (rule 49). A
 * duplicate request is answered again: a Read's responses read again, an atomic's saved original value.
 *
 * <p>A part of {@link Hca}. The {@link ReceivePipeline} hands it Read and atomic requests that passed the connection
 * checks, the {@link ReliableTransport} duplicates to answer again. It calls the {@link OnChipCaches} (MTT), the
 * {@link SendEngine} (which creates and counts the response packets, {@link SendEngine#emitAt}), the
 * {@link Responder} (NAKs), the {@link Transmitter} (atomic acknowledgements) and the {@link CompletionSink}.
 */
final class ResponseEngine {

    /** The IBA AtomicAckETH: the original remote data. */
    private static final int ATOMIC_ACK_ETH_BYTES = 8;
    /** The {@code aux} of an RDMA Read response answering a duplicate request: it returns no read credit. */
    static final Object DUPLICATE = new Object();

    private final HcaContext c;
    private final Simulator sim;
    private final HostMemory memory;
    private final long pcieLatency;
    private final DataRate pcieRate;
    private final int mtu;
    private final OnChipCaches caches;
    private final SendEngine sendEngine;
    private final Responder responder;
    private final Transmitter transmitter;
    private final CompletionSink completions;
    private final long readJitter;
    /** The stream that draws the read jitter (set through {@link Hca#setRandom}), or null. */
    RandomGenerator jitterRandom;
    /** When the responses scheduled so far have been read (or the atomics executed). */
    private long responderFree;
    /** The value an atomic writes back, encoded here (the DMA write copies it). */
    private final byte[] atomicScratch = new byte[WorkRequest.ATOMIC_BYTES];
    // Allocation-free packet path: events about a packet carry its pool id.
    private final EventHandler executeAtomicHandler = id -> executeAtomic(packet(id));
    private final EventHandler replayAtomicHandler = id -> replayAtomic(packet(id));

    ResponseEngine(HcaContext c, Params params, OnChipCaches caches, SendEngine sendEngine, Responder responder,
            Transmitter transmitter, CompletionSink completions) {
        this.c = c;
        this.sim = c.sim;
        this.memory = c.memory;
        this.pcieLatency = c.pcieLatency;
        this.pcieRate = c.pcieRate;
        this.mtu = c.mtu;
        this.caches = caches;
        this.sendEngine = sendEngine;
        this.responder = responder;
        this.transmitter = transmitter;
        this.completions = completions;
        this.readJitter = params.get(FabricParams.READ_JITTER);
    }

    /** An RDMA Read request arrived: once admitted, its data is DMA-read and sent in response packets. */
    void onReadRequest(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = admitReadLike(p, false);
        if (qp == null) {
            return;
        }
        if (sim.exploring()) {
            HcaChoices.readAdmitted(c, qp, wr);
        }
        sendReadResponses(qp, wr, false);
    }

    /**
     * Reads an RDMA Read's data and sends its responses: a DMA read round trip after the responses scheduled before
     * it, then read request by read request at PCIe's rate, each page translated, a packet leaving once the request
     * holding it is in ({@link SendEngine#readPacket}). Responses to a duplicate request are marked so
     * that they return no read credit (the first answer does).
     */
    private void sendReadResponses(QueuePair qp, WorkRequest wr, boolean duplicate) {
        long t = readStart();
        int count = c.packetCount(wr.length);
        for (int i = 0; i < count; i++) {
            long off = (long) i * mtu;
            int len = (int) Math.min(mtu, wr.length - off);
            t += caches.mttCost(wr.remoteAddress + off, len, qp.name, wr, t, wr.remoteAddress + wr.length);
            t = sendEngine.readPacket(t, i == 0, wr, qp, Packet.READ_RESPONSE, i, count, off, len, duplicate);
        }
        responderFree = t;
        qp.reads.responsesUntil = t;
    }

    /**
     * Responder checks of an RDMA Read or atomic request, after the receive pipeline's go-back-N and sequence
     * checks, in order: an inactive queue pair, the remote key and rights (for an atomic, DAT_IB_MEM_PRIV_REMOTE_ATOMIC and the 8-byte
     * alignment), then a read credit (rule 49: atomics use the responder's read resources too). A refused request
     * is NAK'd (and a protection or credit error breaks the connection).
     *
     * @return the responding queue pair, its read credit taken, or null if the request was refused or dropped
     */
    private QueuePair admitReadLike(Packet p, boolean atomic) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = (QueuePair) p.endpoint;
        if (!qp.active) {
            responder.reply(qp, wr, Packet.NAK, WcStatus.REM_OP_ERR);
            return null;
        }
        qp.listener.requestArrived();
        int status;
        if (atomic) {
            status = qp.listener.checkRemoteAtomic(wr.rkey, wr.remoteAddress);
            if (status == WcStatus.SUCCESS && (wr.remoteAddress & (WorkRequest.ATOMIC_BYTES - 1)) != 0) {
                // A misaligned atomic is an invalid request: NAK, IBV_WC_REM_INV_REQ_ERR.
                status = WcStatus.REM_INV_REQ_ERR;
            }
        } else {
            status = qp.listener.checkRemoteAccess(wr.rkey, wr.remoteAddress, wr.length, false);
        }
        if (status == WcStatus.SUCCESS && qp.reads.readsIn >= qp.reads.maxReadsIn) {
            status = WcStatus.REM_INV_REQ_ERR; // the peer sent more than this endpoint's max_rdma_read_in
        }
        if (status != WcStatus.SUCCESS) {
            responder.reply(qp, wr, Packet.NAK, status);
            completions.fail(qp, null, status);
            return null;
        }
        qp.reads.readsIn++;
        ReliableTransport.accepted(qp, p);
        return qp;
    }

    /**
     * When the DMA read of a Read or atomic begins to return data: after the responses scheduled before it, a PCIe
     * round trip, and the configured jitter.
     */
    private long readStart() {
        long t = Math.max(sim.now(), responderFree) + 2 * pcieLatency + c.readDelay;
        if (readJitter > 0 && jitterRandom != null) {
            t += (long) (jitterRandom.nextDouble() * (readJitter + 1));
        }
        return t;
    }

    /**
     * An atomic request arrived: it is checked like an RDMA Read (remote key and DAT_IB_MEM_PRIV_REMOTE_ATOMIC, then
     * the 8-byte alignment, then a read credit) and executed in the order the requests arrived, after RDMA Read
     * responses scheduled before it. Its acknowledgement is taken from the pool now and carries the request until
     * the execution.
     */
    void onAtomicRequest(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = admitReadLike(p, true);
        if (qp == null) {
            return;
        }
        long t = readStart(); // the atomic DMA read's round trip
        t += caches.mttCost(wr.remoteAddress, WorkRequest.ATOMIC_BYTES, qp.name, wr, t,
                wr.remoteAddress + WorkRequest.ATOMIC_BYTES)
                + pcieRate.transmitTimePs(WorkRequest.ATOMIC_BYTES);
        Packet ack = atomicAck(qp, wr);
        sim.scheduleAt(t, executeAtomicHandler, ack.id);
        responderFree = t;
        qp.reads.responsesUntil = t;
    }

    /** Takes an atomic acknowledgement for a request from the pool; its payload is attached when it is sent. */
    private Packet atomicAck(QueuePair responder, WorkRequest wr) {
        Packet ack = c.pool.acquire().set(Packet.ATOMIC_ACK, c.hostId, wr.qp.hca.hostId,
                c.header + c.aeth + ATOMIC_ACK_ETH_BYTES, wr, 0, 1, 0, 0, wr.qp.flow);
        ack.endpoint = responder;
        return ack;
    }

    /**
     * Executes an atomic at the responder, indivisibly: reads the 64-bit value (little-endian, the x86 host's order)
     * into the acknowledgement, writes the sum (Fetch and Add) or the swap value if the value equals the compare
     * value (Compare and Swap), and sends the original value back. The requester places it as it places a one-packet
     * RDMA Read response.
     */
    private void executeAtomic(Packet ack) {
        WorkRequest wr = (WorkRequest) ack.context;
        QueuePair qp = (QueuePair) ack.endpoint;
        byte[] old = c.pool.attachBuffer(ack, WorkRequest.ATOMIC_BYTES);
        ack.length = WorkRequest.ATOMIC_BYTES;
        memory.dmaRead(wr.remoteAddress, old, 0, WorkRequest.ATOMIC_BYTES);
        long value = 0;
        for (int i = WorkRequest.ATOMIC_BYTES - 1; i >= 0; i--) {
            value = (value << 8) | (old[i] & 0xff);
        }
        wr.atomicOriginal = value; // kept for a duplicate request, which is answered without executing again
        wr.atomicExecuted = true;
        long updated = wr.opcode == WorkRequest.FETCH_ADD ? value + wr.compareAdd
                : value == wr.compareAdd ? wr.swap : value;
        if (updated != value) {
            for (int i = 0; i < WorkRequest.ATOMIC_BYTES; i++) {
                atomicScratch[i] = (byte) (updated >>> (8 * i));
            }
            memory.dmaWrite(wr.remoteAddress, atomicScratch, 0, WorkRequest.ATOMIC_BYTES);
        }
        if (qp.reads.readsIn > 0) {
            qp.reads.readsIn--;
        }
        transmitter.transmit(ack);
    }

    /**
     * Answers a duplicate RDMA Read request: the responder reads the data again and sends every response again (the
     * requester keeps those it lacks); the request was checked and took its read credit the first time.
     */
    void replayRead(QueuePair qp, WorkRequest wr) {
        sendReadResponses(qp, wr, true);
    }

    /**
     * Answers a duplicate atomic request with the original value its execution returned, without executing it
     * again, behind the responses scheduled before it (by then the original has executed: it was scheduled earlier).
     */
    void replayAtomicLater(QueuePair qp, WorkRequest wr) {
        long t = Math.max(sim.now(), responderFree);
        Packet ack = atomicAck(qp, wr);
        sim.scheduleAt(t, replayAtomicHandler, ack.id);
        responderFree = t;
        qp.reads.responsesUntil = t;
    }

    private void replayAtomic(Packet ack) {
        WorkRequest wr = (WorkRequest) ack.context;
        if (!wr.atomicExecuted) {
            ack.release(); // never executed (the responder was flushed meanwhile): nothing to answer
            return;
        }
        byte[] old = c.pool.attachBuffer(ack, WorkRequest.ATOMIC_BYTES);
        ack.length = WorkRequest.ATOMIC_BYTES;
        for (int i = 0; i < WorkRequest.ATOMIC_BYTES; i++) {
            old[i] = (byte) (wr.atomicOriginal >>> (8 * i));
        }
        transmitter.transmit(ack);
    }

    /** The pooled packet an event about a packet names by its pool id. */
    private Packet packet(long id) {
        return c.pool.get(id);
    }
}
