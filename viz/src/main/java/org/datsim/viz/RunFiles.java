package org.datsim.viz;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Objects;

/**
 * The one way datsim's readers of a run directory ({@code view}, {@code fct}, {@code explain}, {@code ops}, the lab)
 * open its files, and the one way {@code view} writes into it. A run directory is datsim's own, but it may have been
 * copied, unpacked or planted: every file is taken only if it is a regular file in the directory (not a symbolic
 * link, which could lead out of it, nor a FIFO or a device, which could block or never end), of at most a size, and
 * opened without following a link; text must be UTF-8 and JSON within the nesting and length limits of the scenario
 * loader. Every problem is an {@link IOException} whose message names the file (and the line) in datsim's words,
 * never a library's. A file view writes is created or replaced only if what is there is a regular file: never
 * through a link, never into a FIFO.
 */
public final class RunFiles {

    /** The largest events.jsonl read (streamed, never held in memory): 16 times run's default output guard. */
    public static final long MAX_TRACE_BYTES = 64L << 30;
    /** The largest fct.csv read. */
    public static final long MAX_TABLE_BYTES = 1L << 30;
    /** The largest summary.json read. */
    public static final long MAX_JSON_BYTES = 16L << 20;
    /** The deepest nesting of JSON read, as the scenario loader's. */
    public static final int MAX_NESTING = 100;

    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_NESTING)
                    .maxNumberLength(100).maxStringLength(1 << 20).build())
            .build());

    private RunFiles() {
    }

    /**
     * Tells whether a run directory holds a file, checking what it is without following a link.
     *
     * @param file the file
     * @return true if it is a regular file; false if there is nothing of that name
     * @throws IOException if something else has the name (a link, a FIFO, a device, a directory)
     */
    public static boolean exists(Path file) throws IOException {
        BasicFileAttributes a;
        try {
            a = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return false;
        }
        if (a.isSymbolicLink()) {
            throw new IOException(file + ": is a symbolic link; datsim reads and writes only the files of a run"
                    + " directory themselves (a link could lead out of it)");
        }
        if (!a.isRegularFile()) {
            throw new IOException(file + ": is not a regular file (a " + (a.isDirectory() ? "directory" : "FIFO,"
                    + " socket or device") + "); datsim reads and writes only regular files of a run directory");
        }
        return true;
    }

    /**
     * Opens a file of a run directory as UTF-8 text.
     *
     * @param file the file
     * @param maxBytes the largest size accepted
     * @return a reader whose malformed input ends in a {@link CharacterCodingException} ({@link #located} words it)
     * @throws IOException if the file is missing, not a regular file, a link or too large
     */
    public static BufferedReader reader(Path file, long maxBytes) throws IOException {
        return new BufferedReader(new InputStreamReader(open(file, maxBytes), StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)),
                1 << 16);
    }

    private static InputStream open(Path file, long maxBytes) throws IOException {
        if (!exists(file)) {
            throw new IOException(file + ": no such file");
        }
        FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
        try {
            long size = ch.size();
            if (size > maxBytes) {
                throw new IOException(file + ": the file is " + size + " bytes; datsim reads at most " + maxBytes
                        + " bytes of it");
            }
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        return Channels.newInputStream(ch);
    }

    /**
     * Reads a JSON file of a run directory (summary.json).
     *
     * @param file the file
     * @param maxBytes the largest size accepted
     * @return the tree
     * @throws IOException if it cannot be read or is not one JSON value within the limits (the message says where)
     */
    public static JsonNode readJson(Path file, long maxBytes) throws IOException {
        try (InputStream in = open(file, maxBytes)) {
            JsonNode n = JSON.readTree(in);
            if (n == null || n.isMissingNode()) {
                throw new IOException(file + ": is empty; expected a JSON object");
            }
            return n;
        } catch (JsonProcessingException e) {
            throw new IOException(json(file, e), e);
        }
    }

    /**
     * Parses one JSON value of a line of a run's file (a line of events.jsonl).
     *
     * @param text the text
     * @return the tree
     * @throws JsonProcessingException if it is not JSON within the limits ({@link #json} words it)
     */
    public static JsonNode parse(String text) throws JsonProcessingException {
        return JSON.readTree(text);
    }

    /**
     * A JSON problem in datsim's words: the file, line and column, and what is wrong (the library's own message, not
     * its internals: no source description, no constraint class names).
     *
     * @param file the file
     * @param e the problem
     * @return the message
     */
    public static String json(Path file, JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null || at.getLineNr() < 1 ? "" : ":" + at.getLineNr() + ":" + at.getColumnNr();
        String what;
        if (e instanceof StreamConstraintsException) {
            what = "the JSON is nested deeper than " + MAX_NESTING + " levels, or holds a number or string longer"
                    + " than datsim reads";
        } else {
            String m = Objects.requireNonNullElse(e.getOriginalMessage(), "not valid JSON");
            for (String tail : new String[] {"\n", " (start marker at", " at [Source:", "[Source:"}) {
                int cut = m.indexOf(tail);
                if (cut >= 0) {
                    m = m.substring(0, cut); // the library's description of its source and of where, said above
                }
            }
            what = "not valid JSON: " + clean(m);
        }
        return file + where + ": " + what;
    }

    /**
     * The message for text that is not UTF-8, at a line.
     *
     * @param file the file
     * @param line the line (1 for the first)
     * @return the message
     */
    public static String notUtf8(Path file, long line) {
        return file + ":" + line + ": not UTF-8 text (is this a file datsim wrote?)";
    }

    /**
     * Creates or replaces a file that view writes into a run directory: only where nothing is, or a regular file is
     * (never through a symbolic link, never into a FIFO or device), and opened without following a link.
     *
     * @param file the file
     * @return the stream, to close
     * @throws IOException if something other than a regular file has the name, or it cannot be written
     */
    public static OutputStream create(Path file) throws IOException {
        exists(file); // refuses a link, a FIFO, a device, a directory
        return Files.newOutputStream(file, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
    }

    /** Input quoted in a message: escaped and cut to 200 characters. */
    static String clean(String s) {
        return org.datsim.core.util.Text.clean(s, 200);
    }
}
