package org.datsim.fabric.link;

import java.util.ArrayDeque;
import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;

/**
 * The sending side of one direction of a link. Packets queue in FIFO order; each occupies the wire for its
 * {@link Packet#wireBytes} at the link's rate, and reaches the peer node the propagation delay after its last bit
 * left. The queue is unbounded here (lossless flow control is modelled by the fabric models issue); its depth is
 * observable.
 */
public final class Port {

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
    private NetworkNode peer;
    private int peerPort;
    private Packet sending;
    private TxListener listener;
    private long packetsSent;
    private long bytesSent;
    private long busyPs;

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
    }

    /** Sets the transmission observer (one at most). */
    public void setListener(TxListener listener) {
        this.listener = listener;
    }

    /** Returns the node at the other end. */
    public NetworkNode peer() {
        return peer;
    }

    /**
     * Queues a packet for transmission now.
     *
     * @param packet the packet
     */
    public void send(Packet packet) {
        if (sending == null) {
            start(packet);
        } else {
            queue.addLast(packet);
        }
    }

    private void start(Packet packet) {
        sending = packet;
        long t = rate.transmitTimePs(packet.wireBytes);
        busyPs += t;
        if (listener != null) {
            listener.onTransmit(packet, true);
        }
        sim.schedule(t, txDone, 0);
    }

    private void txDone(long unused) {
        Packet p = sending;
        packetsSent++;
        bytesSent += p.wireBytes;
        if (listener != null) {
            listener.onTransmit(p, false);
        }
        inFlight.addLast(p);
        sim.schedule(propagationPs, arrive, 0);
        Packet next = queue.pollFirst();
        sending = null;
        if (next != null) {
            start(next);
        }
    }

    private void arrive(long unused) {
        // Every packet has the same propagation delay, so arrivals leave in FIFO order.
        peer.receive(inFlight.pollFirst(), peerPort);
    }

    /** Returns the packets waiting behind the one on the wire. */
    public int queueDepth() {
        return queue.size();
    }

    /** Returns the packets fully transmitted so far. */
    public long packetsSent() {
        return packetsSent;
    }

    /** Returns the wire bytes fully transmitted so far. */
    public long bytesSent() {
        return bytesSent;
    }

    /** Returns the picoseconds the port has spent transmitting (or committed to). */
    public long busyPs() {
        return busyPs;
    }
}
