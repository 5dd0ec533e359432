package org.datsim.scenario.bridge;

import java.io.IOException;
import java.net.ConnectException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.util.Objects;
import jdk.net.ExtendedSocketOptions;
import jdk.net.UnixDomainPrincipal;

/**
 * The listening socket of {@code datsim serve} (docs/bridge.md, Security): bound inside a fresh directory only
 * this user can enter (0700), made 0600 there, and only then linked under the name asked for, which it never
 * replaces unless that is a stale socket of this user (a socket nobody listens on); the name is removed at the end
 * only if it is still this very socket. Connections are accepted only from processes of the server's own user,
 * checked with SO_PEERCRED.
 */
final class SocketFile implements AutoCloseable {

    /** The file type bits of a socket in a Unix mode. */
    private static final int S_IFMT = 0170000;
    private static final int S_IFSOCK = 0140000;

    private final Path path;
    private final ServerSocketChannel channel;
    private final Object fileKey;
    private final UserPrincipal owner;

    private SocketFile(Path path, ServerSocketChannel channel, Object fileKey, UserPrincipal owner) {
        this.path = path;
        this.channel = channel;
        this.fileKey = fileKey;
        this.owner = owner;
    }

    /**
     * Binds a listening socket at {@code path}.
     *
     * @param path where programs find it
     * @return the bound socket, non-blocking
     * @throws IOException with a message naming the path when it exists and is not a stale socket of this user, or
     *     it cannot be created
     */
    static SocketFile bind(Path path) throws IOException {
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            if (!probe.supportedOptions().contains(ExtendedSocketOptions.SO_PEERCRED)) {
                // without it no connection could be checked, so every one would be refused: say so once, up front
                throw new IOException("datsim serve checks the user of every program that connects with SO_PEERCRED,"
                        + " which this platform (" + System.getProperty("os.name") + ") does not offer; it serves on"
                        + " Linux only");
            }
        }
        Path abs = path.toAbsolutePath().normalize();
        Path parent = Objects.requireNonNull(abs.getParent(), "a socket path has a directory");
        Files.createDirectories(parent);
        Path dir = Files.createTempDirectory(parent, ".datsim-socket-",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        UserPrincipal owner = Files.getOwner(dir, LinkOption.NOFOLLOW_LINKS);
        Path inside = dir.resolve("s");
        ServerSocketChannel ch = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        boolean ok = false;
        try {
            ch.bind(UnixDomainSocketAddress.of(inside), 64);
            Files.setPosixFilePermissions(inside, PosixFilePermissions.fromString("rw-------"));
            removeStale(abs, owner);
            try {
                Files.createLink(abs, inside); // link(2): never replaces what appeared there meanwhile
            } catch (FileAlreadyExistsException e) {
                throw new IOException(abs + " appeared while datsim serve was starting; not replaced");
            }
            Object key = Files.readAttributes(abs, java.nio.file.attribute.BasicFileAttributes.class,
                    LinkOption.NOFOLLOW_LINKS).fileKey();
            ch.configureBlocking(false);
            ok = true;
            return new SocketFile(abs, ch, key, owner);
        } finally {
            Files.deleteIfExists(inside);
            Files.deleteIfExists(dir);
            if (!ok) {
                ch.close();
            }
        }
    }

    /**
     * Removes {@code path} if it is a socket of {@code owner} that nobody listens on; leaves nothing else.
     *
     * @throws IOException when something else is there (a file, a directory, a link, a live or foreign socket)
     */
    static void removeStale(Path path, UserPrincipal owner) throws IOException {
        if (!Files.exists(path, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        int mode = (Integer) Files.getAttribute(path, "unix:mode", LinkOption.NOFOLLOW_LINKS);
        if ((mode & S_IFMT) != S_IFSOCK) {
            throw new IOException(path + " exists and is not a socket; datsim serve does not replace it (name"
                    + " another --socket or remove it)");
        }
        if (!owner.equals(Files.getOwner(path, LinkOption.NOFOLLOW_LINKS))) {
            throw new IOException(path + " is another user's socket; datsim serve does not replace it");
        }
        try (SocketChannel probe = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            probe.connect(UnixDomainSocketAddress.of(path));
            throw new IOException("a server listens on " + path + " already; datsim serve does not replace it");
        } catch (ConnectException e) {
            Files.delete(path); // a socket nobody listens on: the remains of a server that ended
        }
    }

    /** The path programs connect to. */
    Path path() {
        return path;
    }

    /** The listening channel. */
    ServerSocketChannel channel() {
        return channel;
    }

    /**
     * Says why a connection is refused, or null when its peer is a process of this server's user (SO_PEERCRED).
     *
     * @param ch an accepted connection
     */
    String refusal(SocketChannel ch) {
        UserPrincipal peer;
        try {
            UnixDomainPrincipal p = ch.getOption(ExtendedSocketOptions.SO_PEERCRED);
            peer = p.user();
        } catch (IOException e) { // the peer is gone already (bind checked that SO_PEERCRED exists here)
            return "its peer's user cannot be read (" + e.getMessage() + ")";
        }
        return refusal(peer, owner);
    }

    /** The peer check itself: null when {@code peer} is {@code owner}, else why not. */
    static String refusal(UserPrincipal peer, UserPrincipal owner) {
        return owner.equals(peer) ? null
                : "its peer runs as user " + peer.getName() + ", not " + owner.getName() + " as datsim serve does";
    }

    /** Stops listening and removes the socket's name if it is still this socket. */
    @Override
    public void close() {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing to do
        }
        try {
            if (Files.exists(path, LinkOption.NOFOLLOW_LINKS) && fileKey.equals(Files.readAttributes(path,
                    java.nio.file.attribute.BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey())) {
                Files.delete(path);
            }
        } catch (IOException e) {
            // gone already, or not ours any more: left alone
        }
    }
}
