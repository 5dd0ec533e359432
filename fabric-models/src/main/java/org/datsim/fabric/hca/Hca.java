package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.memory.HostMemory;
import org.datsim.fabric.sw.Switch;

/**
 * A single-port RDMA host channel adapter on the reliable-connected transport.
 *
 * <p>Requester: a post rings the doorbell, which reaches the HCA {@code pcie.latency} later. The send engine serves
 * queue pairs round-robin, taking up a work request every {@code hca.wqe_interval} at most: it looks the QP
 * context up in its cache and spends {@code hca.wqe_process}, then DMA-reads the WQE (a PCIe round trip and
 * {@code pcie.dma_read_delay}, overlapping the next work request) and the payload (another such read, then read
 * request by read request of {@code pcie.max_read_request} at {@code pcie.bandwidth}; a packet leaves as soon as the
 * request holding its first byte is in, its last bit no earlier than its last byte was read, so payload streams
 * through the HCA and the MTU costs only headers; each packet's bytes are read from host memory when it is emitted,
 * and every page is translated through the MTT cache). The payload DMA is one
 * channel: the engine takes the next work request just early enough for that one's payload to follow without a
 * gap. An inline Send or RDMA Write ({@code hca.max_inline}) carries its payload in the doorbell write (BlueFlame):
 * the CPU copies the bytes at the post and the HCA fetches neither WQE nor payload. Packets leave in processing
 * order. Completions are reported in posting order per queue pair, a CQE write ({@code pcie.latency}) after the
 * ACK, or after the placement of the last RDMA Read response.
 *
 * <p>Receive pipeline: every arriving packet needs its QP context; a miss stalls the pipeline (packets leave it in
 * arrival order), which then spends {@code hca.rx_process}. Data is DMA-written in arrival order at
 * {@code pcie.bandwidth} (each page translated), in pieces of {@code pcie.max_payload} as it arrived (cut through),
 * and lands {@code pcie.latency} later.
 *
 * <p>Responder: incoming RDMA Writes and Sends are checked (remote key, receive available, length), placed by DMA,
 * and acknowledged once the last packet's DMA write has been issued. A Send finding no receive is refused with an
 * RNR NAK and retried after {@code transport.rnr_timer}. RDMA Read requests are answered by a response engine that
 * DMA-reads the data and sends response packets. The IB atomics (Fetch and Add, Compare and Swap) go the same way: the
 * response engine reads, modifies and writes the 8 bytes and returns the original value in an atomic acknowledgement;
 * like Reads they use read credits and a barrier fence waits for them (rule 18).
 *
 * <p>Caches ({@link EntryCache}): {@code hca.qpc_entries} QP contexts and {@code hca.mtt_entries} translation
 * entries, each with its replacement policy and miss penalty; creating a queue pair or registering memory loads its
 * entries. Every miss is traced as {@code cache_miss}.
 *
 * <p>Reliable delivery: the request messages of a queue pair are numbered in the order the send engine takes them up
 * (the RC transport's PSNs, per message and packet index), and a responder accepts only the next packet it expects. A
 * duplicate of a message it has completed is acknowledged again (its last packet; a Write or Send is not placed
 * again and a Send takes no second receive), an RDMA Read is answered again, an atomic gets its saved original value
 * without executing twice; other duplicates are dropped. A packet ahead of the expected one (one before it was lost)
 * is dropped, with one sequence-error NAK per gap, on which the requester goes back to its first unfinished request
 * and sends it and everything after it again (go-back-N, payloads read again). An ACK also acknowledges the earlier
 * Sends and Writes whose own ACK was lost, and shows a missing RDMA Read response, as does a response ahead of the
 * next expected one. The requester's local ACK timer (one pending event per queue pair at most, measured from the
 * last progress, expiring between 1 and 2 times {@code hca.ack_timeout}, a draw from the run's seed) retries likewise,
 * {@code hca.retry_count} times without progress, then fails the first unfinished request with
 * IBV_WC_RETRY_EXC_ERR. Each retransmission is traced as {@code retransmit}.
 *
 * <p>Errors (remote access, length, RNR or transport retries exhausted) complete the failing operation with its
 * status, flush every other outstanding operation of the queue pair with IBV_WC_WR_FLUSH_ERR, and tell the owner the
 * queue pair is broken.
 *
 * <p>Parts, each a package-private {@code final} class with one job and its own state, made and wired once by this
 * constructor; none extends another. They share one {@link HcaContext} (simulator, trace, host, memory, PCIe, MTU,
 * header sizes, packet pool). Calls go one way, down this list, and back up only through three small interfaces:
 * <ul>
 * <li>{@link ReceivePipeline}: the way in. QP-context lookup, the pipeline's stalls, dispatch by packet kind, the
 * requester's placement of RDMA Read responses and atomic acknowledgements.
 * <li>{@link ReliableTransport}: sequencing (PSNs, duplicates, sequence-error and RNR NAKs), the requester's ACK and
 * NAK handling, go-back-N retransmission and the local ACK timer ({@link AckTimer}).
 * <li>{@link ResponseEngine}: RDMA Read requests and atomics at the responder.
 * <li>{@link Responder}: RDMA Writes and Sends at the responder (checks, receive matching, placement), ACKs and NAKs.
 * <li>{@link SendEngine}: doorbells, the round-robin over queue pairs, fences and read credits, WQE processing, packet
 * creation and the transmit buffer; the packet arbiter with the per-QP rate limiter and window ({@link SendScheduler}).
 * <li>{@link PayloadReader}: payload DMA reads, held by reference until the wire.
 * <li>{@link OnChipCaches}: the QP-context and MTT caches and what their misses cost.
 * <li>{@link DmaWriter}: the DMA write channel into host memory.
 * <li>{@link Completions}: completion in posting order, errors, flush, reset ({@link CompletionSink}).
 * </ul>
 * This class is their public face, and the port: packets leave through the {@link Transmitter} it gives the parts
 * (to the port, or the internal loopback) and arrive through {@link #receive}.
 */
