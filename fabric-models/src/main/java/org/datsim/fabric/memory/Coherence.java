package org.datsim.fabric.memory;

/**
 * How a host's memory, its CPU and its HCA see each other's writes.
 */
public enum Coherence {
    /** Hardware keeps every view the same; the lmr_sync calls are no-ops (lmr_sync_req is false). */
    COHERENT("coherent"),
    /**
     * The CPU's cache is not snooped by DMA: the CPU keeps reading the lines it cached after an RDMA Write changed
     * memory, and its writes stay in its cache until written back. dat_lmr_sync_rdma_write writes back and
     * invalidates the CPU's lines; dat_lmr_sync_rdma_read writes them back.
     */
    CPU_NONCOHERENT("cpu_noncoherent"),
    /**
     * The HCA's DMA goes through an I/O cache the CPU does not snoop: incoming data stays in it until flushed, and
     * outgoing DMA reads the lines it cached before. dat_lmr_sync_rdma_write flushes the I/O cache;
     * dat_lmr_sync_rdma_read invalidates it.
     */
    IO_NONCOHERENT("io_noncoherent");

    private final String text;

    Coherence(String text) {
        this.text = text;
    }

    /** Returns the name used in scenarios and parameters, for example "cpu_noncoherent". */
    public String text() {
        return text;
    }

    /**
     * Looks up a mode by its scenario name.
     *
     * @param text for example "io_noncoherent"
     * @return the mode
     * @throws IllegalArgumentException for an unknown name
     */
    public static Coherence of(String text) {
        for (Coherence c : values()) {
            if (c.text.equals(text)) {
                return c;
            }
        }
        throw new IllegalArgumentException("unknown coherence mode " + text);
    }
}
