package org.datsim.fabric.link;

/** Anything a link delivers packets to: an HCA port or a switch. */
public interface NetworkNode {

    /** Returns the node's name, unique in the fabric. */
    String name();

    /**
     * Takes a packet that has just arrived: its last bit, or its first bit if {@link #receivesAtFirstBit()}.
     *
     * @param packet the packet
     * @param inPort the index of the node's port it arrived on
     */
    void receive(Packet packet, int inPort);

    /** Returns true if packets are delivered when their first bit arrives (a cut-through switch). */
    default boolean receivesAtFirstBit() {
        return false;
    }
}
