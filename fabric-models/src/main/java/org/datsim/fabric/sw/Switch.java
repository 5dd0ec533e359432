package org.datsim.fabric.sw;

import java.util.ArrayList;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.FlowControl;
import org.datsim.fabric.link.Ingress;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketOperation;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.Port;

/**
 * An output-queued switch. A packet is received when its last bit has arrived (store and forward) or its first bit
 * (cut through); after the forwarding latency it joins the FIFO output queue of the port its route names. A packet
 * occupies its input port's share of the buffer ({@code switch.buffer}) from arrival until its last bit has left
 * the output port; link-level flow control keeps each share from overflowing: InfiniBand credit returned to the
 * upstream port, or PFC pause and resume at the {@code pfc.xoff} and {@code pfc.xon} thresholds.
 *
 * <p>Routes: for each destination host, the output ports on shortest paths (equal-cost multipath); a packet takes
 * the one its flow hash picks, salted per switch so that successive switches choose independently. Every packet of
 * a flow takes the same path, so packets of a flow stay in order.
 *
 * <p>A packet dropped on arrival (its input's buffer share full, or taken by the {@linkplain #setDropFilter drop
 * filter}) is counted on the port that sent it and traced as {@link #DROP}, at the time of the drop; the trace
 * record is built only then.
 */
public final class Switch implements NetworkNode, Ingress {

    /**
     * The trace kind of a packet a switch dropped. {@code host}, {@code ep}, {@code op} and {@code cookie} are those
     * of the operation the packet belongs to (its requester's, whichever way the packet went); a connection-management
     * packet has no operation and names the host that sent it. Fields: {@code switch}, {@code port} (the link it
     * arrived on, {@code FROM->TO}, {@code #2}, {@code #3}, ... for parallel links: the sending port's name, as in
     * summary.json's ports), {@code reason} ({@link #BUFFER_FULL} or {@link #FILTER}), {@code packet} (its
     * kind, e.g. {@code rdma_write}, {@code ack}), {@code from} and {@code to} (hosts), for a packet of an operation
     * {@code seq} (its message's sequence number on the requester's queue pair), {@code index} and {@code packets}
     * (its place in its message), for a connection-management packet whose context is a {@link CmPacketContext}
     * {@code message} (REQ, REP, RTU, REJ, DREQ or DREP) and {@code comm_id} (its connection's communication id, when
     * it has one), and {@code bytes} (on the wire, headers included).
     */
    public static final String DROP = TraceKind.DROP;
    /**
     * The trace kind of a data packet a switch marked Congestion Experienced (ECN) as it left an egress queue (traced
     * on the switch: its name is the event's host). Fields: {@code switch}, {@code port} (the egress, {@code
     * FROM->TO}), {@code queue_bytes} (the bytes still queued there, on which RED decided), {@code packet} (its
     * kind), {@code from} and {@code to} (hosts), {@code bytes} (on the wire). The record is built only when the
     * trace is on.
     */
    public static final String ECN_MARK = TraceKind.ECN_MARK;
    /** A drop's reason: the input's share of the buffer could not hold the packet (PFC with too little headroom). */
    public static final String BUFFER_FULL = "buffer_full";
    /** A drop's reason: the drop filter took the packet (fault injection). */
    public static final String FILTER = "filter";

    /** How a switch forwards. */
    public enum Mode {
        /** From the last bit received. */
        STORE_AND_FORWARD,
        /** From the first bit received; the output cannot finish before the input has. */
        CUT_THROUGH
    }

