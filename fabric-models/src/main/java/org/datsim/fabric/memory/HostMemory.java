package org.datsim.fabric.memory;

import org.datsim.core.choice.ChoicePoint;
import org.datsim.core.choice.ChoiceSource;
import org.datsim.core.util.LongTable;

/**
 * The memory of one host: a virtual address space from which consumers allocate buffers, backed by
 * {@link SparseMemory}, seen by the CPU and by the HCA's DMA engine through separate methods.
 *
 * <p>With {@link Coherence#COHERENT} both see memory itself. With a non-coherent mode, one side sees memory through
 * a cache of 64-byte lines that the other side does not snoop. Each cached line remembers which of its bytes were
 * written through it (and so are newer than memory). Lines stay until the matching sync call: a non-coherent cache
 * never evicts on its own, so a consumer that skips {@code dat_lmr_sync_*} reliably sees or sends stale bytes.
 * Cache lines count towards the host's resident bound. Lines are looked up by number in a {@link LongTable}, never
 * iterated (sync walks the line numbers of its range in address order).
 */
public final class HostMemory {

    /**
     * Rule 32 (and 34): on a CPU non-coherent host, a line the CPU cached before DMA changed memory may be evicted
     * at any moment until dat_lmr_sync_rdma_write; a CPU read of it sees the stale cached bytes (0, the timing
     * model's choice: the cache never evicts on its own) or memory's bytes (1: the line was evicted, the bytes the
     * CPU wrote through it written back, and read again).
     */
    public static final ChoicePoint CPU_LINE = new ChoicePoint("memory.cpu_line_stale", "rule 32",
            "a CPU read of a cached line that DMA has changed since: 0 the stale cached bytes, 1 memory's bytes (the"
                    + " line was evicted, its written bytes written back, before the read)");
    /**
     * Rule 32 (I/O non-coherent side): bytes the HCA wrote into its I/O cache reach memory at the sync, or earlier
     * whenever the I/O cache writes the line back; a CPU read sees memory without them (0) or with them (1).
     */
    public static final ChoicePoint IO_LINE = new ChoicePoint("memory.io_line_unflushed", "rule 32",
            "a CPU read of memory whose line the HCA wrote into its I/O cache and did not flush: 0 memory without"
                    + " the HCA's bytes, 1 the line written back before the read");

    /**
     * Rule 31 (lesson 6): on a CPU non-coherent host, bytes the CPU wrote sit in its cache until
     * dat_lmr_sync_rdma_read writes them back, or until the cache evicts the line, which it may do at any moment. A
     * DMA read (a remote RDMA Read's fetch, a Send's or Write's payload) of a line holding such bytes sees memory's
     * stale bytes (0, the timing model's choice: the cache never evicts on its own) or the written-back fresh ones
     * (1: the line was evicted, its written bytes written back, before the DMA read).
     */
    public static final ChoicePoint CPU_WRITEBACK = new ChoicePoint("memory.cpu_writeback", "rule 31",
            "a DMA read, on a CPU non-coherent host, of a line whose bytes the CPU wrote and did not write back"
                    + " (no dat_lmr_sync_rdma_read since): 0 memory's stale bytes, 1 the line written back before"
                    + " the DMA read (the CPU's fresh bytes)");

    /** The first address handed out by {@link #allocate(long)}. */
    public static final long BASE_ADDRESS = 0x10000000L;
    /** The cache line size in bytes. */
    public static final int LINE = 64;

    /** One cached line: its bytes and a bit per byte written through the cache and not yet written back. */
    private static final class Line {
        final byte[] data = new byte[LINE];
        long dirty;
    }

    private final SparseMemory bytes;
    private final Coherence coherence;
    private final long maxResidentBytes;
    private final LongTable<Line> cache = new LongTable<>();
    private long next = BASE_ADDRESS;
    private ChoiceSource choices = ChoiceSource.TIMING;
    private String host = "";
    /** The memory of a real process attached through the bridge, or null (see {@link #external(External)}). */
    private External external;