public final class Hca implements NetworkNode {

    /** The trace kind of an on-chip cache miss (fields {@code cache}, {@code key}, {@code penalty_ps}). */
    public static final String CACHE_MISS = TraceKind.CACHE_MISS;
    /** The trace kind of a retransmission (fields {@code opcode}, {@code reason}, {@code attempt}). */
    public static final String RETRANSMIT = TraceKind.RETRANSMIT;

    private final HcaContext c;
    private final String hostName;
    /** The host id (read by the parts from a queue pair's HCA: a packet's destination). */
    final int hostId;
    private final HostMemory memory;
    private final Simulator sim;
    private final OnChipCaches caches;
    private final PayloadReader payload;
    private final SendEngine sendEngine;
    private final ResponseEngine responseEngine;
    private final ReliableTransport transport;
    private final Completions completions;
    private final ReceivePipeline receivePipeline;
    private final Responder responder;
    private final Params params;
    /** What the parts hand finished packets to: {@link #transmit}. */
    private final Transmitter transmitter = this::transmit;
    private final int cmBytes;
    private Port port;
    private Consumer<Object> cmListener;
    private int qpCount;
    /**
     * Queue pairs created and not destroyed. Atomic: on a partitioned fabric a flow's start, on its source host's
     * thread, makes the responder's queue pair here (a new object only this count of the HCA sees), and this host
     * destroys it on its own thread.
     */
    private final java.util.concurrent.atomic.AtomicInteger liveQueuePairs =
            new java.util.concurrent.atomic.AtomicInteger();
    private long packetsReceived;
    private final ArrayDeque<Packet> loopback = new ArrayDeque<>();
    private final EventHandler loopbackDeliver = a -> receive(loopback.pollFirst(), 0);

