package org.datsim.fabric.memory;

import java.util.Arrays;
import org.datsim.core.util.LongTable;

/**
 * A 64-bit byte-addressed memory stored as 4 KiB pages created on first write. Unwritten bytes read as zero. The
 * number of resident pages is bounded; a write that would exceed the bound throws {@link MemoryLimitException}
 * instead of exhausting the Java heap. Pages are looked up by number in an open-addressing hash table of primitive
 * keys (no boxing on the packet path) and never iterated, so its order cannot affect results.
 */
public final class SparseMemory {

    /** The page size in bytes. */
    public static final int PAGE_SIZE = 4096;
    private static final int PAGE_SHIFT = 12;
    private static final long PAGE_MASK = PAGE_SIZE - 1;

    private final LongTable<byte[]> pages = new LongTable<>();
    /**
     * The pages handed out by {@link #sharePageOf}, by number: a write to one replaces it by a copy first (copy on
     * write), so the array handed out keeps the bytes it had.
     */
    private final LongTable<byte[]> shared = new LongTable<>();
    /** The page found last and its number: a page is only ever replaced by its copy ({@link #writable}). */
    private long lastPageNo;
    private byte[] lastPage;
    private long hookLo;
    private long hookHi;
    private Runnable hook;
    private final long maxResidentBytes;

    /**
     * Creates an empty memory.
     *
     * @param maxResidentBytes the most bytes of pages that may exist at once
     */
    public SparseMemory(long maxResidentBytes) {
        this.maxResidentBytes = maxResidentBytes;
    }

    /**
     * Arms a one-shot hook that runs just before the first write or fill that touches {@code [lo, hi)}; replaces any
     * armed hook. Used by the HCA to copy out payloads it has read by reference before their bytes change.
     *
     * @param lo the first address watched
     * @param hi the end of the watched range (exclusive)
     * @param beforeWrite the hook
     */
    public void armWriteHook(long lo, long hi, Runnable beforeWrite) {
        this.hookLo = lo;
        this.hookHi = hi;
        this.hook = beforeWrite;
    }

    /** Disarms the write hook. */
    public void disarmWriteHook() {
        this.hook = null;
    }

    private void beforeWrite(long address, long length) {
        if (hook != null && address < hookHi && address + length > hookLo) {
            Runnable h = hook;
            hook = null;
            h.run();
        }
    }

    /**
     * Returns the page that holds an address, to be read only, or null if it does not exist (its bytes are zero).
     * The byte at {@code address} is at index {@code address & (PAGE_SIZE - 1)}.
     *
     * @param address an address in the page
     * @return the page, or null
     */
    public byte[] pageOf(long address) {
        return page(address >>> PAGE_SHIFT);
    }

    /**
     * Returns the page that holds an address and shares it: the array returned never changes again, whatever is
     * written to this memory later (a write to a shared page goes to a copy that replaces it here). Another thread
     * may read it once a happens-before edge (the partitioned engine's barrier) separates it from this call.
     *
     * @param address an address in the page
     * @return the page, or null if it does not exist (its bytes are zero)
     */
    public byte[] sharePageOf(long address) {
        long pageNo = address >>> PAGE_SHIFT;
        byte[] page = page(pageNo);
        if (page != null && shared.get(pageNo) != page) {
            shared.put(pageNo, page);
        }
        return page;
    }

    /** A page about to be written: itself, or if shared its copy, which replaces it (and is not shared). */
    private byte[] writable(long pageNo, byte[] page) {
        if (shared.size() == 0 || shared.get(pageNo) != page) {
            return page;
        }
        byte[] copy = page.clone();
        pages.put(pageNo, copy);
        shared.remove(pageNo);
        lastPageNo = pageNo;
        lastPage = copy;
        return copy;
    }

    /** Returns the bytes of pages that exist (4 KiB per touched page). */
    public long residentBytes() {
        return (long) pages.size() * PAGE_SIZE;
    }

