package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The bridge's local security (docs/bridge.md, Security): the socket's mode, its directory and name rules, the
 * peer's user (SO_PEERCRED), tokens, and a second user's attempts, run as user nobody through setpriv when the
 * tests run as root.
 */
class BridgeSecurityTest {

    @TempDir
    Path dir;

    @Test
    void theSocketIsTheUsersOnlyAndReplacesNothingButAStaleSocket() throws Exception {
        Path sock = dir.resolve("s.sock");
        try (SocketFile s = SocketFile.bind(sock)) {
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(sock,
                    LinkOption.NOFOLLOW_LINKS)), "0600 whatever the umask");
            try (var left = Files.list(dir)) {
                assertEquals(List.of(sock), left.toList(), "the private directory it was made in is gone");
            }
            IOException live = assertThrows(IOException.class, () -> SocketFile.bind(sock));
            assertTrue(live.getMessage().contains("a server listens on " + sock), live.getMessage());
        }
        assertFalse(Files.exists(sock), "removed at the end, as it is still this socket");

        Path file = Files.writeString(dir.resolve("notes.txt"), "a user's file");
        IOException e = assertThrows(IOException.class, () -> SocketFile.bind(file));
        assertTrue(e.getMessage().contains("exists and is not a socket"), e.getMessage());
        assertEquals("a user's file", Files.readString(file));
        Path sub = Files.createDirectory(dir.resolve("sub"));
        assertThrows(IOException.class, () -> SocketFile.bind(sub));
        Path link = Files.createSymbolicLink(dir.resolve("link.sock"), file);
        assertThrows(IOException.class, () -> SocketFile.bind(link));
        assertEquals("a user's file", Files.readString(file), "a link is not followed");

        Path stale = dir.resolve("stale.sock");
        ServerSocketChannel old = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        old.bind(UnixDomainSocketAddress.of(stale));
        old.close(); // the file stays: a socket nobody listens on
        assertTrue(Files.exists(stale, LinkOption.NOFOLLOW_LINKS));
        try (SocketFile s = SocketFile.bind(stale)) {
            assertTrue(Files.exists(stale));
        }
    }

    @Test
    void aPeerOfAnotherUserIsRefusedAndTokensAreRandomAndComparedWhole() throws Exception {
        var users = dir.getFileSystem().getUserPrincipalLookupService();
        UserPrincipal me = Files.getOwner(dir);
        assertNull(SocketFile.refusal(me, me));
        UserPrincipal other = users.lookupPrincipalByName(me.getName().equals("nobody") ? "root" : "nobody");
        assertTrue(SocketFile.refusal(other, me).contains("its peer runs as user " + other.getName()),
                SocketFile.refusal(other, me));
        byte[] a = Handshake.newToken();
        byte[] b = Handshake.newToken();
        assertEquals(16, a.length);
        assertFalse(java.util.Arrays.equals(a, b), "two tokens differ");
        assertTrue(Handshake.sameToken(a, a.clone()));
        byte[] c = a.clone();
        c[15] ^= 1;
        assertFalse(Handshake.sameToken(a, c));
        assertFalse(Handshake.sameToken(a, java.util.Arrays.copyOf(a, 4)));
    }

    /**
     * As user nobody (setpriv; root only): the socket of a server started with the default umask refuses the
     * connection (its mode), and even a socket made world-writable refuses the peer (SO_PEERCRED); the server's
     * rings directory cannot be entered.
     */
    @Test
    void aSecondUserCannotConnectNorReachTheRings() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")) && Files.isExecutable(
                Path.of("/usr/bin/setpriv")) && Files.isExecutable(Path.of("/usr/bin/python3")),
                "needs root, setpriv and python3");
        Path open = Files.createDirectory(dir.resolve("open"));
        for (Path p : List.of(dir, open)) { // so that only the socket's own mode keeps the second user out
            Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rwxr-xr-x"));
        }
        Path fabric = open.resolve("fabric.json");
        Files.writeString(fabric, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        Path sock = open.resolve("s.sock");
        Path shm = Files.createDirectory(open.resolve("shm"));
        StringWriter log = new StringWriter();
        String before = System.setProperty("datsim.bridge.shm", shm.toString());
        BridgeServer server;
        Thread t;
        try {
            server = new BridgeServer(ScenarioLoader.load(fabric), sock, 50, 0, new PrintWriter(log));
            t = new Thread(() -> {
                try {
                    server.serve(open.resolve("out"));
                } catch (IOException e) {
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
        try {
            assertEquals("EACCES", asNobody(sock), "the socket's mode keeps a second user out");
            Files.setPosixFilePermissions(sock, PosixFilePermissions.fromString("rw-rw-rw-"));
            assertEquals("EOF", asNobody(sock), "a world-writable socket still refuses the peer");
            String rings;
            try (var d = Files.list(shm)) {
                rings = d.findFirst().orElseThrow().toString();
            }
            assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(Path.of(rings))));
            assertEquals("EACCES", run(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534",
                    "--clear-groups", "/usr/bin/python3", "-c", "import os,sys\ntry:\n os.listdir(sys.argv[1]);"
                    + " print('LISTED')\nexcept PermissionError:\n print('EACCES')", rings)));
        } finally {
            server.stop();
            t.join(10_000);
        }
        String out = log.toString();
        assertTrue(out.matches("(?s).*connection \\d+ refused: its peer runs as user nobody, not root as datsim"
                + " serve does; closed\n.*"), out);
        assertFalse(out.contains("attached to host"), out);
    }

    /**
     * Connects as nobody and sends a hello for host B: EACCES, EOF (closed unanswered, possibly before the hello
     * could be sent) or REPLY.
     */
    private static String asNobody(Path sock) throws Exception {
        String py = "import socket,struct,sys\n"
                + "s=socket.socket(socket.AF_UNIX)\n"
                + "try:\n s.connect(sys.argv[1])\nexcept PermissionError:\n print('EACCES'); sys.exit(0)\n"
                + "p=struct.pack('<qi',0,1)+b'B'+struct.pack('<ii',5,0)\n"
                + "s.settimeout(10)\n"
                + "try:\n s.sendall(struct.pack('<ii',len(p)+4,1)+p); d=s.recv(64)\nexcept OSError:\n d=b''\n"
                + "print('REPLY' if d else 'EOF')\n";
        return run(List.of("/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                "/usr/bin/python3", "-c", py, sock.toString()));
    }

    private static String run(List<String> cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS), "the second user's process ends");
        return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
    }
}