    /**
     * Creates an HCA.
     *
     * @param sim the simulator
     * @param hostName the host's name, used in traces
     * @param hostId the host's id on the fabric
     * @param memory the host's memory
     * @param params the fabric parameters
     * @param trace where operation steps are traced
     */
    public Hca(Simulator sim, String hostName, int hostId, HostMemory memory, Params params,
            TraceSource<TraceEvent> trace) {
        this.c = new HcaContext(sim, hostName, hostId, memory, params, trace);
        this.sim = sim;
        this.hostName = hostName;
        this.hostId = hostId;
        this.memory = memory;
        this.cmBytes = (int) params.get(FabricParams.CM_MAD_BYTES);
        // The parts, each made once, from those that call no other up to the way in; the two parts made before the
        // parts they call back are connected last.
        this.caches = new OnChipCaches(c, params);
        this.payload = new PayloadReader(c);
        DmaWriter dma = new DmaWriter(c);
        this.completions = new Completions(c, dma);
        this.sendEngine = new SendEngine(c, params, caches, payload, transmitter, completions);
        Responder responder = new Responder(c, caches, dma, transmitter, completions);
        this.responseEngine = new ResponseEngine(c, params, caches, sendEngine, responder, transmitter, completions);
        this.transport = new ReliableTransport(c, params, sendEngine, responder, responseEngine, dma, completions);
        this.receivePipeline = new ReceivePipeline(c, params, caches, dma, responder, responseEngine, transport,
                completions);
        completions.connect(sendEngine, transport);
        sendEngine.connect(transport);
        receivePipeline.sendEngine = sendEngine;
        this.responder = responder;
        this.params = params;
        setCongestionControl(null, 0, 0);
    }

    /**
     * Gives this HCA the fabric's congestion control ({@code cc.*}): each sending queue pair gets a rate controller
     * (its packets leave no faster than its rate, its bytes in flight stay below its window), receiving queue pairs
     * answer ECN marks with CNPs (DCQCN), and responders acknowledge every {@code transport.ack_interval} packets
     * (per packet for hpcc, dctcp and timely unless set). Call before the run.
     *
     * @param cc the congestion control, or null for none
     * @param maxRttPs the topology's largest unloaded round-trip time between two hosts (HPCC's maxRtt)
     * @param maxBdpBytes the topology's largest bandwidth-delay product between two hosts (HPCC's maxBdp)
     */
    public void setCongestionControl(org.datsim.fabric.cc.CongestionControl cc, long maxRttPs, long maxBdpBytes) {
        long line = port != null ? port.rate().bitsPerSecond() : params.get(FabricParams.LINK_BANDWIDTH);
        sendEngine.setCongestionControl(cc, line, maxRttPs, maxBdpBytes);
        receivePipeline.cnpSource = cc != null && cc.usesCnp() ? cc : null;
        responder.ackInterval = org.datsim.fabric.cc.CongestionControl.effectiveAckInterval(
                params.get(FabricParams.ACK_INTERVAL), cc == null ? null : cc.algorithm());
    }

    /**
     * Sets the random streams the caches' random replacement draws from.
     *
     * @param qpcRandom the QP-context cache's stream
     * @param mttRandom the MTT cache's stream
     */
    public void setCacheRandom(RandomGenerator qpcRandom, RandomGenerator mttRandom) {
        caches.qpc.setRandom(qpcRandom);
        caches.mtt.setRandom(mttRandom);
    }

    /** Returns the QP-context cache (its hits and misses). */
    public EntryCache qpcCache() {
        return caches.qpc;
    }

    /** Returns the MTT/MPT cache (its hits and misses). */
    public EntryCache mttCache() {
        return caches.mtt;
    }

    /**
     * Memory registration: the driver writes the region's translation entries, which leaves them in the MTT cache
     * (the last pages of the region when it has more pages than the cache holds).
     *
     * @param address the region's first virtual address
     * @param length its length in bytes
     */
    public void registerMemory(long address, long length) {
        caches.preloadTranslations(address, length);
    }

    @Override
    public String name() {
        return hostName;
    }

    /**
     * Sets the random stream that draws the responder's read jitter ({@code transport.read_jitter}).
     *
     * @param random a stream derived from the run's seed
     */
    public void setRandom(RandomGenerator random) {
        responseEngine.jitterRandom = random;
    }

    /**
     * Sets the random stream that spreads each queue pair's local ACK timeout between 1 and 2 times
     * {@code hca.ack_timeout}; without one the timeout is exactly {@code hca.ack_timeout}.
     *
     * @param random a stream derived from the run's seed
     */
    public void setAckTimerRandom(RandomGenerator random) {
        transport.ackTimerRandom = random;
    }

