package org.datsim.fabric.link;

/** Anything a link delivers packets to: an HCA port or a switch. */
public interface NetworkNode {

    /** Returns the node's name, unique in the fabric. */
    String name();

    /**
     * Takes a packet whose last bit has just arrived.
     *
     * @param packet the packet
     * @param inPort the index of the node's port it arrived on
     */
    void receive(Packet packet, int inPort);
}
