package org.datsim.scenario.bridge;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a running {@code datsim serve} tells {@code datsim exec} ({@link Protocol#C_INFO}): the dat.conf it wrote,
 * its provider library and its hosts.
 *
 * @param datConf the dat.conf that names one provider entry per host
 * @param library the provider library (libdatsim.so); the clock interposer libdatsim_clock.so is beside it
 * @param hosts the fabric's hosts, in order
 */
public record ServerInfo(Path datConf, Path library, List<String> hosts) {

    /** The most bytes a name in the answer may have. */
    private static final int MAX_NAME = 4096;

    /**
     * Asks the server listening on {@code socket}.
     *
     * @param socket the server's Unix domain socket
     * @return what it answered
     * @throws IOException when nothing listens there or the answer is not the bridge protocol
     */
    public static ServerInfo ask(Path socket) throws IOException {
        try (SocketChannel ch = connect(socket)) {
            ByteBuffer q = ByteBuffer.allocate(16).order(ByteOrder.LITTLE_ENDIAN);
            q.putInt(12).putInt(Protocol.C_INFO).putLong(0).flip();
            while (q.hasRemaining()) {
                ch.write(q);
            }
            ByteBuffer hdr = read(ch, 8);
            int len = hdr.getInt();
            if (hdr.getInt() != Protocol.S_REPLY || len < 16 || len > 1 << 20) {
                throw new IOException("the answer is not the datsim bridge protocol");
            }
            ByteBuffer in = read(ch, len - 4);
            in.getLong();
            in.getInt();
            Path conf = Path.of(string(in));
            Path lib = Path.of(string(in));
            int n = in.getInt();
            if (n < 0 || n > 1 << 16) {
                throw new IOException("the answer is not the datsim bridge protocol");
            }
            List<String> hosts = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                hosts.add(string(in));
            }
            return new ServerInfo(conf, lib, List.copyOf(hosts));
        } catch (java.nio.BufferUnderflowException e) {
            throw new IOException("the answer is not the datsim bridge protocol");
        }
    }

    /** Connects, retrying briefly: the socket file appears when the server binds, a moment before it listens. */
    private static SocketChannel connect(Path socket) throws IOException {
        for (int tries = 0;; tries++) {
            SocketChannel ch = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                ch.connect(UnixDomainSocketAddress.of(socket));
                return ch;
            } catch (java.net.ConnectException e) {
                ch.close();
                if (tries >= 50) {
                    throw e;
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
            }
        }
    }

    private static String string(ByteBuffer in) throws IOException {
        int n = in.getInt();
        if (n < 0 || n > MAX_NAME) {
            throw new IOException("the answer is not the datsim bridge protocol");
        }
        byte[] b = new byte[n];
        in.get(b);
        return new String(b, StandardCharsets.UTF_8);
    }

    /** The most wall time the server has to answer. */
    private static final long ANSWER_MS = 10_000;

    private static ByteBuffer read(SocketChannel ch, int n) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        long end = System.nanoTime() + ANSWER_MS * 1_000_000L;
        ch.configureBlocking(false);
        try (java.nio.channels.Selector s = java.nio.channels.Selector.open()) {
            ch.register(s, java.nio.channels.SelectionKey.OP_READ);
            while (b.hasRemaining()) {
                int got = ch.read(b);
                if (got < 0) {
                    throw new IOException("the server closed the connection");
                }
                long left = (end - System.nanoTime()) / 1_000_000;
                if (got == 0 && left <= 0) {
                    throw new IOException("no answer from the server within " + ANSWER_MS / 1000 + " s");
                }
                if (got == 0) {
                    s.select(left);
                    s.selectedKeys().clear();
                }
            }
        }
        return b.flip();
    }
}
