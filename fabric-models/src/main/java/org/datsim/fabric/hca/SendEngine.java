package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import java.util.ArrayList;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.cc.CongestionControl;
import org.datsim.fabric.cc.IntHops;
import org.datsim.fabric.cc.RateController;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.memory.HostMemory;

/**
 * The requester's send engine: doorbells (inline ones carry their payload), the round-robin over queue pairs with
 * work to take up, the waits that hold a work request back (fences, RDMA Read credits, a full transmit buffer), the
 * processing of a work request (QP context, WQE fetch, payload DMA read request by request, packets streamed out) and the packets it
 * creates when their DMA reads finish, counted in the transmit buffer ({@code hca.tx_buffer}) until they start on
 * the wire. The response engine's RDMA Read responses are created and counted here too.
 *
 * <p>A part of {@link Hca}. It calls the {@link OnChipCaches} (QP context, MTT) and the {@link PayloadReader}, hands
 * packets to the {@link Transmitter}, reports to the {@link CompletionSink} (a post on a flushed queue pair, a bind)
 * and starts the {@link AckTimer}; the {@link ResponseEngine} schedules its RDMA Read responses through
 * {@link #emitAt}, the {@link ReliableTransport} puts queue pairs back in the round-robin ({@link #enqueue},
 * {@link #kick}) and the completions wake it through {@link SendScheduler}.
 *
 * <p>With {@code hca.arbitration} packet (implied by any {@code cc.algorithm} but none) {@link #process} only fetches
 * the WQE and queues the request on its queue pair; the packet arbiter ({@link #arbitrate}) then sends one packet at a
 * time, round-robin among the queue pairs that may send: the first payload read's round trip done, the queue pair's
 * rate limiter's next departure reached and its bytes in flight below its window ({@link QueuePair#rc}, a
 * {@link RateController}). Each packet's payload is read when it is chosen. The controllers hear ACKs
 * ({@link #onAckFeedback}) and CNPs ({@link #onCnp}) from the {@link ReceivePipeline}, and their timers through
 * {@link CcTimerSet}; see docs/congestion-control.md.
 */
final class SendEngine implements SendScheduler {

    /** The IBA AtomicETH: virtual address, R_Key, swap (or add) data, compare data. */
    private static final int ATOMIC_ETH_BYTES = 28;
    /** The IBA ImmDt header: the immediate data the last packet of an RDMA Write with immediate carries. */
    private static final int IMMDT_BYTES = 4;

    private final HcaContext c;
    private final Simulator sim;
    private final TraceSource<TraceEvent> trace;
    private final String hostName;
    private final int hostId;
    private final HostMemory memory;
    private final long pcieLatency;
    private final DataRate pcieRate;
    private final int mtu;
    private final int header;
    /** The congestion control's header on data packets (cc.header_bytes). */
    private final int ccHeader;
    private final int reth;
    private final int aeth;
    private final OnChipCaches caches;
    private final PayloadReader payload;
    private final Transmitter transmitter;
    private final CompletionSink completions;
    /** Set once by {@link #connect} ({@link ReliableTransport} is made after this part). */
    private AckTimer ackTimer;

    private final long wqeProcess;
    private final long wqeInterval;
    private final long wqeBytes;
    /** pcie.max_read_request. */
    private final int readRequest;
    /** The message offset the payload read of {@link #readPacket} has reached. */
    private long readPos;
    private final long bindTime;
    private final boolean strictReadOrdering;
    private final long maxInline;
    /** hca.tx_buffer: the send engine takes up no work request while this many bytes wait for the link; 0: no bound. */
    private final long txBuffer;
    /** Packet arbitration: the bytes waiting for the link at which the arbiter waits ({@link #arbiterFull}). */
    private long arbiterWindow = -1;
    /** cc.dcqcn.cnp_on_ack: an ACK echoing a mark notifies the controller as a CNP would. */
    private boolean cnpOnAck;

    /** hca.arbiter_at link_free: the arbiter chooses only when the link is free and nothing waits for it. */
    private final boolean atLinkFree;
    /** hca.arbitration packet (or any congestion control): the packet arbiter sends, not {@link #process}. */
    final boolean perPacket;
    /** The fabric's congestion control, or null for none ({@link #setCongestionControl}). */
    private CongestionControl cc;
    private long lineRateBps;
    private long maxRttPs;
    private long maxBdpBytes;
    /** The queue pairs with packets to send, in the packet arbiter's round-robin order. */
    private final ArrayDeque<QueuePair> sending = new ArrayDeque<>();
    /** hca.arbiter_order fixed: the queue pairs with packets to send in the order they got work, and the index of the
     *  one served last. */
    private final ArrayList<QueuePair> fixed = new ArrayList<>();
    private int rrLast = -1;
    private final boolean fixedOrder;
    /** When the payload DMA channel finishes the read it is doing (packet arbitration). */
    private long dmaFree;
    /** The time of the packet arbiter's pending wake-up event, or Long.MAX_VALUE; and that event's id. */
    private long wakeAt = Long.MAX_VALUE;
    private long wakeEvent;
    private final EventHandler wakeHandler = a -> {
        wakeAt = Long.MAX_VALUE;
        wakeEvent = 0;
        arbitrate();
    };
    /** hca.arbiter_wake one_pending: HPCC's one pending look ({@link #nothingEligible}, {@link #moveLook}). */
    private final boolean onePending;
    /** hca.arbiter_wake one_pending: new work makes the arbiter look when it is ready, apart from the pending look. */
    private final EventHandler newWorkHandler = a -> {
        if (hasSending()) {
            arbitrate();
        }
    };
    /** The packet {@link #emitAt} made last (the one {@link #readPacket} made, for the packet arbiter). */
    private Packet lastEmitted;
    /** The INT records of the ACK being handled, handed to the controller (reused). */
    private final IntHops hops = new IntHops();

