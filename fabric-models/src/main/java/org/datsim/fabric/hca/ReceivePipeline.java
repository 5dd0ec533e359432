package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.memory.HostMemory;

/**
 * The receive pipeline and the DMA writes into host memory. Every arriving packet needs its QP context: a request's
 * target QP, or the requester's own QP for its acknowledgements and read responses. A miss stalls the pipeline
 * (packets leave it in arrival order), which then spends {@code hca.rx_process} and hands the packet on: requests to
 * the {@link Responder} (Writes, Sends) or the {@link ResponseEngine} (Reads, atomics), ACKs and NAKs to the
 * {@link ReliableTransport}; RDMA Read responses and atomic acknowledgements are placed here, at the requester. Data
 * is DMA-written in arrival order at {@code pcie.bandwidth} (each page translated) and lands {@code pcie.latency}
 * later.
 *
 * <p>A layer of {@link Hca}, on top of {@link Completions}: {@link HcaLayer} says why the parts are layers.
 */
abstract class ReceivePipeline extends Completions {

    private final long rxProcess;
    /** When the last stall (a QP-context miss) ends; packets leave the pipeline in arrival order. */
    private long rxStallFree;
    private final ArrayDeque<Packet> rxQueue = new ArrayDeque<>();
    private final EventHandler rxDeliver = a -> dispatch(rxQueue.pollFirst());
    /** DMA writes into host memory: when the writes scheduled so far have all crossed PCIe's data rate. */
    private long dmaWriteFree;
    private final EventHandler placeReadResponseHandler = id -> placeReadResponse(pool.get(id));

    ReceivePipeline(Simulator sim, String hostName, int hostId, HostMemory memory, Params params,
            TraceSource<TraceEvent> trace) {
        super(sim, hostName, hostId, memory, params, trace);
        this.rxProcess = params.get(FabricParams.HCA_RX_PROCESS);
    }

    /** A packet other than a connection-management datagram arrived at this HCA. */
    void enterPipeline(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        boolean toResponder = p.kind == Packet.SEND || p.kind == Packet.RDMA_WRITE || p.kind == Packet.READ_REQUEST
                || p.kind == Packet.ATOMIC;
        QueuePair qp = toResponder ? (QueuePair) p.endpoint : wr.qp;
        long stall = qpcCost(qp, wr);
        long now = sim.now();
        if (stall == 0 && rxProcess == 0 && rxStallFree <= now && rxQueue.isEmpty()) {
            dispatch(p);
            return;
        }
        long t = Math.max(now, rxStallFree) + stall;
        rxStallFree = t;
        rxQueue.addLast(p);
        sim.scheduleAt(t + rxProcess, rxDeliver, 0);
    }

    /**
     * The connection checks every request packet passes first: the go-back-N drop after an RNR NAK, then, on an
     * active queue pair, the sequence check (a duplicate is answered again, a gap NAK'd). A packet refused here is
     * released.
     */
    private boolean admitted(Packet p) {
        QueuePair qp = (QueuePair) p.endpoint;
        if (ReliableTransport.blockedByRnr(qp, p) || (qp.active && !inSequence(qp, p))) {
            p.release();
            return false;
        }
        return true;
    }

    private void dispatch(Packet p) {
        switch (p.kind) {
            case Packet.RDMA_WRITE:
                if (admitted(p)) {
                    onWrite(p);
                }
                break;
            case Packet.SEND:
                if (admitted(p)) {
                    onSend(p);
                }
                break;
            case Packet.READ_REQUEST:
                if (admitted(p)) {
                    onReadRequest(p);
                    p.release();
                }
                break;
            case Packet.READ_RESPONSE:
                onReadResponse(p);
                break;
            case Packet.ATOMIC:
                if (admitted(p)) {
                    onAtomicRequest(p);
                    p.release();
                }
                break;
            case Packet.ATOMIC_ACK:
                onReadResponse(p); // the original value, placed like a one-packet RDMA Read response
                break;
            case Packet.ACK:
                WorkRequest acked = (WorkRequest) p.context;
                p.release();
                onAck(acked);
                break;
            case Packet.NAK:
                WorkRequest naked = (WorkRequest) p.context;
                int status = p.status;
                p.release();
                onNak(naked, status);
                break;
            default:
                throw new IllegalStateException("unknown packet kind " + p.kind);
        }
    }

    /**
     * Schedules a DMA write of {@code len} bytes after an MTT stall: writes cross PCIe one after another at its data
     * rate, then its latency. A CQE (len 0) written this way lands after the data written before it.
     *
     * @return the delay from now until the bytes are in host memory
     */
    @Override
    final long dmaWriteDelay(int len, long stall) {
        long done = Math.max(sim.now() + stall, dmaWriteFree + stall) + pcieRate.transmitTimePs(len);
        dmaWriteFree = done;
        return done + pcieLatency - sim.now();
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
                responseMissing(wr);
            }
            p.release();
            return;
        }
        wr.responses++;
        progress(wr.qp);
        long stall = mttCostLocal(wr, p.offset, p.length, wr.qp.name);
        sim.schedule(dmaWriteDelay(p.length, stall), placeReadResponseHandler, p.id);
    }

    /** The DMA write of an RDMA Read response's payload, when it lands ({@link #dmaWriteDelay}). */
    private void placeReadResponse(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        if (wr.done) {
            p.release();
            return;
        }
        wr.copySegments(memory, p.offset, p.data, p.length, true);
        int count = p.count;
        p.release();
        if (++wr.placed == count) {
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.PLACE, hostName).ep(wr.qp.name).op(wr.opId)
                        .attr("bytes", wr.length));
            }
            wr.transferred = wr.length;
            transportDone(wr, WcStatus.SUCCESS);
        }
    }
}
