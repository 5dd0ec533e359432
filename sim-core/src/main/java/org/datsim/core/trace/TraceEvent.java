package org.datsim.core.trace;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * One line of the run trace {@code events.jsonl}: something that happened at a host at a simulated
 * time, such as a DAT call, a work request being posted or a completion being dequeued.
 *
 * <p>An event is built with {@link #of(long, String, String)} and chained setters, which mutate
 * and return this object:
 *
 * <pre>{@code
 * TraceEvent.of(sim.now(), TraceEvent.POST, "h1").ep("ep0").op(17).cookie(0xbeef).attr("bytes", 4096L)
 * }</pre>
 *
 * <p>The standard fields are written in the fixed order {@code t_ps, kind, host, ep, op, cookie,
 * call, ret, status}; unset fields are omitted. Extra attributes follow in insertion order. An event
 * should not be modified after it has been fired to sinks.
 *
 * <p>Costs: {@code of} allocates the event; setters are field writes, except the first {@link
 * #attr(String, Object)}, which allocates a small map, and array attributes, which are copied.
 */
public final class TraceEvent {

    /** An API call made by an application (kind). */
    public static final String CALL = "call";
    /** A work request posted to an endpoint (kind). */
    public static final String POST = "post";
    /** Processing of a work request started (kind). */
    public static final String START = "start";
    /** A work request waits on a fence (kind). */
    public static final String FENCE_WAIT = "fence_wait";
    /** Transmission started on the wire (kind). */
    public static final String TX_START = "tx_start";
    /** Transmission ended on the wire (kind). */
    public static final String TX_END = "tx_end";
    /** Data was placed in memory at the target (kind). */
    public static final String PLACE = "place";
    /** A work request completed (kind). */
    public static final String COMPLETE = "complete";
    /** A completion was dequeued by the application (kind). */
    public static final String DEQUEUE = "dequeue";
    /** A memory read (kind). */
    public static final String MEM_READ = "mem_read";
    /** A memory write (kind). */
    public static final String MEM_WRITE = "mem_write";
    /** An error (kind). */
    public static final String ERROR = "error";

    /** The JSON keys of the standard fields, in output order; attributes may not use them. */
    public static final Set<String> STANDARD_KEYS =
            Collections.unmodifiableSet(
                    new java.util.LinkedHashSet<>(
                            java.util.List.of(
                                    "t_ps", "kind", "host", "ep", "op", "cookie", "call", "ret", "status")));

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
    private LinkedHashMap<String, Object> attrs;

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
     * value in place (the key keeps its original position). Arrays are copied.
     *
     * @param key the attribute name; must not be one of {@link #STANDARD_KEYS}
     * @param value a {@code String}, {@code Long}, {@code Integer}, {@code Boolean}, {@code Double},
     *     {@code long[]}, {@code String[]}, or null (written as JSON null)
     * @return this event
     * @throws IllegalArgumentException if the key is reserved or the value has another type
     * @throws NullPointerException if {@code key} is null
     */
    public TraceEvent attr(String key, Object value) {
        if (key == null) {
            throw new NullPointerException("a trace attribute needs a key");
        }
        if (STANDARD_KEYS.contains(key)) {
            throw new IllegalArgumentException(
                    "\"" + key + "\" is a standard trace field; set it with its own method, not attr()");
        }
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
        if (attrs == null) {
            attrs = new LinkedHashMap<>();
        }
        attrs.put(key, v);
        return this;
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
     * map (empty if none were set). Array values are this event's own copies and must not be
     * modified.
     *
     * @return the attributes
     */
    public Map<String, Object> attrs() {
        return attrs == null ? Collections.emptyMap() : Collections.unmodifiableMap(attrs);
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
        if (attrs != null) {
            sb.append(", attrs=").append(attrs.keySet());
        }
        return sb.append(']').toString();
    }
}