    private final ArrayDeque<QueuePair> ready = new ArrayDeque<>();
    private boolean engineBusy;
    /** Wire bytes of the packets DMA-read or being DMA-read that have not yet started on the wire (or left by loopback). */
    private long txWaiting;
    /** When the packets scheduled so far (after their payload DMA reads) have all been emitted. */
    private long sendFree;
    private final EventHandler engineFree = a -> {
        engineBusy = false;
        kick();
    };
    // Allocation-free packet path: events about a packet carry its pool id.
    private final EventHandler emitHandler = id -> emit(packet(id), -1);
    /**
     * The payload DMA reads not in progress, for reuse. A read in progress, one per message, emits its packets one
     * after another at the times computed when the engine took the message up, through one event at a time (the read
     * is its handler) that schedules itself again for the next packet ({@link Simulator#scheduleAgainAt}, which
     * keeps the order of the events as if every packet's had been scheduled then), instead of one pending event and
     * one pooled packet per packet of the message.
     */
    private DmaRead[] freeReads = new DmaRead[4];
    private int freeReadCount;
    private final Slots<WorkRequest> doorbells = new Slots<>();
    private final EventHandler doorbellHandler = slot -> doorbell(doorbells.take(slot));

    SendEngine(HcaContext c, Params params, OnChipCaches caches, PayloadReader payload, Transmitter transmitter,
            CompletionSink completions) {
        this.c = c;
        this.sim = c.sim;
        this.trace = c.trace;
        this.hostName = c.hostName;
        this.hostId = c.hostId;
        this.memory = c.memory;
        this.pcieLatency = c.pcieLatency;
        this.pcieRate = c.pcieRate;
        this.readRequest = c.readRequest;
        this.mtu = c.mtu;
        this.header = c.header;
        this.ccHeader = c.ccHeader;
        this.reth = c.reth;
        this.aeth = c.aeth;
        this.caches = caches;
        this.payload = payload;
        this.transmitter = transmitter;
        this.completions = completions;
        this.wqeProcess = params.get(FabricParams.HCA_WQE_PROCESS);
        this.wqeInterval = params.get(FabricParams.HCA_WQE_INTERVAL);
        this.wqeBytes = params.get(FabricParams.HCA_WQE_BYTES);
        this.bindTime = params.get(FabricParams.HCA_BIND_TIME);
        this.strictReadOrdering = "strict".equals(params.choice(FabricParams.READ_ORDERING));
        this.maxInline = params.get(FabricParams.HCA_MAX_INLINE);
        this.txBuffer = params.get(FabricParams.HCA_TX_BUFFER);
        this.perPacket = "packet".equals(params.choice(FabricParams.HCA_ARBITRATION))
                || !"none".equals(params.choice(FabricParams.CC_ALGORITHM));
        this.atLinkFree = perPacket && "link_free".equals(params.choice(FabricParams.HCA_ARBITER_AT));
        this.fixedOrder = perPacket && "fixed".equals(params.choice(FabricParams.HCA_ARBITER_ORDER));
        this.onePending = perPacket && "one_pending".equals(params.choice(FabricParams.HCA_ARBITER_WAKE));
    }

    /** Whether the packet arbiter chooses when the link frees (hca.arbiter_at link_free). */
    boolean choosesAtLinkFree() {
        return atLinkFree;
    }

    /**
     * The port has finished a packet (told only under hca.arbiter_at link_free): the arbiter chooses the next one
     * now, unless a control packet of the HCA goes first (the arbiter then chooses at that one's end).
     */
    void linkFreed() {
        if (hasSending() && !arbiterFull()) {
            arbitrate();
        }
    }

    /** Whether a queue pair is in the packet arbiter's round-robin. */
    boolean hasSending() {
        return fixedOrder ? !fixed.isEmpty() : !sending.isEmpty();
    }

    /**
     * Gives the send engine the fabric's congestion control: each queue pair gets a controller when it starts
     * sending (and loses it when nothing of it is in flight).
     *
     * @param cc the congestion control, or null for none
     * @param lineRateBps the port's line rate
     * @param maxRttPs the topology's largest unloaded round-trip time between two hosts
     * @param maxBdpBytes the topology's largest bandwidth-delay product between two hosts
     */
    void setCongestionControl(CongestionControl cc, long lineRateBps, long maxRttPs, long maxBdpBytes) {
        this.cc = cc == null || cc.algorithm() == CongestionControl.Algorithm.NONE ? null : cc;
        this.cnpOnAck = this.cc != null && this.cc.cnpOnAck();
        this.lineRateBps = lineRateBps;
        this.maxRttPs = maxRttPs;
        this.maxBdpBytes = maxBdpBytes;
    }

    /** Wires the ACK timer, once, when the {@link Hca} is built. */
    void connect(AckTimer timer) {
        this.ackTimer = timer;
    }

    @Override
    public void wake(QueuePair qp) {
        if (!qp.send.notStarted.isEmpty()) {
            enqueue(qp);
        }
        kick();
    }

    /** Posts a request operation whose doorbell is written now; it reaches the HCA after the PCIe latency. */
    void post(WorkRequest wr) {
        QueuePair qp = wr.qp;
        completions.posted(wr);
        if (!qp.active) {
            completions.transportDone(wr, WcStatus.WR_FLUSH_ERR);
            return;
        }
        long doorbell = pcieLatency;
        if (inlines(wr)) {
            // The CPU copies the payload into the WQE now and writes both through the doorbell (BlueFlame): the
            // bytes are those of the post's moment, whatever a fence later holds (rule 17 delays only the start).
            byte[] data = new byte[(int) wr.length];
            int done = 0;
            for (int s = 0; s < wr.segAddress.length; s++) {
                int n = (int) wr.segLength[s];
                memory.cpuRead(wr.segAddress[s], data, done, n);
                done += n;
            }
            wr.inlineData = data;
            doorbell += pcieRate.transmitTimePs(wqeBytes + wr.length);
        }
        // An inline doorbell takes longer than a plain one, so doorbells may overtake each other: each event finds
        // its work request by slot, not by FIFO order.
        sim.schedule(doorbell, doorbellHandler, doorbells.put(wr));
    }