    /**
     * Copies bytes out of memory.
     *
     * @param address the first address
     * @param dst the destination array
     * @param dstOff the first index written in {@code dst}
     * @param length the number of bytes
     */
    public void read(long address, byte[] dst, int dstOff, int length) {
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inPage = (int) (a & PAGE_MASK);
            int n = Math.min(length - done, PAGE_SIZE - inPage);
            byte[] page = page(a >>> PAGE_SHIFT);
            if (page == null) {
                Arrays.fill(dst, dstOff + done, dstOff + done + n, (byte) 0);
            } else {
                System.arraycopy(page, inPage, dst, dstOff + done, n);
            }
            done += n;
        }
    }

    /**
     * Copies bytes into memory, creating pages as needed. Writing zeros to a page that does not exist creates
     * nothing.
     *
     * @param address the first address
     * @param src the source array
     * @param srcOff the first index read in {@code src}
     * @param length the number of bytes
     * @throws MemoryLimitException if a new page would exceed the resident bound
     */
    public void write(long address, byte[] src, int srcOff, int length) {
        beforeWrite(address, length);
        int done = 0;
        while (done < length) {
            long a = address + done;
            int inPage = (int) (a & PAGE_MASK);
            int n = Math.min(length - done, PAGE_SIZE - inPage);
            long pageNo = a >>> PAGE_SHIFT;
            byte[] page = page(pageNo);
            if (page == null) {
                if (!allZero(src, srcOff + done, n)) {
                    page = newPage(pageNo);
                    System.arraycopy(src, srcOff + done, page, inPage, n);
                }
            } else {
                System.arraycopy(src, srcOff + done, writable(pageNo, page), inPage, n);
            }
            done += n;
        }
    }

    /**
     * Fills a range with one byte value.
     *
     * @param address the first address
     * @param length the number of bytes
     * @param value the byte
     * @throws MemoryLimitException if the pages needed would exceed the resident bound
     */
    public void fill(long address, long length, byte value) {
        beforeWrite(address, length);
        long done = 0;
        while (done < length) {
            long a = address + done;
            int inPage = (int) (a & PAGE_MASK);
            int n = (int) Math.min(length - done, PAGE_SIZE - inPage);
            long pageNo = a >>> PAGE_SHIFT;
            byte[] page = page(pageNo);
            if (page == null && value != 0) {
                page = newPage(pageNo);
            }
            if (page != null) {
                Arrays.fill(writable(pageNo, page), inPage, inPage + n, value);
            }
            done += n;
        }
    }

    private byte[] newPage(long pageNo) {
        if (residentBytes() + PAGE_SIZE > maxResidentBytes) {
            throw new MemoryLimitException("host memory would exceed its resident limit of " + maxResidentBytes
                    + " bytes (raise memory.max_resident or touch less memory)");
        }
        if ((pages.size() & (HEAP_CHECK_PAGES - 1)) == 0) {
            checkHeap();
        }
        byte[] page = new byte[PAGE_SIZE];
        pages.put(pageNo, page);
        return page;
    }

    /** New pages between two checks of the JVM's free heap (256 pages: 1 MiB). */
    private static final int HEAP_CHECK_PAGES = 256;
    /** The heap kept free for the rest of the run (its queues, the trace's buffers, the summary). */
    static final long HEAP_RESERVE = 64L << 20;

    /**
     * The resident limit holds whatever the heap: a limit larger than the heap the JVM was given would otherwise end
     * in an OutOfMemoryError. When the heap left is under {@link #HEAP_RESERVE} (after a collection), the write is
     * refused like one over the limit, saying how much heap there is and how to give more.
     */
    private static void checkHeap() {
        Runtime rt = Runtime.getRuntime();
        if (rt.maxMemory() - (rt.totalMemory() - rt.freeMemory()) >= HEAP_RESERVE + (1L << 20)) {
            return;
        }
        System.gc(); // the used figure counts garbage too; ask once before refusing
        long left = rt.maxMemory() - (rt.totalMemory() - rt.freeMemory());
        if (left < HEAP_RESERVE + (1L << 20)) {
            throw new MemoryLimitException("host memory would exceed the heap the JVM has (" + (rt.maxMemory() >> 20)
                    + " MiB, " + (left >> 20) + " MiB left) before its resident limit: run with"
                    + " DATSIM_JAVA_OPTS=-Xmx8g (or more), or touch less memory");
        }
    }

    private byte[] page(long pageNo) {
        if (pageNo == lastPageNo && lastPage != null) {
            return lastPage; // DMA and CPU copies go page after page over the same few pages
        }
        byte[] v = pages.get(pageNo);
        if (v != null) {
            lastPageNo = pageNo;
            lastPage = v;
        }
        return v;
    }

    private static boolean allZero(byte[] b, int off, int len) {
        for (int i = off; i < off + len; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
