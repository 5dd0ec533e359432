package org.datsim.fabric.link;

import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;

/**
 * The sending side of one direction of a link. Packets queue in FIFO order; each occupies the wire for its
 * {@link Packet#wireBytes} at the link's rate, and reaches the peer node the propagation delay after its last bit
 * left (or, when the peer is a cut-through switch, the propagation delay after its first bit left).
 *
 * <p>When the peer is a switch, link-level flow control ({@link FlowControl}) may hold the head packet back: with
 * InfiniBand credits the port starts a packet only while it holds credit for all its wire bytes (credit is the free
 * space of the switch's buffer share for this input, returned by {@link #returnCredit}); with PFC the port starts
 * no new packet while paused (a PAUSE {@linkplain PfcFrame frame} from the switch, {@link #receivePfc}). The port's
 * own queue is unbounded: it is the HCA's send queue
 * or a switch output queue whose bytes are bounded by the flow control of the links into the switch.
 *
 * <p>Per-port counters ({@link PortCounters}): packets, bytes, deepest queue, flow-control stall time.
 *
 * <p>Traced as they happen ({@link #setTrace}): every PFC pause and resume of the port ({@link #PFC}) and, for a
 * switch's output port, every change of the bytes queued ({@link #PORT_QUEUE}).
 */
public final class Port implements EventHandler {

    /**
     * The trace kind of a PFC pause or resume taking effect at a port, traced on the port's node (a switch's name or
     * a host's as the event's host). Fields: {@code port} ({@code FROM->TO}), {@code paused} (1: paused, 0: resumed),
     * {@code queue_bytes} (bytes waiting behind the packet on the wire then).
     */
    public static final String PFC = TraceKind.PFC;
    /**
     * The trace kind of a change of the bytes queued at a switch's output port, traced on the switch: {@code port}
     * ({@code FROM->TO}), {@code queue_bytes} (bytes waiting behind the packet on the wire, after the change). A
     * packet that starts on the wire at once, as it arrives, changes nothing and is not traced.
     */
    public static final String PORT_QUEUE = TraceKind.PORT_QUEUE;

    /** Observes transmissions; used by the HCA to trace an operation's first and last packet on the wire. */
    public interface TxListener {
        /**
         * Called when a packet starts and when it finishes leaving the port.
         *
         * @param packet the packet
         * @param start true at the first bit, false at the last bit
         */
        void onTransmit(Packet packet, boolean start);

        /** PFC resumed the port's data class (a listener that chooses at the link's freeing chooses again). */
        default void resumed() {
        }

        /**
         * Whether the listener needs to be called at the very instant a packet's last bit leaves (asked when it
         * starts). When false, the port may make that call later (or not at all before the run ends), and saves the
         * event at the end of a packet that nothing waits for. True by default.
         *
         * @return true to observe every end
         */
        default boolean observesEnd() {
            return true;
        }
    }

