package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge fuzz test (issue 29, docs/limits.md): a seeded stream of hostile connections to a running
 * {@code datsim serve} (short frames, long declared lengths, malformed handshakes, guessed tokens, random requests,
 * abrupt disconnects, stalled readers, silent connections, random bytes, a rings file swapped for a link) while a
 * well-behaved program stays attached to host A and makes a call after every case. The server must survive every
 * case, the program's calls must all succeed with simulated time never going back, no guessed token may join a
 * program, no file outside the server's own directories may change, and the log must hold no stack trace.
 *
 * <p>300 cases by default; the soak: {@code -Ddatsim.bridge.fuzz.cases=10000} (or DATSIM_BRIDGE_SOAK=10000), another
 * seed with {@code -Ddatsim.bridge.fuzz.seed=N}.
 */
class BridgeFuzzTest {

    @TempDir
    Path dir;

    static final int CASES = Integer.getInteger("datsim.bridge.fuzz.cases",
            Integer.parseInt(System.getenv().getOrDefault("DATSIM_BRIDGE_SOAK", "300")));
    static final long SEED = Long.getLong("datsim.bridge.fuzz.seed", 29L);

    private static final String[] KINDS = {"short frame", "long declared length", "malformed hello",
        "guessed token", "abrupt disconnect", "random requests", "stalled reader", "silent connection",
        "random bytes", "rings swapped for a link"};

    private final List<SocketChannel> silent = new ArrayList<>();
    private Path sock;
    private Path victim;