    /** Returns the host id. */
    public int hostId() {
        return hostId;
    }

    /** Returns the host memory this HCA reads and writes. */
    public HostMemory memory() {
        return memory;
    }

    /** Returns whether this HCA holds every operation behind the earlier RDMA Reads of its queue pair. */
    boolean strictReadOrdering() {
        return sendEngine.strictReadOrdering();
    }

    /**
     * Attaches the HCA's port.
     *
     * @param port the sending side of the host's link
     */
    public void attach(Port port) {
        this.port = port;
        c.linkRate = port.rate();
        c.port = port;
        boolean linkFree = sendEngine.choosesAtLinkFree();
        port.setListener(new Port.TxListener() {
            @Override
            public void onTransmit(Packet packet, boolean start) {
                if (start) {
                    Hca.this.onTransmit(packet);
                } else if (linkFree) {
                    sendEngine.linkFreed();
                }
            }

            @Override
            public void resumed() {
                if (linkFree) {
                    sendEngine.linkFreed();
                }
            }

            @Override
            public boolean observesEnd() {
                // Only when the packet arbiter chooses at the link's freeing (hca.arbiter_at link_free) and has
                // queue pairs with packets to send (one that gets work while this packet is on the wire makes its
                // end an event then: SendEngine.arbiterFull), traced or not: the end of an operation's last packet is
                // traced by an event of the trace's own (see onTransmit). Were the port to decide at each packet's
                // end only while traced, it would start packets in another order among simultaneous events, and a
                // traced run would not be the run it traces (TracedRunTest).
                return linkFree && sendEngine.hasSending();
            }
        });
    }

    /** Returns the HCA's port. */
    public Port port() {
        return port;
    }

    /**
     * Makes this HCA take its packets from a pool shared by the fabric (packets travel between hosts and are given
     * back by the host that consumes them). Call before the run.
     *
     * @param pool the fabric's packet pool
     */
    public void setPacketPool(PacketPool pool) {
        c.pool = pool;
    }

    /**
     * Makes every payload travel by value, never by reference to this host's memory until it is placed: a
     * partitioned fabric needs it, since the host placing a payload may run on another thread. An RDMA Write's
     * packet holds the memory's pages as its DMA read found them, shared copy-on-write (a later write here goes to
     * a copy of the page, {@code SparseMemory.sharePageOf}), so no bytes are copied until the target places them;
     * where that cannot be (an I/O cache, an inline or traced payload, exploration, other packet kinds) the payload is
     * copied into a buffer when its DMA read finishes. The same bytes either way. Call before the run.
     */
    public void setPayloadByValue() {
        c.payloadByValue = true;
    }

    /** Sets who receives connection-management messages arriving at this host. */
    public void setCmListener(Consumer<Object> listener) {
        this.cmListener = listener;
    }

    /**
     * Creates a queue pair.
     *
     * @param name the name used in traces
     * @return the new queue pair, not connected
     */
    public QueuePair createQueuePair(String name) {
        return createQueuePair(name, reserveQueuePair());
    }

    /**
     * Runs the create-QP command of a queue pair whose object is made later ({@link #createQueuePair(String, int)}):
     * it takes the next queue pair number, which fixes the queue pair's default ECMP flow label, and writes the
     * context through the QP-context cache now, as {@link #createQueuePair(String)} does. A consumer that creates many
     * queue pairs before its run but needs each only while it is used (a workload's flows) reserves them all in order
     * and makes each object when it starts: numbers, labels and the cache's state are those of creating them all at
     * once, and only the queue pairs in use take memory.
     *
     * @return the reserved queue pair number
     */
    public int reserveQueuePair() {
        int number = qpCount++;
        caches.preloadContext(number); // the create-QP command writes the context through the cache
        return number;
    }

    /**
     * Makes the queue pair of a number {@link #reserveQueuePair} reserved (once per number; not checked).
     *
     * @param name the name used in traces
     * @param number the reserved number
     * @return the new queue pair, not connected
     * @throws IllegalArgumentException if the number was not reserved on this HCA
     */
    public QueuePair createQueuePair(String name, int number) {
        if (number < 0 || number >= qpCount) {
            throw new IllegalArgumentException("queue pair number " + number + " was not reserved on " + hostName);
        }
        QueuePair qp = new QueuePair(this, name, number);
        qp.setFlowLabel(flowHash(hostId, number + 1)); // numbered from 1, as before the caches
        transport.initTimer(qp);
        liveQueuePairs.incrementAndGet();
        return qp;
    }

