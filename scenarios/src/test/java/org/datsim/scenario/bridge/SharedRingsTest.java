package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.EOFException;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.atomic.AtomicReference;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shared-memory transport (docs/bridge.md, Protocol): two {@link Wire}s over one rings file and one Unix socket
 * pair, one playing the server and one the library, hammered from two threads (every frame arrives, in order, with
 * its bytes; no wake-up is lost, so nothing hangs); a peer that dies ends a wait; the server maps a library's rings
 * or says why it keeps to the socket.
 */
class SharedRingsTest {

    @TempDir
    Path dir;

    /** Writes an empty rings file as the library does: the header, then zeros. */
    static Path ringsFile(Path dir, String name, int size) throws IOException {
        Path f = dir.resolve(name);
        try (FileChannel fc = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            ByteBuffer h = ByteBuffer.allocate(12).order(ByteOrder.LITTLE_ENDIAN);
            h.putInt(SharedRings.MAGIC).putInt(SharedRings.VERSION).putInt(size).flip();
            fc.write(h, 0);
            fc.write(ByteBuffer.allocate(1), SharedRings.bytes(size) - 1);
        }
        return f;
    }

    /** Both ends of one connection: {@code lib} plays the library, {@code srv} the server. */
    record Pair(Wire lib, Wire srv) implements AutoCloseable {
        @Override
        public void close() {
            lib.close();
            srv.close();
        }
    }

    Pair pair(int ringSize, long spinUs) throws IOException {
        Path sock = dir.resolve("p" + System.nanoTime() + ".sock");
        try (ServerSocketChannel ss = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
            ss.bind(UnixDomainSocketAddress.of(sock));
            SocketChannel c = SocketChannel.open(UnixDomainSocketAddress.of(sock));
            SocketChannel a = ss.accept();
            Path f = ringsFile(dir, "datsim-" + System.nanoTime(), ringSize);
            Wire lib = new Wire(c);
            lib.useShared(SharedRings.map(f, false, lib.waker()), spinUs);
            Wire srv = new Wire(a);
            srv.useShared(SharedRings.map(f, true, srv.waker()), spinUs);
            assertFalse(Files.exists(f), "the server deletes the file once it mapped it");
            return new Pair(lib, srv);
        }
    }

    /** Frame i's payload length: mostly small, every 997th larger than the ring (written in pieces). */
    private static int length(int i) {
        return i % 997 == 0 ? 9000 + (i % 5) * 1000 : (int) ((i * 7919L) % 200);
    }

    private static byte at(int i, int j) {
        return (byte) (i * 31 + j * 7);
    }

    /**
     * The library sends {@code frames} frames in bursts (some sent one by one, some kept and flushed together, so
     * writes wrap the 4 KiB ring and fill it); the server checks each frame's code, length and every byte, and
     * answers each burst with the sum of its lengths, which the library checks. Every wait is bounded (10 s), so a
     * lost wake-up fails the test instead of hanging it.
     */
    private void hammer(int frames, int burst, long spinUs) throws Exception {
        try (Pair p = pair(4096, spinUs)) {
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread server = new Thread(() -> {
                try {
                    long sum = 0;
                    for (int i = 0; i < frames; i++) {
                        assertTrue(p.srv.next(10_000_000_000L), "frame " + i + " came");
                        assertEquals(i, p.srv.code(), "frames in order");
                        ByteBuffer f = p.srv.frame();
                        assertEquals(length(i), f.remaining(), "frame " + i + "'s length");
                        for (int j = 0; j < length(i); j++) {
                            if (f.get() != at(i, j)) {
                                throw new AssertionError("frame " + i + " byte " + j);
                            }
                        }
                        sum += length(i);
                        if (i % burst == burst - 1 || i == frames - 1) {
                            p.srv.begin(i).putLong(sum);
                            p.srv.send();
                            sum = 0;
                        }
                    }
                } catch (Throwable e) {
                    failed.set(e);
                    p.srv.close(); // the library's side sees the end of file instead of waiting for room
                }
            });
            server.start();
            long sum = 0;
            for (int i = 0; i < frames && failed.get() == null; i++) {
                ByteBuffer b = p.lib.begin(i);
                b = p.lib.room(length(i));
                for (int j = 0; j < length(i); j++) {
                    b.put(at(i, j));
                }
                sum += length(i);
                if ((i / burst) % 2 == 0) {
                    p.lib.send();
                } else {
                    p.lib.end();
                }
                if (i % burst == burst - 1 || i == frames - 1) {
                    p.lib.flush();
                    assertTrue(p.lib.next(10_000_000_000L), "the answer to the burst ending at " + i);
                    assertEquals(i, p.lib.code());
                    assertEquals(sum, p.lib.frame().getLong(), "the server got every byte of the burst");
                    sum = 0;
                }
            }
            server.join(30_000);
            if (failed.get() != null) {
                throw new AssertionError(failed.get());
            }
            assertFalse(server.isAlive());
        }
    }