    private final String name;
    private final Simulator sim;
    private final long latencyPs;
    private final Mode mode;
    private final FlowControl flowControl;
    private final long bufferBytes;
    private final long xoff;
    private final long xon;
    private final int salt;
    /** switch.ecmp hpcc: the output ports towards each host in HPCC's order, or null ({@link #setHpccEcmp}). */
    private int[][] hpccRoutes;
    private int[] hpccIp;
    private int hpccSeed;
    private final List<Port> ports = new ArrayList<>();
    private Port[] upstream = new Port[0];
    /**
     * Per input port: the bytes buffered ({@code [2 * in]}) and the most ever buffered ({@code [2 * in + 1]}),
     * side by side so that an arrival touches one cache line of them.
     */
    private long[] ingress = new long[0];
    private boolean[] pauseSent = new boolean[0];
    /** The inputs whose upstream port this switch holds paused; while any is, departures are reported on time. */
    private int pausingInputs;
    /** The output ports that report a departure late (see Ingress#lazyDepartures), and which of them are listed. */
    private int[] deferred = new int[0];
    /**
     * Beside each listed port, when its deferred departure is due (or earlier: a port may have deferred a later
     * packet's since): a settlement before then need not touch the port.
     */
    private long[] deferredUntil = new long[0];
    private int deferredCount;
    private boolean[] isDeferred = new boolean[0];
    /** The pool of the packets this switch drops (every packet of a fabric comes from one pool). */
    private PacketPool droppedPool;
    private final EventHandler releaseDropped = id -> droppedPool.get(id).release();
    private Port[] out = new Port[0];
    private int[] routeSet = new int[0];
    private int[][] sets = new int[0][];
    /**
     * The route table as {@link #route} reads it, a byte per destination host (a quarter of the cache lines of an
     * int per host: the tables of every switch of a large fabric stay in cache): the output port when the host has
     * one (0 to 127), {@code -1 - s} for choice list {@code s} when it has several or none (s below 128); null when
     * the ports or lists do not fit a byte ({@link #routeSet} is read instead).
     */
    private byte[] routeByte;
    private long packetsForwarded;
    private long drops;
    /** Fault injection: packets it accepts are dropped on arrival (null: none). */
    private java.util.function.Predicate<Packet> dropFilter;
    /** Where drops are traced (null: nowhere). */
    private TraceSource<TraceEvent> trace;
    /** The fabric's host names by host id, for the trace. */
    private String[] hostNames = new String[0];
    // ECN marking (RED on the bytes queued at an egress when a packet leaves its queue), per output port
    private boolean ecn;
    private RandomGenerator ecnRandom;
    private long[] kmin = new long[0];
    private long[] kmax = new long[0];
    private double pmax;
    private long marks;
    // In-band network telemetry
    private boolean intEnabled;
    // Shared buffer with dynamic PFC thresholds (HPCC's switch-mmu.cc); ingress[2 * in] holds an input's bytes in all
    private boolean shared;
    private long sharedBuffer;
    private long reserve;
    private long resumeOffset;
    private long totalHeadroom;
    private long totalReserve;
    private long sharedUsed;
    private long[] headroom = new long[0];
    private long[] headroomBytes = new long[0];
    private int[] alphaShift = new int[0];
    private long pauses;

