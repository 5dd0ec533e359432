package org.datsim.scenario.bridge;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One attached process's connection: frames in ({@link #next}) and out ({@link #begin} ... {@link #send}), with a
 * bounded wait for the next frame and a deadline on every write (a program that stops reading is cut off, never
 * waited for without end). A frame's length is checked against {@link Protocol#MAX_FRAME} before it is read, and
 * the receive buffer grows only as bytes arrive. The bytes go over the socket, or, once {@link #useShared} is
 * called (or the library's first frame takes the rings {@link #offerShared} offered), through the shared-memory
 * rings of {@link SharedRings} (the same bytes; the socket then carries wake tokens only). Single-threaded: only
 * the simulator's thread uses it.
 */
final class Wire implements AutoCloseable {

    private final SocketChannel ch;
    private final Selector readable;
    private ByteBuffer rx = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    private int rxStart;
    private ByteBuffer tx = ByteBuffer.allocate(1 << 16).order(ByteOrder.LITTLE_ENDIAN);
    /** The payload of the last frame {@link #next} returned, positioned after its code. */
    private ByteBuffer frame = ByteBuffer.allocate(0).order(ByteOrder.LITTLE_ENDIAN);
    private int code;
    /** Where the frame being built starts in {@code tx}. */
    private int frameStart;
    /** Kept frames (memory writes) are sent once they pass this many bytes. */
    private static final int FLUSH_AT = 1 << 20;
    /**
     * Empty reads before sleeping in the selector. None: on the 2-core development machine, loaded, spinning read()s
     * made the bridge slower (14,600 calls/s against 20,400 without), as they take the CPU the program needs.
     */
    private static final int SPINS = Integer.getInteger("datsim.bridge.spins", 0);
    /** The shared-memory rings, or null while the bytes go over the socket. */
    private SharedRings shm;
    /** The longest a wait on the rings spins before it sleeps on the socket (ns; 0: never spins). */
    private long spinNs;
    /**
     * The current spin budget: halved (down to an eighth of {@link #spinNs}) after a spin that ended in a sleep,
     * doubled back after one that found its bytes, so that a side that mostly waits long does not burn the CPU
     * its peer needs on a loaded machine.
     */
    private long budgetNs;
    /** Spins with a pause instruction before it yields the CPU at each turn. */
    private static final int YIELD_AFTER = 256;
    private final ByteBuffer token = ByteBuffer.allocateDirect(1);
    private final ByteBuffer tokens = ByteBuffer.allocateDirect(256);

    /** The rings offered in the handshake's reply, not yet taken or refused by the library's first frame. */
    private SharedRings offered;
    /** Told when the offered rings are decided on (their file can go). */
    private java.util.function.Consumer<SharedRings> decided;
    /** The most wall time a write waits for the program to make room (ns). */
    private long writeTimeoutNs = 10_000_000_000L;
    /** Waits between two looks at a full socket before giving up (ns). */
    private static final long WRITE_PAUSE_NS = 100_000L;

    Wire(SocketChannel ch) throws IOException {
        this(ch, null);
    }

    /**
     * A connection whose first bytes were read already (those after its handshake frame, if any).
     *
     * @param ch the connection
     * @param already bytes read from it, or null
     */
    Wire(SocketChannel ch, ByteBuffer already) throws IOException {
        this.ch = ch;
        ch.configureBlocking(false);
        this.readable = Selector.open();
        ch.register(readable, SelectionKey.OP_READ);
        if (already != null && already.hasRemaining()) {
            if (rx.remaining() < already.remaining()) {
                rx = ByteBuffer.allocate(already.remaining()).order(ByteOrder.LITTLE_ENDIAN);
            }
            rx.put(already);
        }
    }

    /**
     * Sets the most wall time a write waits for the program to read (past it, the write fails and the connection
     * ends: a program that stops reading its replies holds nobody else up for longer).
     */
    void writeTimeoutNs(long ns) {
        writeTimeoutNs = ns;
    }

    /**
     * Offers the library shared-memory rings (named in the handshake's reply): the library's first frame after it
     * decides, coming through the rings (taken) or the socket (refused, or the library could not map them).
     * Nothing is sent to the library before that frame.
     *
     * @param rings the rings, created with {@link #waker} as their waker
     * @param spinUs as {@link #useShared}
     * @param whenDecided told once, either way, or when the connection closes first
     */
    void offerShared(SharedRings rings, long spinUs, java.util.function.Consumer<SharedRings> whenDecided) {
        offered = rings;
        decided = whenDecided;
        spinNs = spinUs * 1000;
        budgetNs = spinNs;
    }

    /** Ends an offer: the library's first frame came through {@code taken} true the rings, else the socket. */
    private void decide(boolean taken) {
        SharedRings r = offered;
        offered = null;
        if (taken) {
            shm = r;
        }
        decided.accept(r);
    }

    /**
     * Moves the connection's bytes to shared-memory rings (after the handshake that named them, sent and read on
     * the socket).
     *
     * @param rings the rings, mapped with {@link #waker} as their waker
     * @param spinUs the longest a wait spins before it sleeps on the socket, in microseconds (0: never)
     */
    void useShared(SharedRings rings, long spinUs) {
        shm = rings;
        spinNs = spinUs * 1000;
        budgetNs = spinNs;
    }

    /** Whether the connection's bytes go through shared memory. */
    boolean shared() {
        return shm != null;
    }

    /** Sends the other side one wake token on the socket (the waker of this connection's rings). */
    SharedRings.Waker waker() {
        return () -> {
            token.clear();
            ch.write(token); // a full socket already holds tokens the other side has not read: one is enough
        };
    }

    /** Returns the code of the frame {@link #next} returned. */
    int code() {
        return code;
    }

    /** Returns the frame {@link #next} returned, positioned after its code; valid until the next call. */
    ByteBuffer frame() {
        return frame;
    }

    /**
     * Waits for the next frame.
     *
     * @param timeoutNs the most wall time to wait, in nanoseconds (0: do not wait; negative: no bound)
     * @return true when a frame is there, false on timeout
     * @throws EOFException when the process closed its socket
     */
    boolean next(long timeoutNs) throws IOException {
        long deadline = timeoutNs < 0 ? Long.MAX_VALUE : System.nanoTime() + timeoutNs;
        int spins = 0;
        while (true) {
            int have = rx.position() - rxStart;
            int need = 4;
            if (have >= 4) {
                int len = rx.getInt(rxStart);
                if (len < 4 || len > Protocol.MAX_FRAME) {
                    throw new IOException("a frame of " + Integer.toUnsignedString(len)
                            + " bytes: not the datsim bridge protocol");
                }
                if (have >= 4 + len) {
                    code = rx.getInt(rxStart + 4);
                    if (frame.capacity() < len - 4) {
                        frame = ByteBuffer.allocate(Math.max(len - 4, frame.capacity() * 2))
                                .order(ByteOrder.LITTLE_ENDIAN);
                    }
                    frame.clear();
                    frame.put(rx.array(), rxStart + 8, len - 4).flip();
                    rxStart += 4 + len;
                    return true;
                }
                need = 4 + len;
            }
            if (rxStart > 0 && (rx.remaining() < 4096 || rxStart == rx.position())) {
                rx.limit(rx.position()).position(rxStart);
                rx.compact();
                rxStart = 0;
            }
            if (!rx.hasRemaining()) {
                // Grown as the bytes come, never to what a length field declares before they are there.
                ByteBuffer bigger = ByteBuffer.allocate((int) Math.min(need, 2L * rx.capacity()))
                        .order(ByteOrder.LITTLE_ENDIAN);
                rx.flip();
                bigger.put(rx);
                rx = bigger;
            }
            if (offered != null) {
                int n = ch.read(rx);
                if (n < 0) {
                    decide(false);
                    throw new EOFException("closed");
                }
                if (n > 0) {
                    decide(false); // the library's first frame came on the socket: it did not take the rings
                    continue;
                }
                if (offered.readable()) {
                    decide(true);
                    continue;
                }
                long left = deadline - System.nanoTime();
                if (timeoutNs == 0 || left <= 0) {
                    return false;
                }
                readable.selectedKeys().clear();
                readable.select(1); // the rings wake nobody before they are taken: look again each millisecond
                continue;
            }
            int n = shm != null ? shm.read(rx) : ch.read(rx);
            if (n < 0) {
                throw new EOFException("closed");
            }
            if (n > 0) {
                spins = 0;
                continue;
            }
            if (shm != null) {
                if (!awaitShared(false, timeoutNs == 0, deadline)) {
                    return false;
                }
                continue;
            }
            if (spins++ < SPINS) {
                Thread.onSpinWait();
                continue;
            }
            long left = deadline - System.nanoTime();
            if (timeoutNs == 0 || left <= 0) {
                return false;
            }
            readable.selectedKeys().clear();
            readable.select(Math.max(1, Math.min(left / 1_000_000, 1000)));
        }
    }

    /** Starts an outgoing frame after those not yet sent. */
    ByteBuffer begin(int frameCode) {
        room(8);
        frameStart = tx.position();
        tx.putInt(0).putInt(frameCode);
        return tx;
    }

    /** Makes room for {@code n} more outgoing bytes. */
    ByteBuffer room(int n) {
        if (tx.remaining() < n) {
            ByteBuffer bigger = ByteBuffer.allocate(Math.max(tx.capacity() * 2, tx.position() + n))
                    .order(ByteOrder.LITTLE_ENDIAN);
            tx.flip();
            bigger.put(tx);
            tx = bigger;
        }
        return tx;
    }

    /** Ends the frame begun with {@link #begin} and keeps it to send with the next {@link #send} or {@link #flush}. */
    void end() throws IOException {
        tx.putInt(frameStart, tx.position() - frameStart - 4);
        if (tx.position() > FLUSH_AT) {
            flush();
        }
    }

    /** Ends the frame begun with {@link #begin} and sends it with every frame kept before it. */
    void send() throws IOException {
        tx.putInt(frameStart, tx.position() - frameStart - 4);
        flush();
    }

    /** Sends the frames kept. */
    void flush() throws IOException {
        if (tx.position() == 0) {
            return;
        }
        tx.flip();
        long deadline = 0;
        int idle = 0;
        while (tx.hasRemaining()) {
            if (shm != null) {
                if (shm.write(tx) == 0) {
                    if (deadline == 0) {
                        deadline = System.nanoTime() + writeTimeoutNs;
                    }
                    if (!awaitShared(true, false, deadline) && System.nanoTime() - deadline >= 0) {
                        throw stalled();
                    }
                }
            } else if (ch.write(tx) == 0) {
                if (deadline == 0) {
                    deadline = System.nanoTime() + writeTimeoutNs;
                } else if (System.nanoTime() - deadline >= 0) {
                    throw stalled();
                }
                if (++idle < 64) {
                    Thread.onSpinWait();
                } else {
                    java.util.concurrent.locks.LockSupport.parkNanos(WRITE_PAUSE_NS);
                }
            } else {
                idle = 0;
            }
        }
        tx.clear();
    }

    private IOException stalled() {
        tx.clear();
        return new IOException("it did not read what datsim sent it for " + writeTimeoutNs / 1_000_000
                + " ms; its connection is closed");
    }

    /**
     * Waits until the rings have bytes to read ({@code forRoom} false) or room to write: spins for the current
     * budget, then sleeps on the socket for a wake token (the eventcount of {@link SharedRings}). The socket's end
     * of file (the program died) ends any wait.
     *
     * @param poll only look (drain the tokens and see whether the socket closed), do not wait
     * @param deadline System.nanoTime() past which to give up
     * @return true when the rings may be ready (look again), false when the deadline passed or, polling, not ready
     * @throws EOFException when the socket closed
     */
    private boolean awaitShared(boolean forRoom, boolean poll, long deadline) throws IOException {
        if (poll) {
            drainTokens();
            return forRoom ? shm.writable() : shm.readable();
        }
        long now = System.nanoTime();
        if (budgetNs > 0) {
            long spinEnd = now + Math.min(budgetNs, Math.max(0, deadline - now));
            for (int i = 1;; i++) {
                if (forRoom ? shm.writable() : shm.readable()) {
                    budgetNs = Math.min(spinNs, budgetNs * 2);
                    return true;
                }
                if ((i & 15) == 0 && (now = System.nanoTime()) >= spinEnd) {
                    break;
                }
                if (i < YIELD_AFTER) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
            budgetNs = Math.max(spinNs / 8, budgetNs / 2);
        }
        shm.sleeping(forRoom);
        try {
            if (forRoom ? shm.writable() : shm.readable()) {
                return true;
            }
            long left = deadline - now;
            if (left <= 0) {
                drainTokens(); // a closed socket is said even at a deadline
                return false;
            }
            readable.selectedKeys().clear();
            readable.select(Math.max(1, Math.min(left / 1_000_000, 1000)));
            if (Thread.currentThread().isInterrupted()) {
                throw new java.io.InterruptedIOException("interrupted while waiting for the program");
            }
            drainTokens();
            return true;
        } finally {
            shm.awake(forRoom);
        }
    }

    /** Reads the wake tokens the socket holds; a closed socket is an EOFException. */
    private void drainTokens() throws IOException {
        while (true) {
            tokens.clear();
            int n = ch.read(tokens);
            if (n < 0) {
                throw new EOFException("closed");
            }
            if (n < tokens.capacity()) {
                return;
            }
        }
    }

    @Override
    public void close() {
        if (offered != null) {
            decide(false);
        }
        try {
            readable.close();
            ch.close();
        } catch (IOException e) {
            // closing a socket whose peer is gone: nothing to do
        }
    }
}
