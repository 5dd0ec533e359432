package org.datsim.fabric.dat;

/**
 * A connection-management datagram between two hosts' providers.
 *
 * @param type REQ, REP, RTU, REJ, DREQ or DREP
 * @param srcHost the sending host id
 * @param from the sending endpoint (the active side's EP for REQ)
 * @param to the receiving endpoint, or null for a REQ
 * @param connQual the connection qualifier of a REQ
 * @param privateData the consumer's private data
 * @param consumerReject true for a REJ sent by dat_cr_reject (peer rejected), false for no listener (non-peer)
 */
record CmMessage(String type, int srcHost, Ep from, Ep to, long connQual, byte[] privateData,
        boolean consumerReject) {
}
