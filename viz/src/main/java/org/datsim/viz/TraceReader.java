package org.datsim.viz;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.function.Consumer;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;

/**
 * Streams an {@code events.jsonl} file back into {@link TraceEvent}s, one line at a time, so a trace of any length is
 * read in constant memory. Standard fields map to the event's fields; every other field becomes an attribute.
 */
public final class TraceReader {


    private TraceReader() {
    }

    /**
     * Reads every event of a trace file in file order.
     *
     * @param file the events.jsonl file
     * @param sink receives each event
     * @return the number of events read
     * @throws IOException if the file cannot be read or a line is not a trace event; the message names the line
     */
    public static long read(Path file, Consumer<TraceEvent> sink) throws IOException {
        long n = 0;
        try (BufferedReader r = RunFiles.reader(file, RunFiles.MAX_TRACE_BYTES)) {
            String line;
            while ((line = next(r, file, n)) != null) {
                n++;
                if (line.isBlank()) {
                    continue;
                }
                try {
                    sink.accept(parse(line));
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    String m = RunFiles.json(file, e);
                    throw new IOException(file + ":" + n + ": not a trace event: " + m.substring(m.indexOf(": ") + 2),
                            e);
                } catch (IOException | IllegalArgumentException e) {
                    throw new IOException(file + ":" + n + ": not a trace event: " + RunFiles.clean(String.valueOf(
                            e.getMessage())), e);
                }
            }
        }
        return n;
    }

    /** The next line, or null at the end; text that is not UTF-8 is named with its line. */
    private static String next(BufferedReader r, Path file, long n) throws IOException {
        try {
            return r.readLine();
        } catch (java.nio.charset.CharacterCodingException e) {
            throw new IOException(RunFiles.notUtf8(file, n + 1), e);
        }
    }

    /**
     * Parses one line of a trace.
     *
     * @param line a JSON object with at least t_ps, kind and host
     * @return the event
     * @throws IOException if the line is not JSON
     * @throws IllegalArgumentException if a required field is missing
     */
    public static TraceEvent parse(String line) throws IOException {
        JsonNode o = RunFiles.parse(line);
        if (o == null || !o.isObject() || !o.has(TraceKey.T_PS) || !o.has(TraceKey.KIND)
                || !o.has(TraceKey.HOST)) {
            throw new IllegalArgumentException("expected an object with t_ps, kind and host");
        }
        TraceEvent e = TraceEvent.of(o.get(TraceKey.T_PS).asLong(), o.get(TraceKey.KIND).asText(),
                o.get(TraceKey.HOST).asText());
        Iterator<Map.Entry<String, JsonNode>> it = o.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            JsonNode v = f.getValue();
            switch (f.getKey()) {
                case TraceKey.T_PS:
                case TraceKey.KIND:
                case TraceKey.HOST:
                    break;
                case TraceKey.EP:
                    e.ep(v.asText());
                    break;
                case TraceKey.OP:
                    e.op(v.asLong());
                    break;
                case TraceKey.COOKIE:
                    e.cookie(v.asLong());
                    break;
                case TraceKey.CALL:
                    e.call(v.asText());
                    break;
                case TraceKey.RET:
                    e.ret(v.asText());
                    break;
                case TraceKey.STATUS:
                    e.status(v.asText());
                    break;
                default:
                    e.attr(f.getKey(), value(v));
                    break;
            }
        }
        return e;
    }

    private static Object value(JsonNode v) {
        if (v.isIntegralNumber()) {
            return v.asLong();
        }
        if (v.isNumber()) {
            return v.asDouble();
        }
        if (v.isBoolean()) {
            return v.asBoolean();
        }
        if (v.isNull()) {
            return null;
        }
        if (v.isArray()) {
            boolean numbers = true;
            for (JsonNode x : v) {
                numbers &= x.isIntegralNumber();
            }
            if (numbers) {
                long[] out = new long[v.size()];
                for (int i = 0; i < out.length; i++) {
                    out[i] = v.get(i).asLong();
                }
                return out;
            }
            String[] out = new String[v.size()];
            for (int i = 0; i < out.length; i++) {
                out[i] = v.get(i).asText();
            }
            return out;
        }
        return v.isTextual() ? v.asText() : v.toString();
    }
}
