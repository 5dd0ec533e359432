package org.datsim.core.trace;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes {@link TraceEvent}s as JSON Lines: one compact JSON object per line, each line ended by a
 * single {@code "\n"} whatever the operating system, in UTF-8.
 *
 * <p>Keys appear in the order {@code t_ps, kind, host, ep, op, cookie, call, ret, status}, then the
 * extra attributes in insertion order; unset standard fields are omitted, {@code long[]} and {@code
 * String[]} attributes become JSON arrays and null attributes JSON {@code null}. For example:
 *
 * <pre>
 * {"t_ps":1500000,"kind":"post","host":"h1","ep":"ep0","op":17,"cookie":48879,"bytes":4096}
 * </pre>
 *
 * <p>Each event is encoded immediately into a small buffer that is written out whenever it fills,
 * so memory use does not grow with the trace. Identical events produce identical bytes. The writer
 * uses the jackson-core streaming {@link JsonGenerator}; encoding an event allocates nothing beyond
 * what the generator needs for non-ASCII strings. An {@link IOException} while writing is rethrown
 * as {@link UncheckedIOException}, since {@link TraceSink#accept(Object)} cannot throw checked
 * exceptions.
 *
 * <p>Not thread-safe.
 */
public final class JsonLinesTraceWriter implements TraceSink<TraceEvent>, Closeable, Flushable {

    private static final JsonFactory FACTORY = new JsonFactory();
    // the standard keys, encoded once
    private static final SerializableString T_PS = new SerializedString("t_ps");
    private static final SerializableString KIND = new SerializedString("kind");
    private static final SerializableString HOST = new SerializedString("host");
    private static final SerializableString EP = new SerializedString("ep");
    private static final SerializableString OP = new SerializedString("op");
    private static final SerializableString COOKIE = new SerializedString("cookie");
    private static final SerializableString CALL = new SerializedString("call");
    private static final SerializableString RET = new SerializedString("ret");
    private static final SerializableString STATUS = new SerializedString("status");

    private final JsonGenerator gen;
    private long written;
    private boolean closed;

    /**
     * Creates (or truncates) a file and writes the trace to it.
     *
     * @param file the file to write
     * @throws IOException if the file cannot be created
     */
    public JsonLinesTraceWriter(Path file) throws IOException {
        this(new BufferedOutputStream(Files.newOutputStream(file), 1 << 16), true);
    }

    /**
     * Writes the trace to a stream. Closing this writer closes the stream.
     *
     * @param out the stream
     */
    public JsonLinesTraceWriter(OutputStream out) {
        this(out, true);
    }

    private JsonLinesTraceWriter(OutputStream out, boolean closeTarget) {
        if (out == null) {
            throw new NullPointerException("the trace output stream is null");
        }
        try {
            gen = FACTORY.createGenerator(out, JsonEncoding.UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        gen.setRootValueSeparator(null); // lines are ended explicitly with '\n'
        gen.configure(JsonGenerator.Feature.AUTO_CLOSE_TARGET, closeTarget);
        gen.configure(JsonGenerator.Feature.AUTO_CLOSE_JSON_CONTENT, false);
    }

    /**
     * Writes one event as one line.
     *
     * @param e the event
     * @throws UncheckedIOException if writing fails
     * @throws IllegalStateException if the writer is closed
     */
    @Override
    public void accept(TraceEvent e) {
        if (closed) {
            throw new IllegalStateException("the trace writer is closed");
        }
        try {
            JsonGenerator g = gen;
            g.writeStartObject();
            g.writeFieldName(T_PS);
            g.writeNumber(e.tPs());
            g.writeFieldName(KIND);
            g.writeString(e.kind());
            if (e.host() != null) {
                g.writeFieldName(HOST);
                g.writeString(e.host());
            }
            writeFields(g, e);
            g.writeEndObject();
            g.writeRaw('\n');
            written++;
        } catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Writes an event's fields after {@code t_ps, kind, host} into the JSON object being written: the
     * standard fields {@code ep, op, cookie, call, ret, status} that are set, then the extra attributes
     * in insertion order, exactly as in a line of the trace. Other writers of trace events (the Chrome
     * trace's instant events) use it for their arguments. Allocates nothing for ASCII strings.
     *
     * @param g the generator, inside an object
     * @param e the event
     * @throws IOException if writing fails
     */
    public static void writeFields(JsonGenerator g, TraceEvent e) throws IOException {
        if (e.ep() != null) {
            g.writeFieldName(EP);
            g.writeString(e.ep());
        }
        if (e.op() != -1) {
            g.writeFieldName(OP);
            g.writeNumber(e.op());
        }
        if (e.hasCookie()) {
            g.writeFieldName(COOKIE);
            g.writeNumber(e.cookie());
        }
        if (e.call() != null) {
            g.writeFieldName(CALL);
            g.writeString(e.call());
        }
        if (e.ret() != null) {
            g.writeFieldName(RET);
            g.writeString(e.ret());
        }
        if (e.status() != null) {
            g.writeFieldName(STATUS);
            g.writeString(e.status());
        }
        for (int i = 0, n = e.attrCount(); i < n; i++) {
            g.writeFieldName(e.attrKey(i));
            Object v = e.ref(i);
            if (v == TraceEvent.LONG) {
                g.writeNumber(e.num(i));
            } else if (v == TraceEvent.INT) {
                g.writeNumber((int) e.num(i));
            } else {
                writeValue(g, v);
            }
        }
    }

    private static void writeValue(JsonGenerator g, Object v) throws IOException {
        if (v == null) {
            g.writeNull();
        } else if (v instanceof String) {
            g.writeString((String) v);
        } else if (v instanceof Long) {
            g.writeNumber((Long) v);
        } else if (v instanceof Integer) {
            g.writeNumber((Integer) v);
        } else if (v instanceof Boolean) {
            g.writeBoolean((Boolean) v);
        } else if (v instanceof Double) {
            g.writeNumber((Double) v);
        } else if (v instanceof long[]) {
            long[] a = (long[]) v;
            g.writeArray(a, 0, a.length);
        } else if (v instanceof String[]) {
            String[] a = (String[]) v;
            g.writeArray(a, 0, a.length);
        } else {
            throw new IllegalArgumentException("unsupported trace attribute type " + v.getClass());
        }
    }

    /**
     * Returns the number of events written so far.
     *
     * @return the count
     */
    public long written() {
        return written;
    }

    /**
     * Pushes buffered output to the underlying stream and flushes it.
     *
     * @throws IOException if flushing fails
     */
    @Override
    public void flush() throws IOException {
        if (!closed) {
            gen.flush();
        }
    }

    /**
     * Flushes and closes the writer and its stream. Further calls do nothing.
     *
     * @throws IOException if flushing or closing fails
     */
    @Override
    public void close() throws IOException {
        if (!closed) {
            closed = true;
            gen.close();
        }
    }
}
