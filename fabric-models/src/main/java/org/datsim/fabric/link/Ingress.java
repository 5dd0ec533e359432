package org.datsim.fabric.link;

/**
 * A node that holds packets in a buffer accounted per input port (a switch): it is told when a packet it forwarded
 * has left through one of its output ports, so it can free the packet's buffer space and return link-level flow
 * control credit (or resume a paused upstream port).
 */
public interface Ingress {

    /**
     * A packet this node forwarded has fully left one of its output ports.
     *
     * @param packet the packet (it may already be held by the next node: read nothing but the arguments)
     * @param inPort the index of the input port the packet arrived on
     * @param wireBytes the packet's wire bytes
     */
    void departed(Packet packet, int inPort, int wireBytes);

    /**
     * A packet leaves the FIFO queue of one of this node's output ports to start on the wire (called only for ports
     * made to {@linkplain Port#setOwner(Ingress, int, boolean) notify} it). This is where a switch marks ECN and
     * appends in-band telemetry, as HPCC's switch does on dequeue.
     *
     * @param port the index of the output port
     * @param packet the packet
     * @param queuedBytes the bytes still queued behind it at that port
     * @param txBytes the bytes the port started transmitting before this packet
     */
    default void dequeued(int port, Packet packet, long queuedBytes, long txBytes) {
    }

    /**
     * As {@link #dequeued}, at a given time: a port whose queue is empty may start a packet that becomes eligible
     * after the node's forwarding latency when it is handed over ({@link Port#sendAt}), so it tells the node then.
     * Calls {@link #dequeued} by default (for nodes that do not read the time).
     *
     * @param port the index of the output port
     * @param packet the packet
     * @param queuedBytes the bytes still queued behind it at that port at that time
     * @param txBytes the bytes the port started transmitting before this packet
     * @param timePs when the packet starts on the wire, ps (now or later)
     */
    default void dequeuedAt(int port, Packet packet, long queuedBytes, long txBytes, long timePs) {
        dequeued(port, packet, queuedBytes, txBytes);
    }

    /**
     * Whether the node may be told of departures late ({@link #departed} called by a later event than the instant
     * the last bit left), because, at the moment, nothing it decides depends on their exact time (no upstream port
     * paused, no credit to return). A node that answers true must call {@link Port#settleDeparture} on the ports
     * it was told of ({@link #departureDeferred}) before it reads its buffer accounting. False by default.
     */
    default boolean lazyDepartures() {
        return false;
    }

    /**
     * An output port started a packet whose departure it will report late (only when {@link #lazyDepartures} said
     * so): the node must settle that port ({@link Port#settleDeparture}) before it next reads its buffer accounting.
     *
     * @param port the index of the output port
     */
    default void departureDeferred(int port) {
    }
}
