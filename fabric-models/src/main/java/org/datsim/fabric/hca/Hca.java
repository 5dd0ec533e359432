package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import java.util.function.Consumer;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.memory.HostMemory;

/**
 * A single-port RDMA host channel adapter on the reliable-connected transport.
 *
 * <p>Requester: a post rings the doorbell, which reaches the HCA {@code pcie.latency} later. The send engine serves
 * queue pairs round-robin, taking up a work request every {@code hca.wqe_interval} at most: it looks the QP
 * context up in its cache and spends {@code hca.wqe_process}, then DMA-reads the WQE (a PCIe round trip, overlapping the next work request) and the
 * payload (another round trip, then packet by packet at {@code pcie.bandwidth}; each packet's bytes are read from
 * host memory when its DMA finishes, and every page is translated through the MTT cache). The payload DMA is one
 * channel: the engine takes the next work request just early enough for that one's payload to follow without a
 * gap. An inline Send or RDMA Write ({@code hca.max_inline}) carries its payload in the doorbell write (BlueFlame):
 * the CPU copies the bytes at the post and the HCA fetches neither WQE nor payload. Packets leave in processing
 * order. Completions are reported in posting order per queue pair, a CQE write ({@code pcie.latency}) after the
 * ACK, or after the placement of the last RDMA Read response.
 *
 * <p>Receive pipeline: every arriving packet needs its QP context; a miss stalls the pipeline (packets leave it in
 * arrival order), which then spends {@code hca.rx_process}. Data is DMA-written in arrival order at
 * {@code pcie.bandwidth} (each page translated) and lands {@code pcie.latency} later.
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
 * DAT_DTO_ERR_TRANSPORT. Each retransmission is traced as {@code retransmit}.
 *
 * <p>Errors (remote access, length, RNR or transport retries exhausted) complete the failing operation with its
 * status, flush every other outstanding operation of the queue pair with DAT_DTO_ERR_FLUSHED, and tell the owner the
 * queue pair is broken.
 */
public final class Hca implements NetworkNode {

    /** The trace kind of an on-chip cache miss (fields {@code cache}, {@code key}, {@code penalty_ps}). */
    public static final String CACHE_MISS = "cache_miss";
    /** The IBA AtomicETH: virtual address, R_Key, swap (or add) data, compare data. */
    private static final int ATOMIC_ETH_BYTES = 28;
    /** The IBA AtomicAckETH: the original remote data. */
    private static final int ATOMIC_ACK_ETH_BYTES = 8;
    /** The trace kind of a retransmission (fields {@code opcode}, {@code reason}, {@code attempt}). */
    public static final String RETRANSMIT = "retransmit";
    /** The status of a NAK for a sequence error (IBA NAK code 0: a packet arrived ahead of the expected one). */
    private static final int NAK_SEQUENCE_ERROR = -2;
    /** The {@code aux} of an RDMA Read response answering a duplicate request: it returns no read credit. */
    private static final Object DUPLICATE = new Object();

    private final Simulator sim;
    private final String hostName;
    private final int hostId;
    private final HostMemory memory;
    private final TraceSource<TraceEvent> trace;
    private final long pcieLatency;
    private final DataRate pcieRate;
    private final int mtu;
    private final long wqeProcess;
    private final long wqeInterval;
    private final long wqeBytes;
    private final int header;
    private final int reth;
    private final int aeth;
    private final int cmBytes;
    private final long rnrTimer;
    private final int rnrRetry;
    private final long ackTimeout;
    private final int retryCount;
    private final long bindTime;
    private final boolean strictReadOrdering;
    private final long readJitter;
    private final long rxProcess;
    private final long maxInline;
    private final EntryCache qpc;
    private final EntryCache mtt;
    private final long qpcPenalty;
    private final long mttPenalty;
    private final int pageShift;
    private org.apache.commons.math3.random.RandomGenerator jitterRandom;
    private org.apache.commons.math3.random.RandomGenerator ackTimerRandom;
    private Port port;
    private Consumer<Object> cmListener;