    /**
     * Creates a switch.
     *
     * @param name its unique name
     * @param sim the simulator
     * @param latencyPs the forwarding latency in picoseconds
     * @param mode store and forward or cut through
     * @param flowControl the flow control of the links into it
     * @param bufferBytes each input port's share of the buffer in bytes
     * @param xoff PFC: the buffered bytes of an input at which its upstream port is paused
     * @param xon PFC: the buffered bytes at or below which a paused upstream port is resumed
     * @param salt the ECMP hash salt of this switch (for example its index)
     */
    public Switch(String name, Simulator sim, long latencyPs, Mode mode, FlowControl flowControl, long bufferBytes,
            long xoff, long xon, int salt) {
        this.name = name;
        this.sim = sim;
        this.latencyPs = latencyPs;
        this.mode = mode;
        this.flowControl = flowControl;
        this.bufferBytes = bufferBytes;
        this.xoff = xoff;
        this.xon = xon;
        this.salt = mix(salt * 0x9E3779B9 + 0x7F4A7C15);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean receivesAtFirstBit() {
        return mode == Mode.CUT_THROUGH;
    }

    /**
     * Adds a port and returns its index.
     *
     * @param port the sending side of the port's link
     * @return the index of the port
     */
    public int addPort(Port port) {
        ports.add(port);
        int n = ports.size();
        port.setOwner(this, n - 1, false);
        out = ports.toArray(new Port[0]);
        upstream = java.util.Arrays.copyOf(upstream, n);
        ingress = java.util.Arrays.copyOf(ingress, 2 * n);
        pauseSent = java.util.Arrays.copyOf(pauseSent, n);
        deferred = java.util.Arrays.copyOf(deferred, n);
        deferredUntil = java.util.Arrays.copyOf(deferredUntil, n);
        isDeferred = java.util.Arrays.copyOf(isDeferred, n);
        return n - 1;
    }

    /**
     * Names the port that sends into one of this switch's ports (the other direction of its link), which receives
     * credit or pause frames.
     *
     * @param port the index of this switch's port
     * @param sender the peer's port sending into it
     */
    public void setUpstream(int port, Port sender) {
        upstream[port] = sender;
    }

    /**
     * Sets the route table from distinct choice lists.
     *
     * @param setOf for each destination host id, the index of its choice list in {@code choiceLists}
     * @param choiceLists the distinct lists of output port indexes (an empty list: unreachable)
     */
    public void setRoutes(int[] setOf, int[][] choiceLists) {
        this.routeSet = setOf.clone();
        this.sets = choiceLists.clone();
        byte[] b = new byte[setOf.length];
        for (int d = 0; d < setOf.length && b != null; d++) {
            int[] c = choiceLists[setOf[d]];
            if (c.length == 1 && c[0] < 128) {
                b[d] = (byte) c[0];
            } else if (c.length != 1 && setOf[d] < 128) {
                b[d] = (byte) (-1 - setOf[d]);
            } else {
                b = null;
            }
        }
        this.routeByte = b;
    }

    /**
     * Returns the output ports a packet to a host may take.
     *
     * @param dstHost the destination host id
     * @return the port indexes (a copy)
     */
    public int[] routeChoices(int dstHost) {
        return sets[routeSet[dstHost]].clone();
    }

    /**
     * Returns the output port this switch sends a flow to.
     *
     * @param dstHost the destination host id
     * @param flow the flow hash
     * @return the port index, or -1 if the host is unreachable
     */
    public int route(int dstHost, int flow) {
        byte[] rb = routeByte;
        int[] c;
        if (rb != null) { // the bound checked on this table: the int table's lines are not touched
            if (dstHost < 0 || dstHost >= rb.length) {
                return -1;
            }
            int r = rb[dstHost];
            if (r >= 0) {
                return r;
            }
            c = sets[-1 - r];
        } else {
            if (dstHost < 0 || dstHost >= routeSet.length) {
                return -1;
            }
            c = sets[routeSet[dstHost]];
        }
        if (c.length == 0) {
            return -1;
        }
        return c.length == 1 ? c[0] : c[(mix(flow ^ salt) >>> 1) % c.length];
    }

    /**
     * Makes this switch choose among equal-cost ports as HPCC's simulator does ({@code switch.ecmp hpcc}): Murmur3
     * (32-bit) of the packet's source IP, destination IP and UDP ports, seeded with the switch's node number, modulo
     * the number of next hops, which are listed in the order of HPCC's routing set-up. A packet's ports are its queue
     * pair's flow label {@code sport | dport << 16}; a response (ACK, NAK, CNP, RDMA Read response, atomic
     * acknowledgement) carries them swapped, as HPCC's ACK does.
     *
     * @param seed the switch's node number (HPCC's m_ecmpSeed)
     * @param hostIp each host's IP address, by host id
     * @param portsByHost the output ports towards each host, by host id, in HPCC's order
     */
    public void setHpccEcmp(int seed, int[] hostIp, int[][] portsByHost) {
        this.hpccSeed = seed;
        this.hpccIp = hostIp;
        this.hpccRoutes = portsByHost;
    }

    /**
     * Returns the output port this switch sends a packet to (by its flow hash, or as HPCC's switches do under
     * {@code switch.ecmp hpcc}).
     *
     * @param packet the packet
     * @return the port index, or -1 if its host is unreachable
     */
    public int route(Packet packet) {
        return hpccRoutes == null ? route(packet.dstHost, packet.flow) : routeHpcc(packet);
    }

    /** Under {@code switch.ecmp hpcc}: the output ports towards a host in HPCC's order (a copy), or null. */
    int[] hpccRouteChoices(int dstHost) {
        return hpccRoutes == null ? null : hpccRoutes[dstHost].clone();
    }

    /** The output port of a packet under {@code switch.ecmp hpcc}, or -1 if its host is unreachable. */
    private int routeHpcc(Packet packet) {
        int dst = packet.dstHost;
        if (dst < 0 || dst >= hpccRoutes.length) {
            return -1;
        }
        int[] c = hpccRoutes[dst];
        if (c.length <= 1) {
            return c.length == 0 ? -1 : c[0];
        }
        int ports = packet.flow;
        int k = packet.kind;
        if (k == Packet.ACK || k == Packet.NAK || k == Packet.CNP || k == Packet.READ_RESPONSE
                || k == Packet.ATOMIC_ACK) {
            ports = (ports >>> 16) | (ports << 16);
        }
        int h = hpccHash(hpccIp[packet.srcHost], hpccIp[dst], ports, hpccSeed);
        return c[Integer.remainderUnsigned(h, c.length)];
    }

    /**
     * HPCC's {@code SwitchNode::EcmpHash} of its 12-byte key (three 32-bit words, read in the machine's order as its
     * union does on x86): Murmur3's 32-bit body and finaliser.
     *
     * @param sip the source IP
     * @param dip the destination IP
     * @param ports sport | dport &lt;&lt; 16
     * @param seed the seed
     * @return the hash, as HPCC's uint32_t
     */
    public static int hpccHash(int sip, int dip, int ports, int seed) {
        int h = seed;
        h = hpccMixIn(h, sip);
        h = hpccMixIn(h, dip);
        h = hpccMixIn(h, ports);
        h ^= 12;
        return mix(h);
    }

    private static int hpccMixIn(int h, int k) {
        k *= 0xcc9e2d51;
        k = Integer.rotateLeft(k, 15);
        k *= 0x1b873593;
        h ^= k;
        h = Integer.rotateLeft(h, 13);
        return h * 5 + 0xe6546b64;
    }

    /** A 32-bit finaliser (murmur3's fmix32): a fixed, platform-independent hash. */
    public static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85EBCA6B;
        h ^= h >>> 13;
        h *= 0xC2B2AE35;
        h ^= h >>> 16;
        return h;
    }