    /**
     * Tells whether a request is posted inline, as dapl's openib_common/dapl_ib_dto.h (dapls_ib_post_send) decides
     * it: a Send or RDMA Write whose total length is at most the inline size gets IBV_SEND_INLINE, whatever its
     * completion flags (a fence too); RDMA Reads, atomics and binds never. {@code hca.max_inline} 0 turns inline off.
     *
     * @param wr the request
     * @return true if its payload is copied into the WQE at the post
     */
    boolean inlines(WorkRequest wr) {
        return maxInline > 0 && wr.length <= maxInline
                && (wr.opcode == WorkRequest.SEND || wr.opcode == WorkRequest.RDMA_WRITE);
    }

    private void doorbell(WorkRequest wr) {
        if (wr.done) {
            return;
        }
        QueuePair qp = wr.qp;
        ackTimer.rung(wr);
        if (qp.transport.paused) {
            return; // the retransmission after the RNR timer picks it up in doorbell order
        }
        qp.send.notStarted.addLast(wr);
        enqueue(qp);
        kick();
    }

    /** Puts a queue pair in the round-robin of those with work to take up, unless it is there already. */
    void enqueue(QueuePair qp) {
        if (!qp.send.queued) {
            qp.send.queued = true;
            ready.addLast(qp);
        }
    }

    /** Whether the packets waiting for the link fill the transmit buffer (hca.tx_buffer). */
    private boolean txFull() {
        return txBuffer > 0 && txWaiting >= txBuffer;
    }

    /**
     * Packet arbitration: whether the packets chosen and not yet on the wire are enough to keep the port busy while
     * the payload of one more is read, so that the arbiter waits before it chooses the next. That is what the port
     * sends during one payload read (two PCIe crossings, {@code pcie.dma_read_delay} and a read request at
     * {@code pcie.bandwidth}), plus one read request and one packet: a NIC that schedules packets chooses them this
     * close to the wire, so a packet of a new flow, or one its rate limiter frees, waits behind at most that much
     * (with the whole {@code hca.tx_buffer}, 256 KiB on roce-100g, it waited 21 us behind other queue pairs' packets at
     * 100 Gb/s). Never more than {@code hca.tx_buffer}.
     */
    private boolean arbiterFull() {
        if (atLinkFree) {
            if (txWaiting > 0) {
                return true; // it starts when the link is free; its end comes to linkFreed
            }
            org.datsim.fabric.link.Port port = c.port;
            if (port != null && port.transmittingOrControlWaiting()) {
                port.departureExact(); // the end of the packet on the wire, if not yet an event, becomes one
                return true;
            }
            return false;
        }
        if (arbiterWindow < 0) {
            long rate = c.linkRate != null ? c.linkRate.bitsPerSecond() : lineRateBps;
            long read = 2 * pcieLatency + c.readDelay + pcieRate.transmitTimePs(readRequest);
            long w = (long) ((double) read * rate / 8e12) + readRequest + mtu + header + ccHeader + reth;
            arbiterWindow = txBuffer > 0 ? Math.min(txBuffer, w) : w;
        }
        return txWaiting >= arbiterWindow;
    }

    /** Takes up work requests while the engine is free, a queue pair has work and the transmit buffer has room. */
    void kick() {
        while (!engineBusy && !ready.isEmpty() && (perPacket || !txFull())) {
            QueuePair qp = ready.pollFirst();
            if (qp.transport.paused) {
                qp.send.queued = false;
                continue;
            }
            WorkRequest head = qp.send.notStarted.peekFirst();
            if (head != null && fenced(head)) {
                qp.send.queued = false;
                qp.send.fenced = true;
                continue;
            }
            if (head != null && head.isReadLike() && !head.readCounted && qp.send.readsOut >= qp.send.maxReadsOut) {
                creditWait(head);
                qp.send.queued = false;
                qp.send.creditBlocked = true;
                continue;
            }
            WorkRequest wr = qp.send.notStarted.pollFirst();
            if (qp.send.notStarted.isEmpty()) {
                qp.send.queued = false;
            } else {
                ready.addLast(qp);
            }
            if (wr != null && !wr.done) {
                process(wr);
            }
        }
    }

    /** Rule 49: an RDMA Read beyond max_rdma_read_out waits for an earlier Read to complete. */
    private void creditWait(WorkRequest wr) {
        if (wr.creditTraced || !trace.isEnabled()) {
            return;
        }
        wr.creditTraced = true;
        long[] waiting = new long[wr.qp.send.readsOut];
        int i = 0;
        for (WorkRequest o : wr.qp.completion.outstanding) {
            if (o.isReadLike() && !o.done && !wr.qp.send.notStarted.contains(o) && i < waiting.length) {
                waiting[i++] = o.opId;
            }
        }
        trace.fire(TraceEvent.of(sim.now(), TraceKind.CREDIT_WAIT, hostName).ep(wr.qp.name).op(wr.opId)
                .cookie(wr.cookie)
                .attr(TraceKey.OPCODE, wr.opName()).attr(TraceKey.WAITING_FOR, java.util.Arrays.copyOf(waiting, i))
                .attr(TraceKey.REASON, "max_rdma_read_out reads outstanding"));
    }

    /**
     * Whether a work request must wait behind earlier ones of its queue pair (traced once as fence_wait): the barrier
     * fence (rules 17, 18) and strict read ordering wait for earlier RDMA Reads and atomics only, since Sends and
     * Writes are already ordered on the wire; an earlier RMR bind holds everything posted after it (rule 23, the implicit fence).
     * Everything behind a waiting request on the queue pair waits too.
     *
     * @return true if the work request must wait
     */
    /** Returns whether every operation waits for the earlier RDMA Reads of its queue pair (read_ordering strict). */
    boolean strictReadOrdering() {
        return strictReadOrdering;
    }

