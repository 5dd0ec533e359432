package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import org.datsim.core.time.ByteSize;

/** The bytes a scenario's data object describes: {"text": ...}, {"hex": ...} or {"fill": N, "length": L}. */
final class Bytes {

    private Bytes() {
    }

    /** Returns the fill byte of a fill object, or -1 for text and hex. */
    static int fill(JsonNode data) {
        return data.has("fill") ? data.get("fill").asInt() : -1;
    }

    /** Returns the length in bytes the object describes. */
    static long length(JsonNode data) {
        if (data.has("fill")) {
            JsonNode l = data.get("length");
            return l.isNumber() ? l.asLong() : ByteSize.parse(l.asText());
        }
        return literal(data).length;
    }

    /** Returns the bytes of a text or hex object. */
    static byte[] literal(JsonNode data) {
        if (data.has("text")) {
            return data.get("text").asText().getBytes(StandardCharsets.UTF_8);
        }
        String hex = data.get("hex").asText();
        byte[] out = new byte[hex.length() / 2];
        for (int i = 0; i < out.length; i++) {
            out[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
        }
        return out;
    }

    /** Returns up to {@code max} bytes as lower-case hexadecimal. */
    static String hex(byte[] b, int max) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < Math.min(b.length, max); i++) {
            sb.append(Character.forDigit((b[i] >> 4) & 0xf, 16)).append(Character.forDigit(b[i] & 0xf, 16));
        }
        return sb.toString();
    }
}