    /**
     * Fault injection (for tests and studies of loss): every packet the filter accepts is dropped when it arrives,
     * and counted like a packet dropped for want of buffer. The transport recovers it as it recovers any loss.
     *
     * @param filter the packets to drop, or null to drop none
     */
    public void setDropFilter(java.util.function.Predicate<Packet> filter) {
        this.dropFilter = filter;
    }

    /**
     * Makes the switch trace the packets it drops ({@link #DROP}). Call before the run.
     *
     * @param trace the trace source every model publishes to
     * @param hostNames the fabric's host names in host id order
     */
    public void setTrace(TraceSource<TraceEvent> trace, List<String> hostNames) {
        this.trace = trace;
        this.hostNames = hostNames.toArray(new String[0]);
    }

    /**
     * Turns ECN marking on: a data packet ({@link Packet#isData}) leaving an egress queue that still holds q bytes is
     * marked Congestion Experienced with probability 0 for q at or below kmin, pmax x (q - kmin) / (kmax - kmin)
     * between, and 1 above kmax, as HPCC's SwitchMmu::ShouldSendCN; the thresholds scale with each port's rate.
     * Call once every port is added.
     *
     * @param random this switch's seeded random stream
     * @param kminAt100G the lower threshold in bytes for a 100 Gb/s port
     * @param kmaxAt100G the upper threshold in bytes for a 100 Gb/s port (at least kminAt100G; equal to it, every
     *        packet above it is marked: DCTCP's step marking at K, as HPCC's run.py configures dctcp)
     * @param pmax the marking probability reached at kmax, in [0, 1]
     */
    public void enableEcn(RandomGenerator random, long kminAt100G, long kmaxAt100G, double pmax) {
        if (kminAt100G > kmaxAt100G || pmax < 0 || pmax > 1) {
            throw new IllegalArgumentException("ECN needs kmin <= kmax and pmax in [0, 1]");
        }
        this.ecn = true;
        this.ecnRandom = random;
        this.pmax = pmax;
        int n = out.length;
        kmin = new long[n];
        kmax = new long[n];
        for (int i = 0; i < n; i++) {
            long bps = out[i].rate().bitsPerSecond();
            kmin[i] = ecnThreshold(kminAt100G, bps);
            kmax[i] = ecnThreshold(kmaxAt100G, bps);
        }
        notifyDequeues();
    }

