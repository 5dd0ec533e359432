package org.datsim.fabric.dat;

import org.datsim.fabric.sw.CmPacketContext;

/**
 * A connection-management datagram between two hosts' providers. A switch that drops the packet carrying it names
 * its type and communication id ({@link CmPacketContext}).
 *
 * @param type REQ, REP, RTU, REJ, DREQ or DREP
 * @param srcHost the sending host id
 * @param from the sending endpoint (the active side's EP for REQ)
 * @param to the receiving endpoint, or null for a REQ
 * @param connQual the connection qualifier of a REQ
 * @param privateData the consumer's private data
 * @param consumerReject true for a REJ sent by dat_cr_reject (peer rejected), false for no listener (non-peer)
 * @param commId the connection's communication id, chosen by the active side for its REQ and carried by every
 *     later message of that connection (as IB CM's local and remote communication ids): it tells a message sent
 *     again from a new one, and a late message of an earlier connection of the same endpoint from one of its
 *     current connection
 */
record CmMessage(String type, int srcHost, Ep from, Ep to, long connQual, byte[] privateData,
        boolean consumerReject, long commId) implements CmPacketContext {

    @Override
    public String endpoint() {
        return from != null ? from.name() : null;
    }
}
