package org.datsim.fabric.dat;

/** A connection request that arrived at a service point and awaits dat_cr_accept or dat_cr_reject. */
public final class Cr extends DatHandle {

    /** The public service point the request came to, or null for a reserved one. */
    final Psp psp;
    /** The reserved service point the request came to, or null. */
    Rsp rsp;
    final Ep remoteEp;
    final int remoteHost;
    final byte[] privateData;
    /** The communication id of the REQ that made this request (see {@link CmMessage#commId()}). */
    long commId;

    Cr(String name, Ia ia, Psp psp, Ep remoteEp, int remoteHost, byte[] privateData) {
        super(TYPE_CR, name, ia);
        this.psp = psp;
        this.remoteEp = remoteEp;
        this.remoteHost = remoteHost;
        this.privateData = privateData;
    }

    /** Returns the private data the requester sent. */
    public byte[] privateData() {
        return privateData.clone();
    }

    /** Returns the public service point the request came to, or null for a reserved one. */
    public Psp psp() {
        return psp;
    }

    /** Returns the reserved service point the request came to, or null. */
    public Rsp rsp() {
        return rsp;
    }

    /** Returns the id of the requesting host. */
    public int remoteHost() {
        return remoteHost;
    }

    /** Returns the connection qualifier the request was made to. */
    public long connQual() {
        return psp != null ? psp.connQual : rsp.connQual;
    }
}