    /** link.time_resolution: a packet's time on the wire is a multiple of it (0: exact). */
    private long resolutionPs;
    /** link.pfc_frame_bytes: a PFC frame's wire bytes (0: it takes no wire time and does not wait). */
    private long pfcFrameBytes;
    /** When the last PFC frame sent on this port has left it (its last bit), ps. */
    private long pfcFrameEndPs;
    private final Simulator sim;
    private final DataRate rate;
    private final long propagationPs;
    /** The data class: packets in FIFO order, each eligible from its ready time. */
    private final PacketRing queue = new PacketRing();
    /** The argument of the port's own events ({@link #handle}): its decision event. */
    private static final long SERVICE = 0;
    /** The argument of the port's own events ({@link #handle}): the arrival of the first packet in flight. */
    private static final long ARRIVE = 1;
    /**
     * The argument of the port's own events ({@link #handle}) from this value up: a PFC frame it sent arriving at
     * the far end of its link (the argument less this value is the {@link PfcFrame}).
     */
    private static final long FRAME = 2;
    /** The port's one pending decision event: the end of the packet on the wire, or a queued packet's eligibility. */
    private long serviceEvent;
    private long serviceAtPs = Long.MAX_VALUE;
    /** The packets on their way to the peer, in order of arrival, linked by {@link Packet#nextInFlight}. */
    private Packet inFlightHead;
    private Packet inFlightTail;
    private long arriveEvent;
    private final PortCounters counters = new PortCounters(this);
    // The counters a decision updates, kept here (beside the state it touches) rather than in PortCounters, which
    // reads them from here
    long sentPackets;
    long sentBytes;
    int maxQueuePackets;
    long maxQueueBytes;
    /** Wakes a port stalled for credit when returned credit arrives. */
    private final EventHandler creditWake = this::creditWake;
    // Credit on its way back, in arrival order (a ring of (arrival time, bytes), interleaved in one array: entry j at
    // returns[2j] and returns[2j + 1]): absorbed when the port looks at its credit, so returning credit costs an event
    // only when the port is stalled waiting for it.
    private long[] returns = new long[32];
    private int returnMask = 15;
    private int returnHead;
    private int returnCount;
    private boolean wakeScheduled;
    private String name = "port";
    /** The other direction of this port's link (its sending port at the peer), where PFC frames sent here arrive. */
    private Port reverse;
    private NetworkNode peer;
    private int peerPort;
    private boolean headDelivery;
    /*
     * On an engine with owners (setOwners): the owner of this port's node and of the peer node, and on a link whose
     * two nodes are in different partitions, how long before a packet's arrival it is handed over (the lookahead)
     * and where it goes. keyed is false on a plain Simulator, where every event is scheduled as before.
     */
    private boolean keyed;
    private int selfOwner;
    private int peerOwner;
    private long handoverLeadPs;
    private LinkInbox inbox;
    private final EventHandler handover = this::handover;
    private long handovers;
    // On a cut link: the arrival time and key of each packet in flight not yet handed over, in order (a ring of
    // pairs, as the credit returns), kept here rather than in every packet.
    private long[] pendingArrivals;
    private int pendingHead;
    private int pendingCount;
    private final EventHandler creditArrival = this::creditArrival;
    private Ingress owner;
    // The packet on the wire (or committed to start at sendingStartPs, later than now), and what its departure needs.
    private Packet sending;
    private int sendingIn;
    private int sendingWire;
    private long sendingStartPs;
    private long sendingEndPs;
    /** Its departure is reported by a later event than its end (nothing waits for it: no event at its end). */
    private boolean sendingLazy;
    /** It was committed when handed over, before its start ({@link #sendAt}): a PAUSE before then takes it back. */
    private boolean sendingAhead;
    private long sendingCommittedPs;
    private long sendingReadyPs;
    private long sendingOldTail;
    /** The last packet in flight before it started, for a take-back. */
    private Packet sendingPrevTail;
    private int sendingOldHops;
    private TxListener listener;
    private long busyPs;
    /** The wire bytes of the eligible packets waiting behind the one on the wire. */
    private long queuedBytes;
    private FlowControl flowControl = FlowControl.NONE;
    private long credits;
    private boolean paused;
    private long stallSince = -1;
    private long lastDeliveryPs = -1;
    /** The owner's index of this port, and whether the owner is told of every dequeue. */
    private int ownerIndex = -1;
    private boolean notifyDequeue;
    /** The wire bytes of every packet started so far (the transmitted-bytes counter of in-band telemetry). */
    private long startedBytes;
    /** Since when the port has been paused by PFC, or -1. */
    private long pausedSince = -1;
    /**
     * ACKs, NAKs and CNPs in a traffic class of their own, served first and not paused by PFC (null: one FIFO for
     * every packet, the default).
     */
    private PacketRing control;
    /** A PFC pause holds the control class too ({@link #pauseControl}). */
    private boolean controlPaused;
    /** Where pause, resume and queue changes are traced (null: nowhere), and the node named as the events' host. */
    private TraceSource<TraceEvent> trace;
    private String traceNode;
    private boolean traceQueue;
    /** The bytes queued when last traced. */
    private long tracedQueue;

    /**
     * Creates a port.
     *
     * @param sim the simulator
     * @param rate the link's signalling rate
     * @param propagationPs the propagation delay in picoseconds
     */
    public Port(Simulator sim, DataRate rate, long propagationPs) {
        this.sim = sim;
        this.rate = rate;
        this.propagationPs = propagationPs;
    }

    /**
     * Connects the port to the node at the other end.
     *
     * @param peer the receiving node
     * @param peerPort the index of the receiving node's port
     */
    public void connect(NetworkNode peer, int peerPort) {
        this.peer = peer;
        this.peerPort = peerPort;
        this.headDelivery = peer.receivesAtFirstBit();
    }

    /**
     * Runs the port on an engine with owners (a {@code Simulator(owners)} or a partition of a {@link
     * org.datsim.core.engine.PartitionedSimulator}): a packet's arrival, a PFC frame and returned credit become
     * events of the node that receives them. With {@code handoverLeadPs > 0} the link crosses partitions: a packet
     * is handed over to the peer's partition that long before it arrives, which must be no more than the
     * propagation delay less 1 ps (by then it has started and cannot be taken back) and at least the engine's
     * lookahead. Call after {@link #connect}, before the run.
     *
     * @param self the owner of this port's node
     * @param peer the owner of the peer node
     * @param handoverLeadPs 0 on a link within a partition, else the lead of the handover
     * @throws IllegalArgumentException if the lead is not below the propagation delay
     */
    public void setOwners(int self, int peer, long handoverLeadPs) {
        if (handoverLeadPs < 0 || handoverLeadPs > 0 && handoverLeadPs >= propagationPs) {
            throw new IllegalArgumentException("port " + name + ": a handover " + handoverLeadPs + " ps before arrival"
                    + " needs a propagation delay above it (" + propagationPs + " ps)");
        }
        this.keyed = true;
        this.selfOwner = self;
        this.peerOwner = peer;
        this.handoverLeadPs = handoverLeadPs;
        this.inbox = handoverLeadPs > 0 ? new LinkInbox(this) : null;
        this.pendingArrivals = handoverLeadPs > 0 ? new long[32] : null;
    }

