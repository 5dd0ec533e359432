package org.datsim.scenario.bridge;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The shared-memory transport of one bridge connection (docs/bridge.md, Protocol): a file that the provider
 * library created and mapped, holding two single-producer single-consumer byte rings, "up" (library to server) and
 * "down" (server to library). The rings carry exactly the bytes the socket would carry; the socket stays open and
 * carries only one-byte wake tokens (and its end-of-file when the program dies).
 *
 * <p>Layout (little-endian; the same numbers as {@code provider/datsim_provider.c}): u32 magic "DSHM", u32
 * version, u32 ring size (a power of two); then each ring's control block, four 64-bit counters each on a cache
 * line of its own: head (bytes ever written, by the producer), tail (bytes ever read, by the consumer), consumer
 * sleeping, producer sleeping; the up ring's data at {@link #HEADER}, the down ring's after it.
 *
 * <p>Waking (an eventcount): a side that finds nothing to read (or no room to write) sets its sleeping flag, makes a
 * full fence, looks at the ring again and only then blocks on the socket for a token. The other side publishes
 * (head or tail, a release store), makes a full fence and reads the flag; if it is set, it clears it (a
 * compare-and-set, so one token per sleep) and writes a token. Each side stores, fences, then loads the other's
 * store, so at least one of them sees the other's (Dekker): either the sleeper sees the new bytes and does not
 * block, or the publisher sees the flag and sends the token, which the socket keeps until it is read.
 *
 * <p>Single-threaded on this side: only the simulator's thread uses it.
 */
final class SharedRings implements AutoCloseable {

