package org.datsim.scenario.load;

import org.datsim.core.util.Text;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/**
 * Parses the JSON files people write by hand (studies, the base scenarios they name, lessons) the strict way the
 * scenario loader does: a plain tree (no polymorphic or default typing), duplicate keys rejected, and exactly one
 * value in the file. Content after that value is refused with a message that says the file should have ended there,
 * located at the content, where Jackson's own would name its classes or claim that another value was expected.
 * Jackson's default stream limits (nesting depth, number and string lengths) apply; the callers bound file sizes.
 */
public final class JsonInput {

    /** The deepest nesting of arrays and objects accepted in an input file. */
    public static final int MAX_NESTING = 100;
    /** The most characters of one number in an input file. */
    public static final int MAX_NUMBER_LENGTH = 100;
    /** The most characters of one field name in an input file. */
    public static final int MAX_NAME_LENGTH = 1000;

    /**
     * Duplicate keys fail in the parser. Content after the value is looked for by {@link #oneValue} itself rather
     * than by {@code DeserializationFeature.FAIL_ON_TRAILING_TOKENS}, whose messages are Jackson's.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder()
                            .maxNestingDepth(MAX_NESTING)
                            .maxNumberLength(MAX_NUMBER_LENGTH)
                            .maxNameLength(MAX_NAME_LENGTH)
                            .build())
                    .build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonInput() {
    }

    /**
     * A file named in an input, resolved against {@code base} (the input's directory, or null for the working
     * directory); null when the text cannot name a file on this system (a NUL character, say), so the caller
     * reports it at its JSON path instead of failing inside java.nio.
     */
    public static Path userPath(Path base, String text) {
        try {
            return base == null ? Path.of(text) : base.resolve(text);
        } catch (java.nio.file.InvalidPathException e) {
            return null;
        }
    }

    /** The message for a path {@link #userPath} refused. */
    public static String badPath(String text) {
        return "expected a file path, found " + Text.clean(text) + ", which cannot name a file (NUL or another"
                + " character the file system refuses)";
    }

