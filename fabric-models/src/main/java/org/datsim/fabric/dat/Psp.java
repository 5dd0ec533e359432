package org.datsim.fabric.dat;

/** A public service point: listens for connection requests on a connection qualifier. */
public final class Psp extends DatHandle {

    final long connQual;
    final Evd evd;
    final int flags;

    Psp(String name, Ia ia, long connQual, Evd evd, int flags) {
        super(TYPE_PSP, name, ia);
        this.connQual = connQual;
        this.evd = evd;
        this.flags = flags;
    }

    /** Returns the connection qualifier. */
    public long connQual() {
        return connQual;
    }
}
