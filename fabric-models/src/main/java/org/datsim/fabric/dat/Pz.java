package org.datsim.fabric.dat;

/** A protection zone: endpoints may touch only memory registered in their own zone. */
public final class Pz extends DatHandle {

    int users;

    Pz(String name, Ia ia) {
        super(TYPE_PZ, name, ia);
    }
}