    /**
     * An ECN threshold given at 100 Gb/s (ecn.kmin, ecn.kmax) as a port of that rate applies it: scaled with the rate,
     * exactly (the product fits a long for sizes below 2^40 and rates below 10 Pb/s).
     *
     * @param bytesAt100G the threshold at 100 Gb/s
     * @param bps the port's rate
     * @return the port's threshold, bytes
     */
    public static long ecnThreshold(long bytesAt100G, long bps) {
        return java.math.BigInteger.valueOf(bytesAt100G).multiply(java.math.BigInteger.valueOf(bps))
                .divide(java.math.BigInteger.valueOf(100_000_000_000L)).longValue();
    }

    /**
     * Turns in-band network telemetry on: every data packet leaving an egress queue gets a hop record
     * ({@link Packet#pushIntHop}: now, the port's transmitted bytes before it, the bytes still queued, the rate).
     * Call once every port is added.
     */
    public void enableInt() {
        this.intEnabled = true;
        notifyDequeues();
    }

    private void notifyDequeues() {
        for (int i = 0; i < out.length; i++) {
            out[i].setOwner(this, i, true);
        }
    }

    /**
     * Replaces the static per-input buffer by a shared buffer with dynamic PFC thresholds, as HPCC's switch-mmu.cc:
     * an input's first {@code reserve} bytes are its own; beyond, its bytes come from the shared pool while they stay
     * under the threshold alpha x (buffer - headrooms - reserves - shared bytes in use), alpha = 2^-shift of the
     * input, and from its headroom beyond that. An input is paused once it holds headroom bytes or its shared bytes
     * reach the threshold, and resumed once it holds no headroom bytes and its shared bytes are 0 or at least
     * {@code resumeOffset} below the threshold. A packet that fits neither the headroom nor under the threshold is
     * dropped. Needs PFC; call once every port and its upstream is added.
     *
     * @param bufferBytes the switch's buffer in bytes
     * @param reserve the bytes reserved per input
     * @param resumeOffset the resume hysteresis in bytes
     * @param headroomOf the headroom of each input in bytes, by port index
     * @param shiftOf the alpha shift of each input, by port index
     */
    public void useSharedBuffer(long bufferBytes, long reserve, long resumeOffset, long[] headroomOf, int[] shiftOf) {
        if (flowControl != FlowControl.PFC) {
            throw new IllegalStateException("a shared buffer needs PFC");
        }
        int n = out.length;
        this.shared = true;
        this.sharedBuffer = bufferBytes;
        this.reserve = reserve;
        this.resumeOffset = resumeOffset;
        this.headroom = java.util.Arrays.copyOf(headroomOf, n);
        this.alphaShift = java.util.Arrays.copyOf(shiftOf, n);
        this.headroomBytes = new long[n];
        totalHeadroom = 0;
        for (long h : headroom) {
            totalHeadroom += h;
        }
        totalReserve = reserve * n;
    }

    /** The dynamic PFC threshold of an input: alpha x the free shared pool, in bytes. */
    private long pfcThreshold(int in) {
        long free = sharedBuffer - totalHeadroom - totalReserve - sharedUsed;
        return free <= 0 ? 0 : free >> alphaShift[in];
    }

    /** The shared-pool bytes an input holds (its bytes outside headroom, beyond its reserve). */
    private long sharedOf(int in) {
        long used = ingress[2 * in] - headroomBytes[in];
        return used > reserve ? used - reserve : 0;
    }

