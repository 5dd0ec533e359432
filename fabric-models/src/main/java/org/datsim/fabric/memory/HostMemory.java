package org.datsim.fabric.memory;

/**
 * The memory of one host: a virtual address space from which consumers allocate buffers, backed by
 * {@link SparseMemory}. The CPU and the HCA's DMA engine access it through separate methods so that coherence modes
 * can give them different views; this host memory is coherent, so both views are the same and no CPU read is ever
 * stale.
 */
public final class HostMemory {

    /** The first address handed out by {@link #allocate(long)}. */
    public static final long BASE_ADDRESS = 0x10000000L;

    private final SparseMemory bytes;
    private long next = BASE_ADDRESS;

    /**
     * Creates the memory of a host.
     *
     * @param maxResidentBytes the most bytes of touched pages the host may hold
     */
    public HostMemory(long maxResidentBytes) {
        this.bytes = new SparseMemory(maxResidentBytes);
    }

    /**
     * Allocates a buffer in the virtual address space, aligned to 4 KiB. Allocation costs no memory until written.
     *
     * @param length the buffer length in bytes
     * @return the buffer's first address
     */
    public long allocate(long length) {
        long address = next;
        long pages = (length + SparseMemory.PAGE_SIZE - 1) / SparseMemory.PAGE_SIZE;
        next = Math.addExact(next, Math.max(1, pages) * SparseMemory.PAGE_SIZE);
        return address;
    }

    /** Returns the bytes of memory pages that exist. */
    public long residentBytes() {
        return bytes.residentBytes();
    }

    /**
     * A CPU read.
     *
     * @param address the first address
     * @param length the number of bytes
     * @return the bytes the CPU sees
     */
    public byte[] cpuRead(long address, int length) {
        byte[] out = new byte[length];
        bytes.read(address, out, 0, length);
        return out;
    }

    /**
     * Returns whether a CPU read of the range would see bytes other than those in memory (a stale cache line). Always
     * false for coherent memory.
     *
     * @param address the first address
     * @param length the number of bytes
     * @return true if the CPU's view of the range is stale
     */
    public boolean cpuViewIsStale(long address, long length) {
        return false;
    }

    /**
     * A CPU write.
     *
     * @param address the first address
     * @param data the bytes
     */
    public void cpuWrite(long address, byte[] data) {
        bytes.write(address, data, 0, data.length);
    }

    /**
     * A CPU fill of a range with one byte value.
     *
     * @param address the first address
     * @param length the number of bytes
     * @param value the byte
     */
    public void cpuFill(long address, long length, byte value) {
        bytes.fill(address, length, value);
    }

    /**
     * A DMA read by the HCA.
     *
     * @param address the first address
     * @param dst the destination
     * @param off the first index written in {@code dst}
     * @param length the number of bytes
     */
    public void dmaRead(long address, byte[] dst, int off, int length) {
        bytes.read(address, dst, off, length);
    }

    /**
     * A DMA write by the HCA.
     *
     * @param address the first address
     * @param src the source
     * @param off the first index read in {@code src}
     * @param length the number of bytes
     */
    public void dmaWrite(long address, byte[] src, int off, int length) {
        bytes.write(address, src, off, length);
    }
}
