package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A program attached to {@code datsim serve} written in Java, framing its requests as provider/libdatsim.so does
 * (no gcc or dapl needed), with the request codes of {@link Request}. Unlike {@link BridgeServerTest}'s client it
 * serves the memory the fabric reads and writes while it is inside a call (zeros; writes are dropped), so that it
 * can move data.
 */
final class ProgramClient implements AutoCloseable {

    private final SocketChannel ch;
    /** The reply's payload after its DAT_RETURN. */
    ByteBuffer in;
    /** The simulated time of the last reply (ps). */
    long now;

    ProgramClient(Path socket) throws Exception {
        ch = connect(socket);
    }

    /**
     * Connects to the server's socket, retrying for about 2 s: the socket file appears at bind, a moment before
     * listen.
     */
    static SocketChannel connect(Path socket) throws Exception {
        for (int i = 0;; i++) {
            SocketChannel c = SocketChannel.open(StandardProtocolFamily.UNIX);
            try {
                c.connect(UnixDomainSocketAddress.of(socket));
                return c;
            } catch (java.net.ConnectException e) {
                c.close();
                if (i > 200) {
                    throw e;
                }
                Thread.sleep(10);
            }
        }
    }

    /** An IOV or RMR triplet argument (u32 context, u64 address, u64 length); an IOV is a count then triplets. */
    record Triplet(int context, long address, long length) {
    }

    /** Makes a request and returns its DAT_RETURN; its outputs are in {@link #in}. */
    int call(Request r, Object... args) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0).putInt(r.code()).putLong(0);
        for (Object a : args) {
            if (a instanceof Integer i) {
                b.putInt(i);
            } else if (a instanceof Long l) {
                b.putLong(l);
            } else if (a instanceof Triplet t) {
                b.putInt(t.context()).putLong(t.address()).putLong(t.length());
            } else if (a instanceof byte[] bytes) {
                b.putInt(bytes.length).put(bytes);
            } else {
                byte[] s = ((String) a).getBytes(StandardCharsets.UTF_8);
                b.putInt(s.length).put(s);
            }
        }
        b.putInt(0, b.position() - 4).flip();
        write(b);
        while (true) {
            ByteBuffer hdr = read(8);
            int len = hdr.getInt();
            int code = hdr.getInt();
            ByteBuffer f = read(len - 4);
            if (code == Protocol.S_MEMREAD) {
                f.getLong();
                int n = f.getInt();
                ByteBuffer d = ByteBuffer.allocate(8 + n).order(ByteOrder.LITTLE_ENDIAN);
                d.putInt(4 + n).putInt(Protocol.P_MEMDATA).position(8 + n);
                write(d.flip());
                continue;
            }
            if (code == Protocol.S_MEMWRITE) {
                continue;
            }
            assertEquals(Protocol.S_REPLY, code, "a reply");
            in = f;
            now = in.getLong();
            return in.getInt();
        }
    }

    /** The fields of an event a wait or dequeue returned (after the wait's count of events left). */
    record Event(int number, int evd, int ep, int cr, long cookie, int status, long length) {
    }

    /** Reads the event of a successful dat_evd_wait's reply. */
    Event waitEvent() {
        in.getInt(); // nmore
        int number = in.getInt();
        int evd = in.getInt();
        int ep = in.getInt();
        int cr = in.getInt();
        in.getInt(); // sp
        in.getInt(); // rmr
        long cookie = in.getLong();
        int status = in.getInt();
        in.getInt(); // operation
        long length = in.getLong();
        return new Event(number, evd, ep, cr, cookie, status, length);
    }

    private void write(ByteBuffer b) throws Exception {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private ByteBuffer read(int n) throws Exception {
        ByteBuffer b = ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b) < 0) {
                throw new java.io.EOFException();
            }
        }
        return b.flip();
    }

    @Override
    public void close() throws Exception {
        ch.close();
    }

    /** A program's body, run on a thread of its own ({@link #start}). */
    interface Body {
        void run() throws Exception;
    }

    /** Starts a program on a thread; what it throws goes to {@code failed[i]}. */
    static Thread start(Body body, Throwable[] failed, int i) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failed[i] = e;
            }
        });
        t.start();
        return t;
    }

    /** Asserts DAT_SUCCESS, naming the type and subtype of anything else. */
    static void ok(ProgramClient c, int ret) {
        org.junit.jupiter.api.Assertions.assertEquals(org.datsim.fabric.dat.DatReturn.SUCCESS, ret,
                org.datsim.fabric.dat.DatReturn.typeName(ret) + " " + org.datsim.fabric.dat.DatReturn.subtypeName(ret));
    }

    /** Creates an EVD of 64 entries with these flags and returns its handle. */
    static int evd(ProgramClient c, int ia, int flags) throws Exception {
        ok(c, c.call(Request.EVD_CREATE, ia, 64, 0, flags));
        return c.in.getInt();
    }
}
