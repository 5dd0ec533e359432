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
}