    /** Returns the owner of this port's node (0 on a plain Simulator). */
    public int selfOwner() {
        return selfOwner;
    }

    /** Returns how many packets this port handed over to another partition (events the sequential run has not). */
    public long handovers() {
        return handovers;
    }

    /**
     * Returns credit to this port, as an event of its own node sent by the node at the far end ({@code from}, the
     * switch whose buffer freed it): with owners, a switch cannot write the port of another node. On a plain
     * Simulator, the same as {@link #returnCredit}.
     *
     * @param from the simulator of the node that returns it (the caller's)
     * @param bytes the bytes of credit
     */
    public void returnCreditFrom(Simulator from, long bytes) {
        if (!keyed) {
            returnCredit(bytes, propagationPs);
        } else {
            from.send(selfOwner, propagationPs, creditArrival, bytes);
        }
    }

    private void creditArrival(long bytes) {
        returnCredit(bytes, 0);
    }

    /** Names the port (for counters), for example {@code "A->S"}. */
    public void setName(String name) {
        this.name = name;
    }

    /**
     * Makes the port trace its PFC pauses and resumes ({@link #PFC}) and, if asked, the changes of its queue
     * ({@link #PORT_QUEUE}) while the trace is enabled. Call before the run.
     *
     * @param trace the trace source every model publishes to
     * @param node the name of the node the port belongs to (the events' host)
     * @param queue true to trace the bytes queued as they change (a switch's output port)
     */
    public void setTrace(TraceSource<TraceEvent> trace, String node, boolean queue) {
        this.trace = trace;
        this.traceNode = node;
        this.traceQueue = queue;
    }

    /** Traces the bytes queued if they changed since last traced (a switch's output port, trace enabled). */
    private void traceQueue() {
        if (traceQueue && queuedBytes != tracedQueue && trace.isEnabled()) {
            tracedQueue = queuedBytes;
            trace.fire(TraceEvent.of(sim.now(), PORT_QUEUE, traceNode).attr(TraceKey.PORT, name)
                    .attr(TraceKey.QUEUE_BYTES, queuedBytes));
        }
    }

    /** Returns the port's name. */
    public String name() {
        return name;
    }

    /**
     * Makes this port an output port of a node that accounts buffered packets per input port.
     *
     * @param owner the node told when each packet has left
     */
    public void setOwner(Ingress owner) {
        this.owner = owner;
    }

    /**
     * Makes this port an output port of a node that accounts buffered packets per input port, and that may want to
     * see each packet leave the queue ({@link Ingress#dequeued}).
     *
     * @param owner the node told when each packet has left
     * @param index the node's index of this port
     * @param notifyDequeue whether the node is told when each packet leaves the queue for the wire
     */
    public void setOwner(Ingress owner, int index, boolean notifyDequeue) {
        this.owner = owner;
        this.ownerIndex = index;
        this.notifyDequeue = notifyDequeue;
    }

    /** Returns the link's rate. */
    public DataRate rate() {
        return rate;
    }

    /**
     * Sets the link-level flow control towards the peer (a switch).
     *
     * @param mode the mode
     * @param initialCredits the peer's buffer share for this link in bytes (the credit of {@link FlowControl#IB_CREDITS})
     */
    public void setFlowControl(FlowControl mode, long initialCredits) {
        this.flowControl = mode;
        this.credits = initialCredits;
    }

    /**
     * Makes every packet's time on the wire a whole number of {@code resolutionPs}, rounded down (ns-3's nanosecond
     * clock truncates so: {@code link.time_resolution}); 0 or 1 keeps it exact. Call before the run.
     *
     * @param resolutionPs the unit, ps
     */
    public void setTimeResolution(long resolutionPs) {
        this.resolutionPs = resolutionPs > 1 ? resolutionPs : 0;
    }

    /** Sets the transmission observer (one at most). */
    public void setListener(TxListener listener) {
        this.listener = listener;
    }

    /** Returns the node at the other end. */
    public NetworkNode peer() {
        return peer;
    }

    /** Returns the propagation delay in picoseconds. */
    public long propagationPs() {
        return propagationPs;
    }

    /**
     * Returns credit to this port: it becomes usable {@code delayPs} from now (the flow-control update crossing the
     * link). Calls must come in order of arrival time (a constant delay from increasing times).
     *
     * @param bytes the bytes of credit
     * @param delayPs the delay before the port holds it, in picoseconds
     */
    public void returnCredit(long bytes, long delayPs) {
        long at = sim.now() + delayPs;
        long[] r = returns;
        if (returnCount > returnMask) {
            long[] t = new long[4 * returnCount];
            for (int i = 0; i < returnCount; i++) {
                int j = (returnHead + i) & returnMask;
                t[2 * i] = r[2 * j];
                t[2 * i + 1] = r[2 * j + 1];
            }
            returns = r = t;
            returnMask = 2 * returnCount - 1;
            returnHead = 0;
        }
        int slot = (returnHead + returnCount) & returnMask;
        r[2 * slot] = at;
        r[2 * slot + 1] = bytes;
        returnCount++;
        if (stallSince >= 0 && !wakeScheduled) {
            wakeScheduled = true;
            sim.scheduleAt(at, creditWake, 0);
        }
    }

