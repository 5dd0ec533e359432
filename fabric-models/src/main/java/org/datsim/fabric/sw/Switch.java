package org.datsim.fabric.sw;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.FlowControl;
import org.datsim.fabric.link.Ingress;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.PfcFrame;
import org.datsim.fabric.link.Port;

/**
 * An output-queued switch, composed of policies chosen when it is built ({@link #builder}): a packet is received when
 * its last bit has arrived (store and forward) or its first bit (cut through); the {@link DropFilter} may take it
 * (fault injection); the {@link SwitchBuffer} admits it on its input's account or drops it, and may ask for the
 * upstream port to be paused; the {@link RouteTable} names its output port, whose FIFO queue it joins after the
 * forwarding latency. As it leaves that queue the {@link EcnMarker} may mark it and the {@link IntStamper} stamp it;
 * when its last bit has left, the buffer frees its bytes and may ask for a resume or return InfiniBand credit. The
 * switch wires these: it sends PFC PAUSE and RESUME as {@link PfcFrame frames} on its own port of the input's link
 * ({@link Port#sendPfc}), which arrive at the upstream port one propagation delay later, and traces through its
 * {@link SwitchTrace}.
 *
 * <p>A packet dropped on arrival (its input's buffer share full, or taken by the drop filter) is counted on the port
 * that sent it and traced as {@link #DROP}, at the time of the drop; the trace record is built only then.
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
    /** The output ports, by port index; the port of input i's link is out[i]. */
    private final Port[] out;
    /** The port sending into each input (the other direction of out[i]'s link). */
    private final Port[] upstream;
    private final SwitchBuffer buffer;
    private final RouteTable routes;
    /** ECN marking, or null (off). */
    private final EcnMarker ecn;
    /** In-band telemetry, or null (off). */
    private final IntStamper intStamper;
    private final DropFilter dropFilter;
    private final SwitchTrace trace;
    private final DeferredDepartures deferred;
    /** The pool of the packets this switch drops (every packet of a fabric comes from one pool). */
    private PacketPool droppedPool;
    private final EventHandler releaseDropped = id -> droppedPool.get(id).release();
    private long packetsForwarded;
    private long drops;

    private Switch(Builder b) {
        int n = b.out.size();
        this.name = b.name;
        this.sim = b.sim;
        this.latencyPs = b.latencyPs;
        this.mode = b.mode;
        this.out = b.out.toArray(new Port[0]);
        this.upstream = b.upstream.toArray(new Port[0]);
        this.buffer = b.buffer != null ? b.buffer
                : StaticBuffer.uniform(FlowControl.NONE, n, Long.MAX_VALUE, Long.MAX_VALUE, Long.MAX_VALUE);
        if (buffer.ports() != n) {
            throw new IllegalArgumentException("switch " + name + ": a buffer for " + buffer.ports()
                    + " inputs, but " + n + " ports");
        }
        this.routes = b.routes != null ? b.routes : RouteTable.ecmp(0);
        this.ecn = b.ecn;
        this.intStamper = b.intStamper;
        this.dropFilter = b.dropFilter != null ? b.dropFilter : new DropFilter();
        this.trace = b.trace != null ? b.trace : SwitchTrace.none(name);
        this.deferred = new DeferredDepartures(out);
        boolean notify = ecn != null || intStamper != null;
        for (int i = 0; i < n; i++) {
            out[i].setOwner(this, i, notify);
        }
    }

    /**
     * Starts building a switch.
     *
     * @param name its unique name
     * @param sim the simulator
     * @return the builder
     */
    public static Builder builder(String name, Simulator sim) {
        return new Builder(name, sim);
    }

    /**
     * Chooses a switch's ports and policies; {@link #build} makes it. Unset, a switch stores and forwards with no
     * latency, has an unbounded buffer, datsim's ECMP, no ECN marking, no telemetry, a drop filter that takes
     * nothing and no trace.
     */
    public static final class Builder {
        private final String name;
        private final Simulator sim;
        private long latencyPs;
        private Mode mode = Mode.STORE_AND_FORWARD;
        private final List<Port> out = new ArrayList<>();
        private final List<Port> upstream = new ArrayList<>();
        private SwitchBuffer buffer;
        private RouteTable routes;
        private EcnMarker ecn;
        private IntStamper intStamper;
        private DropFilter dropFilter;
        private SwitchTrace trace;

        private Builder(String name, Simulator sim) {
            this.name = name;
            this.sim = sim;
        }

        /** Sets the forwarding latency, ps. */
        public Builder latency(long ps) {
            this.latencyPs = ps;
            return this;
        }

        /** Sets store and forward or cut through. */
        public Builder mode(Mode m) {
            this.mode = m;
            return this;
        }

        /**
         * Adds a port (the next index): the switch's sending side of a link, and the peer's port sending into it on
         * the same link (paired with it, {@link Port#pairWith}: PFC frames go from one to the other).
         *
         * @param sending the switch's port
         * @param upstreamPort the peer's port on the same link
         * @return this builder
         */
        public Builder port(Port sending, Port upstreamPort) {
            if (sending.reverse() != upstreamPort) {
                sending.pairWith(upstreamPort);
            }
            out.add(sending);
            upstream.add(upstreamPort);
            return this;
        }

        /** Returns the switch's name. */
        public String name() {
            return name;
        }

        /** Returns how many ports were added (the index the next one gets). */
        public int portCount() {
            return out.size();
        }

        /** Returns the ports added so far, by index. */
        public List<Port> ports() {
            return List.copyOf(out);
        }

        /** Sets the buffer policy (for as many inputs as ports). */
        public Builder buffer(SwitchBuffer b) {
            this.buffer = b;
            return this;
        }

        /** Sets the route table. */
        public Builder routes(RouteTable r) {
            this.routes = r;
            return this;
        }

        /** Sets ECN marking (null: none). */
        public Builder ecn(EcnMarker e) {
            this.ecn = e;
            return this;
        }

        /** Sets in-band telemetry (null: none). */
        public Builder intStamping(IntStamper s) {
            this.intStamper = s;
            return this;
        }

        /** Sets the drop filter (fault injection). */
        public Builder dropFilter(DropFilter f) {
            this.dropFilter = f;
            return this;
        }

        /**
         * Makes the switch trace its drops and ECN marks.
         *
         * @param source the trace source every model publishes to
         * @param hostNames the fabric's host names in host id order
         * @return this builder
         */
        public Builder trace(TraceSource<TraceEvent> source, List<String> hostNames) {
            this.trace = new SwitchTrace(name, source, hostNames);
            return this;
        }

        /** Builds the switch; it becomes the owner of its ports. */
        public Switch build() {
            return new Switch(this);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean receivesAtFirstBit() {
        return mode == Mode.CUT_THROUGH;
    }

    @Override
    public void receive(Packet packet, int inPort) {
        if (deferred.count > 0) {
            deferred.settle(sim.now());
        }
        if (dropFilter.takes(packet)) {
            drop(packet, inPort, FILTER);
            return;
        }
        int admitted = buffer.admit(inPort, packet.wireBytes);
        if (admitted != SwitchBuffer.ADMIT) {
            if (admitted == SwitchBuffer.DROP) {
                // PFC: the headroom did not absorb what was in flight when the pause was sent: the packet is lost,
                // and the sending transport retransmits it (Hca: sequence-error NAK or local ACK timeout).
                drop(packet, inPort, BUFFER_FULL);
                return;
            }
            pause(inPort);
        }
        packet.setInPort(inPort);
        // Forwarded after the latency: the output port queues it from then on, in arrival order (every packet waits
        // the same latency), without an event of its own for the handover.
        int o = routes.route(packet);
        if (o < 0) {
            throw new IllegalStateException("switch " + name + " has no route to host " + packet.dstHost);
        }
        packetsForwarded++;
        out[o].sendAt(packet, sim.now() + latencyPs);
    }

    /**
     * Pauses an input's upstream port: a PAUSE frame on this switch's port of that link. While any input is paused,
     * departures are reported on time (they decide the resume).
     */
    private void pause(int in) {
        if (buffer.pausingInputs == 1) {
            deferred.exactAll();
        }
        out[in].sendPfc(PfcFrame.pause(0));
    }

    @Override
    public boolean lazyDepartures() {
        return !buffer.exactDepartures();
    }

    @Override
    public void departureDeferred(int port) {
        deferred.defer(port);
    }

    @Override
    public void departed(Packet packet, int inPort, int wireBytes) {
        if (inPort < 0) {
            return;
        }
        int r = buffer.release(inPort, wireBytes);
        if (r == SwitchBuffer.CREDIT) {
            Port up = upstream[inPort];
            up.returnCreditFrom(sim, wireBytes);
        } else if (r == SwitchBuffer.RESUME) {
            out[inPort].sendPfc(PfcFrame.resume(0));
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
        if (ecn != null && ecn.mark(port, queuedBytes)) {
            packet.ecn = true;
            out[port].countMark();
            trace.ecnMark(timePs, packet, out[port].name(), queuedBytes);
        }
        if (intStamper != null) {
            intStamper.stamp(packet, port, timePs, txBytes, queuedBytes);
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
        up.countDrop();
        trace.drop(sim.now(), packet, up.name(), reason);
        if (packet.tailPs() > sim.now()) {
            droppedPool = packet.pool();
            sim.scheduleAt(packet.tailPs(), releaseDropped, packet.id);
        } else {
            packet.release();
        }
    }

    /**
     * Returns the output port this switch sends a packet to.
     *
     * @param packet the packet
     * @return the port index, or -1 if its host is unreachable
     */
    public int route(Packet packet) {
        return routes.route(packet);
    }

    /**
     * Returns the output port this switch sends a flow to (datsim's ECMP).
     *
     * @param dstHost the destination host id
     * @param flow the flow hash
     * @return the port index, or -1 if the host is unreachable
     */
    public int route(int dstHost, int flow) {
        return routes.route(dstHost, flow);
    }

    /** Returns the buffer policy. */
    public SwitchBuffer buffer() {
        return buffer;
    }

    /** Returns the route table. */
    public RouteTable routes() {
        return routes;
    }

    /** Returns the ECN marker, or null if the switch marks nothing. */
    public EcnMarker ecn() {
        return ecn;
    }

    /** Returns the in-band telemetry stamper, or null if the switch stamps nothing. */
    public IntStamper intStamper() {
        return intStamper;
    }

    /** Returns the drop filter (fault injection: {@link DropFilter#set}). */
    public DropFilter dropFilter() {
        return dropFilter;
    }

    /** Returns the output ports a packet to a host may take (datsim's routes, a copy). */
    public int[] routeChoices(int dstHost) {
        return routes.routeChoices(dstHost);
    }

    /** Under {@code switch.ecmp hpcc}: the output ports towards a host in HPCC's order (a copy), else null. */
    public int[] hpccRouteChoices(int dstHost) {
        return routes.hpccRouteChoices(dstHost);
    }

    /** See {@link RouteTable#hpccHash}. */
    public static int hpccHash(int sip, int dip, int ports, int seed) {
        return RouteTable.hpccHash(sip, dip, ports, seed);
    }

    /** A 32-bit finaliser (murmur3's fmix32): a fixed, platform-independent hash ({@link RouteTable#mix}). */
    public static int mix(int h) {
        return RouteTable.mix(h);
    }

    /** See {@link EcnMarker#threshold}. */
    public static long ecnThreshold(long bytesAt100G, long bps) {
        return EcnMarker.threshold(bytesAt100G, bps);
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
        deferred.settle(sim.now());
        return buffer.maxHeld(port);
    }

    /**
     * Returns the bytes an input port's share of the buffer holds now.
     *
     * @param port the input port index
     * @return the bytes
     */
    public long ingressBytes(int port) {
        deferred.settle(sim.now());
        return buffer.held(port);
    }

    /** Returns the data packets this switch marked Congestion Experienced (ECN). */
    public long ecnMarks() {
        return ecn == null ? 0 : ecn.marks();
    }

    /** Returns the PAUSE frames this switch sent in shared-buffer mode. */
    public long pausesSent() {
        return buffer instanceof SharedBuffer ? ((SharedBuffer) buffer).pauses() : 0;
    }

    /** Returns true while this switch holds the upstream port of an input paused. */
    public boolean pausing(int port) {
        return buffer.pausing(port);
    }

    /** Returns the shared-pool bytes in use (shared-buffer mode; 0 otherwise). */
    public long sharedUsed() {
        deferred.settle(sim.now());
        return buffer instanceof SharedBuffer ? ((SharedBuffer) buffer).sharedUsed() : 0;
    }

    /** Returns the headroom an input was given (shared-buffer mode; pfc.headroom or the one derived), bytes. */
    public long headroom(int port) {
        return shared().headroom(port);
    }

    /** Returns the alpha shift of an input's dynamic PFC threshold (shared-buffer mode). */
    public int alphaShift(int port) {
        return shared().alphaShift(port);
    }

    /** Returns the headroom bytes an input holds (shared-buffer mode). */
    public long headroomBytes(int port) {
        deferred.settle(sim.now());
        return shared().headroomBytes(port);
    }

    /** Returns the dynamic PFC threshold of an input now, in bytes (shared-buffer mode). */
    public long dynamicThreshold(int port) {
        deferred.settle(sim.now());
        return shared().dynamicThreshold(port);
    }

    private SharedBuffer shared() {
        if (!(buffer instanceof SharedBuffer)) {
            throw new IllegalStateException("switch " + name + " has no shared buffer");
        }
        return (SharedBuffer) buffer;
    }

    /** Returns the switch's ports in index order. */
    public List<Port> ports() {
        return List.of(out);
    }
}
