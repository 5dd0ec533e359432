package org.datsim.fabric.dat;

/**
 * A local memory region: a registered range of host virtual memory with its privileges, its lmr_context for local
 * access and its rmr_context for remote access.
 */
public final class Lmr extends DatHandle {

    final Pz pz;
    final long address;
    final long length;
    final int privileges;
    final int lmrContext;
    final int rmrContext;
    /** RMRs bound to this LMR (or with a bind of it in flight); the LMR cannot be freed while any is. */
    int bindRefs;

    Lmr(String name, Ia ia, Pz pz, long address, long length, int privileges, int lmrContext, int rmrContext) {
        super(TYPE_LMR, name, ia);
        this.pz = pz;
        this.address = address;
        this.length = length;
        this.privileges = privileges;
        this.lmrContext = lmrContext;
        this.rmrContext = rmrContext;
    }

    /** Returns the registered address. */
    public long address() {
        return address;
    }

    /** Returns the registered length in bytes. */
    public long length() {
        return length;
    }

    /** Returns the lmr_context. */
    public int lmrContext() {
        return lmrContext;
    }

    /** Returns the rmr_context. */
    public int rmrContext() {
        return rmrContext;
    }

    /** Returns the DAT_MEM_PRIV flags. */
    public int privileges() {
        return privileges;
    }

    boolean contains(long addr, long len) {
        return addr >= address && len >= 0 && addr - address <= length - len;
    }
}