    /**
     * Destroys a queue pair of this HCA (ibv_destroy_qp) once its owner needs it no more: its timers stop and the
     * HCA's tables (the send engine's round-robins, the congestion controller) let it go, so that nothing of the HCA
     * refers to it any more. Its QP-context cache entry stays until it is evicted, as a dead line does (its number is
     * never used again). A packet that arrives for it afterwards passes the receive pipeline (its context lookup
     * included) and is then dropped, as an HCA drops a packet for an invalid QPN ({@link #packetsForDestroyed}).
     * Events already scheduled for it (a pending ACK's departure, a placement) still run. A host destroys only its
     * own queue pairs.
     *
     * @param qp a queue pair of this HCA
     * @throws IllegalArgumentException if it belongs to another HCA
     */
    public void destroyQueuePair(QueuePair qp) {
        if (qp.hca != this) {
            throw new IllegalArgumentException("queue pair " + qp.name + " belongs to " + qp.hca.hostName + ", not to "
                    + hostName);
        }
        if (qp.destroyed) {
            return;
        }
        qp.markDestroyed();
        transport.stop(qp);
        sendEngine.forget(qp);
        liveQueuePairs.decrementAndGet();
    }

    /** Returns the queue pairs created on this HCA and not destroyed. */
    public int liveQueuePairs() {
        return liveQueuePairs.get();
    }

    /**
     * Returns the packets that arrived for a destroyed queue pair and were dropped (none on a fabric that loses
     * nothing, when queue pairs are destroyed only once their peer can send them nothing that needs an answer).
     */
    public long packetsForDestroyed() {
        return receivePipeline.destroyedDrops();
    }

    /** A fixed hash of a host id and a number (murmur3's 32-bit finaliser): the ECMP flow of a queue pair. */
    private static int flowHash(int host, int n) {
        return Switch.mix(host * 0x9E3779B1 + n * 0x85EBCA77);
    }

    /** Returns the number of queue pairs ever created (or reserved) on this HCA. */
    public int queuePairCount() {
        return qpCount;
    }

    /** Returns the number of packets that arrived at this HCA. */
    public long packetsReceived() {
        return packetsReceived;
    }

    /** The HCA's shared context (for {@link HcaChoices}, which looks at a peer responder's placements). */
    HcaContext context() {
        return c;
    }

    /**
     * Posts a request operation whose doorbell is written now; it reaches the HCA after the PCIe latency.
     *
     * @param wr a Send, RDMA Write or RDMA Read
     */
    public void postRequest(WorkRequest wr) {
        if (sim.exploring()) {
            wr.postedPs = sim.now();
            HcaChoices.writePosted(wr);
        }
        sendEngine.post(wr);
    }

    /**
     * Tells whether {@link #postRequest} will post a request inline (a Send or RDMA Write of at most
     * {@code hca.max_inline} bytes, as dapl decides it): the CPU copies its payload at the post, so the bytes it
     * carries are those of the post's moment even when a barrier fence holds its start.
     *
     * @param wr a request not yet posted
     * @return true if it goes inline
     */
    public boolean postsInline(WorkRequest wr) {
        return sendEngine.inlines(wr);
    }

    /**
     * Posts a receive. On a queue pair in the error state it is flushed at once.
     *
     * @param wr the receive
     */
    public void postReceive(WorkRequest wr) {
        QueuePair qp = wr.qp;
        if (qp.errored) {
            completions.receiveDone(qp, wr, WcStatus.WR_FLUSH_ERR);
            return;
        }
        Responder.postReceive(qp, wr);
    }

    /**
     * Puts a queue pair into the error state: the failing operation (if any) completes with its status, every other
     * outstanding request and posted receive is flushed, and the owner is told.
     *
     * @param qp the queue pair
     * @param failing the operation that failed, or null
     * @param status its work-completion status ({@link WcStatus})
     */
    public void fail(QueuePair qp, WorkRequest failing, int status) {
        completions.fail(qp, failing, status);
    }

