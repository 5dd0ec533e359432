package org.datsim.fabric.link;

import java.util.ArrayDeque;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;

/**
 * The sending side of one direction of a link. Packets queue in FIFO order; each occupies the wire for its
 * {@link Packet#wireBytes} at the link's rate, and reaches the peer node the propagation delay after its last bit
 * left (or, when the peer is a cut-through switch, the propagation delay after its first bit left).
 *
 * <p>When the peer is a switch, link-level flow control ({@link FlowControl}) may hold the head packet back: with
 * InfiniBand credits the port starts a packet only while it holds credit for all its wire bytes (credit is the free
 * space of the switch's buffer share for this input, returned by {@link #returnCredit}); with PFC the port starts
 * no new packet while paused ({@link #pauseArrived}). The port's own queue is unbounded: it is the HCA's send queue
 * or a switch output queue whose bytes are bounded by the flow control of the links into the switch.
 *
 * <p>Per-port counters ({@link PortCounters}): packets, bytes, deepest queue, flow-control stall time.
 *
 * <p>Traced as they happen ({@link #setTrace}): every PFC pause and resume of the port ({@link #PFC}) and, for a
 * switch's output port, every change of the bytes queued ({@link #PORT_QUEUE}).
 */
public final class Port {

    /**
     * The trace kind of a PFC pause or resume taking effect at a port, traced on the port's node (a switch's name or
     * a host's as the event's host). Fields: {@code port} ({@code FROM->TO}), {@code paused} (1: paused, 0: resumed),
     * {@code queue_bytes} (bytes waiting behind the packet on the wire then).
     */
    public static final String PFC = "pfc";
    /**
     * The trace kind of a change of the bytes queued at a switch's output port, traced on the switch: {@code port}
     * ({@code FROM->TO}), {@code queue_bytes} (bytes waiting behind the packet on the wire, after the change). A
     * packet that starts on the wire at once, as it arrives, changes nothing and is not traced.
     */
    public static final String PORT_QUEUE = "port_queue";

    /** Observes transmissions; used by the HCA to trace an operation's first and last packet on the wire. */
    public interface TxListener {
        /**
         * Called when a packet starts and when it finishes leaving the port.
         *
         * @param packet the packet
         * @param start true at the first bit, false at the last bit
         */
        void onTransmit(Packet packet, boolean start);
    }

