package org.datsim.scenario.bridge;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;

/**
 * One attached process's socket: frames in ({@link #next}) and out ({@link #begin} ... {@link #send}), with a
 * bounded wait for the next frame. Single-threaded: only the simulator's thread uses it.
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

    Wire(SocketChannel ch) throws IOException {
        this.ch = ch;
        ch.configureBlocking(false);
        this.readable = Selector.open();
        ch.register(readable, SelectionKey.OP_READ);
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
            if (have >= 4) {
                int len = rx.getInt(rxStart);
                if (len < 4 || len > Protocol.MAX_FRAME) {
                    throw new IOException("a frame of " + len + " bytes: not the datsim bridge protocol");
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
                if (rx.capacity() < 4 + len) {
                    ByteBuffer bigger = ByteBuffer.allocate(4 + len).order(ByteOrder.LITTLE_ENDIAN);
                    bigger.put(rx.array(), rxStart, have);
                    rx = bigger;
                    rxStart = 0;
                }
            }
            if (rxStart > 0 && (rx.remaining() < 4096 || rxStart == rx.position())) {
                rx.limit(rx.position()).position(rxStart);
                rx.compact();
                rxStart = 0;
            }
            int n = ch.read(rx);
            if (n < 0) {
                throw new EOFException("closed");
            }
            if (n > 0) {
                spins = 0;
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
        while (tx.hasRemaining()) {
            if (ch.write(tx) == 0) {
                Thread.onSpinWait();
            }
        }
        tx.clear();
    }

    @Override
    public void close() {
        try {
            readable.close();
            ch.close();
        } catch (IOException e) {
            // closing a socket whose peer is gone: nothing to do
        }
    }
}