    /**
     * Reads an input file's bytes, the one way every file datsim reads comes in: it must be a regular file (not a
     * directory, a FIFO or a device, which could block or never end) no larger than {@code maxBytes}, checked before
     * reading and again while reading (a file that grows).
     *
     * @param path the file
     * @param what what it should hold, for the messages ("scenario", "study", "HPCC topology")
     * @param maxBytes the largest size accepted
     * @return the bytes
     * @throws ScenarioException with the one message
     */
    public static byte[] readBytes(Path path, String what, long maxBytes) throws ScenarioException {
        String file = path.toString();
        try {
            if (!Files.exists(path)) {
                throw new ScenarioException(List.of(file + ": no such file"));
            }
            if (Files.isDirectory(path)) {
                throw new ScenarioException(List.of(file + ": is a directory, expected a " + what + " file"));
            }
            if (!Files.isRegularFile(path)) {
                throw new ScenarioException(List.of(file + ": is not a regular file (a FIFO, a socket or a device),"
                        + " expected a " + what + " file"));
            }
            long size = Files.size(path);
            if (size > maxBytes) {
                throw new ScenarioException(List.of(file + ": the file is " + size + " bytes; " + what
                        + " files are limited to " + maxBytes + " bytes"));
            }
            byte[] bytes;
            try (InputStream in = Files.newInputStream(path)) {
                bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxBytes + 1));
            }
            if (bytes.length > maxBytes) {
                throw new ScenarioException(List.of(file + ": the file grew past " + maxBytes + " bytes while being"
                        + " read; " + what + " files are limited to " + maxBytes + " bytes"));
            }
            return bytes;
        } catch (NoSuchFileException e) {
            throw new ScenarioException(List.of(file + ": no such file"));
        } catch (IOException e) {
            throw new ScenarioException(List.of(file + ": cannot be read: " + Text.clean(e.getMessage())));
        }
    }

    /**
     * Decodes an input file's bytes as UTF-8 text: a UTF-8 byte-order mark is accepted and dropped; a UTF-16 or
     * UTF-32 one, or bytes that are not UTF-8, give one message.
     *
     * @param file the file's name, for the messages
     * @param bytes its bytes
     * @param what what it should hold, for the messages
     * @return the text
     * @throws ScenarioException with the one message
     */
    public static String text(String file, byte[] bytes, String what) throws ScenarioException {
        int from = 0;
        if (bytes.length >= 3 && (bytes[0] & 0xff) == 0xef && (bytes[1] & 0xff) == 0xbb && (bytes[2] & 0xff) == 0xbf) {
            from = 3;
        } else if (bytes.length >= 2 && ((bytes[0] & 0xff) == 0xfe && (bytes[1] & 0xff) == 0xff
                || (bytes[0] & 0xff) == 0xff && (bytes[1] & 0xff) == 0xfe)) {
            throw new ScenarioException(List.of(file + ": starts with a UTF-16 or UTF-32 byte-order mark; " + what
                    + " files must be UTF-8 text"));
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, from, bytes.length - from)).toString();
        } catch (CharacterCodingException e) {
            throw new ScenarioException(List.of(file + ": is not UTF-8 text, expected a " + what + " file"));
        }
    }

    /**
     * Reads a hand-written JSON file as text, or says in one message why it cannot be: a directory, missing,
     * larger than {@link ScenarioLoader#MAX_FILE_BYTES}, unreadable, or not UTF-8 text.
     *
     * @param path the file
     * @param what what it should hold, for the messages ("scenario", "study")
     * @return the text
     * @throws ScenarioException with the one message
     */
    public static String readFile(Path path, String what) throws ScenarioException {
        return text(path.toString(), readBytes(path, what + " JSON", ScenarioLoader.MAX_FILE_BYTES), what + " JSON");
    }

    /**
     * Parses a hand-written JSON file's text into its one value, or says in one message, located at the problem,
     * why it cannot.
     *
     * @param file the file's name, for the messages
     * @param json its text
     * @param what what it should hold ("scenario", "study")
     * @return the value (any JSON value; the caller checks that it is an object)
     * @throws ScenarioException with the one message: the text is empty or not one JSON value
     */
    public static JsonNode tree(String file, String json, String what) throws ScenarioException {
        JsonNode root;
        try {
            root = value(json, what);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc != null ? ":" + loc.getLineNr() + ":" + loc.getColumnNr() : "";
            throw new ScenarioException(List.of(file + where + ": invalid JSON: " + message(e)));
        }
        if (root == null) {
            throw new ScenarioException(List.of(file + ": the file is empty, expected a " + what + " JSON object"));
        }
        return root;
    }

    /**
     * Parses JSON text that must hold exactly one value.
     *
     * @param json the text
     * @param what what the file holds, for the message on content after the value ("study", "scenario")
     * @return the value, or null if the text holds none (it is empty or white space)
     * @throws JsonProcessingException if the text is not one JSON value; located where the problem is
     */
    public static JsonNode value(String json, String what) throws JsonProcessingException {
        return parse(() -> MAPPER.createParser(json), what);
    }

    /**
     * Parses JSON bytes (UTF-8, UTF-16 or UTF-32, as Jackson detects them) that must hold exactly one value.
     *
     * @param json the bytes
     * @param what what the file holds, for the message on content after the value ("lesson")
     * @return the value, or null if the bytes hold none (they are empty or white space)
     * @throws JsonProcessingException if the bytes are not one JSON value; located where the problem is
     */
    public static JsonNode value(byte[] json, String what) throws JsonProcessingException {
        return parse(() -> MAPPER.createParser(json), what);
    }

    /** Opens a parser over text already in memory. */
    @FunctionalInterface
    private interface Source {
        JsonParser open() throws IOException;
    }

    /**
     * A Jackson parse problem in datsim's words: no Jackson class or setting names, the input it quotes escaped and
     * cut.
     *
     * @param e the problem
     * @return the words, without the location (the caller puts it first)
     */
    public static String message(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            m = "not JSON";
        }
        int src = m.indexOf("\n at [Source");
        if (src >= 0) {
            m = m.substring(0, src);
        }
        m = m.replace("maybe a (non-standard) comment? (not recognized as one since Feature 'ALLOW_COMMENTS' not"
                + " enabled for parser)", "comments are not allowed in JSON");
        m = m.replaceAll("\\[Source: [^;\\]]*(?:\\([^)]*\\))?[^;\\]]*; line: (\\d+), column: (\\d+)\\]",
                "line $1, column $2");
        m = m.replaceAll(" ?\\(`?StreamReadFeature\\.[A-Z_]+`? disabled\\)", "");
        m = m.replaceAll("; (?:use|enable) `?[A-Za-z]+\\.[A-Za-z_.()]+`? to [^.;]*", "");
        m = m.replace("(code 65279 / 0xfeff)", "(a byte-order mark, U+FEFF, allowed only at the start)");
        return Text.clean(m);
    }

    private static JsonNode parse(Source source, String what) throws JsonProcessingException {
        try (JsonParser p = source.open()) {
            try {
                return oneValue(p, what);
            } catch (StreamConstraintsException e) {
                throw new JsonParseException(p, limit(e), p.currentLocation());
            }
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from memory failed", e);
        }
    }

    /** A read limit passed, in datsim's words. */
    private static String limit(StreamConstraintsException e) {
        String m = String.valueOf(e.getOriginalMessage());
        if (m.contains("nesting depth")) {
            return "arrays and objects nested deeper than " + MAX_NESTING + " levels; input files are limited to "
                    + MAX_NESTING;
        }
        if (m.contains("Number value length") || m.contains("Number length")) {
            return "a number longer than " + MAX_NUMBER_LENGTH + " characters; input files are limited to "
                    + MAX_NUMBER_LENGTH;
        }
        if (m.contains("Name length") || m.contains("Name value length")) {
            return "a field name longer than " + MAX_NAME_LENGTH + " characters; input files are limited to "
                    + MAX_NAME_LENGTH;
        }
        if (m.contains("String value length") || m.contains("String length")) {
            return "a string too long for an input file";
        }
        return "the file passes a limit on JSON input";
    }

    private static JsonNode oneValue(JsonParser p, String what) throws IOException {
        JsonNode root = MAPPER.readTree(p);
        if (root == null) {
            return null;
        }
        JsonLocation end = p.currentLocation();
        JsonLocation at;
        try {
            if (p.nextToken() == null) {
                return root;
            }
            at = p.currentTokenLocation();
        } catch (JsonParseException e) {
            // What follows is not a token (a stray word or bracket, a comment): still content after the value. The
            // parser has placed the failed token's start unless it failed before finding one (a comment); then
            // the exception's location is the nearer.
            at = p.currentTokenLocation();
            if (before(at, end)) {
                at = e.getLocation();
            }
        }
        throw new JsonParseException(p, "expected the end of the file after the " + what + "'s JSON value, found"
                + " more", at);
    }

    private static boolean before(JsonLocation a, JsonLocation b) {
        return a.getLineNr() < b.getLineNr() || a.getLineNr() == b.getLineNr() && a.getColumnNr() < b.getColumnNr();
    }
}