    /** Takes every returned credit that has arrived by now. */
    private void absorbCredit() {
        long now = sim.now();
        long[] r = returns;
        while (returnCount > 0 && r[2 * returnHead] <= now) {
            credits += r[2 * returnHead + 1];
            returnHead = (returnHead + 1) & returnMask;
            returnCount--;
        }
    }

    /**
     * Pairs this port with the other direction of its link (the peer's port sending back to this port's node), both
     * ways: the PFC frames either sends arrive at the other ({@link #sendPfc}). Call before the run.
     *
     * @param other the peer's port on the same link
     * @throws IllegalStateException if either port is already paired with another port
     */
    public void pairWith(Port other) {
        if (other == this || (reverse != null && reverse != other) || (other.reverse != null && other.reverse != this)) {
            throw new IllegalStateException("port " + name + " is already paired with another port");
        }
        reverse = other;
        other.reverse = this;
    }

    /** Returns the other direction of this port's link ({@link #pairWith}), or null if not paired. */
    public Port reverse() {
        return reverse;
    }

    /**
     * Sends a PFC frame on this port's link to its other direction ({@link #pairWith}): it arrives one propagation
     * delay from now, when that port acts on it ({@link #receivePfc}). The frame takes no wire time and does not
     * wait for the packet on the wire (see {@link PfcFrame}), unless the port gives frames a size
     * ({@link #setPfcFrameBytes}).
     *
     * @param frame a {@link PfcFrame}
     * @throws IllegalStateException if the port is not paired
     */
    public void sendPfc(long frame) {
        if (reverse == null) {
            throw new IllegalStateException("port " + name + " sends a PFC frame but has no other direction");
        }
        long delay = propagationPs;
        if (pfcFrameBytes != 0) {
            long now = sim.now();
            long leave = now;
            if (sending != null && sendingStartPs <= now && sendingEndPs > leave) {
                leave = sendingEndPs; // it waits for the packet on the wire, not for one committed to start later
            }
            if (pfcFrameEndPs > leave) {
                leave = pfcFrameEndPs; // behind the frame before it
            }
            long wire = rate.transmitTimePs(pfcFrameBytes);
            if (resolutionPs != 0) {
                wire -= wire % resolutionPs;
            }
            pfcFrameEndPs = leave + wire;
            delay = pfcFrameEndPs - now + propagationPs;
        }
        if (keyed) {
            sim.send(peerOwner, delay, this, FRAME + frame); // the peer's event: it acts on the frame
        } else {
            sim.schedule(delay, this, FRAME + frame);
        }
    }

