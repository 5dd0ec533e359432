package org.datsim.fabric.sw;

/**
 * What a switch's {@link Switch#DROP drop} line tells of a connection-management packet it dropped: the packet's
 * context (the connection manager's message) implements this, so that the switch can name the message and its
 * connection without knowing the provider's types.
 */
public interface CmPacketContext {

    /**
     * Returns the message's type.
     *
     * @return REQ, REP, RTU, REJ, DREQ or DREP
     */
    String type();

    /**
     * Returns the communication id of the connection the message belongs to (IB CM's local and remote communication
     * ids: chosen by the active side for its REQ and carried by every later message of that connection).
     *
     * @return the id, positive; 0 or less if the message has none
     */
    long commId();

    /**
     * Returns the name of the endpoint that sent the message, as trace lines name endpoints, or null when no
     * endpoint sent it (a REJ from a service point with no endpoint).
     *
     * @return the name, or null
     */
    String endpoint();
}