    @Test
    void theServerSurvivesHostileConnectionsAndAWellBehavedProgramIsUnaffected() throws Exception {
        Path fabric = dir.resolve("fabric.json");
        Files.writeString(fabric, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        sock = dir.resolve("s.sock");
        victim = dir.resolve("victim/datsim-1-2-3");
        Files.createDirectories(victim.getParent());
        Files.writeString(victim, "a user's file");
        Path shm = Files.createDirectory(dir.resolve("shm"));
        StringWriter log = new StringWriter();
        String before = System.setProperty("datsim.bridge.shm", shm.toString());
        BridgeServer server;
        int[] rc = {-1};
        Throwable[] died = {null};
        Thread t;
        try {
            server = new BridgeServer(ScenarioLoader.load(fabric), sock, 50, 0, new PrintWriter(log));
            server.timeouts(200, 300);
            t = new Thread(() -> {
                try {
                    rc[0] = server.serve(dir.resolve("out"));
                } catch (Throwable e) {
                    died[0] = e;
                }
            });
            t.start();
            while (!Files.exists(sock)) {
                Thread.sleep(10);
            }
        } finally {
            restore(before);
        }
        long start = System.nanoTime();
        TreeMap<String, Integer> histogram = new TreeMap<>();
        Random rnd = new Random(SEED);
        try (BridgeServerTest.Client good = new BridgeServerTest.Client(sock)) {
            good.timeoutMs = 20_000;
            assertEquals(DatReturn.SUCCESS, good.call(Protocol.C_HELLO, "A", 1, 0));
            good.in.getInt();
            byte[] token = new byte[Handshake.TOKEN_BYTES];
            good.in.get(token);
            assertEquals(DatReturn.SUCCESS, good.call(Request.IA_OPEN.code(), "datsim-A", 8, 0));
            int ia = good.in.getInt();
            assertEquals(DatReturn.SUCCESS, good.call(Request.PZ_CREATE.code(), ia));
            int pz = good.in.getInt();
            long now = good.now;
            for (int i = 0; i < CASES; i++) {
                int kind = rnd.nextInt(KINDS.length);
                histogram.merge(KINDS[kind], 1, Integer::sum);
                String what = "case " + i + " (" + KINDS[kind] + ", seed " + SEED + ")";
                try {
                    run(kind, rnd);
                } catch (IOException e) {
                    // the server closed this connection: what it should do with most of them
                }
                assertTrue(t.isAlive(), what + " ended the server: " + trace(died[0]) + "\n" + tail(log));
                int ret;
                try {
                    ret = good.call(Request.HANDLE_TYPE.code(), pz);
                } catch (IOException e) {
                    throw new AssertionError(what + ": the program's call failed (" + e + "); the server: "
                            + trace(died[0]) + "\n" + tail(log), e);
                }
                assertEquals(DatReturn.SUCCESS, ret, what + "\n" + tail(log));
                assertEquals(DatHandle.TYPE_PZ, good.in.getInt(), what);
                assertTrue(good.now >= now, what + ": simulated time went back");
                now = good.now;
                if (silent.size() > 40) {
                    closeSilent();
                }
            }
            assertEquals(DatReturn.SUCCESS, good.call(Request.PZ_FREE.code(), pz));
        } finally {
            closeSilent();
            server.stop();
            t.join(30_000);
            System.out.println("bridge fuzz: " + CASES + " cases (seed " + SEED + ") in "
                    + (System.nanoTime() - start) / 1_000_000 + " ms: " + histogram);
        }
        String out = log.toString();
        assertFalse(t.isAlive(), "the server stops when asked");
        assertEquals(null, died[0], trace(died[0]) + tail(log));
        assertTrue(rc[0] == 0 || rc[0] == 1, "serve's exit code " + rc[0]);
        assertFalse(out.contains("\tat ") || out.contains("Exception:"), "no stack trace: " + tail(log));
        assertFalse(out.contains("another thread attached"), "no guessed token joined a program");
        assertEquals("a user's file", Files.readString(victim), "a file outside the server's directories");
        try (var left = Files.list(shm)) {
            assertEquals(0, left.count(), "the server's rings directory is gone");
        }
        assertFalse(Files.exists(sock), "the socket is gone");
    }

    private static void restore(String before) {
        if (before == null) {
            System.clearProperty("datsim.bridge.shm");
        } else {
            System.setProperty("datsim.bridge.shm", before);
        }
    }

    private static String trace(Throwable e) {
        if (e == null) {
            return "alive";
        }
        StringWriter w = new StringWriter();
        e.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    private static String tail(StringWriter log) {
        String s = log.toString();
        return s.length() > 4000 ? s.substring(s.length() - 4000) : s;
    }

    private void run(int kind, Random rnd) throws Exception {
        switch (kind) {
            case 0 -> {
                try (SocketChannel c = open()) {
                    byte[] b = new byte[rnd.nextInt(8)];
                    rnd.nextBytes(b);
                    write(c, ByteBuffer.wrap(b));
                }
            }
            case 1 -> {
                int[] lens = {Integer.MAX_VALUE, 64 << 20, 1 << 20, -1, 5000, Handshake.MAX_FRAME, 0, 3};
                try (SocketChannel c = open()) {
                    ByteBuffer b = le(64).putInt(lens[rnd.nextInt(lens.length)]).putInt(Protocol.C_HELLO);
                    for (int i = rnd.nextInt(40); i > 0; i--) {
                        b.put((byte) rnd.nextInt());
                    }
                    write(c, b.flip());
                    if (rnd.nextBoolean()) {
                        drain(c, 300);
                    }
                }
            }
            case 2 -> {
                try (SocketChannel c = open()) {
                    write(c, badHello(rnd));
                    drain(c, 500);
                }
            }
            case 3 -> {
                try (SocketChannel c = open()) {
                    byte[] guess = new byte[rnd.nextInt(4) == 0 ? 4 : Handshake.TOKEN_BYTES];
                    rnd.nextBytes(guess);
                    ByteBuffer b = le(64);
                    if (rnd.nextBoolean()) {
                        b.putInt(4 + guess.length).putInt(Protocol.C_SIDE).put(guess);
                    } else {
                        b.putInt(16 + guess.length).putInt(Protocol.C_THREAD).putLong(0).put(guess).putInt(0);
                    }
                    write(c, b.flip());
                    drain(c, 500);
                }
            }
            case 4 -> {
                try (SocketChannel c = open()) {
                    write(c, hello("B", rnd.nextBoolean()));
                    int how = rnd.nextInt(3);
                    if (how > 0) {
                        readFrame(c);
                    }
                    if (how == 2) {
                        write(c, le(16).putInt(40).putInt(Request.IA_OPEN.code()).putLong(0).flip());
                    }
                }
            }
            case 5 -> {
                try (SocketChannel c = open()) {
                    write(c, hello("B", false));
                    readFrame(c);
                    for (int n = 1 + rnd.nextInt(20); n > 0; n--) {
                        int code = rnd.nextInt(8) == 0 ? rnd.nextInt() : 1 + rnd.nextInt(Request.values().length + 1);
                        byte[] payload = new byte[rnd.nextInt(48)];
                        rnd.nextBytes(payload);
                        ByteBuffer b = le(8 + payload.length).putInt(4 + payload.length).putInt(code).put(payload);
                        write(c, b.flip());
                        if (rnd.nextBoolean() && !drainOne(c)) {
                            break;
                        }
                    }
                }
            }
            case 6 -> {
                try (SocketChannel c = open()) {
                    write(c, hello("B", false));
                    readFrame(c);
                    ByteBuffer b = le(20 * 2000);
                    for (int i = 0; i < 2000; i++) {
                        b.putInt(16).putInt(Request.GET_CTX.code()).putLong(0).putInt(0);
                    }
                    write(c, b.flip());
                    Thread.sleep(20);
                }
            }
            case 7 -> silent.add(open());
            case 8 -> {
                try (SocketChannel c = open()) {
                    byte[] b = new byte[1 + rnd.nextInt(2000)];
                    rnd.nextBytes(b);
                    write(c, ByteBuffer.wrap(b));
                    drain(c, 100);
                }
            }
            default -> {
                try (SocketChannel c = open()) {
                    write(c, hello("B", true));
                    ByteBuffer r = readFrame(c);
                    if (r.getInt(16) != DatReturn.SUCCESS) {
                        return; // host B is still taken by an earlier case's program
                    }
                    r.position(8 + 8 + 4 + 4 + Handshake.TOKEN_BYTES + 8 + 4);
                    byte[] p = new byte[r.getInt()];
                    r.get(p);
                    Path rings = Path.of(new String(p, StandardCharsets.UTF_8));
                    Files.delete(rings);
                    Files.createSymbolicLink(rings, victim);
                    write(c, le(16).putInt(12).putInt(Request.IA_OPEN.code()).putLong(0).flip());
                    drain(c, 100);
                }
            }
        }
    }

    private SocketChannel open() throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(sock));
    }

