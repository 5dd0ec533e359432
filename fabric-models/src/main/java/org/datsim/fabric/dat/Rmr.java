package org.datsim.fabric.dat;

/**
 * A remote memory region (a memory window): created unbound in a protection zone, then bound to a range of an LMR
 * by dat_rmr_bind, an operation on an endpoint's request queue. Each bind returns a new rmr_context at once, but
 * the HCA honours it only once the bind has executed; from then on the previous context is refused (rules 24, 25).
 */
public final class Rmr extends DatHandle {

    final Pz pz;
    /** The context the last dat_rmr_bind returned (0 before the first bind). */
    int context;
    /** The context the HCA honours now, or 0 when unbound. */
    int activeContext;
    Lmr lmr;
    long address;
    long length;
    int privileges;
    long requestedAddress;
    long requestedLength;

    Rmr(String name, Ia ia, Pz pz) {
        super(TYPE_RMR, name, ia);
        this.pz = pz;
    }

    /** Returns the rmr_context returned by the last dat_rmr_bind, or 0 if never bound. */
    public int context() {
        return context;
    }

    /** Returns the address the last dat_rmr_bind asked for (the range the returned context will cover). */
    public long requestedAddress() {
        return requestedAddress;
    }

    /** Returns the length the last dat_rmr_bind asked for. */
    public long requestedLength() {
        return requestedLength;
    }

    /** Returns the address of the bound range (valid once the bind executed). */
    public long address() {
        return address;
    }

    /** Returns the length of the bound range, 0 when unbound. */
    public long length() {
        return length;
    }

    /** The range and rights one dat_rmr_bind asks for, carried by its work request until the HCA executes it. */
    record Binding(Rmr rmr, Lmr lmr, long address, long length, int privileges, int context) {
    }
}