    private final ArrayDeque<QueuePair> ready = new ArrayDeque<>();
    private boolean engineBusy;
    /** hca.tx_buffer: the send engine takes up no work request while this many bytes wait for the link; 0: no bound. */
    private final long txBuffer;
    /** Wire bytes of the packets DMA-read or being DMA-read that have not yet started on the wire (or left by loopback). */
    private long txWaiting;
    private final EventHandler engineFree = a -> {
        engineBusy = false;
        kick();
    };
    private long responderFree;
    private final ArrayDeque<Packet> loopback = new ArrayDeque<>();
    private final EventHandler loopbackDeliver = a -> receive(loopback.pollFirst(), 0);
    // Allocation-free packet path: events about a packet carry its pool id; events with a fixed delay use FIFOs.
    private PacketPool pool = new PacketPool();
    private final EventHandler emitHandler = id -> emit(pool.get(id));
    private final EventHandler transmitHandler = id -> transmit(pool.get(id));
    private final EventHandler sendReplyHandler = id -> sendReply(pool.get(id));
    private final EventHandler placeWriteHandler = id -> placeWrite(pool.get(id));
    private final EventHandler placeSendHandler = id -> placeSend(pool.get(id));
    private final EventHandler placeReadResponseHandler = id -> placeReadResponse(pool.get(id));
    private final EventHandler executeAtomicHandler = id -> executeAtomic(pool.get(id));
    private final EventHandler replayAtomicHandler = id -> replayAtomic(pool.get(id));
    /** The value an atomic writes back, encoded here (the DMA write copies it). */
    private final byte[] atomicScratch = new byte[WorkRequest.ATOMIC_BYTES];
    private final Slots<WorkRequest> doorbells = new Slots<>();
    private final ArrayDeque<Packet> pendingPayloads = new ArrayDeque<>();
    private long pendingLo = Long.MAX_VALUE;
    private long pendingHi = Long.MIN_VALUE;
    private final Runnable copyPendingPayloads = this::copyAllPendingPayloads;
    private final EventHandler doorbellHandler = slot -> doorbell(doorbells.take(slot));
    private final ArrayDeque<WorkRequest> completions = new ArrayDeque<>();
    private final EventHandler completionHandler = a -> {
        WorkRequest wr = completions.pollFirst();
        wr.qp.listener.requestCompleted(wr);
    };
    private int qpCount;
    private long packetsReceived;
    /** Send engine: when the packets scheduled so far (after their payload DMA reads) have all been emitted. */
    private long sendFree;
    /** Receive pipeline: when the last stall (a QP-context miss) ends; packets leave it in arrival order. */
    private long rxStallFree;
    private final ArrayDeque<Packet> rxQueue = new ArrayDeque<>();
    private final EventHandler rxDeliver = a -> dispatch(rxQueue.pollFirst());
    /** DMA writes into host memory: when the writes scheduled so far have all crossed PCIe's data rate. */
    private long dmaWriteFree;

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
        this.sim = sim;
        this.hostName = hostName;
        this.hostId = hostId;
        this.memory = memory;
        this.trace = trace;
        this.pcieLatency = params.get(FabricParams.PCIE_LATENCY);
        this.pcieRate = params.rate(FabricParams.PCIE_BANDWIDTH);
        this.mtu = (int) params.get(FabricParams.HCA_MTU);
        this.wqeProcess = params.get(FabricParams.HCA_WQE_PROCESS);
        this.wqeInterval = params.get(FabricParams.HCA_WQE_INTERVAL);
        this.wqeBytes = params.get(FabricParams.HCA_WQE_BYTES);
        this.header = (int) params.get(FabricParams.LINK_HEADER_BYTES);
        this.reth = (int) params.get(FabricParams.LINK_RETH_BYTES);
        this.aeth = (int) params.get(FabricParams.LINK_AETH_BYTES);
        this.cmBytes = (int) params.get(FabricParams.CM_MAD_BYTES);
        this.rnrTimer = params.get(FabricParams.RNR_TIMER);
        this.rnrRetry = (int) params.get(FabricParams.RNR_RETRY);
        this.ackTimeout = params.get(FabricParams.HCA_ACK_TIMEOUT);
        this.retryCount = (int) params.get(FabricParams.HCA_RETRY_COUNT);
        this.bindTime = params.get(FabricParams.HCA_BIND_TIME);
        this.strictReadOrdering = "strict".equals(params.choice(FabricParams.READ_ORDERING));
        this.readJitter = params.get(FabricParams.READ_JITTER);
        this.rxProcess = params.get(FabricParams.HCA_RX_PROCESS);
        this.maxInline = params.get(FabricParams.HCA_MAX_INLINE);
        this.txBuffer = params.get(FabricParams.HCA_TX_BUFFER);
        this.qpc = new EntryCache((int) params.get(FabricParams.HCA_QPC_ENTRIES),
                (int) params.get(FabricParams.HCA_QPC_POLICY));
        this.mtt = new EntryCache((int) params.get(FabricParams.HCA_MTT_ENTRIES),
                (int) params.get(FabricParams.HCA_MTT_POLICY));
        this.qpcPenalty = params.get(FabricParams.HCA_QPC_MISS_PENALTY);
        this.mttPenalty = params.get(FabricParams.HCA_MTT_MISS_PENALTY);
        this.pageShift = Long.numberOfTrailingZeros(Long.highestOneBit(params.get(FabricParams.HCA_MTT_PAGE)));
    }

    /**
     * Sets the random streams the caches' random replacement draws from.
     *
     * @param qpcRandom the QP-context cache's stream
     * @param mttRandom the MTT cache's stream
     */
    public void setCacheRandom(org.apache.commons.math3.random.RandomGenerator qpcRandom,
            org.apache.commons.math3.random.RandomGenerator mttRandom) {
        qpc.setRandom(qpcRandom);
        mtt.setRandom(mttRandom);
    }

    /** Returns the QP-context cache (its hits and misses). */
    public EntryCache qpcCache() {
        return qpc;
    }

    /** Returns the MTT/MPT cache (its hits and misses). */
    public EntryCache mttCache() {
        return mtt;
    }

    /**
     * Memory registration: the driver writes the region's translation entries, which leaves them in the MTT cache
     * (the last pages of the region when it has more pages than the cache holds).
     *
     * @param address the region's first virtual address
     * @param length its length in bytes
     */
    public void registerMemory(long address, long length) {
        if (mtt.capacity() == 0 || length <= 0) {
            return;
        }
        long first = address >>> pageShift;
        long last = (address + length - 1) >>> pageShift;
        for (long page = Math.max(first, last - mtt.capacity() + 1); page <= last; page++) {
            mtt.preload(page);
        }
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
    public void setRandom(org.apache.commons.math3.random.RandomGenerator random) {
        this.jitterRandom = random;
    }

    /**
     * Sets the random stream that spreads each queue pair's local ACK timeout between 1 and 2 times
     * {@code hca.ack_timeout}; without one the timeout is exactly {@code hca.ack_timeout}.
     *
     * @param random a stream derived from the run's seed
     */
    public void setAckTimerRandom(org.apache.commons.math3.random.RandomGenerator random) {
        this.ackTimerRandom = random;
    }

    /** Returns the host id. */
    public int hostId() {
        return hostId;
    }

    /** Returns the host memory this HCA reads and writes. */
    public HostMemory memory() {
        return memory;
    }

    /**
     * Attaches the HCA's port.
     *
     * @param port the sending side of the host's link
     */
    public void attach(Port port) {
        this.port = port;
        port.setListener(this::onTransmit);
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
        this.pool = pool;
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
        QueuePair qp = new QueuePair(this, name, qpCount++);
        qp.flow = flowHash(hostId, qpCount); // numbered from 1, as before the caches
        qp.ackTimer = a -> ackTimeout(qp);
        qpc.preload(qp.cacheKey); // the create-QP command writes the context through the cache
        return qp;
    }

    /** Returns the number of queue pairs ever created on this HCA. */
    public int queuePairCount() {
        return qpCount;
    }

    /** Returns the number of packets that arrived at this HCA. */
    public long packetsReceived() {
        return packetsReceived;
    }

    // ---------------------------------------------------------------- requester

    /**
     * Posts a request operation whose doorbell is written now; it reaches the HCA after the PCIe latency.
     *
     * @param wr a Send, RDMA Write or RDMA Read
     */
    public void postRequest(WorkRequest wr) {
        QueuePair qp = wr.qp;
        qp.outstanding.addLast(wr);
        if (wr.fenceSource()) {
            qp.fenceSources++;
        }
        if (!qp.active) {
            transportDone(wr, Dat.DTO_ERR_FLUSHED);
            return;
        }
        long doorbell = pcieLatency;
        if (maxInline > 0 && wr.length <= maxInline
                && (wr.opcode == WorkRequest.SEND || wr.opcode == WorkRequest.RDMA_WRITE)) {
            // The CPU copies the payload into the WQE now and writes both through the doorbell (BlueFlame).
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

    /** A fixed hash of a host id and a number (murmur3's 32-bit finaliser): the ECMP flow of a queue pair. */
    private static int flowHash(int host, int n) {
        return Switch.mix(host * 0x9E3779B1 + n * 0x85EBCA77);
    }

    private void doorbell(WorkRequest wr) {
        if (wr.done) {
            return;
        }
        QueuePair qp = wr.qp;
        wr.rung = true;
        if (wr.opcode != WorkRequest.BIND) {
            wr.seq = qp.nextSeq++; // the send engine takes requests up in doorbell order: so they go on the wire
        }
        qp.rung.addLast(wr);
        if (qp.paused) {
            return; // the retransmission after the RNR timer picks it up in doorbell order
        }
        qp.notStarted.addLast(wr);
        if (!qp.queued) {
            qp.queued = true;
            ready.addLast(qp);
        }
        kick();
    }

    /** Whether the packets waiting for the link fill the transmit buffer (hca.tx_buffer). */
    private boolean txFull() {
        return txBuffer > 0 && txWaiting >= txBuffer;
    }

    private void kick() {
        while (!engineBusy && !ready.isEmpty() && !txFull()) {
            QueuePair qp = ready.pollFirst();
            if (qp.paused) {
                qp.queued = false;
                continue;
            }
            WorkRequest head = qp.notStarted.peekFirst();
            if (head != null && fenced(head)) {
                qp.queued = false;
                qp.fenced = true;
                continue;
            }
            if (head != null && head.isReadLike() && !head.readCounted && qp.readsOut >= qp.maxReadsOut) {
                creditWait(head);
                qp.queued = false;
                qp.creditBlocked = true;
                continue;
            }
            WorkRequest wr = qp.notStarted.pollFirst();
            if (qp.notStarted.isEmpty()) {
                qp.queued = false;
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
        long[] waiting = new long[wr.qp.readsOut];
        int i = 0;
        for (WorkRequest o : wr.qp.outstanding) {
            if (o.isReadLike() && !o.done && !wr.qp.notStarted.contains(o) && i < waiting.length) {
                waiting[i++] = o.opId;
            }
        }
        trace.fire(TraceEvent.of(sim.now(), "credit_wait", hostName).ep(wr.qp.name).op(wr.opId).cookie(wr.cookie)
                .attr("opcode", wr.opName()).attr("waiting_for", java.util.Arrays.copyOf(waiting, i))
                .attr("reason", "max_rdma_read_out reads outstanding"));
    }

    /**
     * Whether a work request must wait behind earlier ones of its queue pair (traced once as fence_wait): the barrier
     * fence (rules 17, 18) and strict read ordering wait for earlier RDMA Reads and atomics only, since Sends and
     * Writes are already ordered on the wire; an earlier RMR bind holds everything posted after it (rule 23, the implicit fence).
     * Everything behind a waiting request on the queue pair waits too.
     *
     * @return true if the work request must wait
     */
    private boolean fenced(WorkRequest wr) {
        if (wr.qp.fenceSources == 0) {
            return false; // no Read or bind outstanding: nothing to wait for, no scan
        }
        boolean barrier = (wr.flags & Dat.COMPLETION_BARRIER_FENCE_FLAG) != 0
                || (strictReadOrdering && !wr.isReadLike());
        long[] waiting = null;
        int n = 0;
        boolean byBind = false;
        for (WorkRequest o : wr.qp.outstanding) {
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
                    .cookie(wr.cookie).attr("opcode", wr.opName()).attr("waiting_for", java.util.Arrays.copyOf(waiting, n))
                    .attr("reason", byBind ? "rmr_bind implicit fence"
                            : (wr.flags & Dat.COMPLETION_BARRIER_FENCE_FLAG) != 0 ? "barrier fence"
                                    : "strict read ordering"));
        }
        return n > 0;
    }

    private void process(WorkRequest wr) {
        engineBusy = true;
        long now = sim.now();
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(now, TraceEvent.START, hostName).ep(wr.qp.name).op(wr.opId)
                    .cookie(wr.cookie).attr("opcode", wr.opName()).attr("bytes", wr.length));
        }
        boolean inline = wr.inlineData != null;
        // The engine is busy for the QP-context lookup and hca.wqe_interval; the rest of the processing and the WQE
        // fetch's round trip overlap the next work request (the engine keeps several WQEs in flight).
        long stall = qpcCost(wr.qp, wr);
        long busy = now + stall + wqeInterval;
        long t = now + stall + wqeProcess;
        if (!inline) {
            t += 2 * pcieLatency + pcieRate.transmitTimePs(wqeBytes); // the WQE fetch, a DMA read
        }
        long fetched = t;
        // Packets leave in the order their work requests were processed: after every packet scheduled so far.
        t = Math.max(t, sendFree);
        if (wr.opcode != WorkRequest.BIND) {
            wr.started = true;
            if (wr.qp.ackTimerEvent == 0) {
                startAckTimer(wr.qp, now);
            }
        }
        if (wr.opcode == WorkRequest.BIND) {
            // The engine hands the bind to the protection tables and goes on; later work of this queue pair waits
            // for the bind's completion (rule 23, the implicit fence).
            sim.scheduleAt(t + bindTime, () -> {
                if (!wr.done) {
                    int status = wr.qp.listener.bindExecuted(wr);
                    if (status == Dat.DTO_SUCCESS) {
                        transportDone(wr, status);
                    } else {
                        fail(wr.qp, wr, status);
                    }
                }
            });
            engineDone(t, busy);
            return;
        }
        if (wr.isReadLike()) {
            if (!wr.readCounted) { // a retransmitted Read keeps the credit it holds
                wr.qp.readsOut++;
                wr.readCounted = true;
            }
            emitAt(t, wr, wr.isAtomic() ? Packet.ATOMIC : Packet.READ_REQUEST, 0, 1, 0, 0);
            engineDone(t, busy);
            return;
        }
        int kind = wr.opcode == WorkRequest.SEND ? Packet.SEND : Packet.RDMA_WRITE;
        int count = packetCount(wr.length);
        if (inline) {
            for (int i = 0; i < count; i++) {
                long off = (long) i * mtu;
                emitAt(t, wr, kind, i, count, off, (int) Math.min(mtu, wr.length - off));
            }
            engineDone(t, busy);
            return;
        }
        // The payload DMA read: a round trip, then packet by packet at PCIe's rate, each page translated.
        t = Math.max(fetched + 2 * pcieLatency, sendFree);
        for (int i = 0; i < count; i++) {
            long off = (long) i * mtu;
            int len = (int) Math.min(mtu, wr.length - off);
            t += mttCostLocal(wr, off, len, wr.qp.name) + pcieRate.transmitTimePs(len);
            emitAt(t, wr, kind, i, count, off, len);
        }
        // The payload DMA channel is busy until t: the engine takes the next work request just early enough for
        // that one's payload to follow without a gap (one WQE of lookahead), not earlier.
        long lookahead = wqeProcess + 4 * pcieLatency + pcieRate.transmitTimePs(wqeBytes);
        engineDone(t, Math.max(busy, t - lookahead));
    }

    /**
     * The end of {@link #process}: the packets scheduled so far are emitted by {@code lastEmit}, and the engine takes
     * up the next work request at {@code freeAt}.
     */
    private void engineDone(long lastEmit, long freeAt) {
        sendFree = lastEmit;
        sim.scheduleAt(freeAt, engineFree, 0);
    }

    // ---------------------------------------------------------------- on-chip caches

    /**
     * Looks up a queue pair's context; on a miss traces {@code cache_miss} and returns the stall.
     *
     * @param qp the queue pair whose context is needed, or null (no lookup)
     * @param wr the operation, for the trace
     * @return the stall in picoseconds, 0 on a hit
     */
    private long qpcCost(QueuePair qp, WorkRequest wr) {
        if (qp == null || qpc.access(qp.cacheKey)) {
            return 0;
        }
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), CACHE_MISS, hostName).ep(qp.name).op(wr.opId)
                    .attr("cache", "qpc").attr("key", (long) qp.cacheKey).attr("penalty_ps", qpcPenalty));
        }
        return qpcPenalty;
    }

    /** Looks up every page of {@code [address, address + len)}; returns the stall of the misses. */
    private long mttCost(long address, long len, String ep, WorkRequest wr) {
        if (mtt.capacity() == 0 || len <= 0) {
            return 0;
        }
        long cost = 0;
        long last = (address + len - 1) >>> pageShift;
        for (long page = address >>> pageShift; page <= last; page++) {
            if (!mtt.access(page)) {
                cost += mttPenalty;
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), CACHE_MISS, hostName).ep(ep).op(wr.opId)
                            .attr("cache", "mtt").attr("key", page << pageShift).attr("penalty_ps", mttPenalty));
                }
            }
        }
        return cost;
    }

    /**
     * Looks up the pages of message bytes {@code [off, off + len)} of a work request's local segments, on behalf of
     * the queue pair named {@code ep} (a receive of a shared receive queue belongs to no queue pair of its own).
     */
    private long mttCostLocal(WorkRequest wr, long off, long len, String ep) {
        if (mtt.capacity() == 0) {
            return 0;
        }
        long cost = 0;
        long skip = off;
        long left = len;
        for (int s = 0; s < wr.segAddress.length && left > 0; s++) {
            if (skip >= wr.segLength[s]) {
                skip -= wr.segLength[s];
                continue;
            }
            long n = Math.min(wr.segLength[s] - skip, left);
            cost += mttCost(wr.segAddress[s] + skip, n, ep, wr);
            left -= n;
            skip = 0;
        }
        return cost;
    }

    /**
     * Schedules a DMA write of {@code len} bytes after an MTT stall: writes cross PCIe one after another at its data
     * rate, then its latency. A CQE (len 0) written this way lands after the data written before it.
     *
     * @return the delay from now until the bytes are in host memory
     */
    private long dmaWriteDelay(int len, long stall) {
        long done = Math.max(sim.now() + stall, dmaWriteFree + stall) + pcieRate.transmitTimePs(len);
        dmaWriteFree = done;
        return done + pcieLatency - sim.now();
    }

    private int packetCount(long length) {
        return (int) Math.max(1, (length + mtu - 1) / mtu);
    }

    /**
     * Schedules a packet's creation at the time its DMA read finishes: a pooled packet holds the arguments until
     * then; it counts in the transmit buffer ({@link #txWaiting}) from now until it starts on the wire.
     */
    private Packet emitAt(long time, WorkRequest wr, int kind, int index, int count, long off, int len) {
        int wire = header;
        switch (kind) {
            case Packet.SEND:
            case Packet.RDMA_WRITE:
                wire += len + (kind == Packet.RDMA_WRITE && index == 0 ? reth : 0);
                break;
            case Packet.READ_REQUEST:
                wire += reth;
                break;
            case Packet.ATOMIC:
                wire += ATOMIC_ETH_BYTES;
                break;
            case Packet.READ_RESPONSE:
                wire += len + aeth;
                break;
            default:
                throw new IllegalArgumentException("not a DMA-read packet kind: " + kind);
        }
        txWaiting += wire;
        Packet p = pool.acquire().set(kind, hostId, -1, wire, wr, index, count, off, 0, wr.qp.flow);
        p.length = len; // the payload, read when the DMA read finishes (emit)
        sim.scheduleAt(time, emitHandler, p.id);
        return p;
    }

    /** Whether a packet of this kind was counted in {@link #txWaiting} by {@link #emitAt}. */
    private static boolean countedInTx(int kind) {
        return kind == Packet.SEND || kind == Packet.RDMA_WRITE || kind == Packet.READ_REQUEST
                || kind == Packet.ATOMIC || kind == Packet.READ_RESPONSE;
    }

    /** A packet counted in {@link #txWaiting} has started on the wire, or will not: room for the send engine. */
    private void txLeft(Packet p) {
        txWaiting -= p.wireBytes;
        if (!engineBusy && !ready.isEmpty() && !txFull()) {
            kick();
        }
    }

    private void emit(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        int kind = p.kind;
        if (wr.done && kind != Packet.READ_RESPONSE) {
            txLeft(p);
            p.release();
            return; // flushed while its DMA was in progress
        }
        p.dstHost = kind == Packet.READ_RESPONSE ? wr.qp.hca.hostId : wr.qp.peer.hca.hostId;
        if (kind == Packet.SEND || kind == Packet.RDMA_WRITE) {
            readPayload(p);
        } else if (kind == Packet.READ_RESPONSE) {
            readPayload(p);
            if (p.isLast() && p.aux != DUPLICATE && wr.qp.peer != null && wr.qp.peer.readsIn > 0) {
                wr.qp.peer.readsIn--; // the responder has sent this Read's last response
            }
        }
        transmit(p);
    }

    /**
     * The payload DMA of a packet, at the time its DMA finishes. The bytes read are those in memory now; to avoid
     * holding a buffer per packet queued at the port, a packet bound for the port (on memory without an I/O cache)
     * keeps its payload by reference ({@link Packet#payloadPending}) and the bytes are copied when it starts on the
     * wire, or all at once just before anything changes the bytes of the referenced range, whichever comes first.
     * Either way the packet carries the bytes of this moment. An inline Send or RDMA Write copies its bytes from
     * the WQE (copied from memory at the post) at once.
     */
    private void readPayload(Packet p) {
        if (p.dstHost == hostId || !memory.dmaReadIsPlain() || isInline(p)) {
            copyPayload(p);
            return;
        }
        WorkRequest wr = (WorkRequest) p.context;
        long lo;
        long hi;
        if (p.kind == Packet.READ_RESPONSE) {
            lo = wr.remoteAddress + p.offset;
            hi = lo + p.length;
        } else {
            lo = Long.MAX_VALUE;
            hi = Long.MIN_VALUE;
            for (int i = 0; i < wr.segAddress.length; i++) {
                lo = Math.min(lo, wr.segAddress[i]);
                hi = Math.max(hi, wr.segAddress[i] + wr.segLength[i]);
            }
        }
        p.payloadPending = true;
        pendingPayloads.addLast(p);
        pendingLo = Math.min(pendingLo, lo);
        pendingHi = Math.max(pendingHi, hi);
        memory.armWriteHook(pendingLo, pendingHi, copyPendingPayloads);
    }

    /** Whether a packet carries its payload from the WQE (an inline Send or RDMA Write), not from host memory. */
    private static boolean isInline(Packet p) {
        return p.kind != Packet.READ_RESPONSE && ((WorkRequest) p.context).inlineData != null;
    }

    /** Copies a packet's payload from host memory (or from its inline WQE) into a pooled buffer. */
    private void copyPayload(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        byte[] data = pool.attachBuffer(p, p.length);
        if (p.kind == Packet.READ_RESPONSE) {
            memory.dmaRead(wr.remoteAddress + p.offset, data, 0, p.length);
        } else if (wr.inlineData != null) {
            System.arraycopy(wr.inlineData, (int) p.offset, data, 0, p.length);
        } else {
            wr.copySegments(memory, p.offset, data, p.length, false);
        }
        p.payloadPending = false;
    }

    /** Before the referenced bytes change: copies every payload still held by reference. */
    private void copyAllPendingPayloads() {
        for (Packet q = pendingPayloads.pollFirst(); q != null; q = pendingPayloads.pollFirst()) {
            copyPayload(q);
        }
        pendingLo = Long.MAX_VALUE;
        pendingHi = Long.MIN_VALUE;
    }

    private void onTransmit(Packet p, boolean start) {
        if (start && countedInTx(p.kind)) {
            txLeft(p);
        }
        if (start && p.payloadPending) {
            // Packets leave the port in the order they were queued: p is the oldest payload held by reference.
            if (pendingPayloads.pollFirst() != p) {
                throw new IllegalStateException("payload references out of order at " + hostName);
            }
            copyPayload(p);
            if (pendingPayloads.isEmpty()) {
                pendingLo = Long.MAX_VALUE;
                pendingHi = Long.MIN_VALUE;
                memory.disarmWriteHook();
            }
        }
        if (!trace.isEnabled() || p.kind == Packet.CM || p.kind == Packet.ACK || p.kind == Packet.NAK) {
            return;
        }
        if ((start && p.index == 0) || (!start && p.isLast())) {
            WorkRequest wr = (WorkRequest) p.context;
            QueuePair sender = p.kind == Packet.READ_RESPONSE || p.kind == Packet.ATOMIC_ACK ? wr.qp.peer : wr.qp;
            trace.fire(TraceEvent.of(sim.now(), start ? TraceEvent.TX_START : TraceEvent.TX_END, hostName)
                    .ep(sender != null ? sender.name : null).op(wr.opId).attr("packet", Packet.kindName(p.kind))
                    .attr("packets", p.count));
        }
    }

    /**
     * Sends a packet: to the port, or, for a packet addressed to this host (two queue pairs of the same HCA), through
     * the HCA's internal loopback, which delivers it in order without touching the link.
     */
    private void transmit(Packet p) {
        if (p.dstHost == hostId) {
            if (countedInTx(p.kind)) {
                txLeft(p); // two queue pairs of this HCA: the packet never waits for the link
            }
            loopback.addLast(p);
            sim.schedule(0, loopbackDeliver, 0);
        } else {
            port.send(p);
        }
    }

    // ---------------------------------------------------------------- receive side

    @Override
    public void receive(Packet p, int inPort) {
        packetsReceived++;
        if (p.kind == Packet.CM) {
            Object message = p.context;
            p.release();
            cmListener.accept(message);
            return;
        }
        // The receive pipeline needs the packet's QP context: a request's target QP, or the requester's own QP
        // for its acknowledgements and read responses. A miss stalls the pipeline; packets leave it in order.
        WorkRequest wr = (WorkRequest) p.context;
        boolean toResponder = p.kind == Packet.SEND || p.kind == Packet.RDMA_WRITE || p.kind == Packet.READ_REQUEST
                || p.kind == Packet.ATOMIC;
        QueuePair qp = toResponder ? wr.qp.peer : wr.qp;
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

    private void dispatch(Packet p) {
        switch (p.kind) {
            case Packet.RDMA_WRITE:
                onWrite(p);
                break;
            case Packet.SEND:
                onSend(p);
                break;
            case Packet.READ_REQUEST:
                onReadRequest(p);
                p.release();
                break;
            case Packet.READ_RESPONSE:
                onReadResponse(p);
                break;
            case Packet.ATOMIC:
                onAtomicRequest(p);
                p.release();
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
     * Sends an ACK or NAK for a request of the peer. Responses leave a responder in the order of the requests they
     * answer: an acknowledgement waits until the RDMA Read responses scheduled before it have been handed to the
     * port, so it never overtakes them.
     */
    private void reply(WorkRequest wr, int kind, int status) {
        sendReply(replyPacket(wr, kind, status));
    }

    /** Builds an ACK or NAK for a request of the peer. */
    private Packet replyPacket(WorkRequest wr, int kind, int status) {
        return pool.acquire().set(kind, hostId, wr.qp.hca.hostId, header + aeth, wr, 0, 1, 0, status, wr.qp.flow);
    }

    /** Sends an ACK or NAK built by {@link #replyPacket}, behind the responses scheduled before it. */
    private void sendReply(Packet p) {
        QueuePair responder = ((WorkRequest) p.context).qp.peer;
        if (responder != null && responder.responsesUntil > sim.now()) {
            sim.scheduleAt(responder.responsesUntil, transmitHandler, p.id);
        } else {
            transmit(p);
        }
    }

    /**
     * Go-back-N after an RNR NAK: a responder that refused a message drops every later packet of the connection
     * until the refused message arrives again, as an InfiniBand responder does with packets after a NAK'd PSN.
     *
     * @return true if the packet must be dropped
     */
    private static boolean blockedByRnr(QueuePair qp, Packet p) {
        if (qp.rnrBlocked == null) {
            return false;
        }
        if (p.context == qp.rnrBlocked && p.index == 0) {
            qp.rnrBlocked = null;
            return false;
        }
        return true;
    }

    /**
     * Responder: whether a request packet is the next one expected on its connection (message {@code rxSeq}, packet
     * {@code rxIndex}). A duplicate of a message already completed is answered again (the last packet of a Write or
     * Send: an ACK, with no second placement or receive; an RDMA Read: its responses, read again; an atomic: the
     * original value it returned); other duplicates are dropped. A packet ahead of the expected one is dropped and
     * the first of a gap answered with a sequence-error NAK. The caller drops (releases) a packet refused here.
     */
    private boolean inSequence(QueuePair qp, Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        if (wr.seq == qp.rxSeq && p.index == qp.rxIndex) {
            return true;
        }
        outOfSequence(qp, p, wr);
        return false;
    }

    /** A packet that is not the next expected: a duplicate (answered again if complete) or ahead of it (NAK). */
    private void outOfSequence(QueuePair qp, Packet p, WorkRequest wr) {
        int seq = wr.seq;
        if (seq < qp.rxSeq) {
            switch (p.kind) {
                case Packet.SEND:
                case Packet.RDMA_WRITE:
                    if (p.isLast()) {
                        ackAfterWrite(wr, dmaWriteDelay(0, 0)); // after the DMA writes issued so far
                    }
                    break;
                case Packet.READ_REQUEST:
                    replayRead(qp, wr);
                    break;
                default:
                    replayAtomicLater(qp, wr);
                    break;
            }
        } else if (seq > qp.rxSeq || p.index > qp.rxIndex) {
            if (!qp.nakSent) {
                qp.nakSent = true;
                reply(wr, Packet.NAK, NAK_SEQUENCE_ERROR);
            }
        }
    }

    /** Responder: a request packet was accepted; the next one of its message, or the next message, is expected. */
    private static void accepted(QueuePair qp, Packet p) {
        qp.nakSent = false;
        if (p.isLast()) {
            qp.rxSeq++;
            qp.rxIndex = 0;
        } else {
            qp.rxIndex++;
        }
    }

    /**
     * Answers a duplicate RDMA Read request: the responder reads the data again and sends every response again (the
     * requester keeps those it lacks); the request was checked and took its read credit the first time.
     */
    private void replayRead(QueuePair qp, WorkRequest wr) {
        long t = responderReadStart();
        int count = packetCount(wr.length);
        for (int i = 0; i < count; i++) {
            long off = (long) i * mtu;
            int len = (int) Math.min(mtu, wr.length - off);
            t += mttCost(wr.remoteAddress + off, len, qp.name, wr) + pcieRate.transmitTimePs(len);
            emitAt(t, wr, Packet.READ_RESPONSE, i, count, off, len).aux = DUPLICATE;
        }
        responderFree = t;
        qp.responsesUntil = t;
    }

    /**
     * Answers a duplicate atomic request with the original value its execution returned, without executing it
     * again, behind the responses scheduled before it (by then the original has executed: it was scheduled earlier).
     */
    private void replayAtomicLater(QueuePair qp, WorkRequest wr) {
        long t = Math.max(sim.now(), responderFree);
        Packet ack = pool.acquire().set(Packet.ATOMIC_ACK, hostId, wr.qp.hca.hostId,
                header + aeth + ATOMIC_ACK_ETH_BYTES, wr, 0, 1, 0, 0, wr.qp.flow);
        sim.scheduleAt(t, replayAtomicHandler, ack.id);
        responderFree = t;
        qp.responsesUntil = t;
    }

    private void replayAtomic(Packet ack) {
        WorkRequest wr = (WorkRequest) ack.context;
        if (!wr.atomicExecuted) {
            ack.release(); // never executed (the responder was flushed meanwhile): nothing to answer
            return;
        }
        byte[] old = pool.attachBuffer(ack, WorkRequest.ATOMIC_BYTES);
        ack.length = WorkRequest.ATOMIC_BYTES;
        for (int i = 0; i < WorkRequest.ATOMIC_BYTES; i++) {
            old[i] = (byte) (wr.atomicOriginal >>> (8 * i));
        }
        transmit(ack);
    }

    private void onWrite(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = wr.qp.peer;
        if (blockedByRnr(qp, p)) {
            p.release();
            return;
        }
        if (qp.active && !inSequence(qp, p)) {
            p.release();
            return;
        }
        if (p.index == 0) {
            if (!qp.active) {
                wr.remoteFailed = true;
                p.release();
                reply(wr, Packet.NAK, Dat.DTO_ERR_TRANSPORT);
                return;
            }
            qp.listener.requestArrived();
            int status = qp.listener.checkRemoteAccess(wr.rkey, wr.remoteAddress, wr.length, true);
            if (status != Dat.DTO_SUCCESS) {
                wr.remoteFailed = true;
                p.release();
                reply(wr, Packet.NAK, status);
                fail(qp, null, status);
                return;
            }
        }
        if (wr.remoteFailed || !qp.active) {
            p.release();
            return; // refused, or the queue pair was flushed while the message was arriving: drop, no ACK
        }
        accepted(qp, p);
        boolean last = p.isLast();
        p.aux = qp;
        long stall = mttCost(wr.remoteAddress + p.offset, p.length, qp.name, wr);
        long delay = dmaWriteDelay(p.length, stall);
        sim.schedule(delay, placeWriteHandler, p.id);
        if (last) {
            ackAfterWrite(wr, delay);
        }
    }

    /** The DMA write of an RDMA Write packet's payload, when it lands in host memory ({@link #dmaWriteDelay}). */
    private void placeWrite(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = (QueuePair) p.aux;
        long address = wr.remoteAddress + p.offset;
        int length = p.length;
        memory.dmaWrite(address, p.data, 0, length);
        if (p.isLast() && trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceEvent.PLACE, hostName).ep(qp.name).op(wr.opId)
                    .attr("address", address + length - wr.length).attr("bytes", wr.length));
        }
        p.release();
    }

    private void onSend(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = wr.qp.peer;
        if (blockedByRnr(qp, p)) {
            p.release();
            return;
        }
        if (qp.active && !inSequence(qp, p)) {
            p.release();
            return;
        }
        if (p.index == 0) {
            qp.dropping = null;
            WorkRequest taken = qp.active ? qp.takeReceive() : null; // own queue or the shared receive queue
            if (!qp.active) {
                qp.dropping = wr;
                reply(wr, Packet.NAK, Dat.DTO_ERR_TRANSPORT);
            } else if (taken == null) {
                qp.dropping = wr;
                qp.rnrBlocked = wr;
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), "rnr_nak", hostName).ep(qp.name).op(wr.opId)
                            .attr("reason", "no receive posted"));
                }
                reply(wr, Packet.NAK, Dat.DTO_ERR_RECEIVER_NOT_READY);
            } else {
                qp.listener.requestArrived();
                WorkRequest recv = taken;
                if (wr.length > recv.length) {
                    qp.dropping = wr;
                    recv.transferred = 0;
                    reply(wr, Packet.NAK, Dat.DTO_ERR_TRANSPORT);
                    failReceive(qp, recv, Dat.DTO_ERR_LOCAL_LENGTH);
                    p.release();
                    return;
                }
                recv.takenBy = qp;
                qp.inbound = recv;
            }
        }
        WorkRequest recv = qp.inbound;
        if (qp.dropping == wr || recv == null || !qp.active) {
            p.release();
            return; // refused, or the queue pair was flushed while the message was arriving: drop, no ACK
        }
        accepted(qp, p);
        boolean last = p.isLast();
        if (last) {
            qp.inbound = null;
        }
        p.aux = recv;
        long stall = mttCostLocal(recv, p.offset, p.length, qp.name);
        long delay = dmaWriteDelay(p.length, stall);
        sim.schedule(delay, placeSendHandler, p.id);
        if (last) {
            ackAfterWrite(wr, delay);
        }
    }

    /**
     * Acknowledges a message once its last DMA write has been issued to PCIe (it crossed PCIe's data rate; its
     * latency overlaps the ACK's flight), so that the requester's completion never precedes the placement.
     */
    private void ackAfterWrite(WorkRequest wr, long writeDelay) {
        long issued = writeDelay - pcieLatency;
        Packet ack = replyPacket(wr, Packet.ACK, 0);
        if (issued <= 0) {
            sendReply(ack);
        } else {
            sim.schedule(issued, sendReplyHandler, ack.id);
        }
    }

    /** The DMA write of a Send packet's payload into its receive, when it lands ({@link #dmaWriteDelay}). */
    private void placeSend(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        WorkRequest recv = (WorkRequest) p.aux;
        QueuePair qp = recv.takenBy; // the receiving queue pair (a receive of a shared receive queue has none)
        if (recv.done) {
            p.release();
            return; // flushed meanwhile
        }
        recv.copySegments(memory, p.offset, p.data, p.length, true);
        if (p.isLast()) {
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceEvent.PLACE, hostName).ep(qp.name).op(wr.opId)
                        .attr("recv_op", recv.opId).attr("bytes", wr.length));
            }
            recv.solicited = (wr.flags & Dat.COMPLETION_SOLICITED_WAIT_FLAG) != 0;
            recv.transferred = wr.length;
            recv.status = Dat.DTO_SUCCESS;
            recv.done = true;
            p.release();
            qp.listener.receiveCompleted(recv);
            return;
        }
        p.release();
    }

    private void onReadRequest(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = admitReadLike(p, false);
        if (qp == null) {
            return;
        }
        long t = responderReadStart();
        int count = packetCount(wr.length);
        for (int i = 0; i < count; i++) {
            long off = (long) i * mtu;
            int len = (int) Math.min(mtu, wr.length - off);
            t += mttCost(wr.remoteAddress + off, len, qp.name, wr) + pcieRate.transmitTimePs(len);
            emitAt(t, wr, Packet.READ_RESPONSE, i, count, off, len);
        }
        responderFree = t;
        qp.responsesUntil = t;
    }

    /**
     * Responder checks of an RDMA Read or atomic request, in order: the connection (go-back-N after an RNR NAK, an
     * inactive queue pair), the remote key and rights (for an atomic, DAT_IB_MEM_PRIV_REMOTE_ATOMIC and the 8-byte
     * alignment), then a read credit (rule 49: atomics use the responder's read resources too). A refused request
     * is NAK'd (and a protection or credit error breaks the connection).
     *
     * @return the responding queue pair, its read credit taken, or null if the request was refused or dropped
     */
    private QueuePair admitReadLike(Packet p, boolean atomic) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = wr.qp.peer;
        if (blockedByRnr(qp, p)) {
            return null;
        }
        if (qp.active && !inSequence(qp, p)) {
            return null;
        }
        if (!qp.active) {
            reply(wr, Packet.NAK, Dat.DTO_ERR_TRANSPORT);
            return null;
        }
        qp.listener.requestArrived();
        int status;
        if (atomic) {
            status = qp.listener.checkRemoteAtomic(wr.rkey, wr.remoteAddress);
            if (status == Dat.DTO_SUCCESS && (wr.remoteAddress & (WorkRequest.ATOMIC_BYTES - 1)) != 0) {
                // A misaligned atomic is an invalid request: NAK, IBV_WC_REM_INV_REQ_ERR, which dapl reports as
                // DAT_DTO_ERR_REMOTE_RESPONDER (openib_common/cq.c).
                status = Dat.DTO_ERR_REMOTE_RESPONDER;
            }
        } else {
            status = qp.listener.checkRemoteAccess(wr.rkey, wr.remoteAddress, wr.length, false);
        }
        if (status == Dat.DTO_SUCCESS && qp.readsIn >= qp.maxReadsIn) {
            status = Dat.DTO_ERR_REMOTE_RESPONDER; // the peer sent more than this endpoint's max_rdma_read_in
        }
        if (status != Dat.DTO_SUCCESS) {
            reply(wr, Packet.NAK, status);
            fail(qp, null, status);
            return null;
        }
        qp.readsIn++;
        accepted(qp, p);
        return qp;
    }

    /**
     * When the responder's DMA read of a Read or atomic begins to return data: after the responses scheduled before
     * it, a PCIe round trip, and the configured jitter.
     */
    private long responderReadStart() {
        long t = Math.max(sim.now(), responderFree) + 2 * pcieLatency;
        if (readJitter > 0 && jitterRandom != null) {
            t += (long) (jitterRandom.nextDouble() * (readJitter + 1));
        }
        return t;
    }

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
            transportDone(wr, Dat.DTO_SUCCESS);
        }
    }

    // ---------------------------------------------------------------- IB atomics (rule 18)

    /**
     * Responder: an atomic is checked like an RDMA Read (remote key and DAT_IB_MEM_PRIV_REMOTE_ATOMIC, then the
     * 8-byte alignment, then a read credit) and executed by the response engine in the order the requests arrived,
     * after RDMA Read responses scheduled before it. Its acknowledgement is taken from the pool now and carries the
     * request until the execution.
     */
    private void onAtomicRequest(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        QueuePair qp = admitReadLike(p, true);
        if (qp == null) {
            return;
        }
        long t = responderReadStart(); // the atomic DMA read's round trip
        t += mttCost(wr.remoteAddress, WorkRequest.ATOMIC_BYTES, qp.name, wr)
                + pcieRate.transmitTimePs(WorkRequest.ATOMIC_BYTES);
        Packet ack = pool.acquire().set(Packet.ATOMIC_ACK, hostId, wr.qp.hca.hostId,
                header + aeth + ATOMIC_ACK_ETH_BYTES, wr, 0, 1, 0, 0, wr.qp.flow);
        ack.aux = qp;
        sim.scheduleAt(t, executeAtomicHandler, ack.id);
        responderFree = t;
        qp.responsesUntil = t;
    }

    /**
     * Executes an atomic at the responder, indivisibly: reads the 64-bit value (little-endian, the x86 host's order)
     * into the acknowledgement, writes the sum (Fetch and Add) or the swap value if the value equals the compare
     * value (Compare and Swap), and sends the original value back. The requester places it as it places a one-packet
     * RDMA Read response.
     */
    private void executeAtomic(Packet ack) {
        WorkRequest wr = (WorkRequest) ack.context;
        QueuePair qp = (QueuePair) ack.aux;
        ack.aux = null;
        byte[] old = pool.attachBuffer(ack, WorkRequest.ATOMIC_BYTES);
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
        if (qp.readsIn > 0) {
            qp.readsIn--;
        }
        transmit(ack);
    }

    private void onAck(WorkRequest wr) {
        QueuePair qp = wr.qp;
        progress(qp);
        if (wr.done) {
            return;
        }
        if (qp.rung.peekFirst() != wr) { // usually the head: earlier ones finished and were dropped from it
            acknowledgeEarlier(qp, wr);
        }
        wr.transferred = wr.length;
        transportDone(wr, Dat.DTO_SUCCESS);
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
        for (WorkRequest o = firstUnfinished(qp); o != null && o != wr && o.started && o.seq >= 0 && o.seq < wr.seq;
                o = firstUnfinished(qp)) {
            if (o.isReadLike()) {
                if (o.responses < responseCount(o)) {
                    responseMissing(o);
                }
                return;
            }
            o.transferred = o.length;
            transportDone(o, Dat.DTO_SUCCESS);
        }
    }

    /** The response packets an RDMA Read or atomic gets. */
    private int responseCount(WorkRequest wr) {
        return wr.isAtomic() ? 1 : packetCount(wr.length);
    }

    /**
     * A response of an RDMA Read or atomic is missing (one ahead of it arrived, or a later message's ACK): the
     * requester sends the request again, with everything after its first unfinished request, once per gap.
     */
    private void responseMissing(WorkRequest wr) {
        QueuePair qp = wr.qp;
        if (wr.gapAt == wr.responses || !qp.active || qp.paused) {
            return;
        }
        wr.gapAt = wr.responses;
        progress(qp);
        retransmit(qp, firstUnfinished(qp), "response_missing");
    }

    /** The requester heard from the responder: the ACK timer counts from now and the retry count starts again. */
    private void progress(QueuePair qp) {
        qp.progressPs = sim.now();
        qp.retries = 0;
    }

    /** The first request of a queue pair, in doorbell order, that has not finished, or null. */
    private static WorkRequest firstUnfinished(QueuePair qp) {
        WorkRequest w = qp.rung.peekFirst();
        while (w != null && w.done) {
            qp.rung.pollFirst();
            w = qp.rung.peekFirst();
        }
        return w;
    }

    /**
     * The local ACK timer of a queue pair fires. If a request is on its way and nothing was heard from the
     * responder for {@code hca.ack_timeout}, the requester retransmits (go-back-N from the first unfinished request)
     * or, after {@code hca.retry_count} retries without progress, fails that request with DAT_DTO_ERR_TRANSPORT
     * (IBV_WC_RETRY_EXC_ERR), flushing the rest. Otherwise the timer is set again for the deadline (it fired early:
     * progress moved it) or stays off until a request starts (nothing is in flight).
     */
    private void ackTimeout(QueuePair qp) {
        qp.ackTimerEvent = 0;
        if (!qp.active) {
            return;
        }
        WorkRequest first = firstUnfinished(qp);
        if (first == null || !first.started) {
            return;
        }
        long now = sim.now();
        long deadline = plus(qp.progressPs, qp.ackWaitPs);
        if (deadline > now || qp.paused) {
            // Progress since it was set, or an RNR NAK's wait (progress too): wait for the new deadline.
            qp.ackTimerEvent = sim.scheduleAt(deadline > now ? deadline : plus(now, qp.ackWaitPs), qp.ackTimer, 0);
            return;
        }
        if (qp.retries >= retryCount) {
            fail(qp, first, Dat.DTO_ERR_TRANSPORT); // transport retry counter exceeded
            return;
        }
        qp.retries++;
        qp.progressPs = now;
        qp.ackWaitPs = drawAckWait();
        qp.ackTimerEvent = sim.scheduleAt(plus(now, qp.ackWaitPs), qp.ackTimer, 0);
        retransmit(qp, first, "ack_timeout");
    }

    /** Nothing was in flight on a queue pair and a request starts: its ACK timer starts (one pending event per QP). */
    private void startAckTimer(QueuePair qp, long now) {
        qp.progressPs = now;
        qp.ackWaitPs = drawAckWait();
        qp.ackTimerEvent = sim.scheduleAt(plus(now, qp.ackWaitPs), qp.ackTimer, 0);
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
            trace.fire(TraceEvent.of(sim.now(), RETRANSMIT, hostName).ep(qp.name).op(first.opId)
                    .cookie(first.cookie).attr("opcode", first.opName()).attr("reason", reason)
                    .attr("attempt", (long) first.retransmits));
        }
        requeueFrom(qp, first);
    }

    /** Puts {@code first} and every later unfinished request of the queue pair back into its send queue. */
    private void requeueFrom(QueuePair qp, WorkRequest first) {
        qp.notStarted.clear();
        boolean from = false;
        for (WorkRequest o : qp.rung) {
            from |= o == first;
            if (from && !o.done) {
                qp.notStarted.addLast(o);
            }
        }
        if (!qp.queued) {
            qp.queued = true;
            ready.addLast(qp);
        }
        kick();
    }

    private void onNak(WorkRequest wr, int status) {
        QueuePair nakked = wr.qp;
        progress(nakked);
        if (status == NAK_SEQUENCE_ERROR) {
            // Something before the packet the responder refused was lost: go back to the first unfinished request.
            // While an RNR NAK's wait runs, the retransmission after it goes back anyway.
            WorkRequest first = firstUnfinished(nakked);
            if (nakked.active && !nakked.paused && first != null && first.started) {
                retransmit(nakked, first, "nak_sequence_error");
            }
            return;
        }
        if (wr.done) {
            return;
        }
        if (status == Dat.DTO_ERR_RECEIVER_NOT_READY && (rnrRetry == 7 || wr.rnrRetries < rnrRetry)) {
            wr.rnrRetries++;
            QueuePair qp = wr.qp;
            qp.paused = true;
            qp.notStarted.clear();
            sim.schedule(rnrTimer, () -> retransmitFrom(wr));
            return;
        }
        fail(wr.qp, wr, status);
    }

    /**
     * Restarts a queue pair after the RNR timer: the refused message and every later operation whose doorbell has
     * rung and that has not finished are sent again, in doorbell order (posting order, unless an inline doorbell was
     * overtaken), which is the order of their sequence numbers.
     */
    private void retransmitFrom(WorkRequest wr) {
        QueuePair qp = wr.qp;
        qp.paused = false;
        if (wr.done || !qp.active) {
            return;
        }
        requeueFrom(qp, wr);
    }

    // ---------------------------------------------------------------- completion and errors

    private void transportDone(WorkRequest wr, int status) {
        wr.status = status;
        wr.done = true;
        wr.finishedPs = sim.now();
        drain(wr.qp);
        QueuePair qp = wr.qp;
        if (qp.ackTimerEvent != 0 && firstUnfinished(qp) == null) {
            stopAckTimer(qp); // nothing in flight: the next request to start sets it again
        }
        if (wr.readCounted) {
            wr.readCounted = false;
            qp.readsOut--;
            if (qp.creditBlocked) {
                qp.creditBlocked = false;
                qp.fenced = true; // looked at again below
            }
        }
        if ((wr.isReadLike() || wr.opcode == WorkRequest.BIND) && qp.fenced) {
            qp.fenced = false; // the fenced request is looked at again
            if (!qp.queued && !qp.notStarted.isEmpty()) {
                qp.queued = true;
                ready.addLast(qp);
            }
            kick();
        }
    }

    /**
     * Reports, in posting order, every finished operation at the head of the outstanding queue; one that finished
     * earlier than the head that unblocked it records that head as what held it back.
     */
    private void drain(QueuePair qp) {
        WorkRequest first = null;
        while (!qp.outstanding.isEmpty() && qp.outstanding.peekFirst().done) {
            WorkRequest head = qp.outstanding.pollFirst();
            if (head.fenceSource()) {
                qp.fenceSources--;
            }
            if (first == null) {
                first = head;
            } else if (head.finishedPs >= 0 && head.finishedPs < sim.now()) {
                head.heldBehind = first.opId; // finished earlier, reported only now (rule 2)
            }
            completions.addLast(head); // same delay for every CQE write: FIFO order
            sim.schedule(pcieLatency, completionHandler, 0);
        }
    }

    /**
     * Puts a queue pair into the error state: the failing operation (if any) completes with its status, every other
     * outstanding request and posted receive is flushed, and the owner is told.
     *
     * @param qp the queue pair
     * @param failing the operation that failed, or null
     * @param status its DTO status
     */
    public void fail(QueuePair qp, WorkRequest failing, int status) {
        if (qp.errored) {
            return;
        }
        if (failing != null) {
            failing.status = status;
            failing.done = true;
        }
        flush(qp, failing);
        qp.listener.broken(status);
    }

    private void failReceive(QueuePair qp, WorkRequest recv, int status) {
        recv.status = status;
        recv.done = true;
        // Like every completion, a CQE write later: an earlier receive still being placed completes first (rule 2).
        sim.schedule(dmaWriteDelay(0, 0), () -> qp.listener.receiveCompleted(recv));
        fail(qp, null, status);
    }

    /**
     * Moves a queue pair out of the ready-to-send state and flushes everything outstanding on it with
     * DAT_DTO_ERR_FLUSHED, in posting order: request operations, then posted receives.
     *
     * @param qp the queue pair
     */
    public void flush(QueuePair qp) {
        flush(qp, null);
    }

    /**
     * Flushes a queue pair after {@code failing} failed: operations posted before it were already on their way and
     * finish on their own (rule 44 flushes the later ones); with no failing operation, everything is flushed.
     */
    private void flush(QueuePair qp, WorkRequest failing) {
        qp.active = false;
        qp.errored = true;
        qp.notStarted.clear();
        stopAckTimer(qp);
        boolean later = failing == null;
        for (WorkRequest wr : qp.outstanding) {
            if (wr == failing) {
                later = true;
            } else if (later && !wr.done) {
                wr.status = Dat.DTO_ERR_FLUSHED;
                wr.done = true;
            }
            if (wr.done && wr.readCounted) {
                wr.readCounted = false;
                qp.readsOut--;
            }
        }
        qp.readsIn = 0;
        qp.creditBlocked = false;
        drain(qp);
        if (qp.inbound != null) {
            qp.receives.addFirst(qp.inbound);
            qp.inbound = null;
        }
        while (!qp.receives.isEmpty()) {
            WorkRequest r = qp.receives.pollFirst();
            r.status = Dat.DTO_ERR_FLUSHED;
            r.done = true;
            // A CQE write later, so that receives whose data is still being placed complete first, in order.
            sim.schedule(dmaWriteDelay(0, 0), () -> qp.listener.receiveCompleted(r));
        }
    }

    /**
     * Returns a queue pair that has been flushed to its initial state (dat_ep_reset): not connected, not in error,
     * nothing queued, no read credits in use. Completions already written stay on their way.
     *
     * @param qp the queue pair
     */
    public void reset(QueuePair qp) {
        qp.peer = null;
        qp.active = false;
        qp.errored = false;
        qp.paused = false;
        qp.fenced = false;
        qp.creditBlocked = false;
        qp.notStarted.clear();
        qp.outstanding.clear();
        qp.fenceSources = 0;
        qp.inbound = null;
        qp.dropping = null;
        qp.rnrBlocked = null;
        qp.readsIn = 0;
        qp.readsOut = 0;
        qp.responsesUntil = 0;
        qp.rung.clear();
        stopAckTimer(qp);
    }

    /** Cancels a queue pair's pending ACK-timer event, if any. */
    private void stopAckTimer(QueuePair qp) {
        if (qp.ackTimerEvent != 0) {
            sim.cancel(qp.ackTimerEvent);
            qp.ackTimerEvent = 0;
        }
    }

    /**
     * Posts a receive. On a queue pair in the error state it is flushed at once.
     *
     * @param wr the receive
     */
    public void postReceive(WorkRequest wr) {
        QueuePair qp = wr.qp;
        if (qp.errored) {
            wr.status = Dat.DTO_ERR_FLUSHED;
            wr.done = true;
            sim.schedule(dmaWriteDelay(0, 0), () -> qp.listener.receiveCompleted(wr));
            return;
        }
        qp.receives.addLast(wr);
    }

    /**
     * Sends a connection-management datagram to another host.
     *
     * @param dstHost the destination host id
     * @param message the message, delivered to that host's CM listener
     */
    public void sendCm(int dstHost, Object message) {
        transmit(pool.acquire().set(Packet.CM, hostId, dstHost, cmBytes, message, 0, 1, 0, 0,
                flowHash(hostId, dstHost)));
    }
}