    private void closeSilent() throws IOException {
        for (SocketChannel c : silent) {
            c.close();
        }
        silent.clear();
    }

    private static ByteBuffer le(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void write(SocketChannel c, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            c.write(b);
        }
    }

    static ByteBuffer hello(String host, boolean rings) {
        byte[] h = host.getBytes(StandardCharsets.UTF_8);
        ByteBuffer b = le(32 + h.length);
        b.putInt(0).putInt(Protocol.C_HELLO).putLong(0).putInt(h.length).put(h).putInt(77).putInt(rings ? 1 : 0);
        return b.putInt(0, b.position() - 4).flip();
    }

    /** A hello wrong in one of its fields. */
    private static ByteBuffer badHello(Random rnd) {
        ByteBuffer b = le(600).putInt(0).putInt(Protocol.C_HELLO);
        int v = rnd.nextInt(8);
        if (v != 0) {
            b.putLong(0);
        }
        int[] names = {-1, 0, 300, 100, Integer.MIN_VALUE};
        int n = v == 1 ? names[rnd.nextInt(names.length)] : 1;
        b.putInt(n);
        if (v == 2) {
            b.put((byte) 0xC3); // not UTF-8 on its own
        } else if (v != 1) {
            b.put((byte) (v == 3 ? 'Z' : 'B'));
        }
        if (v != 4) {
            b.putInt(9);
            if (v != 5) {
                b.putInt(v == 6 ? 7 : 0);
            }
        }
        if (v == 7) {
            b.putInt(1234); // bytes after the fields
        }
        return b.putInt(0, b.position() - 4).flip();
    }

    /** Reads one frame (length, code, payload) in blocking mode. */
    private static ByteBuffer readFrame(SocketChannel c) throws IOException {
        ByteBuffer h = le(4);
        readFully(c, h);
        int len = h.getInt(0);
        if (len < 4 || len > 1 << 20) {
            throw new IOException("a reply of " + len + " bytes");
        }
        ByteBuffer f = le(4 + len).putInt(len);
        readFully(c, f);
        return f.flip();
    }

    private static void readFully(SocketChannel c, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            if (c.read(b) < 0) {
                throw new java.io.EOFException();
            }
        }
    }

    /** Reads a reply or end of file within a short time; false when the connection ended or nothing came. */
    private static boolean drainOne(SocketChannel c) throws IOException {
        c.configureBlocking(false);
        ByteBuffer b = le(4096);
        long end = System.nanoTime() + 200_000_000L;
        try {
            while (System.nanoTime() < end) {
                int n = c.read(b);
                if (n < 0) {
                    return false;
                }
                if (n > 0) {
                    return true;
                }
                Thread.sleep(1);
            }
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            c.configureBlocking(true);
        }
    }

    /** Reads whatever comes until end of file or {@code ms} pass. */
    private static void drain(SocketChannel c, long ms) throws IOException {
        c.configureBlocking(false);
        ByteBuffer b = le(4096);
        long end = System.nanoTime() + ms * 1_000_000L;
        try {
            while (System.nanoTime() < end) {
                b.clear();
                if (c.read(b) < 0) {
                    return;
                }
                Thread.sleep(1);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A program that stops reading: the write fails at its deadline instead of holding the server. */
    @Test
    void aProgramThatStopsReadingIsCutOffAfterTheWriteDeadline() throws Exception {
        Path s = dir.resolve("w.sock");
        try (var ss = java.nio.channels.ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ss.bind(UnixDomainSocketAddress.of(s));
            try (SocketChannel reader = SocketChannel.open(UnixDomainSocketAddress.of(s));
                    Wire w = new Wire(ss.accept())) {
                w.writeTimeoutNs(200_000_000L);
                long t0 = System.nanoTime();
                IOException e = org.junit.jupiter.api.Assertions.assertThrows(IOException.class, () -> {
                    for (int i = 0; i < 64; i++) {
                        w.begin(Protocol.S_MEMWRITE);
                        w.room(1 << 20).put(new byte[1 << 20]);
                        w.send();
                    }
                });
                long ms = (System.nanoTime() - t0) / 1_000_000;
                assertTrue(e.getMessage().contains("did not read what datsim sent it for 200 ms"), e.getMessage());
                assertTrue(ms < 5_000, "cut off after the deadline, not held: " + ms + " ms");
                assertTrue(reader.isOpen());
            }
        }
    }
}
