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
            Path f = dir.resolve("rings-" + System.nanoTime());
            Wire srv = new Wire(a);
            srv.useShared(SharedRings.create(f, ringSize, srv.waker()), spinUs);
            assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(f)), "the server's rings file is its user's only");
            Wire lib = new Wire(c);
            lib.useShared(SharedRings.map(f, false, lib.waker()), spinUs);
            Files.delete(f);
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
        IOException e = assertThrows(IOException.class, () -> SharedRings.map(f, false, () -> { }));
        assertTrue(e.getMessage().contains("not a datsim rings file"), e.getMessage());
        Path wrongSize = ringsFile(dir, "datsim-short", 8192);
        try (FileChannel fc = FileChannel.open(wrongSize, StandardOpenOption.WRITE)) {
            fc.truncate(9000);
        }
        e = assertThrows(IOException.class, () -> SharedRings.map(wrongSize, false, () -> { }));
        assertTrue(e.getMessage().contains("do not agree"), e.getMessage());
        Path good = ringsFile(dir, "datsim-good", 8192);
        Path link = Files.createSymbolicLink(dir.resolve("datsim-link"), good);
        e = assertThrows(IOException.class, () -> SharedRings.map(link, false, () -> { }));
        assertTrue(e.getMessage().contains("cannot be opened as a rings file"), e.getMessage());
        Path exists = ringsFile(dir, "datsim-exists", 8192);
        assertThrows(java.nio.file.FileAlreadyExistsException.class,
                () -> SharedRings.create(exists, 8192, () -> { }), "the server never takes a file that exists");
        assertThrows(IOException.class, () -> SharedRings.create(dir.resolve("datsim-link"), 8192, () -> { }),
                "nor one through a link");
        assertEquals(8192 + 4096 + 8192, Files.size(good), "the link's target is untouched");
    }

    /**
     * datsim serve offers rings it created in its own 0700 directory; a library that maps them and sends its first
     * frame through them is answered through them, and the file is gone; a hello that asks for none gets the
     * socket.
     */
    @Test
    @Timeout(60)
    void theServerOffersRingsOfItsOwnAndTheLibrarysFirstFrameDecides() throws Exception {
        Path fabric = dir.resolve("fabric.json");
        Files.writeString(fabric, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        Path sock = dir.resolve("s.sock");
        Path shm = Files.createDirectory(dir.resolve("shm"));
        StringWriter log = new StringWriter();
        String before = System.setProperty("datsim.bridge.shm", shm.toString());
        int[] rc = {-1};
        Thread t;
        try {
            BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric), sock, 2000, 2, new PrintWriter(log));
            server.spinUs(10);
            t = new Thread(() -> {
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
        } finally {
            if (before == null) {
                System.clearProperty("datsim.bridge.shm");
            } else {
                System.setProperty("datsim.bridge.shm", before);
            }
        }
        try (SocketChannel ch = connect(sock)) {
            Wire w = new Wire(ch);
            hello(w, "A", true);
            assertEquals(DatReturn.SUCCESS, w.frame().getInt());
            w.frame().getInt();
            w.frame().get(new byte[Handshake.TOKEN_BYTES]);
            w.frame().getLong();
            assertEquals(10, w.frame().getInt(), "the server says how long to spin");
            byte[] p = new byte[w.frame().getInt()];
            w.frame().get(p);
            Path rings = Path.of(new String(p, StandardCharsets.UTF_8));
            assertEquals(shm, rings.getParent().getParent(), "the rings are in the server's own directory");
            assertEquals("rwx------", java.nio.file.attribute.PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(rings.getParent())));
            SharedRings mine = SharedRings.map(rings, false, w.waker());
            w.useShared(mine, 10);
            callsWork(w, "datsim-A");
            assertFalse(Files.exists(rings), "the server deleted the file once the library's first frame came");
            try (SocketChannel ch2 = connect(sock)) {
                Wire w2 = new Wire(ch2);
                hello(w2, "B", false);
                assertEquals(DatReturn.SUCCESS, w2.frame().getInt());
                w2.frame().getInt();
                w2.frame().get(new byte[Handshake.TOKEN_BYTES]);
                w2.frame().getLong();
                w2.frame().getInt();
                assertEquals(0, w2.frame().getInt(), "no rings asked for, none offered");
                callsWork(w2, "datsim-B");
            }
            w.close();
        }
        t.join(20_000);
        assertEquals(0, rc[0], log.toString());
        String out = log.toString();
        assertTrue(out.matches("(?s).*pid 1 attached to host A [^\n]*, through shared memory\n.*"), out);
        assertTrue(out.matches("(?s).*pid 2 attached to host B [^\n]*, through the socket\n.*"), out);
        try (var left = Files.list(shm)) {
            assertEquals(0, left.count(), "the server's directory is gone at the end");
        }
    }

    private static SocketChannel connect(Path sock) throws IOException {
        return SocketChannel.open(UnixDomainSocketAddress.of(sock));
    }

    /** Sends a hello for a host, asking for rings or not, as the library does, and reads the reply (after its time). */
    private static void hello(Wire w, String host, boolean rings) throws IOException {
        w.begin(Protocol.C_HELLO);
        byte[] h = host.getBytes(StandardCharsets.UTF_8);
        w.room(20 + h.length).putLong(0).putInt(h.length).put(h).putInt(host.equals("A") ? 1 : 2)
                .putInt(rings ? 1 : 0);
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
