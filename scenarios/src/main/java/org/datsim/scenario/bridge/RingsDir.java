package org.datsim.scenario.bridge;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.HashSet;
import java.util.Set;

/**
 * The directory of a server's shared-memory rings (docs/bridge.md, Security): made by the server, 0700, in
 * {@code /dev/shm} (the system property {@code datsim.bridge.shm} names another parent; "none": no rings). Every
 * rings file in it is created by the server ({@link SharedRings#create}, never following a link, never replacing a
 * file), and the server deletes only files it created there, and the directory at the end. A library never names a
 * file: it maps the one the server's reply names, after checking it is a regular file of its own user and of the
 * size the rings need.
 */
final class RingsDir implements AutoCloseable {

    /** The bytes of each ring (the library's SHM_RING). */
    static final int RING = 1 << 20;

    private final Path dir;
    private final Set<Path> created = new HashSet<>();
    private int counter;

    private RingsDir(Path dir) {
        this.dir = dir;
    }

    /**
     * Makes the directory, or returns null (after one message) when there is none to make: connections then use
     * their socket.
     *
     * @param say where the message goes
     */
    static RingsDir open(java.util.function.Consumer<String> say) {
        String parent = System.getProperty("datsim.bridge.shm", "/dev/shm");
        if (parent.equals("none")) {
            return null;
        }
        try {
            Path p = Path.of(parent);
            if (!Files.isDirectory(p)) {
                say.accept("no " + parent + " for shared memory: programs use the socket (slower)");
                return null;
            }
            return new RingsDir(Files.createTempDirectory(p, "datsim-",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------"))));
        } catch (IOException | RuntimeException e) {
            say.accept("cannot make a directory for shared memory in " + parent + " (" + e.getMessage()
                    + "): programs use the socket (slower)");
            return null;
        }
    }

    /** The directory. */
    Path dir() {
        return dir;
    }

    /**
     * Creates and maps the rings of one connection.
     *
     * @param waker the connection's waker
     * @return the rings, their file named by {@link SharedRings#path}
     * @throws IOException when the file cannot be made
     */
    SharedRings create(SharedRings.Waker waker) throws IOException {
        Path p = dir.resolve("rings-" + (++counter));
        SharedRings r = SharedRings.create(p, RING, waker);
        created.add(p);
        return r;
    }

    /** Deletes a rings file this server created (once the library mapped it, or will not). */
    void release(Path p) {
        if (p != null && created.remove(p)) {
            try {
                Files.deleteIfExists(p);
            } catch (IOException e) {
                // deleted with the directory at the end
            }
        }
    }

    /** Deletes the files this server created and still has, then the directory. */
    @Override
    public void close() {
        for (Path p : Set.copyOf(created)) {
            release(p);
        }
        try {
            if (Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.deleteIfExists(dir);
            }
        } catch (IOException e) {
            // not empty: something not ours is in it, and stays
        }
    }
}