    private final Simulator sim;
    private final DataRate rate;
    private final long propagationPs;
    private final ArrayDeque<Packet> queue = new ArrayDeque<>();
    private final EventHandler txDone = this::txDone;
    private final EventHandler arrive = this::arrive;
    private final ArrayDeque<Packet> inFlight = new ArrayDeque<>();
    private final PortCounters counters = new PortCounters();
    /** Wakes a port stalled for credit when returned credit arrives. */
    private final EventHandler creditWake = this::creditWake;
    // Credit on its way back, in arrival order (a ring of (arrival time, bytes)): absorbed when the port looks at its
    // credit, so returning credit costs an event only when the port is stalled waiting for it.
    private long[] returnAt = new long[16];
    private long[] returnBytes = new long[16];
    private int returnHead;
    private int returnCount;
    private boolean wakeScheduled;
    /** Pauses (argument 1) or resumes (argument 0) this port. */
    private final EventHandler pauseArrived = this::pauseArrived;
    private String name = "port";
    private NetworkNode peer;
    private int peerPort;
    private boolean headDelivery;
    private Ingress owner;
    private Packet sending;
    private int sendingIn;
    private TxListener listener;
    private long busyPs;
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
    private ArrayDeque<Packet> control;
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
            trace.fire(TraceEvent.of(sim.now(), PORT_QUEUE, traceNode).attr("port", name)
                    .attr("queue_bytes", queuedBytes));
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
        if (returnCount == returnAt.length) {
            long[] t = new long[2 * returnCount];
            long[] b = new long[2 * returnCount];
            for (int i = 0; i < returnCount; i++) {
                t[i] = returnAt[(returnHead + i) % returnCount];
                b[i] = returnBytes[(returnHead + i) % returnCount];
            }
            returnAt = t;
            returnBytes = b;
            returnHead = 0;
        }
        int slot = (returnHead + returnCount) % returnAt.length;
        returnAt[slot] = at;
        returnBytes[slot] = bytes;
        returnCount++;
        if (stallSince >= 0 && !wakeScheduled) {
            wakeScheduled = true;
            sim.scheduleAt(at, creditWake, 0);
        }
    }

    /** Takes every returned credit that has arrived by now. */
    private void absorbCredit() {
        long now = sim.now();
        while (returnCount > 0 && returnAt[returnHead] <= now) {
            credits += returnBytes[returnHead];
            returnHead = (returnHead + 1) % returnAt.length;
            returnCount--;
        }
    }

    /** Returns the handler that pauses (argument 1) or resumes (argument 0) this port. */
    public EventHandler pauseHandler() {
        return pauseArrived;
    }

    /**
     * Gives acknowledgements (ACK, NAK) and CNPs a traffic class of their own at this port: strict priority over
     * data, and not paused by PFC, which pauses the data class only (HPCC's ACK_HIGH_PRIO 1). Call before the run.
     */
    public void prioritiseControl() {
        control = new ArrayDeque<>();
    }

    /**
     * Queues a packet for transmission now.
     *
     * @param packet the packet
     */
    public void send(Packet packet) {
        int k = packet.kind;
        if (control != null && (k == Packet.ACK || k == Packet.NAK || k == Packet.CNP)) {
            control.addLast(packet);
        } else {
            queue.addLast(packet);
        }
        queuedBytes += packet.wireBytes;
        trySend();
        if (traceQueue) {
            traceQueue();
        }
        int depth = queue.size();
        if (depth > counters.maxQueuePackets) {
            counters.maxQueuePackets = depth;
        }
        if (queuedBytes > counters.maxQueueBytes) {
            counters.maxQueueBytes = queuedBytes;
        }
    }

    private void trySend() {
        if (sending != null) {
            return;
        }
        if (control != null && !control.isEmpty() && flowControl != FlowControl.IB_CREDITS) {
            Packet c = control.pollFirst();
            queuedBytes -= c.wireBytes;
            start(c);
            if (traceQueue) {
                traceQueue();
            }
            return;
        }
        Packet p = queue.peekFirst();
        if (p == null) {
            return;
        }
        if (flowControl == FlowControl.IB_CREDITS && credits < p.wireBytes) {
            absorbCredit();
        }
        boolean may = flowControl == FlowControl.NONE
                || (flowControl == FlowControl.IB_CREDITS ? credits >= p.wireBytes : !paused);
        if (!may) {
            if (stallSince < 0) {
                stallSince = sim.now();
            }
            if (flowControl == FlowControl.IB_CREDITS && returnCount > 0 && !wakeScheduled) {
                wakeScheduled = true;
                sim.scheduleAt(returnAt[returnHead], creditWake, 0);
            }
            return;
        }
        if (stallSince >= 0) {
            counters.stallPs += sim.now() - stallSince;
            stallSince = -1;
        }
        queue.pollFirst();
        queuedBytes -= p.wireBytes;
        start(p);
        if (traceQueue) {
            traceQueue();
        }
    }

    private void start(Packet packet) {
        sending = packet;
        sendingIn = packet.inPort;
        long now = sim.now();
        long end = now + rate.transmitTimePs(packet.wireBytes);
        if (packet.tailPs > end) {
            end = packet.tailPs; // cut through: the last bit cannot leave before it has arrived
        }
        if (packet.dataReadyPs > 0) {
            // streamed out of an HCA while its payload is read: the last bytes leave after they have been read
            long read = packet.dataReadyPs + rate.transmitTimePs(packet.dataTailBytes);
            if (read > end) {
                end = read;
            }
        }
        if (flowControl == FlowControl.IB_CREDITS) {
            credits -= packet.wireBytes;
        }
        if (notifyDequeue) {
            owner.dequeued(ownerIndex, packet, queuedBytes, startedBytes);
        }
        startedBytes += packet.wireBytes;
        busyPs += end - now;
        if (listener != null) {
            listener.onTransmit(packet, true);
        }
        sim.scheduleAt(end, txDone, 0);
        if (headDelivery) {
            packet.tailPs = end + propagationPs;
            inFlight.addLast(packet);
            sim.schedule(propagationPs, arrive, 0);
        }
    }

    private void txDone(long unused) {
        Packet p = sending;
        int wire = p.wireBytes;
        int in = sendingIn;
        counters.packets++;
        counters.bytes += wire;
        if (listener != null) {
            listener.onTransmit(p, false);
        }
        if (!headDelivery) {
            p.tailPs = sim.now() + propagationPs;
            inFlight.addLast(p);
            sim.schedule(propagationPs, arrive, 0);
        }
        sending = null;
        if (owner != null) {
            owner.departed(p, in, wire);
        }
        trySend();
    }

    private void arrive(long unused) {
        // Every packet has the same propagation delay, so arrivals leave in FIFO order.
        lastDeliveryPs = sim.now();
        peer.receive(inFlight.pollFirst(), peerPort);
    }

    private void creditWake(long unused) {
        wakeScheduled = false;
        trySend();
    }

    private void pauseArrived(long pause) {
        boolean was = paused;
        paused = pause != 0;
        if (paused != was && trace != null && trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), PFC, traceNode).attr("port", name).attr("paused", paused ? 1 : 0)
                    .attr("queue_bytes", queuedBytes));
        }
        if (paused && !was) {
            pausedSince = sim.now();
        } else if (!paused && was) {
            counters.pausedPs += sim.now() - pausedSince;
            pausedSince = -1;
        }
        if (!paused) {
            trySend();
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
        return queuedBytes;
    }

    /** Returns the wire bytes of every packet started on the wire so far (in-band telemetry's tx counter). */
    public long startedBytes() {
        return startedBytes;
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
        return queue.size();
    }

    /** Returns the packets fully transmitted so far. */
    public long packetsSent() {
        return counters.packets;
    }

    /** Returns the wire bytes fully transmitted so far. */
    public long bytesSent() {
        return counters.bytes;
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
            c += returnBytes[(returnHead + i) % returnAt.length];
        }
        return c;
    }

    /** Returns the port's counters (a live view). */
    public PortCounters counters() {
        return counters;
    }
}