    @Test
    @Timeout(300)
    void aMillionFramesCrossTheRingsWithAShortSpinNoneLostNoneReordered() throws Exception {
        hammer(Integer.getInteger("datsim.hammer.frames", 1_000_000), 64, 3);
    }

    @Test
    @Timeout(300)
    void framesCrossTheRingsWhenNeitherSideSpinsEveryWaitSleepsAndIsWoken() throws Exception {
        hammer(200_000, 64, 0);
    }

    @Test
    @Timeout(300)
    void fiftyThousandRoundTripsWithoutSpinEachSideSleepsAndIsWokenEveryTime() throws Exception {
        hammer(50_000, 1, 0);
    }

    @Test
    @Timeout(60)
    void aPeerThatClosesItsSocketEndsAWaitForItsFrame() throws Exception {
        try (Pair p = pair(4096, 20)) {
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                p.lib.close();
            });
            killer.start();
            long t0 = System.nanoTime();
            assertThrows(EOFException.class, () -> p.srv.next(30_000_000_000L));
            assertTrue(System.nanoTime() - t0 < 5_000_000_000L, "at once, not at the 30 s timeout");
            assertThrows(EOFException.class, () -> p.srv.next(0), "a poll sees the closed socket too");
        }
    }

    @Test
    @Timeout(60)
    void aPeerThatClosesWhileTheRingIsFullEndsAWaitForRoom() throws Exception {
        try (Pair p = pair(4096, 20)) {
            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                p.lib.close();
            });
            killer.start();
            p.srv.begin(Protocol.S_MEMWRITE);
            p.srv.room(20_000).put(new byte[20_000]);
            assertThrows(EOFException.class, p.srv::send, "a frame larger than the ring that nobody reads");
        }
    }

    @Test
    void aWaitWithATimeoutReturnsFalseWhenNothingCame() throws Exception {
        try (Pair p = pair(4096, 20)) {
            long t0 = System.nanoTime();
            assertFalse(p.srv.next(30_000_000L));
            assertTrue(System.nanoTime() - t0 >= 30_000_000L);
            assertFalse(p.srv.next(0));
        }
    }

    @Test
    void aFileThatIsNotARingsFileIsRefused() throws Exception {
        Path f = dir.resolve("datsim-bad");
        Files.writeString(f, "not rings");
        IOException e = assertThrows(IOException.class, () -> SharedRings.map(f, () -> { }));
        assertTrue(e.getMessage().contains("not a datsim rings file"), e.getMessage());
        Path wrongSize = ringsFile(dir, "datsim-short", 8192);
        try (FileChannel fc = FileChannel.open(wrongSize, StandardOpenOption.WRITE)) {
            fc.truncate(9000);
        }
        e = assertThrows(IOException.class, () -> SharedRings.map(wrongSize, () -> { }));
        assertTrue(e.getMessage().contains("do not agree"), e.getMessage());
    }

    /**
     * datsim serve maps the rings a hello names and answers the calls through them; a hello naming a file that is
     * not a rings file gets one message and the socket.
     */
    @Test
    @Timeout(60)
    void theServerTakesTheRingsAHelloNamesOrSaysWhyItKeepsToTheSocket() throws Exception {
        Path fabric = dir.resolve("fabric.json");
        Files.writeString(fabric, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        Path sock = dir.resolve("s.sock");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric), sock, 2000, 2, new PrintWriter(log));
        server.spinUs(10);
        int[] rc = {-1};
        Thread t = new Thread(() -> {
            try {
                rc[0] = server.serve(dir.resolve("out"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        while (!Files.exists(sock)) {
            Thread.sleep(10);
        }
        Path rings = ringsFile(dir, "datsim-A", 1 << 16);
        try (SocketChannel ch = connect(sock)) {
            Wire w = new Wire(ch);
            SharedRings mine = SharedRings.map(rings, false, w.waker());
            hello(w, "A", rings.toString());
            assertEquals(DatReturn.SUCCESS, w.frame().getInt());
            w.frame().getInt();
            w.frame().getInt();
            w.frame().getLong();
            assertEquals(1, w.frame().getInt(), "the server took the rings");
            assertEquals(10, w.frame().getInt(), "and says how long to spin");
            assertFalse(Files.exists(rings), "and deleted their file");
            w.useShared(mine, 10);
            callsWork(w, "datsim-A");
            Path bad = dir.resolve("not-rings");
            Files.writeString(bad, "x");
            try (SocketChannel ch2 = connect(sock)) {
                Wire w2 = new Wire(ch2);
                hello(w2, "B", bad.toString());
                assertEquals(DatReturn.SUCCESS, w2.frame().getInt());
                w2.frame().getInt();
                w2.frame().getInt();
                w2.frame().getLong();
                assertEquals(0, w2.frame().getInt(), "the server kept to the socket");
                assertTrue(Files.exists(bad), "a file not named as the library names its rings is left alone");
                callsWork(w2, "datsim-B");
            }
            w.close();
        }
        t.join(20_000);
        assertEquals(0, rc[0], log.toString());
        String out = log.toString();
        assertTrue(out.matches("(?s).*pid 1 attached to host A [^\n]*, through shared memory\n.*"), out);
        assertTrue(out.contains("cannot map the shared memory of pid 2 (" + bad(dir)
                + " is not a datsim rings file (version 1)): it uses the socket"), out);
        assertTrue(out.matches("(?s).*pid 2 attached to host B [^\n]*, through the socket\n.*"), out);
    }

    private static String bad(Path dir) {
        return dir.resolve("not-rings").toString();
    }

    private static SocketChannel connect(Path sock) throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(sock));
    }

    /** Sends a hello for a host with a rings path, as the library does, and reads the reply (after its time). */
    private static void hello(Wire w, String host, String rings) throws IOException {
        ByteBuffer b = w.begin(Request.HELLO.code());
        byte[] h = host.getBytes(StandardCharsets.UTF_8);
        byte[] r = rings.getBytes(StandardCharsets.UTF_8);
        w.room(24 + h.length + r.length).putLong(0).putInt(h.length).put(h).putInt(host.equals("A") ? 1 : 2)
                .putInt(r.length).put(r);
        w.send();
        assertTrue(w.next(10_000_000_000L));
        assertEquals(Protocol.S_REPLY, w.code());
        w.frame().getLong();
    }

    /** dat_ia_open, dat_pz_create and dat_get_handle_type through the wire. */
    private static void callsWork(Wire w, String iaName) throws IOException {
        int ia = call(w, Request.IA_OPEN.code(), iaName).getInt();
        int pz = call(w, Request.PZ_CREATE.code(), null, ia).getInt();
        assertEquals(DatHandle.TYPE_PZ, call(w, Request.HANDLE_TYPE.code(), null, pz).getInt());
    }

    private static ByteBuffer call(Wire w, int code, String name, int... ints) throws IOException {
        w.begin(code);
        w.room(8).putLong(0);
        if (name != null) {
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            w.room(12 + n.length).putInt(n.length).put(n).putInt(8).putInt(0);
        }
        for (int i : ints) {
            w.room(4).putInt(i);
        }
        w.send();
        assertTrue(w.next(10_000_000_000L));
        assertEquals(Protocol.S_REPLY, w.code());
        ByteBuffer f = w.frame();
        f.getLong();
        assertEquals(DatReturn.SUCCESS, f.getInt(), Protocol.name(code));
        return f;
    }
}
