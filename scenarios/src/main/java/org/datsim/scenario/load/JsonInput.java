package org.datsim.scenario.load;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.CharacterCodingException;
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

    /**
     * Duplicate keys fail in the parser. Content after the value is looked for by {@link #oneValue} itself rather
     * than by {@code DeserializationFeature.FAIL_ON_TRAILING_TOKENS}, whose messages are Jackson's.
     */
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .disable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonInput() {
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
        String file = path.toString();
        try {
            if (Files.isDirectory(path)) {
                throw new ScenarioException(List.of(file + ": is a directory, expected a " + what + " JSON file"));
            }
            long size = Files.size(path);
            if (size > ScenarioLoader.MAX_FILE_BYTES) {
                throw new ScenarioException(List.of(file + ": the file is " + size + " bytes; " + what
                        + " files are limited to " + ScenarioLoader.MAX_FILE_BYTES + " bytes"));
            }
            return Files.readString(path, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(List.of(file + ": no such file"));
        } catch (CharacterCodingException e) {
            throw new ScenarioException(List.of(file + ": is not UTF-8 text, expected a " + what + " JSON file"));
        } catch (IOException e) {
            throw new ScenarioException(List.of(file + ": cannot be read: " + e.getMessage()));
        }
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
            throw new ScenarioException(List.of(file + where + ": invalid JSON: " + e.getOriginalMessage()));
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

    private static JsonNode parse(Source source, String what) throws JsonProcessingException {
        try (JsonParser p = source.open()) {
            return oneValue(p, what);
        } catch (JsonProcessingException e) {
            throw e;
        } catch (IOException e) {
            throw new UncheckedIOException("reading JSON from memory failed", e);
        }
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