    /**
     * Moves a queue pair out of the ready-to-send state and flushes everything outstanding on it with
     * IBV_WC_WR_FLUSH_ERR, in posting order: request operations, then posted receives.
     *
     * @param qp the queue pair
     */
    public void flush(QueuePair qp) {
        completions.flush(qp, null);
    }

    /**
     * Returns a queue pair that has been flushed to its initial state (dat_ep_reset): not connected, not in error,
     * nothing queued, no read credits in use. Completions already written stay on their way.
     *
     * @param qp the queue pair
     */
    public void reset(QueuePair qp) {
        completions.resetQueuePair(qp);
    }

    /**
     * Sends a connection-management datagram to another host.
     *
     * @param dstHost the destination host id
     * @param message the message, delivered to that host's CM listener
     */
    public void sendCm(int dstHost, Object message) {
        transmit(c.pool.acquire().set(Packet.CM, hostId, dstHost, cmBytes, message, 0, 1, 0, 0,
                flowHash(hostId, dstHost)));
    }

    // ---------------------------------------------------------------- the port

    /**
     * Sends a packet: to the port, or, for a packet addressed to this host (two queue pairs of the same HCA), through
     * the HCA's internal loopback, which delivers it in order without touching the link.
     */
    private void transmit(Packet p) {
        if (p.dstHost == hostId) {
            if (SendEngine.countedInTx(p.kind)) {
                sendEngine.txLeft(p); // two queue pairs of this HCA: the packet never waits for the link
            }
            loopback.addLast(p);
            sim.schedule(0, loopbackDeliver, 0);
        } else {
            port.send(p);
        }
    }

    /**
     * A packet starts on the wire: room in the transmit buffer, a payload held by reference copied, traces (the first
     * packet of an operation at its start, the last at its end).
     */
    private void onTransmit(Packet p) {
        if (SendEngine.countedInTx(p.kind)) {
            sendEngine.txLeft(p);
        }
        if (p.payloadPending) {
            payload.payloadOnWire(p);
        }
        TraceSource<TraceEvent> trace = c.trace;
        if (!trace.isEnabled() || p.kind == Packet.CM || p.kind == Packet.ACK || p.kind == Packet.NAK
                || p.kind == Packet.CNP) {
            return;
        }
        boolean first = p.index == 0;
        if (first || p.isLast()) {
            WorkRequest wr = (WorkRequest) p.context;
            QueuePair sender = p.kind == Packet.READ_RESPONSE || p.kind == Packet.ATOMIC_ACK
                    ? (QueuePair) p.endpoint : wr.qp;
            String ep = sender != null ? sender.name : null;
            String kind = Packet.kindName(p.kind);
            if (first) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.TX_START, hostName).ep(ep).op(wr.opId)
                        .attr(TraceKey.PACKET, kind).attr(TraceKey.PACKETS, p.count));
            }
            if (p.isLast()) {
                // Its end is known now; an event of the trace's own fires it then and changes nothing else (the
                // packet may have been delivered and reused by then, so the record is made now).
                long end = port.sendingEndPs();
                TraceEvent ev = TraceEvent.of(end, TraceEvent.TX_END, hostName).ep(ep).op(wr.opId)
                        .attr(TraceKey.PACKET, kind).attr(TraceKey.PACKETS, p.count);
                sim.scheduleAt(end, unused -> trace.fire(ev), 0);
            }
        }
    }

    @Override
    public void receive(Packet p, int inPort) {
        packetsReceived++;
        if (p.kind == Packet.CM) {
            Object message = p.context;
            p.release();
            cmListener.accept(message);
            return;
        }
        receivePipeline.enterPipeline(p);
    }

    /** Whether the run explores choice points (work-request slots are then never reused: choices keep requests). */
    boolean exploring() {
        return sim.exploring();
    }

    /** The operations of a queue pair whose CQE write is under way (explored runs only). */
    void reporting(QueuePair qp, boolean messagesOnly, java.util.List<WorkRequest> into) {
        completions.reporting(qp, messagesOnly, into);
    }
}
