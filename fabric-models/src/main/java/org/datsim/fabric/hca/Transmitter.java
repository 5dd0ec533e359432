package org.datsim.fabric.hca;

import org.datsim.fabric.link.Packet;

/**
 * Where the parts of an {@link Hca} hand a finished packet: the HCA's port, or its internal loopback for a packet
 * addressed to its own host. Provided by {@link Hca} (one method reference, made once); the send engine, the
 * responder and the response engine call it.
 */
interface Transmitter {

    /** Sends a packet whose bytes and headers are final. */
    void transmit(Packet p);
}
