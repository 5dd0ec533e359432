package org.datsim.fabric.dat;

/**
 * A reserved service point: listens on a connection qualifier for one connection request, which arrives as a CR
 * for its endpoint (the only endpoint that may accept it).
 */
public final class Rsp extends DatHandle {

    final long connQual;
    final Ep ep;
    final Evd evd;
    /** True once its one connection request has arrived. */
    boolean used;

    Rsp(String name, Ia ia, long connQual, Ep ep, Evd evd) {
        super(TYPE_RSP, name, ia);
        this.connQual = connQual;
        this.ep = ep;
        this.evd = evd;
    }

    /** Returns the connection qualifier. */
    public long connQual() {
        return connQual;
    }

    /** Returns the endpoint reserved for the connection. */
    public Ep ep() {
        return ep;
    }
}