    private boolean fenced(WorkRequest wr) {
        if (wr.qp.completion.fenceSources == 0) {
            return false; // no Read or bind outstanding: nothing to wait for, no scan
        }
        boolean explored = false;
        boolean barrier = (wr.sendFlags & WorkRequest.SEND_FENCE) != 0
                || (strictReadOrdering && !wr.isReadLike());
        if (!barrier && sim.exploring() && HcaChoices.payloadAfterRead(c, wr)) {
            barrier = true; // transport.payload_fetch: taken up after the earlier Reads, as a fence would
            explored = true;
        }
        long[] waiting = null;
        int n = 0;
        boolean byBind = false;
        for (WorkRequest o : wr.qp.completion.outstanding) {
            if (o == wr) {
                break;
            }
            if (!o.done && ((barrier && o.isReadLike()) || o.opcode == WorkRequest.BIND)) {
                if (!wr.fenceTraced && trace.isEnabled()) {
                    if (waiting == null) {
                        waiting = new long[4];
                    } else if (n == waiting.length) {
                        waiting = java.util.Arrays.copyOf(waiting, 2 * n);
                    }
                    waiting[n] = o.opId;
                }
                n++;
                byBind |= o.opcode == WorkRequest.BIND;
            }
        }
        if (waiting != null) {
            wr.fenceTraced = true;
            trace.fire(TraceEvent.of(sim.now(), TraceEvent.FENCE_WAIT, hostName).ep(wr.qp.name).op(wr.opId)
                    .cookie(wr.cookie).attr(TraceKey.OPCODE, wr.opName())
                    .attr(TraceKey.WAITING_FOR, java.util.Arrays.copyOf(waiting, n))
                    .attr(TraceKey.REASON, byBind ? "rmr_bind implicit fence"
                            : (wr.sendFlags & WorkRequest.SEND_FENCE) != 0 ? "barrier fence"
                                    : explored ? "transport.payload_fetch choice" : "strict read ordering"));
        }
        return n > 0;
    }

