package org.datsim.scenario.run;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;

/**
 * An output directory that datsim owns: it holds a marker file, {@value #MARKER}, listing the files datsim wrote there
 * (one name a line, sorted). datsim writes only into a directory that is new, empty or already marked (or one the user
 * hands over with {@code --force}), and deletes there only the files the marker lists, so that nothing a user put in
 * a directory is deleted or overwritten unasked.
 */
public final class OutputDir {

    /** The marker file's name. */
    public static final String MARKER = ".datsim-outputs";
    private static final String HEADER = "# written by datsim; the files it wrote here (it deletes only these):";
    /** The most characters of a directory name made from a scenario's name. */
    static final int MAX_NAME = 100;

    private OutputDir() {
    }

    /** Thrown when a directory is not datsim's to write in. */
    public static final class NotOursException extends IOException {
        private static final long serialVersionUID = 1L;

        NotOursException(String message) {
            super(message);
        }
    }

    /**
     * Makes a directory datsim's to write in: creates it if it does not exist, marks it if it is empty (or if
     * {@code force}), and refuses an existing directory that is not empty and not marked.
     *
     * @param dir the directory
     * @param force true to take over a non-empty directory datsim did not create (nothing in it is deleted)
     * @throws NotOursException if the directory holds files datsim did not write and {@code force} is false
     * @throws IOException if it cannot be created or marked
     */
    public static void claim(Path dir, boolean force) throws IOException {
        if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(dir)) {
            throw new NotOursException(dir + " exists and is not a directory");
        }
        if (Files.isDirectory(dir)) {
            if (Files.isRegularFile(dir.resolve(MARKER))) {
                return;
            }
            if (!force && !empty(dir)) {
                throw new NotOursException(dir + " is not empty and datsim did not create it (it has no " + MARKER
                        + " file); name a new or empty directory, or add --force to write into it (datsim then"
                        + " deletes nothing there that it did not write)");
            }
        }
        Files.createDirectories(dir);
        write(dir, new TreeSet<>());
    }

    /**
     * Deletes files that datsim wrote in a directory earlier (those its marker lists); others of those names are
     * left alone.
     *
     * @param dir the directory (claimed)
     * @param names the files' names
     * @throws IOException if a listed file cannot be deleted
     */
    public static void deleteOurs(Path dir, Collection<String> names) throws IOException {
        TreeSet<String> listed = read(dir);
        boolean changed = false;
        for (String n : names) {
            if (listed.remove(n)) {
                Files.deleteIfExists(dir.resolve(n));
                changed = true;
            }
        }
        if (changed) {
            write(dir, listed);
        }
    }

    /**
     * Adds files datsim wrote to a claimed directory's marker.
     *
     * @param dir the directory (claimed)
     * @param names the files' names, relative to it
     * @throws IOException if the marker cannot be written
     */
    public static void record(Path dir, Collection<String> names) throws IOException {
        TreeSet<String> listed = read(dir);
        if (listed.addAll(names)) {
            write(dir, listed);
        }
    }

    /**
     * Adds to a marked directory's list those of the given files that exist there now (the views of a run, written
     * by code that does not know of the marker). Nothing if the directory is not marked.
     *
     * @param dir the directory
     * @param names the files' names
     * @throws IOException if the marker cannot be written
     */
    public static void recordExisting(Path dir, Collection<String> names) throws IOException {
        if (!Files.isRegularFile(dir.resolve(MARKER))) {
            return;
        }
        List<String> present = names.stream().filter(n -> Files.isRegularFile(dir.resolve(n))).toList();
        record(dir, present);
    }

    /** In a default run directory: the absolute path of the scenario file whose run it holds. */
    public static final String SOURCE = ".datsim-source";

    /**
     * The default output directory of a run of a scenario file: {@code PARENT/NAME}, unless it holds the run of
     * another file (its {@value #SOURCE} names another path), then the first of {@code NAME-2}, {@code NAME-3}, ...
     * that is new or holds this file's run. A directory without {@value #SOURCE} (a run of an older datsim, or one
     * written with --out) is taken as before.
     *
     * @param parent the parent (runs/)
     * @param name the safe directory name
     * @param source the scenario file
     * @return the directory
     */
    public static Path forSource(Path parent, String name, Path source) {
        String me = source.toAbsolutePath().normalize().toString();
        for (int i = 1; i < 1000; i++) {
            Path d = parent.resolve(i == 1 ? name : name + "-" + i);
            Path s = d.resolve(SOURCE);
            if (!Files.isRegularFile(s, LinkOption.NOFOLLOW_LINKS)) {
                return d;
            }
            try {
                if (Files.readString(s, StandardCharsets.UTF_8).strip().equals(me)) {
                    return d;
                }
            } catch (IOException e) {
                return d;
            }
        }
        return parent.resolve(name);
    }

    /**
     * Returns the scenario file whose run a directory holds ({@value #SOURCE}), or null.
     *
     * @param dir the directory
     * @return the path as recorded, or null
     */
    public static String source(Path dir) {
        try {
            Path s = dir.resolve(SOURCE);
            return Files.isRegularFile(s, LinkOption.NOFOLLOW_LINKS) ? Files.readString(s, StandardCharsets.UTF_8)
                    .strip() : null;
        } catch (IOException e) {
            return null;
        }
    }

    /**
     * Records in a claimed run directory which scenario file its run is of (see {@link #forSource}).
     *
     * @param dir the directory
     * @param source the scenario file
     * @throws IOException if it cannot be written
     */
    public static void recordSource(Path dir, Path source) throws IOException {
        Files.writeString(dir.resolve(SOURCE), source.toAbsolutePath().normalize() + "\n", StandardCharsets.UTF_8);
        record(dir, List.of(SOURCE));
    }

    /**
     * Turns a scenario's name into a directory name that stays inside its parent: characters other than letters,
     * digits, {@code _ . -} become {@code _}, a leading dot becomes {@code _} (so {@code ..} and hidden names are
     * not made), an empty name is {@code _}, and a long one is cut.
     *
     * @param name the scenario's name
     * @return the directory name
     */
    public static String safeName(String name) {
        String s = name.replaceAll("[^A-Za-z0-9_.-]", "_");
        if (s.length() > MAX_NAME) {
            s = s.substring(0, MAX_NAME);
        }
        if (s.isEmpty()) {
            return "_";
        }
        return s.charAt(0) == '.' ? "_" + s.substring(1) : s;
    }

    private static boolean empty(Path dir) throws IOException {
        try (DirectoryStream<Path> s = Files.newDirectoryStream(dir)) {
            return !s.iterator().hasNext();
        }
    }

    private static TreeSet<String> read(Path dir) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        Path m = dir.resolve(MARKER);
        if (!Files.isRegularFile(m)) {
            return names;
        }
        for (String line : Files.readAllLines(m, StandardCharsets.UTF_8)) {
            if (!line.isEmpty() && !line.startsWith("#") && !line.contains("/") && !line.equals("..")
                    && !line.equals(".")) {
                names.add(line);
            }
        }
        return names;
    }

    private static void write(Path dir, TreeSet<String> names) throws IOException {
        StringBuilder b = new StringBuilder(HEADER).append('\n');
        for (String n : names) {
            b.append(n).append('\n');
        }
        Files.writeString(dir.resolve(MARKER), b, StandardCharsets.UTF_8);
    }
}