    @Override
    public void receive(Packet packet, int inPort) {
        if (deferredCount > 0) {
            settleDepartures();
        }
        long held = ingress[2 * inPort] + packet.wireBytes;
        if (dropFilter != null && dropFilter.test(packet)) {
            drop(packet, inPort, FILTER);
            return;
        }
        if (shared) {
            if (!admitShared(packet.wireBytes, inPort)) {
                drop(packet, inPort, BUFFER_FULL);
                return;
            }
        } else if (flowControl == FlowControl.PFC) {
            if (held > bufferBytes) {
                // The PFC headroom did not absorb what was in flight when the pause was sent: the packet is lost,
                // and the sending transport retransmits it (Hca: sequence-error NAK or local ACK timeout).
                drop(packet, inPort, BUFFER_FULL);
                return;
            }
            if (!pauseSent[inPort] && held >= xoff) {
                setPausing(inPort, true);
                Port up = upstream[inPort];
                sim.schedule(up.propagationPs(), up.pauseHandler(), 1);
            }
        }
        ingress[2 * inPort] = held;
        if (held > ingress[2 * inPort + 1]) {
            ingress[2 * inPort + 1] = held;
        }
        packet.setInPort(inPort);
        // Forwarded after the latency: the output port queues it from then on, in arrival order (every packet waits
        // the same latency), without an event of its own for the handover.
        int o = route(packet);
        if (o < 0) {
            throw new IllegalStateException("switch " + name + " has no route to host " + packet.dstHost);
        }
        packetsForwarded++;
        out[o].sendAt(packet, sim.now() + latencyPs);
    }

    /** Holds (or stops holding) an input's upstream port paused; while any is held, departures are on time. */
    private void setPausing(int in, boolean on) {
        pauseSent[in] = on;
        if (on) {
            if (pausingInputs++ == 0) {
                for (int i = 0; i < deferredCount; i++) {
                    isDeferred[deferred[i]] = false;
                    out[deferred[i]].departureExact();
                }
                deferredCount = 0;
            }
        } else {
            pausingInputs--;
        }
    }

    @Override
    public boolean lazyDepartures() {
        return pausingInputs == 0 && flowControl != FlowControl.IB_CREDITS;
    }

    @Override
    public void departureDeferred(int port) {
        if (!isDeferred[port]) {
            isDeferred[port] = true;
            deferredUntil[deferredCount] = out[port].sendingEndPs();
            deferred[deferredCount++] = port;
        }
    }

    /** Takes in the departures that output ports deferred and that have happened by now. */
    private void settleDepartures() {
        int k = 0;
        long now = sim.now();
        for (int i = 0; i < deferredCount; i++) {
            int port = deferred[i];
            long until = deferredUntil[i];
            if (until > now) { // not due yet (its port's departure, if still deferred, is not earlier)
                deferredUntil[k] = until;
                deferred[k++] = port;
                continue;
            }
            until = out[port].settleDeparture();
            if (until >= 0) {
                deferredUntil[k] = until;
                deferred[k++] = port;
            } else {
                isDeferred[port] = false;
            }
        }
        deferredCount = k;
    }

    /**
     * Admits a packet to the shared buffer (HPCC's CheckIngressAdmission, UpdateIngressAdmission and
     * CheckAndSendPfc), or returns false if it fits neither under the threshold nor in the headroom.
     */
    private boolean admitShared(int psize, int in) {
        long thresh = pfcThreshold(in);
        long sharedNow = sharedOf(in);
        if (psize + headroomBytes[in] > headroom[in] && psize + sharedNow > thresh) {
            return false;
        }
        long newBytes = ingress[2 * in] - headroomBytes[in] + psize;
        if (newBytes > reserve) {
            if (newBytes - reserve > thresh) {
                headroomBytes[in] += psize;
            } else {
                sharedUsed += Math.min(psize, newBytes - reserve);
            }
        }
        ingress[2 * in] += psize;
        Port up = upstream[in];
        if (up != null && !pauseSent[in] && (headroomBytes[in] > 0 || sharedOf(in) >= pfcThreshold(in))) {
            setPausing(in, true);
            pauses++;
            sim.schedule(up.propagationPs(), up.pauseHandler(), 1);
        }
        return true;
    }

