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
}