    /**
     * Memory that lives outside the simulator: a real program's, attached through {@code datsim serve}. The HCA's
     * DMA reads and writes of the ranges it claims go to it, at their simulated times.
     */
    public interface External {
        /** Whether the range belongs to the external memory. */
        boolean claims(long address, long length);

        /** Reads bytes of the external memory. */
        void read(long address, byte[] dst, int off, int length);

        /** Writes bytes into the external memory. */
        void write(long address, byte[] src, int off, int length);
    }

    /**
     * Attaches (or with null detaches) external memory: from now on DMA to the ranges it claims reads and writes it
     * instead of the simulated bytes. Only for coherent hosts (the caches are not modelled for external memory).
     *
     * @param e the external memory, or null
     */
    public void external(External e) {
        this.external = e;
    }

    /**
     * Creates the memory of a coherent host.
     *
     * @param maxResidentBytes the most bytes of touched pages the host may hold
     */
    public HostMemory(long maxResidentBytes) {
        this(maxResidentBytes, Coherence.COHERENT);
    }

    /**
     * Creates the memory of a host.
     *
     * @param maxResidentBytes the most bytes of touched pages and cache lines the host may hold
     * @param coherence how its CPU and HCA see each other's writes
     */
    public HostMemory(long maxResidentBytes, Coherence coherence) {
        this.bytes = new SparseMemory(maxResidentBytes);
        this.coherence = coherence;
        this.maxResidentBytes = maxResidentBytes;
    }

    /**
     * Sets what the memory consults where the rules leave the CPU's view open ({@link #CPU_LINE}, {@link #IO_LINE}).
     *
     * @param choices the choice source
     * @param hostName the host's name, for traces
     */
    public void setChoices(ChoiceSource choices, String hostName) {
        this.choices = choices;
        this.host = hostName;
    }

