package org.datsim.fabric.link;

/**
 * What a switch may tell of the operation a packet belongs to, in a trace line (a drop): the packet's context
 * implements this, so that the switch names the operation and its requester without knowing the HCA's types.
 */
public interface PacketOperation {

    /**
     * Returns the name of the requester's host, on whose lane the operation's trace lines go.
     *
     * @return the host name
     */
    String requesterHost();

    /**
     * Returns the name of the requester's endpoint (queue pair), as trace lines name endpoints.
     *
     * @return the name
     */
    String requesterEndpoint();

    /**
     * Returns the run-unique operation id.
     *
     * @return the id
     */
    long operationId();

    /**
     * Returns the consumer's cookie of the operation.
     *
     * @return the cookie
     */
    long operationCookie();

    /**
     * Returns the message's sequence number on its connection (the transport's PSN, per message), or -1.
     *
     * @return the sequence number
     */
    int sequence();

    /**
     * A packet took this operation as its context ({@link Packet#set}); {@link #packetReleased} follows when the
     * packet goes back to its pool. The operation counts them to know when nothing refers to it any more.
     */
    default void packetTaken() {
    }

    /** A packet that took this operation as its context went back to its pool ({@link PacketPool}). */
    default void packetReleased() {
    }
}
