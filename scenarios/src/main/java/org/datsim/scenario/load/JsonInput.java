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
