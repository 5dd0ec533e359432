package org.datsim.core.trace;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One line of the run trace {@code events.jsonl}: something that happened at a host at a simulated
 * time, such as a DAT call, a work request being posted or a completion being dequeued.
 *
 * <p>An event is built with {@link #of(long, String, String)} and chained setters, which mutate
 * and return this object:
 *
 * <pre>{@code
 * TraceEvent.of(sim.now(), TraceKind.POST, "h1").ep("ep0").op(17).cookie(0xbeef).attr(TraceKey.BYTES, 4096L)
 * }</pre>
 *
 * <p>The standard fields are written in the fixed order {@code t_ps, kind, host, ep, op, cookie,
 * call, ret, status}; unset fields are omitted. Extra attributes follow in insertion order. An event
 * should not be modified after it has been fired to sinks.
 *
 * <p>Costs: {@code of} allocates the event, and nothing else is allocated for the first three
 * attributes: setters are field writes, {@code long} and {@code int} attributes are kept unboxed
 * ({@link #attr(String, long)}, {@link #attr(String, int)}), keys are compared by identity first
 * (they are usually string constants). A fourth attribute allocates two small arrays; array values are
 * copied.
 */
public final class TraceEvent {

    // The kinds below predate TraceKind and stay as aliases of its constants (the same interned strings); new code
    // uses TraceKind, where every kind is declared with its meaning, and TraceKey for the attributes.

    /** An API call made by an application (kind). */
    public static final String CALL = TraceKind.CALL;
    /** A work request posted to an endpoint (kind). */
    public static final String POST = TraceKind.POST;
    /** Processing of a work request started (kind). */
    public static final String START = TraceKind.START;
    /** A work request waits on a fence (kind). */
    public static final String FENCE_WAIT = TraceKind.FENCE_WAIT;
    /** Transmission started on the wire (kind). */
    public static final String TX_START = TraceKind.TX_START;
    /** Transmission ended on the wire (kind). */
    public static final String TX_END = TraceKind.TX_END;
    /** Data was placed in memory at the target (kind). */
    public static final String PLACE = TraceKind.PLACE;
    /** A work request completed (kind). */
    public static final String COMPLETE = TraceKind.COMPLETE;
    /** A completion was dequeued by the application (kind). */
    public static final String DEQUEUE = TraceKind.DEQUEUE;
    /** A memory read (kind). */
    public static final String MEM_READ = TraceKind.MEM_READ;
    /** A memory write (kind). */
    public static final String MEM_WRITE = TraceKind.MEM_WRITE;
    /** An error (kind). */
    public static final String ERROR = TraceKind.ERROR;

    /** The JSON keys of the standard fields, in output order; attributes may not use them. */
    public static final Set<String> STANDARD_KEYS =
            Collections.unmodifiableSet(
                    new java.util.LinkedHashSet<>(
                            TraceSchema.STANDARD_KEYS));

    /** The tag of an attribute held as a primitive {@code long}. */
    static final Object LONG = new Object();
    /** The tag of an attribute held as a primitive {@code int}. */
    static final Object INT = new Object();
    private static final int INLINE = 3;

    private final long tPs;
    private final String kind;
    private final String host;
    private String ep;
    private long op = -1;
    private boolean hasCookie;
    private long cookie;
    private String call;
    private String ret;
    private String status;
    // The extra attributes, in insertion order: the first INLINE in fields (no allocation beyond the
    // event), the rest in arrays. Slot i holds its key, its value or a type tag (LONG, INT) and, for a
    // tag, the primitive value.
    private int attrCount;
    private String k0;
    private String k1;
    private String k2;
    private Object r0;
    private Object r1;
    private Object r2;
    private long n0;
    private long n1;
    private long n2;
    /** Attributes INLINE and later: key and value (or tag) of each, in turn. */
    private Object[] more;
    private long[] moreNums;

    private TraceEvent(long tPs, String kind, String host) {
        this.tPs = tPs;
        this.kind = kind;
        this.host = host;
    }

    /**
     * Starts an event.
     *
     * @param tPs the simulated time in picoseconds
     * @param kind the kind, usually one of the constants of this class
     * @param host the host name, or null if the event belongs to no host
     * @return the new event
     * @throws NullPointerException if {@code kind} is null
     */
    public static TraceEvent of(long tPs, String kind, String host) {
        if (kind == null) {
            throw new NullPointerException("a trace event needs a kind");
        }
        return new TraceEvent(tPs, kind, host);
    }

    /**
     * Sets the endpoint name.
     *
     * @param ep the endpoint, or null to unset
     * @return this event
     */
    public TraceEvent ep(String ep) {
        this.ep = ep;
        return this;
    }

    /**
     * Sets the operation number.
     *
     * @param op the operation number, {@code >= 0}; -1 unsets it
     * @return this event
     */
    public TraceEvent op(long op) {
        this.op = op;
        return this;
    }

    /**
     * Sets the application cookie of a work request.
     *
     * @param cookie the cookie (any value, including 0 and negative values)
     * @return this event
     */
    public TraceEvent cookie(long cookie) {
        this.cookie = cookie;
        this.hasCookie = true;
        return this;
    }

    /**
     * Sets the name of the API call.
     *
     * @param call the call name, or null to unset
     * @return this event
     */
    public TraceEvent call(String call) {
        this.call = call;
        return this;
    }

    /**
     * Sets the return code of the API call.
     *
     * @param ret the return code, or null to unset
     * @return this event
     */
    public TraceEvent ret(String ret) {
        this.ret = ret;
        return this;
    }

    /**
     * Sets the completion status.
     *
     * @param status the status, or null to unset
     * @return this event
     */
    public TraceEvent status(String status) {
        this.status = status;
        return this;
    }

    /**
     * Adds an extra attribute. Attributes keep insertion order; setting an existing key replaces its
     * value in place (the key keeps its original position). Arrays are copied. A {@code long} or
     * {@code int} argument binds to {@link #attr(String, long)} or {@link #attr(String, int)}, which
     * store it without boxing.
     *
     * @param key the attribute name; must not be one of {@link #STANDARD_KEYS}
     * @param value a {@code String}, {@code Long}, {@code Integer}, {@code Boolean}, {@code Double},
     *     {@code long[]}, {@code String[]}, or null (written as JSON null)
     * @return this event
     * @throws IllegalArgumentException if the key is reserved or the value has another type
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, Object value) {
        checkKey(key);
        Object v;
        if (value == null
                || value instanceof String
                || value instanceof Long
                || value instanceof Integer
                || value instanceof Boolean
                || value instanceof Double) {
            v = value;
        } else if (value instanceof long[]) {
            v = ((long[]) value).clone();
        } else if (value instanceof String[]) {
            v = ((String[]) value).clone();
        } else {
            throw new IllegalArgumentException(
                    "trace attribute \""
                            + key
                            + "\" has unsupported type "
                            + value.getClass().getName()
                            + "; use String, Long, Integer, Boolean, Double, long[] or String[]");
        }
        put(key, v, 0);
        return this;
    }

    /**
     * Adds a {@code long} attribute without boxing it; read back (through {@link #attrs()}) as a
     * {@code Long}. Otherwise as {@link #attr(String, Object)}.
     *
     * @param key the attribute name; must not be one of {@link #STANDARD_KEYS}
     * @param value the value
     * @return this event
     * @throws IllegalArgumentException if the key is reserved
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, long value) {
        checkKey(key);
        put(key, LONG, value);
        return this;
    }

    /**
     * Adds an {@code int} attribute without boxing it; read back (through {@link #attrs()}) as an
     * {@code Integer}. Otherwise as {@link #attr(String, Object)}.
     *
     * @param key the attribute name; must not be one of {@link #STANDARD_KEYS}
     * @param value the value
     * @return this event
     * @throws IllegalArgumentException if the key is reserved
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, int value) {
        checkKey(key);
        put(key, INT, value);
        return this;
    }

    /**
     * Rejects a {@code char} value, as {@link #attr(String, Object)} does (this overload only keeps a
     * {@code char} from widening to {@link #attr(String, int)}).
     *
     * @param key the attribute name
     * @param value the value
     * @return never
     * @throws IllegalArgumentException always (or if the key is reserved)
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, char value) {
        return attr(key, (Object) value);
    }

    /**
     * Rejects a {@code short} value, as {@link #attr(String, Object)} does (this overload only keeps a
     * {@code short} from widening to {@link #attr(String, int)}).
     *
     * @param key the attribute name
     * @param value the value
     * @return never
     * @throws IllegalArgumentException always (or if the key is reserved)
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, short value) {
        return attr(key, (Object) value);
    }

    /**
     * Rejects a {@code byte} value, as {@link #attr(String, Object)} does (this overload only keeps a
     * {@code byte} from widening to {@link #attr(String, int)}).
     *
     * @param key the attribute name
     * @param value the value
     * @return never
     * @throws IllegalArgumentException always (or if the key is reserved)
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, byte value) {
        return attr(key, (Object) value);
    }

    private static void checkKey(String key) {
        if (key == null) {
            throw new NullPointerException("a trace attribute needs a key");
        }
        if (isStandardKey(key)) {
            throw new IllegalArgumentException(
                    "\"" + key + "\" is a standard trace field; set it with its own method, not attr()");
        }
    }

    /** {@code STANDARD_KEYS.contains(key)}, by length and comparison (this is on every attribute's path). */
    static boolean isStandardKey(String key) {
        switch (key.length()) {
            case 2:
                return key.equals(TraceKey.EP) || key.equals(TraceKey.OP);
            case 3:
                return key.equals(TraceKey.RET);
            case 4:
                return key.equals(TraceKey.T_PS) || key.equals(TraceKey.KIND) || key.equals(TraceKey.HOST)
                        || key.equals(TraceKey.CALL);
            case 6:
                return key.equals(TraceKey.COOKIE) || key.equals(TraceKey.STATUS);
            default:
                return false;
        }
    }

    /** Sets a key's slot: replaces its value where it is, or appends it. */
    private void put(String key, Object ref, long num) {
        int i = indexOf(key);
        if (i < 0) {
            i = attrCount++;
        }
        switch (i) {
            case 0:
                k0 = key;
                r0 = ref;
                n0 = num;
                break;
            case 1:
                k1 = key;
                r1 = ref;
                n1 = num;
                break;
            case 2:
                k2 = key;
                r2 = ref;
                n2 = num;
                break;
            default:
                int j = i - INLINE;
                if (more == null) {
                    more = new Object[2 * 4];
                    moreNums = new long[4];
                } else if (j == moreNums.length) {
                    more = Arrays.copyOf(more, 4 * j);
                    moreNums = Arrays.copyOf(moreNums, 2 * j);
                }
                more[2 * j] = key;
                more[2 * j + 1] = ref;
                moreNums[j] = num;
                break;
        }
    }

    private int indexOf(String key) {
        for (int i = 0; i < attrCount; i++) {
            String k = attrKey(i);
            if (k == key || k.equals(key)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Returns the number of extra attributes.
     *
     * @return the count
     */
    public int attrCount() {
        return attrCount;
    }

    /**
     * Returns the key of an extra attribute.
     *
     * @param i the attribute's position in insertion order, {@code 0 <= i < attrCount()}
     * @return the key
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public String attrKey(int i) {
        switch (checkIndex(i)) {
            case 0:
                return k0;
            case 1:
                return k1;
            case 2:
                return k2;
            default:
                return (String) more[2 * (i - INLINE)];
        }
    }

    /**
     * Returns the value of an extra attribute, numbers boxed ({@code Long} or {@code Integer} as set).
     *
     * @param i the attribute's position in insertion order, {@code 0 <= i < attrCount()}
     * @return the value (array values are this event's own copies and must not be modified)
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public Object attrValue(int i) {
        Object r = ref(i);
        if (r == LONG) {
            return num(i);
        }
        if (r == INT) {
            return (int) num(i);
        }
        return r;
    }

    /**
     * Returns the value of an extra attribute by key, as {@link #attrs()}{@code .get(key)} would.
     *
     * @param key the key
     * @return the value, or null if the attribute is unset (or set to null)
     */
    public Object attrValue(String key) {
        int i = indexOf(key);
        return i < 0 ? null : attrValue(i);
    }

    /**
     * Returns a numeric attribute as a {@code long} without boxing ({@link Number#longValue()} of a
     * {@code Double}).
     *
     * @param key the key
     * @param otherwise what to return if the attribute is unset or not a number
     * @return the value
     */
    public long attrLong(String key, long otherwise) {
        int i = indexOf(key);
        if (i < 0) {
            return otherwise;
        }
        Object r = ref(i);
        if (r == LONG || r == INT) {
            return num(i);
        }
        return r instanceof Number ? ((Number) r).longValue() : otherwise;
    }

    /**
     * Tells whether an extra attribute is set (possibly to null).
     *
     * @param key the key
     * @return true if set
     */
    public boolean hasAttr(String key) {
        return indexOf(key) >= 0;
    }

    /**
     * The stored form of attribute {@code i}: the value itself, or {@link #LONG} or {@link #INT} when
     * the value is the primitive {@link #num(int)}. For writers in this package.
     */
    Object ref(int i) {
        switch (checkIndex(i)) {
            case 0:
                return r0;
            case 1:
                return r1;
            case 2:
                return r2;
            default:
                return more[2 * (i - INLINE) + 1];
        }
    }

    /** The primitive value of attribute {@code i} when {@link #ref(int)} is a tag. */
    long num(int i) {
        switch (checkIndex(i)) {
            case 0:
                return n0;
            case 1:
                return n1;
            case 2:
                return n2;
            default:
                return moreNums[i - INLINE];
        }
    }

    private int checkIndex(int i) {
        if (i < 0 || i >= attrCount) {
            throw new IndexOutOfBoundsException("attribute " + i + " of " + attrCount);
        }
        return i;
    }

    /**
     * Returns the simulated time.
     *
     * @return the time in picoseconds
     */
    public long tPs() {
        return tPs;
    }

    /**
     * Returns the kind.
     *
     * @return the kind
     */
    public String kind() {
        return kind;
    }

    /**
     * Returns the host.
     *
     * @return the host, or null if unset
     */
    public String host() {
        return host;
    }

    /**
     * Returns the endpoint.
     *
     * @return the endpoint, or null if unset
     */
    public String ep() {
        return ep;
    }

    /**
     * Returns the operation number.
     *
     * @return the operation number, or -1 if unset
     */
    public long op() {
        return op;
    }

    /**
     * Tells whether a cookie was set.
     *
     * @return true if {@link #cookie(long)} was called
     */
    public boolean hasCookie() {
        return hasCookie;
    }

    /**
     * Returns the cookie.
     *
     * @return the cookie, or 0 if unset (see {@link #hasCookie()})
     */
    public long cookie() {
        return cookie;
    }

    /**
     * Returns the API call name.
     *
     * @return the call, or null if unset
     */
    public String call() {
        return call;
    }

    /**
     * Returns the API return code.
     *
     * @return the return code, or null if unset
     */
    public String ret() {
        return ret;
    }

    /**
     * Returns the completion status.
     *
     * @return the status, or null if unset
     */
    public String status() {
        return status;
    }

    /**
     * Returns the extra attributes in insertion order, as an unmodifiable live view of this event's
     * attributes (empty if none were set). Numbers set with {@link #attr(String, long)} or {@link
     * #attr(String, int)} are boxed on each read; the typed readers ({@link #attrValue(String)},
     * {@link #attrLong(String, long)}, {@link #attrCount()}) do not allocate the view. Array values
     * are this event's own copies and must not be modified.
     *
     * @return the attributes
     */
    public Map<String, Object> attrs() {
        return new AttrView();
    }

    /** The map view of the attributes. */
    private final class AttrView extends AbstractMap<String, Object> {

        @Override
        public int size() {
            return attrCount;
        }

        @Override
        public boolean containsKey(Object key) {
            return key instanceof String && indexOf((String) key) >= 0;
        }

        @Override
        public Object get(Object key) {
            return key instanceof String ? attrValue((String) key) : null;
        }

        @Override
        public Set<Map.Entry<String, Object>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public int size() {
                    return attrCount;
                }

                @Override
                public Iterator<Map.Entry<String, Object>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < attrCount;
                        }

                        @Override
                        public Map.Entry<String, Object> next() {
                            if (next >= attrCount) {
                                throw new NoSuchElementException();
                            }
                            int i = next++;
                            return new AbstractMap.SimpleImmutableEntry<>(attrKey(i), attrValue(i));
                        }
                    };
                }
            };
        }
    }

    /**
     * Returns a short description for debugging (not the JSON form).
     *
     * @return the description
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("TraceEvent[t_ps=").append(tPs).append(", kind=").append(kind);
        if (host != null) {
            sb.append(", host=").append(host);
        }
        if (ep != null) {
            sb.append(", ep=").append(ep);
        }
        if (op != -1) {
            sb.append(", op=").append(op);
        }
        if (hasCookie) {
            sb.append(", cookie=").append(cookie);
        }
        if (call != null) {
            sb.append(", call=").append(call);
        }
        if (ret != null) {
            sb.append(", ret=").append(ret);
        }
        if (status != null) {
            sb.append(", status=").append(status);
        }
        if (attrCount > 0) {
            sb.append(", attrs=").append(attrs().keySet());
        }
        return sb.append(']').toString();
    }
}