    static final int MAGIC = 0x4d485344; // "DSHM"
    static final int VERSION = 1;
    /** Bytes before the first ring's data: the header and the two control blocks. */
    static final int HEADER = 4096;
    /** Control block offsets: the up ring (library to server) and the down ring (server to library). */
    static final int UP = 64;
    static final int DOWN = 320;
    /** Offsets inside a control block, one cache line each. */
    static final int HEAD = 0;
    static final int TAIL = 64;
    static final int CONSUMER_SLEEPING = 128;
    static final int PRODUCER_SLEEPING = 192;
    /** The largest ring a library may ask for (the file is bounded before it is mapped). */
    static final int MAX_RING = 64 << 20;

    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class,
            ByteOrder.LITTLE_ENDIAN);

    private final MappedByteBuffer map;
    /** The rings' file (deleted by its creator once both sides mapped it). */
    private final Path path;
    private final int size;
    private final int mask;
    /** The control block and data offset of the ring this side reads, and of the one it writes. */
    private final int in;
    private final int inData;
    private final int out;
    private final int outData;
    /** This side's own counters (the in ring's tail, the out ring's head), kept here as only this side moves them. */
    private long inTail;
    private long outHead;
    /** What sends a wake token to the other side (the connection's socket). */
    private final Waker waker;

    /** Sends one wake token to the other side. */
    interface Waker {
        void wake() throws IOException;
    }

    private SharedRings(MappedByteBuffer map, int size, boolean server, Waker waker, Path path) {
        this.map = map;
        this.path = path;
        this.size = size;
        this.mask = size - 1;
        this.in = server ? UP : DOWN;
        this.inData = server ? HEADER : HEADER + size;
        this.out = server ? DOWN : UP;
        this.outData = server ? HEADER + size : HEADER;
        this.waker = waker;
        this.inTail = (long) LONG.getAcquire(map, in + TAIL);
        this.outHead = (long) LONG.getAcquire(map, out + HEAD);
    }

    /**
     * Creates and maps a rings file as the server ({@link RingsDir}): a new file (never one that exists, never
     * through a link), 0600, of the size of two rings of {@code size} bytes, its header written.
     *
     * @param path the new file, in the server's own directory
     * @param size the bytes of each ring (a power of two from 4096 to {@link #MAX_RING})
     * @param waker sends a wake token to the library
     * @return the mapped rings
     * @throws IOException when the file cannot be made
     */
    static SharedRings create(Path path, int size, Waker waker) throws IOException {
        if (size < 4096 || size > MAX_RING || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("ring size " + size);
        }
        long len = bytes(size);
        try (FileChannel fc = FileChannel.open(path, java.util.Set.of(StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                        java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")))) {
            fc.write(ByteBuffer.allocate(1), len - 1);
            MappedByteBuffer m = fc.map(FileChannel.MapMode.READ_WRITE, 0, len);
            m.order(ByteOrder.LITTLE_ENDIAN);
            m.putInt(0, MAGIC).putInt(4, VERSION).putInt(8, size);
            return new SharedRings(m, size, true, waker, path);
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(path);
            throw e;
        }
    }

    /**
     * Maps a rings file as the library does (tests play the library's side with it, or the server's with
     * {@code server} true): opened without following a link, then checked on the open file: a regular file of
     * exactly the size its header states, with the magic number.
     */
    static SharedRings map(Path path, boolean server, Waker waker) throws IOException {
        FileChannel opened;
        try {
            opened = FileChannel.open(path, StandardOpenOption.READ, StandardOpenOption.WRITE,
                    LinkOption.NOFOLLOW_LINKS);
        } catch (IOException e) {
            throw new IOException(path + " cannot be opened as a rings file (" + e.getMessage() + ")");
        }
        try (FileChannel fc = opened) {
            long len = fc.size();
            ByteBuffer head = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            while (head.hasRemaining() && fc.read(head, head.position()) > 0) {
                // reads the header
            }
            head.flip();
            if (head.remaining() < 12 || head.getInt(0) != MAGIC || head.getInt(4) != VERSION) {
                throw new IOException(path + " is not a datsim rings file (version " + VERSION + ")");
            }
            int size = head.getInt(8);
            if (size < 4096 || size > MAX_RING || Integer.bitCount(size) != 1 || len != HEADER + 2L * size) {
                throw new IOException(path + ": ring size " + size + " and file size " + len + " do not agree");
            }
            MappedByteBuffer m = fc.map(FileChannel.MapMode.READ_WRITE, 0, len);
            m.order(ByteOrder.LITTLE_ENDIAN);
            return new SharedRings(m, size, server, waker, path);
        }
    }

    /** The rings' file. */
    Path path() {
        return path;
    }

    /** The file size of rings of {@code size} bytes each. */
    static long bytes(int size) {
        return HEADER + 2L * size;
    }

    /** Whether the other side has written bytes this side has not read. */
    boolean readable() {
        return (long) LONG.getAcquire(map, in + HEAD) != inTail;
    }

    /** Whether the ring this side writes has room for at least one byte. */
    boolean writable() {
        return outHead - (long) LONG.getAcquire(map, out + TAIL) < size;
    }

    /**
     * Moves as many unread bytes as fit from the ring this side reads into {@code dst} (a heap buffer), then wakes
     * the other side if it sleeps waiting for room.
     *
     * @return the number of bytes moved
     * @throws IOException when the ring's counters are not possible (the library corrupted them)
     */
    int read(ByteBuffer dst) throws IOException {
        long head = (long) LONG.getAcquire(map, in + HEAD);
        long avail = head - inTail;
        if (avail == 0) {
            return 0;
        }
        if (avail < 0 || avail > size) {
            throw new IOException("the shared ring's counters are corrupt (" + avail + " bytes available)");
        }
        int n = (int) Math.min(avail, dst.remaining());
        int off = (int) (inTail & mask);
        int first = Math.min(n, size - off);
        int at = dst.arrayOffset() + dst.position();
        map.get(inData + off, dst.array(), at, first);
        if (n > first) {
            map.get(inData, dst.array(), at + first, n - first);
        }
        dst.position(dst.position() + n);
        inTail += n;
        LONG.setRelease(map, in + TAIL, inTail);
        VarHandle.fullFence();
        wakeIf(in + PRODUCER_SLEEPING);
        return n;
    }

    /**
     * Moves as many of {@code src}'s remaining bytes (a heap buffer) as there is room for into the ring this side
     * writes, then wakes the other side if it sleeps waiting for them.
     *
     * @return the number of bytes moved
     * @throws IOException when the token cannot be sent
     */
    int write(ByteBuffer src) throws IOException {
        long tail = (long) LONG.getAcquire(map, out + TAIL);
        long room = size - (outHead - tail);
        if (room <= 0 || !src.hasRemaining()) {
            return 0;
        }
        int n = (int) Math.min(room, src.remaining());
        int off = (int) (outHead & mask);
        int first = Math.min(n, size - off);
        int at = src.arrayOffset() + src.position();
        map.put(outData + off, src.array(), at, first);
        if (n > first) {
            map.put(outData, src.array(), at + first, n - first);
        }
        src.position(src.position() + n);
        outHead += n;
        LONG.setRelease(map, out + HEAD, outHead);
        VarHandle.fullFence();
        wakeIf(out + CONSUMER_SLEEPING);
        return n;
    }

    private void wakeIf(int flag) throws IOException {
        if ((long) LONG.getVolatile(map, flag) != 0 && LONG.compareAndSet(map, flag, 1L, 0L)) {
            waker.wake();
        }
    }

    /**
     * Says this side is about to sleep until the other side writes ({@code forRoom} false) or reads ({@code forRoom}
     * true); the caller then looks at the ring again before it blocks, and calls {@link #awake} after.
     */
    void sleeping(boolean forRoom) {
        LONG.setVolatile(map, forRoom ? out + PRODUCER_SLEEPING : in + CONSUMER_SLEEPING, 1L);
        VarHandle.fullFence();
    }

    /** Clears the flag {@link #sleeping} set. */
    void awake(boolean forRoom) {
        LONG.setVolatile(map, forRoom ? out + PRODUCER_SLEEPING : in + CONSUMER_SLEEPING, 0L);
    }

    @Override
    public void close() {
        // A MappedByteBuffer is unmapped when it is collected; the file is already deleted.
    }
}