    /**
     * Gives the PFC frames this port sends a size on the wire ({@code link.pfc_frame_bytes}): each then leaves once
     * the packet on the wire has ended (and the frame before it has left), takes its bytes' time on the wire, and
     * arrives one propagation delay later, as HPCC's simulator sends a PFC frame in the port's highest-priority queue.
     * The frame does not delay the packets queued behind it (a 43-byte frame takes 3 ns at 100 Gb/s). 0 (the default)
     * keeps a frame timed by the propagation delay alone. Call before the run.
     *
     * @param bytes the frame's bytes on the wire, 0 or more
     */
    public void setPfcFrameBytes(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a PFC frame of " + bytes + " bytes");
        }
        this.pfcFrameBytes = bytes;
    }

    /**
     * Gives acknowledgements (ACK, NAK) and CNPs a traffic class of their own at this port: strict priority over
     * data, and not paused by PFC, which pauses the data class only. Call before the run.
     */
    public void prioritiseControl() {
        control = new PacketRing();
    }

    /**
     * Returns whether a packet is on the wire (its last bit has not left), a packet of the control class waits, or
     * PFC holds the data class:
     * what an HCA whose arbiter chooses at the link's freeing asks (hca.arbiter_at link_free). Exact only for a
     * port whose listener observes every packet's end.
     *
     * @return true if the link is not free for a data packet now
     */
    public boolean transmittingOrControlWaiting() {
        return sending != null && sendingEndPs > sim.now() || control != null && control.size > 0
                || paused && flowControl == FlowControl.PFC;
    }

    /**
     * Makes a PFC pause of this port hold its control class too (it is still served before the data): HPCC's NIC
     * under ACK_HIGH_PRIO 0 (hca.control_paused). Call after {@link #prioritiseControl}, before the run.
     */
    public void pauseControl() {
        controlPaused = true;
    }

    /** Returns whether control packets have a class of their own at this port ({@link #prioritiseControl}). */
    public boolean controlPrioritised() {
        return control != null;
    }

    /**
     * Queues a packet for transmission now.
     *
     * @param packet the packet
     */
    public void send(Packet packet) {
        ring(packet).add(packet, sim.now());
        pump();
    }

    /**
     * Queues a packet that becomes eligible for transmission at a later time (a switch's forwarding latency), in
     * FIFO order with the packets queued before it (whose eligibility times are not later). Exactly as queueing it
     * with {@link #send} at that time, without an event for the handover: a port that will be idle then, with no
     * other packet queued, commits the packet's start at once (the queue it leaves is then empty, so its owner's
     * dequeue decisions are those of that time), and takes it back if a PAUSE arrives before it starts.
     *
     * @param packet the packet
     * @param readyPs when it becomes eligible, ps (not before now, nor before the packets queued before it)
     */
    public void sendAt(Packet packet, long readyPs) {
        ring(packet).add(packet, readyPs);
        pump();
    }

    private PacketRing ring(Packet p) {
        int k = p.kind;
        return control != null && (k == Packet.ACK || k == Packet.NAK || k == Packet.CNP) ? control : queue;
    }

    private boolean isControl(Packet p) {
        return control != null && ring(p) == control;
    }

    /** Marks the queued packets whose eligibility time has come as eligible (FIFO: a prefix of each class). */
    private void advance(long now) {
        PacketRing q = queue;
        while (q.hasPending() && q.pendingAt() <= now) {
            queuedBytes += q.pendingWire();
            q.ready++;
        }
        PacketRing c = control;
        if (c != null) {
            while (c.hasPending() && c.pendingAt() <= now) {
                queuedBytes += c.pendingWire();
                c.ready++;
            }
        }
    }

    /**
     * Records the queue's depth at a decision (and traces it when it changed): a packet queued and started at one
     * instant on an idle port is never seen queued.
     */
    private void recordDepth() {
        if (traceQueue) {
            traceQueue();
        }
        if (queue.ready > maxQueuePackets) {
            maxQueuePackets = queue.ready;
        }
        if (queuedBytes > maxQueueBytes) {
            maxQueueBytes = queuedBytes;
        }
    }

    /**
     * Brings the port up to now: reports the packet that has left, starts the next eligible one if the port is
     * free, and makes sure an event comes when the next decision is due.
     */
    private void pump() {
        long now = sim.now();
        advance(now);
        if (sending != null) {
            if (sendingEndPs > now) {
                recordDepth(); // a packet queued behind the one on the wire
                scheduleNext();
                return;
            }
            boolean busyUntilNow = sendingEndPs == now;
            finish();
            if (busyUntilNow) {
                recordDepth(); // the packets that queued while it was on the wire, before the next leaves
            }
        } else if (stallSince >= 0 && stallSince < now) {
            recordDepth(); // packets that queued while the port was stalled
        }
        trySend(now);
        recordDepth();
        scheduleNext();
    }

    /** Reports the departure of the packet on the wire, which has left. */
    private void finish() {
        Packet p = sending;
        int in = sendingIn;
        int wire = sendingWire;
        sending = null;
        sendingLazy = false;
        sendingAhead = false;
        if (listener != null) {
            listener.onTransmit(p, false);
        }
        if (owner != null) {
            owner.departed(p, in, wire);
        }
    }

    private void trySend(long now) {
        if (sending != null) {
            return;
        }
        PacketRing c = control;
        if (c != null && c.ready > 0 && flowControl != FlowControl.IB_CREDITS && !(controlPaused && paused)) {
            Packet p = c.pollReady();
            queuedBytes -= p.wireBytes;
            start(p, now);
            return;
        }
        if (queue.ready == 0) {
            return;
        }
        Packet p = queue.first();
        if (flowControl == FlowControl.IB_CREDITS && credits < p.wireBytes) {
            absorbCredit();
        }
        boolean may = flowControl == FlowControl.NONE
                || (flowControl == FlowControl.IB_CREDITS ? credits >= p.wireBytes : !paused);
        if (!may) {
            if (stallSince < 0) {
                stallSince = now;
            }
            if (flowControl == FlowControl.IB_CREDITS && returnCount > 0 && !wakeScheduled) {
                wakeScheduled = true;
                sim.scheduleAt(returns[2 * returnHead], creditWake, 0);
            }
            return;
        }
        if (stallSince >= 0) {
            counters.stallPs += now - stallSince;
            stallSince = -1;
        }
        queue.pollReady();
        queuedBytes -= p.wireBytes;
        start(p, now);
    }

    /**
     * After a decision: an event at the end of the packet on the wire if anything waits for it (a queued packet, an
     * owner or listener that needs the exact instant), else its departure is reported late; when the port is free,
     * the lone packet handed over for later is committed now, or an event comes when the first queued one becomes
     * eligible.
     */
    private void scheduleNext() {
        if (sending != null) {
            scheduleWhileSending();
        } else {
            scheduleWhileFree();
        }
    }

    /** {@link #scheduleNext} with a packet on the wire. */
    private void scheduleWhileSending() {
        if (serviceEvent != 0 && serviceAtPs <= sendingEndPs) {
            return;
        }
        boolean eligible = queue.ready > 0 || (control != null && control.ready > 0);
        if (eligible || (owner != null && !owner.lazyDepartures()) || (listener != null && listener.observesEnd())) {
            sendingLazy = false;
            ensureService(sendingEndPs);
            return;
        }
        if (!sendingLazy) {
            sendingLazy = true;
            if (owner != null) {
                owner.departureDeferred(ownerIndex);
            }
        }
        // a packet handed over that becomes eligible only after this one's end: the next decision is then
        long next = firstPendingAt();
        if (next != Long.MAX_VALUE) {
            ensureService(Math.max(next, sendingEndPs));
        }
    }

    /** {@link #scheduleNext} with the port free. */
    private void scheduleWhileFree() {
        PacketRing q = queue.hasPending() ? queue : null;
        PacketRing c = control != null && control.hasPending() ? control : null;
        if (q == null && c == null) {
            return;
        }
        PacketRing first = q == null ? c : c == null ? q : c.pendingAt() < q.pendingAt() ? c : q;
        long at = first.pendingAt();
        if (queue.ready == 0 && (control == null || control.ready == 0) && queue.size + (control != null
                ? control.size : 0) == 1 && listener == null && flowControl != FlowControl.IB_CREDITS
                && (flowControl == FlowControl.NONE || !paused || first == control && !controlPaused)) {
            // alone and the port free: commit its start now (see sendAt)
            Packet p = first.pollPending();
            sendingAhead = true;
            sendingCommittedPs = sim.now();
            sendingReadyPs = at;
            start(p, at);
            scheduleNext();
            return;
        }
        ensureService(at);
    }

    /** The earliest ready time of a queued packet not yet eligible, or Long.MAX_VALUE. */
    private long firstPendingAt() {
        long t = queue.hasPending() ? queue.pendingAt() : Long.MAX_VALUE;
        if (control != null && control.hasPending() && control.pendingAt() < t) {
            t = control.pendingAt();
        }
        return t;
    }

    private void ensureService(long at) {
        if (serviceEvent != 0) {
            if (serviceAtPs <= at) {
                return;
            }
            sim.cancel(serviceEvent);
        }
        serviceAtPs = at;
        serviceEvent = sim.scheduleAt(at, this, SERVICE);
    }

    private void start(Packet packet, long now) {
        sending = packet;
        sendingIn = packet.inPort;
        sendingWire = packet.wireBytes;
        sendingStartPs = now;
        long wire = rate.transmitTimePs(packet.wireBytes);
        if (resolutionPs != 0) {
            wire -= wire % resolutionPs;
        }
        long end = now + wire;
        if (packet.tailPs > end) {
            end = packet.tailPs; // cut through: the last bit cannot leave before it has arrived
        }
        if (packet.dataReadyPs > 0) {
            end = streamedEnd(packet, end);
        }
        sendingEndPs = end;
        if (flowControl == FlowControl.IB_CREDITS) {
            credits -= packet.wireBytes;
        }
        if (notifyDequeue) {
            notifyStart(packet, now);
        }
        startedBytes += packet.wireBytes;
        busyPs += end - now;
        sentPackets++;
        sentBytes += packet.wireBytes;
        sendingOldTail = packet.tailPs;
        packet.tailPs = end + propagationPs;
        sendingPrevTail = inFlightTail;
        if (inFlightTail == null) {
            inFlightHead = packet;
        } else {
            inFlightTail.nextInFlight = packet;
        }
        inFlightTail = packet;
        long arrival = headDelivery ? now + propagationPs : end + propagationPs;
        arriveEvent = keyed ? keyedArrival(packet, arrival) : sim.scheduleAt(arrival, this, ARRIVE);
        if (listener != null) {
            listener.onTransmit(packet, true);
        }
    }

    /**
     * The end of a packet streamed out of an HCA while its payload is read: its last bytes leave after they have
     * been read (apart from {@link #start}, which stays small enough for the JIT to inline).
     */
    private long streamedEnd(Packet packet, long end) {
        long read = packet.dataReadyPs + rate.transmitTimePs(packet.dataTailBytes);
        return read > end ? read : end;
    }

    /** Tells the owner that a packet leaves the queue for the wire (in-band telemetry, ECN marking). */
    private void notifyStart(Packet packet, long now) {
        sendingOldHops = packet.intHops;
        owner.dequeuedAt(ownerIndex, packet, queuedBytes, startedBytes, now);
    }

    /**
     * A PAUSE arrived before the packet committed ahead started (or at its start, the PAUSE having been sent
     * first): as if it had waited in the queue, it goes back to the head of the data class.
     */
    private void takeBack(long now) {
        Packet p = sending;
        sim.cancel(arriveEvent);
        if (pendingArrivals != null) {
            pendingCount--; // its handover, the last one pending, will not come
        }
        // the last of the in-flight list: the one before it, if it has not arrived yet, becomes the last
        if (inFlightHead == p) {
            inFlightHead = null;
            inFlightTail = null;
        } else {
            inFlightTail = sendingPrevTail;
            inFlightTail.nextInFlight = null;
        }
        if (serviceEvent != 0) {
            sim.cancel(serviceEvent);
            serviceEvent = 0;
            serviceAtPs = Long.MAX_VALUE;
        }
        startedBytes -= sendingWire;
        busyPs -= sendingEndPs - sendingStartPs;
        sentPackets--;
        sentBytes -= sendingWire;
        if (flowControl == FlowControl.IB_CREDITS) {
            credits += sendingWire;
        }
        if (notifyDequeue) {
            p.intHops = sendingOldHops;
        }
        p.tailPs = sendingOldTail;
        sending = null;
        sendingLazy = false;
        sendingAhead = false;
        PacketRing back = ring(p);
        back.addFirst(p, sendingReadyPs);
        if (sendingReadyPs <= now) {
            back.ready++; // nothing behind it is eligible before it
            queuedBytes += p.wireBytes;
        }
    }

    /**
     * Reports the departure of a packet whose departure this port deferred ({@link Ingress#departureDeferred}) if
     * it has left by now.
     *
     * @return when the departure is to come if it is still to come and still deferred (settle again then, not
     *     before), or -1 otherwise
     */
    public long settleDeparture() {
        if (sending == null || !sendingLazy) {
            return -1;
        }
        if (sendingEndPs <= sim.now()) {
            finish();
            return -1;
        }
        return sendingEndPs;
    }

    /** Returns the end of the packet on the wire (when its departure is deferred, when it is due), ps. */
    public long sendingEndPs() {
        return sendingEndPs;
    }

    /** Makes the departure of the packet on the wire, if deferred, an event at its instant (the owner needs it). */
    public void departureExact() {
        if (sending != null && sendingLazy) {
            if (sendingEndPs <= sim.now()) {
                finish();
            } else {
                sendingLazy = false;
                ensureService(sendingEndPs);
            }
        }
    }

    /** Finishes a packet whose departure was deferred, if it has left (before reading counters). */
    private void settle() {
        long now = sim.now();
        if (sending != null && sendingLazy && sendingEndPs <= now) {
            finish();
        }
        advance(now);
        if (traceQueue) {
            traceQueue();
        }
    }

    /**
     * The port's own events, scheduled with itself as the handler (no handler object of their own, one cache line
     * less per event): its decision ({@code arg} 0), the arrival of the first packet in flight at the peer (1) and
     * the arrival of a PFC frame it sent (2 and up). Called by the simulator only.
     *
     * @param arg which of the two
     */
    @Override
    public void handle(long arg) {
        if (arg == SERVICE) {
            serviceEvent = 0;
            serviceAtPs = Long.MAX_VALUE;
            pump();
        } else if (arg == ARRIVE) {
            arrive();
        } else {
            reverse.receivePfc(arg - FRAME);
        }
    }

    /**
     * With owners, the arrival is the peer node's event, keyed now (when the packet is committed), whether it is sent
     * now (same partition) or handed over to another partition: the same key either way. A packet that starts now
     * cannot be taken back and, with no handover pending before it, goes to the peer's partition at once; one
     * committed ahead of its start (which a PAUSE may take back) is handed over by an event once it has started, in
     * order after those pending.
     */
    private long keyedArrival(Packet packet, long arrival) {
        long key = sim.takeKey();
        if (inbox == null) {
            return sim.sendKeyed(peerOwner, arrival, this, ARRIVE, key);
        }
        if (!sendingAhead && pendingCount == 0) {
            // the only packet in flight on this side: it leaves the list here, as handover would take it
            inFlightHead = null;
            inFlightTail = null;
            return sim.sendCarried(peerOwner, arrival, inbox, arrival, packet, key);
        }
        long[] r = pendingArrivals;
        int slots = r.length >> 1;
        if (pendingCount == slots) {
            long[] t = new long[2 * r.length];
            for (int i = 0; i < pendingCount; i++) {
                int j = (pendingHead + i) & (slots - 1);
                t[2 * i] = r[2 * j];
                t[2 * i + 1] = r[2 * j + 1];
            }
            pendingArrivals = r = t;
            pendingHead = 0;
            slots = r.length >> 1;
        }
        int slot = (pendingHead + pendingCount) & (slots - 1);
        r[2 * slot] = arrival;
        r[2 * slot + 1] = key;
        pendingCount++;
        return sim.sendKeyed(selfOwner, arrival - handoverLeadPs, handover, 0, key);
    }

    /** Across partitions: the first packet in flight has started (it cannot be taken back) and goes to the peer. */
    private void handover(long unused) {
        Packet p = inFlightHead;
        inFlightHead = p.nextInFlight;
        if (inFlightHead == null) {
            inFlightTail = null;
        }
        p.nextInFlight = null;
        handovers++;
        long[] r = pendingArrivals;
        long arrival = r[2 * pendingHead];
        long key = r[2 * pendingHead + 1];
        pendingHead = (pendingHead + 1) & ((r.length >> 1) - 1);
        pendingCount--;
        sim.sendCarried(peerOwner, arrival, inbox, arrival, p, key);
    }

    /** A packet handed over arrives (the peer's partition, {@link LinkInbox}) at {@code arrivalPs}. */
    void deliver(Packet p, long arrivalPs) {
        lastDeliveryPs = arrivalPs;
        peer.receive(p, peerPort);
    }

    private void arrive() {
        // Every packet has the same propagation delay, so arrivals leave in FIFO order.
        lastDeliveryPs = sim.now();
        Packet p = inFlightHead;
        inFlightHead = p.nextInFlight;
        if (inFlightHead == null) {
            inFlightTail = null;
        }
        p.nextInFlight = null;
        peer.receive(p, peerPort);
    }

    private void creditWake(long unused) {
        wakeScheduled = false;
        pump();
    }

    /**
     * A PFC frame arrives from the peer (sent on the other direction of the link, {@link #sendPfc}): a PAUSE stops
     * the data class after the packet on the wire, a RESUME lets it go on. Every priority acts on the one paused
     * class (per-priority classes are not modelled yet).
     *
     * @param frame a {@link PfcFrame}
     */
    public void receivePfc(long frame) {
        boolean was = paused;
        paused = PfcFrame.isPause(frame);
        long now = sim.now();
        if (paused != was && trace != null && trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), PFC, traceNode).attr(TraceKey.PORT, name).attr(TraceKey.PAUSED, paused
                    ? 1 : 0)
                    .attr(TraceKey.QUEUE_BYTES, queuedBytes));
        }
        if (paused && !was) {
            pausedSince = now;
        } else if (!paused && was) {
            counters.pausedPs += now - pausedSince;
            pausedSince = -1;
        }
        if (paused) {
            if (sending != null && sendingAhead && (!isControl(sending) || controlPaused) && (sendingStartPs > now
                    || (sendingStartPs == now && now - propagationPs <= sendingCommittedPs))) {
                takeBack(now);
                pump();
            }
        } else {
            if (!paused && was && listener != null) {
                listener.resumed();
            }
            pump();
        }
    }

    /** Returns true while PFC holds this port paused. */
    public boolean isPaused() {
        return paused;
    }

    /**
     * Returns the picoseconds this port has spent paused by PFC up to now (whether or not a packet was waiting;
     * {@link PortCounters#stallPs()} counts only the time a packet waited).
     */
    public long pausedPs() {
        return counters.pausedPs + (pausedSince >= 0 ? sim.now() - pausedSince : 0);
    }

    /** Returns the wire bytes waiting in the queue behind the packet on the wire. */
    public long queuedBytes() {
        settle();
        return queuedBytes;
    }

    /** Returns the wire bytes of every packet started on the wire so far (in-band telemetry's tx counter). */
    public long startedBytes() {
        return sending != null && sendingStartPs > sim.now() ? startedBytes - sendingWire : startedBytes;
    }

    /** Counts a packet this port's switch marked Congestion Experienced (ECN) as it left the queue. */
    public void countMark() {
        counters.ecnMarks++;
    }

    /** Counts a packet the far end dropped because its buffer overflowed. */
    public void countDrop() {
        counters.drops++;
    }

    /** Returns the packets waiting behind the one on the wire. */
    public int queueDepth() {
        settle();
        return queue.ready;
    }

    /** Returns the packets fully transmitted so far. */
    public long packetsSent() {
        return sending != null && sendingEndPs > sim.now() ? sentPackets - 1 : sentPackets;
    }

    /** Returns the wire bytes fully transmitted so far. */
    public long bytesSent() {
        return sending != null && sendingEndPs > sim.now() ? sentBytes - sendingWire : sentBytes;
    }

    /** Returns the picoseconds the port has spent transmitting (or committed to). */
    public long busyPs() {
        return busyPs;
    }

    /**
     * Returns when the last packet was delivered to the peer (its last bit, or its first bit for a cut-through
     * switch), in picoseconds, or -1 if none was.
     */
    public long lastDeliveryPs() {
        return lastDeliveryPs;
    }

    /**
     * Returns the credit this port holds now plus the credit on its way back to it, in bytes (meaningful with
     * InfiniBand credits only).
     */
    public long credits() {
        long c = credits;
        for (int i = 0; i < returnCount; i++) {
            c += returns[2 * ((returnHead + i) & returnMask) + 1];
        }
        return c;
    }

    /**
     * Returns the port's counters (a live view; packets and bytes count a packet from its start on the wire, so
     * during a run they include the one on the wire: {@link #packetsSent} does not).
     */
    public PortCounters counters() {
        settle();
        return counters;
    }
}