    /** Frees a departed packet's bytes of the shared buffer (HPCC's RemoveFromIngressAdmission, CheckAndSendResume). */
    private void releaseShared(int wireBytes, int in, long heldBefore) {
        long fromHeadroom = Math.min(headroomBytes[in], wireBytes);
        long used = heldBefore - headroomBytes[in];
        long fromShared = Math.min(wireBytes - fromHeadroom, used > reserve ? used - reserve : 0);
        headroomBytes[in] -= fromHeadroom;
        sharedUsed -= fromShared;
        if (pauseSent[in] && headroomBytes[in] == 0) {
            long sh = sharedOf(in);
            if (sh == 0 || sh + resumeOffset <= pfcThreshold(in)) {
                setPausing(in, false);
                Port up = upstream[in];
                sim.schedule(up.propagationPs(), up.pauseHandler(), 0);
            }
        }
    }

    @Override
    public void dequeued(int port, Packet packet, long queuedBytes, long txBytes) {
        dequeuedAt(port, packet, queuedBytes, txBytes, sim.now());
    }

    @Override
    public void dequeuedAt(int port, Packet packet, long queuedBytes, long txBytes, long timePs) {
        if (!Packet.isData(packet.kind)) {
            return;
        }
        if (ecn && queuedBytes > kmin[port]) {
            boolean mark = queuedBytes > kmax[port] || ecnRandom.nextDouble()
                    < pmax * (double) (queuedBytes - kmin[port]) / (double) (kmax[port] - kmin[port]);
            if (mark) {
                packet.ecn = true;
                marks++;
                out[port].countMark();
                if (trace != null && trace.isEnabled()) {
                    trace.fire(TraceEvent.of(timePs, ECN_MARK, name).attr(TraceKey.SWITCH, name)
                            .attr(TraceKey.PORT, out[port].name()).attr(TraceKey.QUEUE_BYTES, queuedBytes)
                            .attr(TraceKey.PACKET, Packet.kindName(packet.kind))
                            .attr(TraceKey.FROM, hostName(packet.srcHost))
                            .attr(TraceKey.TO, hostName(packet.dstHost)).attr(TraceKey.BYTES, packet.wireBytes));
                }
            }
        }
        if (intEnabled) {
            packet.pushIntHop(timePs, txBytes, queuedBytes, out[port].rate().bitsPerSecond());
        }
    }

    /**
     * Drops a packet arriving on an input port, counts it (on the switch and on the port that sent it) and traces
     * it. A cut-through switch receives a packet at its first bit, while the sending port still transmits it: the
     * packet goes back to its pool only when its last bit has arrived, after that port is done with it.
     */
    private void drop(Packet packet, int inPort, String reason) {
        drops++;
        Port up = upstream[inPort];
        if (up != null) {
            up.countDrop();
        }
        if (trace != null && trace.isEnabled()) {
            trace.fire(dropEvent(packet, up != null ? up.name() : name + " port " + inPort, reason));
        }
        if (packet.tailPs() > sim.now()) {
            droppedPool = packet.pool();
            sim.scheduleAt(packet.tailPs(), releaseDropped, packet.id);
        } else {
            packet.release();
        }
    }

