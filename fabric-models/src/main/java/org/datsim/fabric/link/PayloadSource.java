package org.datsim.fabric.link;

/**
 * Where a packet's payload is held by reference ({@link Packet#payloadPending}): the sending HCA's memory, which
 * copies the bytes out before they change. Told when such a packet is released without its bytes having been taken
 * (dropped by a switch, discarded by the receiver), so that it stops holding the reference.
 */
public interface PayloadSource {

    /**
     * The packet is being released while its payload is still held by reference.
     *
     * @param packet the packet
     */
    void released(Packet packet);
}
