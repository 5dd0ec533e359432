package org.datsim.scenario.bridge;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.function.Consumer;

/**
 * The thread of {@code datsim serve} that accepts connections and reads their first frame (docs/bridge.md,
 * Security), so that no connection holds up the simulator or another program: each connection's peer must be of
 * the server's user (SO_PEERCRED); its first frame must come within {@link #HANDSHAKE_NS} of wall time, declare at
 * most {@link Handshake#MAX_FRAME} bytes and be one of {@link Handshake}'s forms; at most {@link #MAX_PENDING}
 * connections are in their handshake at once, each with a buffer of that many bytes. Anything else ends that
 * connection with one message naming it. Complete handshakes go, in order, into a bounded queue that the
 * simulator's thread takes ({@link #poll}); this thread wakes it when it puts one there.
 */
final class Acceptor implements Runnable {

    /** The most wall time a connection has to send its first frame. */
    static final long HANDSHAKE_NS = 5_000_000_000L;
    /** The most connections in their handshake at once (more are closed at once). */
    static final int MAX_PENDING = 64;

    /** A connection whose handshake is read and checked. */
    record Accepted(int number, SocketChannel channel, Handshake handshake, ByteBuffer after) {
    }

    private final SocketFile socket;
    private final Consumer<String> say;
    private final Selector wakeSimulator;
    private final Selector selector;
    private final ArrayBlockingQueue<Accepted> ready = new ArrayBlockingQueue<>(MAX_PENDING);
    private final long handshakeNs;
    private int number;
    private volatile boolean stop;

    /** One connection in its handshake. */
    private static final class Pending {
        final int number;
        final SocketChannel ch;
        final long deadline;
        final ByteBuffer in = ByteBuffer.allocate(Handshake.MAX_FRAME).order(ByteOrder.LITTLE_ENDIAN);

        Pending(int number, SocketChannel ch, long deadline) {
            this.number = number;
            this.ch = ch;
            this.deadline = deadline;
        }
    }

    /**
     * Prepares the acceptor.
     *
     * @param socket the listening socket
     * @param say where messages go (called from this thread)
     * @param wakeSimulator the selector the simulator's thread sleeps in
     * @param handshakeNs the most wall time a connection has for its first frame
     * @throws IOException when no selector can be opened
     */
    Acceptor(SocketFile socket, Consumer<String> say, Selector wakeSimulator, long handshakeNs) throws IOException {
        this.socket = socket;
        this.say = say;
        this.wakeSimulator = wakeSimulator;
        this.handshakeNs = handshakeNs;
        this.selector = Selector.open();
        socket.channel().register(selector, SelectionKey.OP_ACCEPT);
    }

    /** Returns the next complete handshake, or null. */
    Accepted poll() {
        return ready.poll();
    }

    /** Stops the thread at its next turn and closes the connections still in their handshake. */
    void stop() {
        stop = true;
        selector.wakeup();
    }

    @Override
    public void run() {
        List<Pending> pending = new ArrayList<>();
        try {
            while (!stop) {
                long now = System.nanoTime();
                long wait = 1000;
                for (Iterator<Pending> it = pending.iterator(); it.hasNext();) {
                    Pending p = it.next();
                    if (now - p.deadline >= 0) {
                        it.remove();
                        drop(p.ch, p.number, "sent no complete first frame within " + handshakeNs / 1_000_000
                                + " ms");
                    } else {
                        wait = Math.min(wait, Math.max(1, (p.deadline - now) / 1_000_000 + 1));
                    }
                }
                selector.select(wait);
                for (Iterator<SelectionKey> it = selector.selectedKeys().iterator(); it.hasNext();) {
                    SelectionKey k = it.next();
                    it.remove();
                    if (!k.isValid()) {
                        continue;
                    }
                    if (k.isAcceptable()) {
                        acceptAll(pending);
                    } else if (k.isReadable()) {
                        Pending p = (Pending) k.attachment();
                        if (read(p, k)) {
                            pending.remove(p);
                        }
                    }
                }
            }
        } catch (IOException | ClosedSelectorException e) {
            if (!stop) {
                say.accept("the socket stopped accepting connections (" + e.getMessage() + ")");
            }
        } finally {
            for (Pending p : pending) {
                close(p.ch);
            }
            Accepted a;
            while ((a = ready.poll()) != null) {
                close(a.channel());
            }
            try {
                selector.close();
            } catch (IOException e) {
                // nothing to do
            }
        }
    }

    private void acceptAll(List<Pending> pending) throws IOException {
        SocketChannel ch;
        while ((ch = socket.channel().accept()) != null) {
            int n = ++number;
            String refusal = socket.refusal(ch);
            if (refusal != null) {
                drop(ch, n, "refused: " + refusal);
                continue;
            }
            if (pending.size() >= MAX_PENDING) {
                drop(ch, n, "refused: " + MAX_PENDING + " connections are in their handshake already");
                continue;
            }
            ch.configureBlocking(false);
            Pending p = new Pending(n, ch, System.nanoTime() + handshakeNs);
            ch.register(selector, SelectionKey.OP_READ, p);
            pending.add(p);
        }
    }

    /** Reads what a connection sent; returns true once it is done with (handed on or closed). */
    private boolean read(Pending p, SelectionKey k) {
        int got;
        try {
            got = p.ch.read(p.in);
        } catch (IOException e) {
            k.cancel();
            drop(p.ch, p.number, "failed in its handshake (" + e.getMessage() + ")");
            return true;
        }
        if (got < 0) {
            k.cancel();
            drop(p.ch, p.number, p.in.position() == 0 ? "closed before its first frame"
                    : "closed inside its first frame (" + p.in.position() + " bytes)");
            return true;
        }
        if (p.in.position() < 4) {
            return false;
        }
        int len = p.in.getInt(0);
        try {
            Handshake.checkLength(len);
        } catch (Handshake.Malformed e) {
            k.cancel();
            drop(p.ch, p.number, "sent " + e.getMessage());
            return true;
        }
        if (p.in.position() < 4 + len) {
            return false;
        }
        k.cancel();
        Handshake h;
        try {
            h = Handshake.parse(p.in.duplicate().position(4).limit(4 + len));
        } catch (Handshake.Malformed e) {
            drop(p.ch, p.number, "sent " + e.getMessage());
            return true;
        }
        ByteBuffer after = p.in.duplicate().flip().position(4 + len);
        ByteBuffer rest = ByteBuffer.allocate(after.remaining()).put(after).flip();
        if (!ready.offer(new Accepted(p.number, p.ch, h, rest))) {
            drop(p.ch, p.number, "refused: too many connections wait for the simulator");
            return true;
        }
        wakeSimulator.wakeup();
        return true;
    }

    private void drop(SocketChannel ch, int n, String why) {
        close(ch);
        say.accept("connection " + n + " " + why + "; closed");
    }

    private static void close(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            // nothing to do
        }
    }
}