    private void process(WorkRequest wr) {
        engineBusy = true;
        long now = sim.now();
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(now, TraceEvent.START, hostName).ep(wr.qp.name).op(wr.opId)
                    .cookie(wr.cookie).attr(TraceKey.OPCODE, wr.opName()).attr(TraceKey.BYTES, wr.length));
        }
        boolean inline = wr.inlineData != null;
        // The engine is busy for the QP-context lookup and hca.wqe_interval; the rest of the processing and the WQE
        // fetch's round trip overlap the next work request (the engine keeps several WQEs in flight).
        long stall = caches.qpcCost(wr.qp, wr);
        long busy = now + stall + wqeInterval;
        long t = now + stall + wqeProcess;
        if (!inline) {
            t += 2 * pcieLatency + c.readDelay + pcieRate.transmitTimePs(wqeBytes); // the WQE fetch, a DMA read
        }
        long fetched = t;
        // Packets leave in the order their work requests were processed: after every packet scheduled so far.
        t = Math.max(t, sendFree);
        if (wr.opcode != WorkRequest.BIND) {
            wr.started = true;
            if (wr.qp.transport.ackTimerEvent == 0) {
                ackTimer.start(wr.qp, now);
            }
        }
        if (wr.opcode == WorkRequest.BIND) {
            // The engine hands the bind to the protection tables and goes on; later work of this queue pair waits
            // for the bind's completion (rule 23, the implicit fence).
            sim.scheduleAt(t + bindTime, () -> {
                if (!wr.done) {
                    int status = wr.qp.listener.bindExecuted(wr);
                    if (status == WcStatus.SUCCESS) {
                        completions.transportDone(wr, status);
                    } else {
                        completions.fail(wr.qp, wr, status);
                    }
                }
            });
            engineDone(t, busy);
            return;
        }
        if (perPacket) {
            if (wr.isReadLike() && !wr.readCounted) {
                wr.qp.send.readsOut++;
                wr.readCounted = true;
            }
            // The packet arbiter reads the payload packet by packet, after the first read's round trip.
            queuePackets(wr, wr.isReadLike() || inline ? fetched : fetched + 2 * pcieLatency + c.readDelay, now);
            sim.scheduleAt(busy, engineFree, 0);
            return;
        }
        if (wr.isReadLike()) {
            if (!wr.readCounted) { // a retransmitted Read keeps the credit it holds
                wr.qp.send.readsOut++;
                wr.readCounted = true;
            }
            emitAt(t, wr, wr.qp.peer, wr.isAtomic() ? Packet.ATOMIC : Packet.READ_REQUEST, 0, 1, 0, 0);
            engineDone(t, busy);
            return;
        }
        int kind = wr.opcode == WorkRequest.SEND ? Packet.SEND : Packet.RDMA_WRITE;
        int count = c.packetCount(wr.length);
        if (inline) {
            for (int i = 0; i < count; i++) {
                long off = (long) i * mtu;
                emitAt(t, wr, wr.qp.peer, kind, i, count, off, (int) Math.min(mtu, wr.length - off));
            }
            engineDone(t, busy);
            return;
        }
        // The payload DMA read: a round trip, then read request by read request at PCIe's rate, each page translated;
        // a packet leaves once the request holding its first byte is in (cut through). Each packet is emitted then
        // by the message's one event (emitNext).
        t = Math.max(fetched + 2 * pcieLatency + c.readDelay, sendFree);
        DmaRead read = takeRead(count);
        long[] plan = read.plan;
        for (int i = 0; i < count; i++) {
            long off = (long) i * mtu;
            int len = (int) Math.min(mtu, wr.length - off);
            t += caches.mttCostLocal(wr, off, len, wr.qp.name, t);
            t = readTimes(t, i == 0, wr, off, len);
            plan[3 * i] = readEmit;
            plan[3 * i + 1] = readReady;
            plan[3 * i + 2] = readTail;
            txWaiting += wireBytes(wr, kind, i, count, len); // counted from now, as emitAt counts
        }
        read.wr = wr;
        wr.packetTaken(); // the read holds it until its last packet is emitted
        read.responder = wr.qp.peer;
        read.dstHost = read.responder != null ? read.responder.hca.hostId : -1;
        read.flow = wr.qp.flow;
        read.kind = kind;
        read.count = count;
        read.next = 0;
        sim.scheduleAt(plan[0], read, 0);
        // The payload DMA channel is busy until t: the engine takes the next work request just early enough for
        // that one's payload to follow without a gap (one WQE of lookahead), not earlier.
        long lookahead = wqeProcess + 4 * pcieLatency + 2 * c.readDelay + pcieRate.transmitTimePs(wqeBytes);
        engineDone(t, Math.max(busy, t - lookahead));
    }

    // ---------------------------------------------------------------- packet arbitration and congestion control

    /**
     * Packet arbitration: a processed work request's packets wait in its queue pair's send queue for the arbiter,
     * the first one no earlier than {@code readyPs}. A queue pair that starts sending gets its congestion
     * controller.
     */
    private void queuePackets(WorkRequest wr, long readyPs, long now) {
        QueuePair qp = wr.qp;
        wr.txNext = 0;
        wr.txReadyPs = readyPs;
        if (wr.ccBase < 0) {
            wr.ccBase = qp.send.ccStreamEnd;
            if (!wr.isReadLike()) {
                qp.send.ccStreamEnd += wr.length;
            }
        }
        if (cc != null && qp.send.rc == null) {
            CcTimerSet timers = new CcTimerSet(sim, this, qp, 3);
            qp.send.ccTimers = timers;
            qp.send.rc = cc.newController(lineRateBps, maxRttPs, maxBdpBytes, timers);
            qp.send.rc.start(now);
        }
        qp.send.txQueue.addLast(wr);
        if (!qp.send.txActive) {
            qp.send.txActive = true;
            if (fixedOrder) {
                fixed.add(qp);
            } else {
                sending.addLast(qp);
            }
        }
        if (onePending) {
            sim.scheduleAt(Math.max(readyPs, now), newWorkHandler, 0); // HPCC's NewQp: DequeueAndTransmit
        } else {
            wakeAt(readyPs);
        }
    }

    /**
     * hca.arbiter_wake one_pending: no queue pair may send now. HPCC's NIC schedules its next look at the earliest
     * next-available time of the queue pairs with bytes left (those its window holds included, whose time may be
     * past), only if no look is pending and that time is later than now; otherwise an ACK, a link freeing, new work
     * or a rate change brings the next look.
     */
    private void nothingEligible(long now) {
        long t = Long.MAX_VALUE;
        if (fixedOrder) {
            for (int k = 0; k < fixed.size(); k++) {
                t = Math.min(t, nextAvailable(fixed.get(k)));
            }
        } else {
            for (QueuePair qp : sending) {
                t = Math.min(t, nextAvailable(qp));
            }
        }
        if (wakeEvent == 0 && t > now && t != Long.MAX_VALUE) {
            wakeAt = t;
            wakeEvent = sim.scheduleAt(t, wakeHandler, 0);
        }
    }

    /** A queue pair's next-available time: its rate limiter's next departure, not before its WQE is fetched. */
    private static long nextAvailable(QueuePair qp) {
        WorkRequest wr = qp.send.txQueue.peekFirst();
        long t = wr != null ? wr.txReadyPs : Long.MIN_VALUE;
        RateController rc = qp.send.rc;
        return rc != null ? Math.max(t, rc.nextSendTimePs()) : t;
    }

    /**
     * hca.arbiter_wake one_pending: a queue pair's controller changed its rate and shifted its next departure
     * (HPCC's ChangeRate): a pending look moves earlier to it (QbbNetDevice::UpdateNextAvail); none starts.
     */
    private void moveLook(QueuePair qp) {
        RateController rc = qp.send.rc;
        if (rc == null || !rc.takeNextSendShift() || wakeEvent == 0) {
            return;
        }
        long t = rc.nextSendTimePs();
        if (t < wakeAt) {
            sim.cancel(wakeEvent);
            wakeAt = Math.max(t, sim.now());
            wakeEvent = sim.scheduleAt(wakeAt, wakeHandler, 0);
        }
    }

    /** A controller's timer fired (its rate may have changed): the arbiter looks again, or (one_pending) moves a look. */
    void ccTimerFired(QueuePair qp) {
        if (onePending) {
            moveLook(qp);
        } else {
            ccChanged();
        }
    }

    /** Makes the packet arbiter look at its queue pairs at {@code time}, unless it will look earlier anyway. */
    private void wakeAt(long time) {
        if (time >= wakeAt) {
            return;
        }
        if (wakeEvent != 0) {
            sim.cancel(wakeEvent);
        }
        wakeAt = time;
        wakeEvent = sim.scheduleAt(time, wakeHandler, 0);
    }

    /**
     * The packet arbiter: while the transmit buffer has room, it sends the next
     * packet of the first queue pair in round-robin order that may send one (its work request's WQE fetched, its
     * rate limiter's next departure reached, its bytes in flight below its window), and puts that queue pair at the
     * back. A packet that needs a new payload read request queues it on the DMA channel (behind the reads issued
     * before; the arbiter does not wait for it), at {@code pcie.bandwidth} (each page translated), so queue pairs
     * share the port packet by packet; the read's round trip is paid once per work request (the NIC prefetches).
     * The rate limiter hears of the packet at the moment it is chosen (its departure less the constant read time).
     */
    private void arbitrate() {
        if (fixedOrder) {
            arbitrateFixed();
            return;
        }
        long now = sim.now();
        while (!sending.isEmpty()) {
            if (arbiterFull()) {
                return; // txLeft calls again
            }
            QueuePair chosen = null;
            long next = Long.MAX_VALUE;
            for (int k = sending.size(); k > 0; k--) {
                QueuePair qp = sending.pollFirst();
                long at = readiness(qp, now);
                if (at < 0) {
                    continue; // no work: out of the round-robin
                }
                if (at > 0) {
                    next = Math.min(next, at);
                    sending.addLast(qp);
                    continue;
                }
                chosen = qp;
                break;
            }
            if (chosen == null) {
                if (onePending) {
                    nothingEligible(now);
                } else if (next != Long.MAX_VALUE) {
                    wakeAt(next);
                }
                return;
            }
            sendPacket(chosen, now);
            if (chosen.send.txQueue.isEmpty()) {
                chosen.send.txActive = false;
            } else {
                sending.addLast(chosen);
            }
        }
    }

    /**
     * {@link #arbitrate} under hca.arbiter_order fixed: the queue pairs in the order they got work, the scan starting
     * after the one served last (HPCC's RdmaEgressQueue::GetNextQindex), so a queue pair that gets work joins at the
     * end of that order, not behind the one just served.
     */
    private void arbitrateFixed() {
        long now = sim.now();
        ArrayList<QueuePair> order = fixed;
        while (!order.isEmpty()) {
            if (arbiterFull()) {
                return;
            }
            int chosen = -1;
            long next = Long.MAX_VALUE;
            int idx = rrLast;
            for (int seen = order.size(); seen > 0; seen--) {
                idx = idx + 1 >= order.size() ? 0 : idx + 1;
                QueuePair qp = order.get(idx);
                long at = readiness(qp, now);
                if (at < 0) {
                    order.remove(idx); // the order of the others stays
                    if (idx <= rrLast) {
                        rrLast--;
                    }
                    idx--;
                    if (order.isEmpty()) {
                        break;
                    }
                    continue;
                }
                if (at > 0) {
                    next = Math.min(next, at);
                    continue;
                }
                chosen = idx;
                break;
            }
            if (chosen < 0) {
                if (onePending) {
                    nothingEligible(now);
                } else if (next != Long.MAX_VALUE) {
                    wakeAt(next);
                }
                return;
            }
            QueuePair qp = order.get(chosen);
            sendPacket(qp, now);
            if (qp.send.txQueue.isEmpty()) {
                qp.send.txActive = false;
                order.remove(chosen);
                rrLast = chosen - 1; // the scan goes on with the one after it, now at its index
            } else {
                rrLast = chosen;
            }
        }
    }

    /**
     * Whether a queue pair in the round-robin may send a packet now: 0 if it may; the time it may (its first packet's
     * WQE fetched, its rate limiter's next departure), or Long.MAX_VALUE while its window is full (an ACK makes
     * room); -1 if it has no work left (it leaves the round-robin).
     */
    private long readiness(QueuePair qp, long now) {
        WorkRequest wr = qp.send.txQueue.peekFirst();
        while (wr != null && wr.done) {
            qp.send.txQueue.pollFirst();
            wr = qp.send.txQueue.peekFirst();
        }
        if (wr == null || qp.transport.paused || !qp.active) {
            qp.send.txQueue.clear();
            qp.send.txActive = false;
            return -1;
        }
        if (wr.txReadyPs > now) {
            return wr.txReadyPs;
        }
        RateController rc = qp.send.rc;
        if (rc != null) {
            long at = rc.nextSendTimePs();
            if (at > now) {
                return at;
            }
            if (qp.send.ccSndNxt - qp.send.ccSndUna >= rc.windowBytes()) {
                return Long.MAX_VALUE; // an ACK makes room
            }
        }
        return 0;
    }

    /** Sends the next packet of a queue pair's first work request (packet arbitration). */
    private void sendPacket(QueuePair qp, long now) {
        WorkRequest wr = qp.send.txQueue.peekFirst();
        int i = wr.txNext++;
        Packet p;
        int count;
        if (wr.isReadLike()) {
            count = 1;
            p = emitAt(now, wr, qp.peer, wr.isAtomic() ? Packet.ATOMIC : Packet.READ_REQUEST, 0, 1, 0, 0);
        } else {
            count = c.packetCount(wr.length);
            long off = (long) i * mtu;
            int len = (int) Math.min(mtu, wr.length - off);
            int kind = wr.opcode == WorkRequest.SEND ? Packet.SEND : Packet.RDMA_WRITE;
            if (wr.inlineData == null) {
                // read request by read request, cut through, as in request mode; each message keeps its read position
                readPos = i == 0 ? 0 : wr.txReadPos;
                // A packet whose bytes an earlier read request already holds goes now; one that needs a new request
                // queues it on the payload DMA channel behind the reads issued before (read-ahead: the arbiter does
                // not wait for a read to finish before it chooses the next packet, so DMA overlaps the pacing).
                boolean held = i > 0 && readPos >= off + len; // its bytes are in a request already issued
                long start = held ? Math.max(now, wr.txReadIn) : Math.max(now, dmaFree);
                long in = readPacket(start + caches.mttCostLocal(wr, off, len, qp.name, start), i == 0, wr, qp.peer,
                        kind, i, count, off, len, false);
                if (!held) {
                    dmaFree = in;
                    wr.txReadIn = in;
                }
                wr.txReadPos = readPos;
                p = lastEmitted;
            } else {
                p = emitAt(now, wr, qp.peer, kind, i, count, off, len);
            }
            qp.send.ccSndNxt = wr.ccBase + off + len;
        }
        if (qp.send.rc != null) {
            p.timestampPs = now; // HPCC's SeqTsHeader ts: the time its NIC makes the packet; the ACK echoes it
            qp.send.rc.onPacketSent(now, p.wireBytes);
        }
        if (wr.txNext >= count) {
            qp.send.txQueue.pollFirst();
        }
    }

    /**
     * Go-back-N (for the reliable transport): {@code first} and every later unfinished request of the queue pair whose
     * doorbell has rung go back into its send queue, in doorbell order, and the engine runs.
     */
    void requeueFrom(QueuePair qp, WorkRequest first) {
        dropNotStarted(qp, first);
        boolean from = false;
        for (WorkRequest o : qp.transport.rung) {
            from |= o == first;
            if (from && !o.done) {
                qp.send.notStarted.addLast(o);
            }
        }
        enqueue(qp);
        kick();
    }

    /**
     * An RNR NAK or a go-back-N: nothing of the queue pair waits to be taken up any more, and its packets not yet
     * chosen by the arbiter are dropped ({@link #dropQueued}).
     */
    void dropNotStarted(QueuePair qp, WorkRequest first) {
        qp.send.notStarted.clear();
        dropQueued(qp, first);
    }

    /** A go-back-N or an RNR NAK: the packets of a queue pair not sent yet are dropped (its requests come again). */
    private void dropQueued(QueuePair qp, WorkRequest first) {
        qp.send.txQueue.clear();
        if (first != null && first.ccBase >= 0) {
            qp.send.ccSndNxt = first.ccBase;
        }
    }

    /** A controller's rate or window may have changed: the arbiter looks again now. */
    void ccChanged() {
        if (hasSending()) {
            arbitrate();
        }
    }

    /**
     * An ACK (or a partial ACK) arrived for a queue pair: its controller hears the cumulative bytes acknowledged,
     * the ECN echo, the echoed INT records and the echoed send time.
     */
    void onAckFeedback(QueuePair qp, Packet ack) {
        RateController rc = qp.send.rc;
        if (ack.offset > qp.send.ccSndUna) {
            qp.send.ccSndUna = ack.offset;
        }
        if (rc == null) {
            return;
        }
        IntHops h = null;
        int n = ack.intHops;
        if (n > 0) {
            hops.clear();
            for (int k = 0; k < n; k++) {
                hops.add(ack.intQueueBytes(k), ack.intTxBytes(k), ack.intTimePs(k), ack.intRateBps(k));
            }
            h = hops;
        }
        rc.onAck(sim.now(), qp.send.ccSndUna, Math.max(qp.send.ccSndNxt, qp.send.ccSndUna), ack.ecn, h, ack.timestampPs);
        if (ack.ecn && cnpOnAck) {
            rc.onCnp(sim.now()); // cc.dcqcn.cnp_on_ack: the notification rides on the ACK, as in HPCC's simulator
        }
        if (onePending) {
            moveLook(qp);
        }
        ccChanged(); // HPCC's ReceiveAck ends with TriggerTransmit
    }

    /**
     * A CNP arrived for a queue pair (DCQCN): its controller cuts its rate at its next decrease check. Under
     * hca.arbiter_wake one_pending the arbiter does not look (HPCC's ReceiveCnp triggers no transmit).
     */
    void onCnp(QueuePair qp) {
        if (qp.send.rc != null) {
            qp.send.rc.onCnp(sim.now());
            if (onePending) {
                moveLook(qp);
            } else {
                ccChanged();
            }
        }
    }

    /** Nothing of a queue pair is in flight any more: its controller stops (its timers are cancelled). */
    @Override
    public void finished(WorkRequest wr) {
        QueuePair qp = wr.qp;
        SendState s = qp.send;
        if (wr.readCounted) {
            wr.readCounted = false;
            s.readsOut--;
            if (s.creditBlocked) {
                s.creditBlocked = false;
                s.fenced = true; // looked at again below
            }
        }
        if ((wr.isReadLike() || wr.opcode == WorkRequest.BIND) && s.fenced) {
            s.fenced = false; // the fenced request is looked at again
            wake(qp);
        }
    }

    @Override
    public void flushed(QueuePair qp) {
        SendState s = qp.send;
        s.notStarted.clear();
        for (WorkRequest wr : qp.completion.outstanding) {
            if (wr.done && wr.readCounted) {
                wr.readCounted = false;
                s.readsOut--;
            }
        }
        s.creditBlocked = false;
    }

    @Override
    public void reset(QueuePair qp) {
        qp.send.reset();
        idle(qp);
    }

    /**
     * A queue pair is destroyed ({@link Hca#destroyQueuePair}): its controller stops and it leaves the round-robins it
     * is still in (only a queue pair with no work left is destroyed, which the arbiter's next scan would drop anyway;
     * the order of the others and the fixed order's last served one stay as that scan would leave them).
     */
    void forget(QueuePair qp) {
        idle(qp);
        SendState s = qp.send;
        if (s.txActive) {
            s.txActive = false;
            s.txQueue.clear();
            if (fixedOrder) {
                int idx = fixed.indexOf(qp);
                if (idx >= 0) {
                    fixed.remove(idx);
                    if (idx <= rrLast) {
                        rrLast--;
                    }
                }
            } else {
                sending.remove(qp);
            }
        }
        if (s.queued) {
            s.queued = false;
            ready.remove(qp);
        }
        s.notStarted.clear();
    }

    @Override
    public void idle(QueuePair qp) {
        if (qp.send.rc != null) {
            qp.send.rc.stop();
            qp.send.rc = null;
            qp.send.ccTimers = null;
        }
    }

    /**
     * The payload read of one packet of a message, read request by read request (pcie.max_read_request, aligned to
     * the message) from {@code t}, when the requests read so far are in: the packet is emitted once the request
     * holding its first byte is in, and if later requests hold the rest of it (requests smaller than the packet) its
     * last bit leaves no earlier than they are in ({@link Packet#dataReadyPs}). A message's packets are read in order,
     * the first with {@code first} true.
     *
     * @param duplicate for an RDMA Read response: whether it answers a duplicate request (it returns no read credit)
     * @return when the requests read so far are in
     */
    long readPacket(long t, boolean first, WorkRequest wr, QueuePair responder, int kind, int index, int count,
            long off, int len, boolean duplicate) {
        t = readTimes(t, first, wr, off, len);
        Packet p = emitAt(readEmit, wr, responder, kind, index, count, off, len);
        if (readReady >= 0) {
            p.dataReadyPs = readReady;
            p.dataTailBytes = readTail;
        }
        if (duplicate) {
            p.aux = ResponseEngine.DUPLICATE;
        }
        return t;
    }

    /** Set by {@link #readTimes}: when the packet is emitted, when its last bit may leave (or -1), its tail bytes. */
    private long readEmit;
    private long readReady;
    private int readTail;

    /**
     * The read requests of one packet, as {@link #readPacket} describes them, without creating it: sets
     * {@link #readEmit}, and {@link #readReady} and {@link #readTail} if later requests hold the rest of it
     * ({@code readReady} -1 if not).
     *
     * @return when the requests read so far are in
     */
    private long readTimes(long t, boolean first, WorkRequest wr, long off, int len) {
        if (first) {
            readPos = 0;
        }
        long end = off + len;
        long emitTime = -1;
        long tailStart = readPos;
        while (readPos < end) {
            tailStart = readPos;
            long next = Math.min(wr.length, (readPos / readRequest + 1) * readRequest);
            t += pcieRate.transmitTimePs(next - readPos);
            readPos = next;
            if (emitTime < 0 && readPos > off) {
                emitTime = t;
            }
        }
        if (emitTime < 0) {
            emitTime = t; // the request that held an earlier packet held this one too
        }
        readEmit = emitTime;
        readReady = t > emitTime ? t : -1;
        readTail = (int) (end - tailStart);
        return t;
    }

    /**
     * The end of {@link #process}: the packets scheduled so far are emitted by {@code lastEmit}, and the engine takes
     * up the next work request at {@code freeAt}.
     */
    private void engineDone(long lastEmit, long freeAt) {
        sendFree = lastEmit;
        sim.scheduleAt(freeAt, engineFree, 0);
    }

    /**
     * Schedules a packet's creation at the time its DMA read finishes: a pooled packet holds the arguments until
     * then; it counts in the transmit buffer ({@link #txWaiting}) from now until it starts on the wire.
     */
    Packet emitAt(long time, WorkRequest wr, QueuePair responder, int kind, int index, int count, long off, int len) {
        int wire = wireBytes(wr, kind, index, count, len);
        txWaiting += wire;
        Packet p = c.pool.acquire().set(kind, hostId, -1, wire, wr, index, count, off, 0, wr.qp.flow);
        p.endpoint = responder;
        p.length = len; // the payload, read when the DMA read finishes (emit)
        sim.scheduleAt(time, emitHandler, p.id);
        lastEmitted = p;
        return p;
    }

    /** The wire bytes of a packet that {@link #emitAt} or a payload DMA read creates. */
    private int wireBytes(WorkRequest wr, int kind, int index, int count, int len) {
        int wire = header;
        switch (kind) {
            case Packet.SEND:
            case Packet.RDMA_WRITE:
                wire += len + ccHeader + (kind == Packet.RDMA_WRITE && index == 0 ? reth : 0)
                        + (wr.withImmediate && index == count - 1 ? IMMDT_BYTES : 0);
                break;
            case Packet.READ_REQUEST:
                wire += reth;
                break;
            case Packet.ATOMIC:
                wire += ATOMIC_ETH_BYTES;
                break;
            case Packet.READ_RESPONSE:
                wire += len + aeth + ccHeader;
                break;
            default:
                throw new IllegalArgumentException("not a DMA-read packet kind: " + kind);
        }
        return wire;
    }

    /**
     * A message's payload DMA read, and the event that emits its packets: when each packet's read finishes, and the
     * next packet to emit. What the packets need of the message and its queue pairs is copied here when the engine
     * takes the message up, so that the event reads one object and its plan.
     */
    private final class DmaRead implements EventHandler {
        /** Per packet, three entries: when its read finishes, when its last bit may leave (or -1), its tail bytes. */
        long[] plan = new long[3 * 16];
        WorkRequest wr;
        QueuePair responder;
        int dstHost;
        int flow;
        int kind;
        int count;
        int next;

        @Override
        public void handle(long arg) {
            emitNext(this);
        }
    }

    /** Takes a free payload DMA read with room for {@code count} packets' plan. */
    private DmaRead takeRead(int count) {
        DmaRead read = freeReadCount == 0 ? new DmaRead() : freeReads[--freeReadCount];
        if (read.plan.length < 3 * count) {
            read.plan = new long[3 * Math.max(count, 2 * read.plan.length / 3)];
        }
        return read;
    }

    /**
     * The payload DMA read of a message's next packet has finished: the packet is created (as {@link #emitAt} would
     * have created it when the message was taken up) and emitted; the event comes again for the packet after it.
     */
    private void emitNext(DmaRead read) {
        WorkRequest wr = read.wr;
        int i = read.next++;
        long off = (long) i * mtu;
        int len = (int) Math.min(mtu, wr.length - off);
        Packet p = c.pool.acquire().set(read.kind, hostId, -1, wireBytes(wr, read.kind, i, read.count, len), wr, i,
                read.count, off, 0, read.flow);
        p.endpoint = read.responder;
        p.length = len;
        long[] plan = read.plan;
        long ready = plan[3 * i + 1];
        if (ready >= 0) {
            p.dataReadyPs = ready;
            p.dataTailBytes = (int) plan[3 * i + 2];
        }
        int dstHost = read.dstHost;
        if (read.next < read.count) {
            sim.scheduleAgainAt(plan[3 * read.next], read, 0);
        } else {
            wr.packetReleased();
            read.wr = null;
            read.responder = null;
            if (freeReadCount == freeReads.length) {
                freeReads = java.util.Arrays.copyOf(freeReads, 2 * freeReadCount);
            }
            freeReads[freeReadCount++] = read;
        }
        emit(p, dstHost);
    }

    /** Whether a packet of this kind was counted in {@link #txWaiting} by {@link #emitAt}. */
    static boolean countedInTx(int kind) {
        return kind == Packet.SEND || kind == Packet.RDMA_WRITE || kind == Packet.READ_REQUEST
                || kind == Packet.ATOMIC || kind == Packet.READ_RESPONSE;
    }

    /** A packet counted in {@link #txWaiting} has started on the wire, or will not: room for the send engine. */
    void txLeft(Packet p) {
        txWaiting -= p.wireBytes;
        if (!engineBusy && !ready.isEmpty() && !txFull()) {
            kick();
        }
        if (perPacket && hasSending() && !arbiterFull()) {
            arbitrate();
        }
    }

    /**
     * A packet's DMA read has finished: it takes its payload and leaves, unless its operation was flushed meanwhile.
     */
    private void emit(Packet p, int dstHost) { // dstHost: the destination's host id if known, else -1
        WorkRequest wr = (WorkRequest) p.context;
        int kind = p.kind;
        if (wr.done && kind != Packet.READ_RESPONSE) {
            txLeft(p);
            p.release();
            return; // flushed while its DMA was in progress
        }
        p.dstHost = dstHost >= 0 ? dstHost
                : kind == Packet.READ_RESPONSE ? wr.qp.hca.hostId : ((QueuePair) p.endpoint).hca.hostId;
        if (kind == Packet.SEND || kind == Packet.RDMA_WRITE) {
            payload.readPayload(p);
        } else if (kind == Packet.READ_RESPONSE) {
            payload.readPayload(p);
            QueuePair responder = (QueuePair) p.endpoint;
            if (p.isLast() && p.aux != ResponseEngine.DUPLICATE) {
                responder.reads.lastResponseSent(); // the responder has sent this Read's last response
            }
        }
        transmitter.transmit(p);
    }

    /** The pooled packet an event about a packet names by its pool id. */
    private Packet packet(long id) {
        return c.pool.get(id);
    }
}