    /** The trace record of a dropped packet (built only for a drop, which is rare). */
    private TraceEvent dropEvent(Packet packet, String port, String reason) {
        String from = hostName(packet.srcHost);
        PacketOperation wr = packet.context instanceof PacketOperation ? (PacketOperation) packet.context : null;
        CmPacketContext cm = packet.kind == Packet.CM && packet.context instanceof CmPacketContext
                ? (CmPacketContext) packet.context : null;
        TraceEvent e;
        if (wr != null) {
            e = TraceEvent.of(sim.now(), DROP, wr.requesterHost()).ep(wr.requesterEndpoint()).op(wr.operationId())
                    .cookie(wr.operationCookie());
        } else if (cm != null && cm.endpoint() != null) {
            e = TraceEvent.of(sim.now(), DROP, from).ep(cm.endpoint()); // on the sending endpoint's lane
        } else {
            e = TraceEvent.of(sim.now(), DROP, from);
        }
        e.attr(TraceKey.SWITCH, name).attr(TraceKey.PORT, port).attr(TraceKey.REASON, reason)
                .attr(TraceKey.PACKET, Packet.kindName(packet.kind))
                .attr(TraceKey.FROM, from).attr(TraceKey.TO, hostName(packet.dstHost));
        if (wr != null) {
            e.attr(TraceKey.SEQ, wr.sequence()).attr(TraceKey.INDEX, packet.index).attr(TraceKey.PACKETS, packet.count);
        } else if (cm != null) {
            e.attr(TraceKey.MESSAGE, cm.type());
            if (cm.commId() > 0) {
                e.attr(TraceKey.COMM_ID, cm.commId());
            }
        }
        return e.attr(TraceKey.BYTES, packet.wireBytes);
    }

    private String hostName(int id) {
        return id >= 0 && id < hostNames.length ? hostNames[id] : "host " + id;
    }

    @Override
    public void departed(Packet packet, int inPort, int wireBytes) {
        if (inPort < 0) {
            return;
        }
        long before = ingress[2 * inPort];
        long held = before - wireBytes;
        ingress[2 * inPort] = held;
        if (shared) {
            releaseShared(wireBytes, inPort, before);
            return;
        }
        Port up = upstream[inPort];
        if (up == null) {
            return;
        }
        if (flowControl == FlowControl.IB_CREDITS) {
            up.returnCredit(wireBytes, up.propagationPs());
        } else if (flowControl == FlowControl.PFC && pauseSent[inPort] && held <= xon) {
            setPausing(inPort, false);
            sim.schedule(up.propagationPs(), up.pauseHandler(), 0);
        }
    }

    /** Returns the packets forwarded so far. */
    public long packetsForwarded() {
        return packetsForwarded;
    }

    /**
     * Returns the packets dropped because an input's buffer share overflowed (PFC with too little headroom) or the
     * drop filter took them.
     */
    public long drops() {
        return drops;
    }

    /**
     * Returns the most bytes an input port's share of the buffer held at once.
     *
     * @param port the input port index
     * @return the bytes
     */
    public long maxIngressBytes(int port) {
        settleDepartures();
        return ingress[2 * port + 1];
    }

    /**
     * Returns the bytes an input port's share of the buffer holds now.
     *
     * @param port the input port index
     * @return the bytes
     */
    public long ingressBytes(int port) {
        settleDepartures();
        return ingress[2 * port];
    }

    /** Returns the data packets this switch marked Congestion Experienced (ECN). */
    public long ecnMarks() {
        return marks;
    }

    /** Returns the PAUSE frames this switch sent in shared-buffer mode. */
    public long pausesSent() {
        return pauses;
    }

    /** Returns true while this switch holds the upstream port of an input paused. */
    public boolean pausing(int port) {
        return pauseSent[port];
    }

    /** Returns the shared-pool bytes in use (shared-buffer mode). */
    public long sharedUsed() {
        settleDepartures();
        return sharedUsed;
    }

    /** Returns the headroom an input was given (shared-buffer mode; pfc.headroom or the one derived), bytes. */
    public long headroom(int port) {
        return headroom[port];
    }

    /** Returns the alpha shift of an input's dynamic PFC threshold (shared-buffer mode). */
    public int alphaShift(int port) {
        return alphaShift[port];
    }

    /** Returns the headroom bytes an input holds (shared-buffer mode). */
    public long headroomBytes(int port) {
        settleDepartures();
        return headroomBytes[port];
    }

    /** Returns the dynamic PFC threshold of an input now, in bytes (shared-buffer mode). */
    public long dynamicThreshold(int port) {
        settleDepartures();
        return pfcThreshold(port);
    }

    /** Returns the switch's ports in index order. */
    public List<Port> ports() {
        return List.copyOf(ports);
    }
}