    /** Returns the host's coherence mode. */
    public Coherence coherence() {
        return coherence;
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

    /** Returns the bytes of memory pages and cache lines that exist. */
    public long residentBytes() {
        return bytes.residentBytes() + (long) cache.size() * LINE;
    }

    /** Returns the number of lines held by the host's non-coherent cache (0 for coherent memory). */
    public int cachedLines() {
        return cache.size();
    }

    // ------------------------------------------------------------------ the two views

    /**
     * A CPU read.
     *
     * @param address the first address
     * @param length the number of bytes
     * @return the bytes the CPU sees
     */
    public byte[] cpuRead(long address, int length) {
        byte[] out = new byte[length];
        cpuRead(address, out, 0, length);
        return out;
    }

    /**
     * A CPU read into a caller's buffer.
     *
     * @param address the first address
     * @param dst where the bytes the CPU sees go
     * @param off the first index in {@code dst}
     * @param length the number of bytes
     */
    public void cpuRead(long address, byte[] dst, int off, int length) {
        if (coherence == Coherence.CPU_NONCOHERENT) {
            if (choices.exploring()) {
                chooseVisibility(address, length);
            }
            throughCache(address, dst, off, length, false);
        } else if (external != null && external.claims(address, length)) {
            external.read(address, dst, off, length); // a real program's memory (the payload of an inline post)
        } else {
            if (coherence == Coherence.IO_NONCOHERENT && choices.exploring()) {
                chooseVisibility(address, length);
            }
            bytes.read(address, dst, off, length);
        }
    }

    /**
     * The choice points of a CPU read ({@link #CPU_LINE}, {@link #IO_LINE}): one per cached line of the range whose
     * alternatives differ (with the reduction off, one per cached line that the alternatives could touch), in
     * address order.
     */
    private void chooseVisibility(long address, long length) {
        if (length <= 0) {
            return;
        }
        byte[] mem = new byte[LINE];
        for (long n = address / LINE; n <= (address + length - 1) / LINE; n++) {
            Line line = cache.get(n);
            if (line == null) {
                continue;
            }
            bytes.read(n * LINE, mem, 0, LINE);
            boolean cpu = coherence == Coherence.CPU_NONCOHERENT;
            boolean differs = false;
            for (int i = 0; i < LINE && !differs; i++) {
                boolean written = (line.dirty & (1L << i)) != 0;
                differs = line.data[i] != mem[i] && (cpu ? !written : written);
            }
            boolean touched = cpu ? line.dirty != -1L : line.dirty != 0;
            if (!(differs || (!choices.reduce() && touched))) {
                continue;
            }
            if (choices.choose(cpu ? CPU_LINE : IO_LINE, 2, host) == 1) {
                writeBack(n, line); // evicted (its written bytes reach memory) ...
                if (cpu) {
                    bytes.read(n * LINE, line.data, 0, LINE); // ... and read again
                }
            }
        }
    }

    /**
     * Returns whether a CPU read of the range sees bytes other than the latest ones: for a CPU non-coherent host,
     * a line the CPU cached before DMA changed memory; for an I/O non-coherent host, bytes the HCA wrote that are
     * still in its I/O cache. Always false for coherent memory.
     *
     * @param address the first address
     * @param length the number of bytes
     * @return true if the CPU's view of the range is stale
     */
    public boolean cpuViewIsStale(long address, long length) {
        if (coherence == Coherence.COHERENT || length <= 0) {
            return false;
        }
        byte[] mem = new byte[LINE];
        for (long n = address / LINE; n <= (address + length - 1) / LINE; n++) {
            Line line = cache.get(n);
            if (line == null) {
                continue;
            }
            bytes.read(n * LINE, mem, 0, LINE);
            int from = (int) Math.max(0, address - n * LINE);
            int to = (int) Math.min(LINE, address + length - n * LINE);
            for (int i = from; i < to; i++) {
                boolean written = (line.dirty & (1L << i)) != 0;
                // CPU cache: clean cached bytes that differ from memory are stale.
                // I/O cache: bytes the HCA wrote and did not flush are missing from the CPU's view.
                boolean differs = line.data[i] != mem[i];
                if (differs && (coherence == Coherence.CPU_NONCOHERENT ? !written : written)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * A CPU write.
     *
     * @param address the first address
     * @param data the bytes
     */
    public void cpuWrite(long address, byte[] data) {
        if (coherence == Coherence.CPU_NONCOHERENT) {
            throughCache(address, data, 0, data.length, true);
        } else {
            bytes.write(address, data, 0, data.length);
        }
    }

    /**
     * A CPU fill of a range with one byte value.
     *
     * @param address the first address
     * @param length the number of bytes
     * @param value the byte
     */
    public void cpuFill(long address, long length, byte value) {
        if (coherence != Coherence.CPU_NONCOHERENT) {
            bytes.fill(address, length, value);
            return;
        }
        byte[] chunk = new byte[(int) Math.min(length, 1 << 16)];
        java.util.Arrays.fill(chunk, value);
        for (long done = 0; done < length; done += chunk.length) {
            int n = (int) Math.min(chunk.length, length - done);
            throughCache(address + done, chunk, 0, n, true);
        }
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
        if (external != null && external.claims(address, length)) {
            external.read(address, dst, off, length);
        } else if (coherence == Coherence.IO_NONCOHERENT) {
            throughCache(address, dst, off, length, false);
        } else {
            if (coherence == Coherence.CPU_NONCOHERENT && choices.exploring()) {
                chooseWriteBack(address, length);
            }
            bytes.read(address, dst, off, length);
        }
    }

    /**
     * A DMA read that looks without being a fetch the rules race (for the trace's own comparisons): no choice point,
     * memory's bytes as they are (through the I/O cache on an I/O non-coherent host).
     *
     * @param address the first address
     * @param dst the destination
     * @param off the first index written in {@code dst}
     * @param length the number of bytes
     */
    public void dmaPeek(long address, byte[] dst, int off, int length) {
        if (external != null && external.claims(address, length)) {
            external.read(address, dst, off, length);
        } else if (coherence == Coherence.IO_NONCOHERENT) {
            throughCache(address, dst, off, length, false);
        } else {
            bytes.read(address, dst, off, length);
        }
    }

    /**
     * The choice points of a DMA read on a CPU non-coherent host ({@link #CPU_WRITEBACK}): one per cached line of the
     * range holding bytes the CPU wrote that differ from memory (with the reduction off, one per line holding bytes
     * the CPU wrote), in address order. On alternative 1 the line is written back (it stays cached, clean).
     */
    private void chooseWriteBack(long address, long length) {
        if (length <= 0) {
            return;
        }
        byte[] mem = new byte[LINE];
        for (long n = address / LINE; n <= (address + length - 1) / LINE; n++) {
            Line line = cache.get(n);
            if (line == null || line.dirty == 0) {
                continue;
            }
            boolean differs = false;
            if (choices.reduce()) {
                bytes.read(n * LINE, mem, 0, LINE);
                for (int i = 0; i < LINE && !differs; i++) {
                    differs = (line.dirty & (1L << i)) != 0 && line.data[i] != mem[i];
                }
            }
            if ((differs || !choices.reduce()) && choices.choose(CPU_WRITEBACK, 2, host) == 1) {
                writeBack(n, line);
            }
        }
    }

    /**
     * Whether a DMA read has no side effect and reads the memory's bytes directly (not through an I/O cache), so
     * that it may be deferred until the bytes are about to change ({@link #armWriteHook}).
     *
     * @return true unless the host is I/O non-coherent (or CPU non-coherent in an explored run)
     */
    public boolean dmaReadIsPlain() {
        // An explored CPU non-coherent host reads at once: its DMA reads are choice points (CPU_WRITEBACK).
        return coherence != Coherence.IO_NONCOHERENT && external == null
                && !(coherence == Coherence.CPU_NONCOHERENT && choices.exploring());
    }

    /**
     * Arms a one-shot hook that runs just before the first change of the memory's bytes in {@code [lo, hi)} (by DMA,
     * by a CPU write reaching memory, or by a write-back). See {@link SparseMemory#armWriteHook}.
     *
     * @param lo the first address watched
     * @param hi the end of the watched range (exclusive)
     * @param beforeWrite the hook
     */
    public void armWriteHook(long lo, long hi, Runnable beforeWrite) {
        bytes.armWriteHook(lo, hi, beforeWrite);
    }

    /** Disarms the write hook. */
    public void disarmWriteHook() {
        bytes.disarmWriteHook();
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
        if (external != null && external.claims(address, length)) {
            external.write(address, src, off, length);
        } else if (coherence == Coherence.IO_NONCOHERENT) {
            throughCache(address, src, off, length, true);
        } else {
            bytes.write(address, src, off, length);
        }
    }

    /**
     * A DMA read of this memory's bytes written at once by a DMA write into another host's memory, with no buffer
     * between them: the same as {@link #dmaRead} into a buffer followed by {@code dst.dmaWrite} of it.
     *
     * @param address the first address read here
     * @param dst the memory written (not this one)
     * @param dstAddress the first address written there
     * @param length the number of bytes
     */
    public void dmaCopyTo(long address, HostMemory dst, long dstAddress, int length) {
        if (!dmaReadIsPlain()) {
            byte[] buf = new byte[length];
            dmaRead(address, buf, 0, length);
            dst.dmaWrite(dstAddress, buf, 0, length);
            return;
        }
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inPage = (int) (a & (SparseMemory.PAGE_SIZE - 1));
            int n = Math.min(length - done, SparseMemory.PAGE_SIZE - inPage);
            byte[] page = bytes.pageOf(a);
            if (page == null) {
                dst.dmaWrite(dstAddress + done, ZERO_PAGE, 0, n);
            } else {
                dst.dmaWrite(dstAddress + done, page, inPage, n);
            }
            done += n;
        }
    }

    /**
     * A DMA read that keeps the bytes without copying them: the page holding {@code address}, shared so that it never
     * changes again ({@link SparseMemory#sharePageOf}: a later write here goes to a copy). For a packet whose bytes
     * are placed by another thread (a partitioned fabric). Only where {@link #dmaReadIsPlain}.
     *
     * @param address an address in the page
     * @return the page (the byte at {@code address} at index {@code address & 4095}), or a page of zeros
     * @throws IllegalStateException if DMA reads are not plain here
     */
    public byte[] dmaSharePage(long address) {
        if (!dmaReadIsPlain()) {
            throw new IllegalStateException("a DMA read through an I/O cache cannot share pages");
        }
        byte[] page = bytes.sharePageOf(address);
        return page != null ? page : ZERO_PAGE;
    }

    /** The bytes of a page never written (read only). */
    private static final byte[] ZERO_PAGE = new byte[SparseMemory.PAGE_SIZE];

    // ------------------------------------------------------------------ sync

    /**
     * What dat_lmr_sync_rdma_read does to a range (rule 31): makes memory the HCA will read current. CPU
     * non-coherent: the CPU's written bytes are written back. I/O non-coherent: the I/O cache's lines are
     * invalidated (written bytes first written back), so DMA reads memory afresh. No effect on coherent memory.
     *
     * @param address the first address
     * @param length the number of bytes
     */
    public void syncForRdmaRead(long address, long length) {
        if (coherence == Coherence.CPU_NONCOHERENT) {
            sync(address, length, false);
        } else if (coherence == Coherence.IO_NONCOHERENT) {
            sync(address, length, true);
        }
    }

    /**
     * What dat_lmr_sync_rdma_write does to a range (rules 32, 33): makes what the HCA wrote visible to the CPU.
     * CPU non-coherent: the CPU's lines are written back and invalidated, so the CPU reads memory afresh. I/O
     * non-coherent: the I/O cache's written bytes are flushed to memory. No effect on coherent memory.
     *
     * @param address the first address
     * @param length the number of bytes
     */
    public void syncForRdmaWrite(long address, long length) {
        if (coherence == Coherence.CPU_NONCOHERENT) {
            sync(address, length, true);
        } else if (coherence == Coherence.IO_NONCOHERENT) {
            sync(address, length, false);
        }
    }

    private void sync(long address, long length, boolean invalidate) {
        if (length <= 0) {
            return;
        }
        for (long n = address / LINE; n <= (address + length - 1) / LINE; n++) {
            Line line = cache.get(n);
            if (line == null) {
                continue;
            }
            writeBack(n, line);
            if (invalidate) {
                cache.remove(n);
            }
        }
    }

    private void writeBack(long lineNo, Line line) {
        if (line.dirty == 0) {
            return;
        }
        long base = lineNo * LINE;
        if (line.dirty == -1L) {
            bytes.write(base, line.data, 0, LINE); // every byte dirty: one write of the whole line
            line.dirty = 0;
            return;
        }
        for (int i = 0; i < LINE; i++) {
            if ((line.dirty & (1L << i)) != 0) {
                bytes.write(base + i, line.data, i, 1);
            }
        }
        line.dirty = 0;
    }

    /** Reads or writes through the non-coherent cache, filling missing lines from memory. */
    private void throughCache(long address, byte[] buf, int off, int length, boolean write) {
        int done = 0;
        while (done < length) {
            long a = address + done;
            long n = a / LINE;
            int in = (int) (a - n * LINE);
            int len = Math.min(length - done, LINE - in);
            Line line = cache.get(n);
            if (line == null) {
                if (residentBytes() + LINE > maxResidentBytes) {
                    throw new MemoryLimitException("host memory and its non-coherent cache would exceed the resident"
                            + " limit of " + maxResidentBytes + " bytes (raise memory.max_resident, touch less"
                            + " memory, or sync more often)");
                }
                line = new Line();
                bytes.read(n * LINE, line.data, 0, LINE);
                cache.put(n, line);
            }
            if (write) {
                System.arraycopy(buf, off + done, line.data, in, len);
                line.dirty |= len == 64 ? -1L : ((1L << len) - 1) << in;
            } else {
                System.arraycopy(line.data, in, buf, off + done, len);
            }
            done += len;
        }
    }
}
