package org.datsim.core.trace;

import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The trace format's one owner: which {@link TraceKind kinds} a line of {@code events.jsonl} may have, which
 * {@link TraceKey keys} each kind may carry, and each key's JSON type and unit. The constants live in
 * {@link TraceKind} and {@link TraceKey}; this class is the lookup over them ({@link #isKind}, {@link #keysOf},
 * {@link #allows}, {@link #typeOf}, {@link #unitOf}) and the check of one line ({@link #check(TraceEvent)}), which
 * the tests run over every line every example, lesson and litmus test emits. docs/trace-format.md's key table is
 * {@link #keyTableMarkdown()} (TraceFormatDocTest compares them and rewrites the table on request).
 *
 * <p>Not on any hot path: models emit the constants directly; this is for tests, docs and readers.
 */
public final class TraceSchema {

    /** The JSON type of an attribute's value. */
    public enum ValueType {
        /** A JSON string (or null). */
        STRING("string"),
        /** A JSON integer. */
        INTEGER("integer"),
        /** A JSON number (integer or fraction). */
        NUMBER("number"),
        /** true or false. */
        BOOLEAN("boolean"),
        /** An array of integers. */
        INTEGER_ARRAY("array of integers");

        private final String jsonName;

        ValueType(String jsonName) {
            this.jsonName = jsonName;
        }

        /**
         * Returns the type as the docs name it.
         *
         * @return e.g. "integer"
         */
        public String jsonName() {
            return jsonName;
        }

        /**
         * Tells whether a value, as {@link TraceEvent#attrValue(int)} returns it, has this type.
         *
         * @param v the value (numbers boxed, arrays as {@code long[]} or {@code String[]})
         * @return true if it fits
         */
        public boolean accepts(Object v) {
            switch (this) {
                case STRING:
                    return v == null || v instanceof String;
                case INTEGER:
                    return v instanceof Long || v instanceof Integer;
                case NUMBER:
                    return v instanceof Number;
                case BOOLEAN:
                    return v instanceof Boolean;
                default:
                    return v instanceof long[];
            }
        }
    }

    /** The standard fields, in their output order (each set by its own method of {@link TraceEvent}). */
    public static final List<String> STANDARD_KEYS = List.of(TraceKey.T_PS, TraceKey.KIND, TraceKey.HOST,
            TraceKey.EP, TraceKey.OP, TraceKey.COOKIE, TraceKey.CALL, TraceKey.RET, TraceKey.STATUS);

    private static final Map<String, ValueType> TYPES = new LinkedHashMap<>();
    private static final Map<String, String> UNITS = new HashMap<>();
    private static final Map<String, Set<String>> KINDS = new LinkedHashMap<>();

    static {
        key(TraceKey.SUBTYPE, ValueType.STRING, "");
        key(TraceKey.PROCESS, ValueType.STRING, "");
        key(TraceKey.STEP, ValueType.STRING, "");
        key(TraceKey.ITERATION, ValueType.STRING, "");
        key(TraceKey.EVD, ValueType.STRING, "");
        key(TraceKey.NMORE, ValueType.INTEGER, "");
        key(TraceKey.NUMBER_ENTRIES, ValueType.INTEGER, "");
        key(TraceKey.IA_NAMES, ValueType.STRING, "");
        key(TraceKey.MESSAGE, ValueType.STRING, "");
        key(TraceKey.RMR_CONTEXT, ValueType.INTEGER, "");
        key(TraceKey.OPCODE, ValueType.STRING, "");
        key(TraceKey.BYTES, ValueType.INTEGER, "B");
        key(TraceKey.FLAGS, ValueType.STRING, "");
        key(TraceKey.INLINE, ValueType.BOOLEAN, "");
        key(TraceKey.IMMEDIATE, ValueType.INTEGER, "");
        key(TraceKey.SRQ, ValueType.STRING, "");
        key(TraceKey.WAITING_FOR, ValueType.INTEGER_ARRAY, "");
        key(TraceKey.REASON, ValueType.STRING, "");
        key(TraceKey.PACKET, ValueType.STRING, "");
        key(TraceKey.PACKETS, ValueType.INTEGER, "");
        key(TraceKey.ADDRESS, ValueType.INTEGER, "");
        key(TraceKey.RECV_OP, ValueType.INTEGER, "");
        key(TraceKey.SUPPRESSED, ValueType.BOOLEAN, "");
        key(TraceKey.HELD_BEHIND, ValueType.INTEGER, "");
        key(TraceKey.FINISHED_PS, ValueType.INTEGER, "ps");
        key(TraceKey.OVERTOOK_READ, ValueType.INTEGER, "");
        key(TraceKey.EVENT, ValueType.STRING, "");
        key(TraceKey.TRANSFERED_LENGTH, ValueType.INTEGER, "B");
        key(TraceKey.IMMEDIATE_DATA, ValueType.INTEGER, "");
        key(TraceKey.CR, ValueType.STRING, "");
        key(TraceKey.RMR, ValueType.STRING, "");
        key(TraceKey.QUEUED_PS, ValueType.INTEGER, "ps");
        key(TraceKey.STATE, ValueType.STRING, "");
        key(TraceKey.CONN_QUAL, ValueType.INTEGER, "");
        key(TraceKey.HANDED_OFF_FROM, ValueType.STRING, "");
        key(TraceKey.RSP, ValueType.STRING, "");
        key(TraceKey.AVAILABLE, ValueType.INTEGER, "");
        key(TraceKey.BUFFERS, ValueType.INTEGER, "");
        key(TraceKey.FROM, ValueType.STRING, "");
        key(TraceKey.DUPLICATE, ValueType.BOOLEAN, "");
        key(TraceKey.ATTEMPT, ValueType.INTEGER, "");
        key(TraceKey.TO, ValueType.STRING, "");
        key(TraceKey.COMM_ID, ValueType.INTEGER, "");
        key(TraceKey.RESENDS, ValueType.INTEGER, "");
        key(TraceKey.CACHE, ValueType.STRING, "");
        key(TraceKey.KEY, ValueType.INTEGER, "");
        key(TraceKey.PENALTY_PS, ValueType.INTEGER, "ps");
        key(TraceKey.FETCHED, ValueType.INTEGER, "");
        key(TraceKey.IN_FLIGHT, ValueType.BOOLEAN, "");
        key(TraceKey.SWITCH, ValueType.STRING, "");
        key(TraceKey.PORT, ValueType.STRING, "");
        key(TraceKey.SEQ, ValueType.INTEGER, "");
        key(TraceKey.INDEX, ValueType.INTEGER, "");
        key(TraceKey.LMR, ValueType.STRING, "");
        key(TraceKey.STALE, ValueType.BOOLEAN, "");
        key(TraceKey.DATA_HEX, ValueType.STRING, "");
        key(TraceKey.MATCH, ValueType.BOOLEAN, "");
        key(TraceKey.ERROR, ValueType.STRING, "");
        key(TraceKey.LOST_EVENT, ValueType.STRING, "");
        key(TraceKey.PAUSED, ValueType.INTEGER, "");
        key(TraceKey.QUEUE_BYTES, ValueType.INTEGER, "B");
        key(TraceKey.PAUSING, ValueType.INTEGER, "");
        key(TraceKey.ECN_MARKS, ValueType.INTEGER, "");
        key(TraceKey.UTILISATION, ValueType.NUMBER, "fraction");
        key(TraceKey.START_PS, ValueType.INTEGER, "ps");
        key(TraceKey.FCT_PS, ValueType.INTEGER, "ps");
        key(TraceKey.CNO, ValueType.STRING, "");
        key(TraceKey.WAITERS, ValueType.INTEGER, "");
        key(TraceKey.PROXY_AGENT, ValueType.STRING, "");
        key(TraceKey.ACTION, ValueType.STRING, "");
        key(TraceKey.IA_NAME, ValueType.STRING, "");
        key(TraceKey.POINT, ValueType.STRING, "");
        key(TraceKey.RULE, ValueType.STRING, "");
        key(TraceKey.ALTERNATIVES, ValueType.INTEGER, "");
        key(TraceKey.VALUE, ValueType.INTEGER, "");

        kind(TraceKind.CALL, TraceKey.SUBTYPE, TraceKey.PROCESS, TraceKey.STEP, TraceKey.ITERATION, TraceKey.EVD,
                TraceKey.NMORE, TraceKey.NUMBER_ENTRIES, TraceKey.IA_NAMES, TraceKey.MESSAGE, TraceKey.RMR_CONTEXT);
        kind(TraceKind.POST, TraceKey.OPCODE, TraceKey.BYTES, TraceKey.FLAGS, TraceKey.INLINE, TraceKey.IMMEDIATE,
                TraceKey.SRQ);
        kind(TraceKind.START, TraceKey.OPCODE, TraceKey.BYTES);
        kind(TraceKind.FENCE_WAIT, TraceKey.OPCODE, TraceKey.WAITING_FOR, TraceKey.REASON);
        kind(TraceKind.CREDIT_WAIT, TraceKey.OPCODE, TraceKey.WAITING_FOR, TraceKey.REASON);
        kind(TraceKind.TX_START, TraceKey.PACKET, TraceKey.PACKETS);
        kind(TraceKind.TX_END, TraceKey.PACKET, TraceKey.PACKETS);
        kind(TraceKind.PLACE, TraceKey.BYTES, TraceKey.ADDRESS, TraceKey.RECV_OP, TraceKey.IMMEDIATE);
        kind(TraceKind.COMPLETE, TraceKey.OPCODE, TraceKey.BYTES, TraceKey.SUPPRESSED, TraceKey.IMMEDIATE,
                TraceKey.HELD_BEHIND, TraceKey.FINISHED_PS, TraceKey.OVERTOOK_READ);
        kind(TraceKind.DEQUEUE, TraceKey.EVENT, TraceKey.OPCODE, TraceKey.TRANSFERED_LENGTH, TraceKey.IMMEDIATE_DATA,
                TraceKey.CR, TraceKey.RMR, TraceKey.QUEUED_PS, TraceKey.PROCESS);
        kind(TraceKind.EVENT, TraceKey.EVENT, TraceKey.STATE, TraceKey.CR, TraceKey.CONN_QUAL,
                TraceKey.HANDED_OFF_FROM, TraceKey.RSP, TraceKey.SRQ, TraceKey.REASON, TraceKey.AVAILABLE,
                TraceKey.BUFFERS);
        kind(TraceKind.CM, TraceKey.MESSAGE, TraceKey.FROM, TraceKey.DUPLICATE);
        kind(TraceKind.CM_RETRY, TraceKey.MESSAGE, TraceKey.ATTEMPT, TraceKey.TO, TraceKey.COMM_ID);
        kind(TraceKind.CM_TIMEOUT, TraceKey.MESSAGE, TraceKey.RESENDS, TraceKey.TO, TraceKey.COMM_ID);
        kind(TraceKind.CACHE_MISS, TraceKey.CACHE, TraceKey.KEY, TraceKey.PENALTY_PS, TraceKey.FETCHED,
                TraceKey.IN_FLIGHT);
        kind(TraceKind.RNR_NAK, TraceKey.REASON);
        kind(TraceKind.RETRANSMIT, TraceKey.OPCODE, TraceKey.REASON, TraceKey.ATTEMPT);
        kind(TraceKind.DROP, TraceKey.SWITCH, TraceKey.PORT, TraceKey.REASON, TraceKey.PACKET, TraceKey.FROM,
                TraceKey.TO, TraceKey.SEQ, TraceKey.INDEX, TraceKey.PACKETS, TraceKey.MESSAGE, TraceKey.COMM_ID,
                TraceKey.BYTES);
        kind(TraceKind.MEM_WRITE, TraceKey.PROCESS, TraceKey.LMR, TraceKey.ADDRESS, TraceKey.BYTES);
        kind(TraceKind.MEM_READ, TraceKey.PROCESS, TraceKey.LMR, TraceKey.ADDRESS, TraceKey.BYTES, TraceKey.STALE,
                TraceKey.DATA_HEX, TraceKey.MATCH);
        kind(TraceKind.ERROR, TraceKey.ERROR, TraceKey.EVD, TraceKey.LOST_EVENT);
        kind(TraceKind.PFC, TraceKey.PORT, TraceKey.PAUSED, TraceKey.QUEUE_BYTES);
        kind(TraceKind.PORT_QUEUE, TraceKey.PORT, TraceKey.QUEUE_BYTES);
        kind(TraceKind.PORT_SAMPLE, TraceKey.SWITCH, TraceKey.PORT, TraceKey.QUEUE_BYTES, TraceKey.PAUSED,
                TraceKey.PAUSING, TraceKey.ECN_MARKS, TraceKey.UTILISATION);
        kind(TraceKind.ECN_MARK, TraceKey.SWITCH, TraceKey.PORT, TraceKey.QUEUE_BYTES, TraceKey.PACKET, TraceKey.FROM,
                TraceKey.TO, TraceKey.BYTES);
        kind(TraceKind.FLOW, TraceKey.TO, TraceKey.BYTES, TraceKey.START_PS, TraceKey.FCT_PS);
        kind(TraceKind.EXPECT_FAILED, TraceKey.PROCESS, TraceKey.STEP, TraceKey.ITERATION, TraceKey.MESSAGE);
        kind(TraceKind.SRQ_TAKE, TraceKey.SRQ, TraceKey.AVAILABLE);
        kind(TraceKind.CNO_NOTIFY, TraceKey.CNO, TraceKey.EVD, TraceKey.WAITERS, TraceKey.PROXY_AGENT);
        kind(TraceKind.REGISTRY, TraceKey.ACTION, TraceKey.IA_NAME);
        kind(TraceKind.CHOICE, TraceKey.POINT, TraceKey.RULE, TraceKey.ALTERNATIVES, TraceKey.VALUE, TraceKey.INDEX);
    }

    private TraceSchema() {}

    private static void key(String key, ValueType type, String unit) {
        if (TYPES.put(key, type) != null) {
            throw new ExceptionInInitializerError("trace key " + key + " declared twice");
        }
        UNITS.put(key, unit);
    }

    private static void kind(String kind, String... keys) {
        Set<String> set = new LinkedHashSet<>();
        for (String k : keys) {
            if (!TYPES.containsKey(k) || !set.add(k)) {
                throw new ExceptionInInitializerError("kind " + kind + ": key " + k + " undeclared or repeated");
            }
        }
        if (KINDS.put(kind, Collections.unmodifiableSet(set)) != null) {
            throw new ExceptionInInitializerError("trace kind " + kind + " declared twice");
        }
    }

    /**
     * Returns every declared kind, in declaration order.
     *
     * @return the kinds (unmodifiable)
     */
    public static Set<String> kinds() {
        return Collections.unmodifiableSet(KINDS.keySet());
    }

    /**
     * Returns every declared attribute key (the standard fields not included), in declaration order.
     *
     * @return the keys (unmodifiable)
     */
    public static Set<String> keys() {
        return Collections.unmodifiableSet(TYPES.keySet());
    }

    /**
     * Tells whether a kind is declared.
     *
     * @param kind the kind
     * @return true if declared
     */
    public static boolean isKind(String kind) {
        return KINDS.containsKey(kind);
    }

    /**
     * Tells whether an attribute key is declared (a standard field is not an attribute key).
     *
     * @param key the key
     * @return true if declared
     */
    public static boolean isKey(String key) {
        return TYPES.containsKey(key);
    }

    /**
     * Tells whether a key is one of the standard fields.
     *
     * @param key the key
     * @return true if it is
     */
    public static boolean isStandardKey(String key) {
        return STANDARD_KEYS.contains(key);
    }

    /**
     * Returns the attribute keys a kind may carry, in the order they are declared for it.
     *
     * @param kind the kind
     * @return the keys (unmodifiable; empty for an undeclared kind)
     */
    public static Set<String> keysOf(String kind) {
        Set<String> s = KINDS.get(kind);
        return s == null ? Set.of() : s;
    }

    /**
     * Tells whether a line of a kind may carry an attribute key.
     *
     * @param kind the kind
     * @param key the attribute key
     * @return true if the kind is declared and allows the key
     */
    public static boolean allows(String kind, String key) {
        return keysOf(kind).contains(key);
    }

    /**
     * Returns an attribute key's JSON type.
     *
     * @param key the key
     * @return its type, or null if undeclared
     */
    public static ValueType typeOf(String key) {
        return TYPES.get(key);
    }

    /**
     * Returns a numeric key's unit: {@code B} (bytes), {@code ps} (picoseconds), {@code fraction}; empty for a
     * count, an id or a non-number.
     *
     * @param key the key
     * @return the unit, or null if undeclared
     */
    public static String unitOf(String key) {
        return UNITS.get(key);
    }

    /**
     * Returns the kinds that may carry an attribute key, in declaration order.
     *
     * @param key the key
     * @return the kinds (empty for an undeclared key)
     */
    public static List<String> kindsWith(String key) {
        List<String> out = new java.util.ArrayList<>();
        for (Map.Entry<String, Set<String>> k : KINDS.entrySet()) {
            if (k.getValue().contains(key)) {
                out.add(k.getKey());
            }
        }
        return out;
    }

    /**
     * Checks one line against the schema: a declared kind, only keys declared for it, each value of its type.
     *
     * @param e the line
     * @return null if it conforms, else what is wrong (naming the kind and the key)
     */
    public static String check(TraceEvent e) {
        if (!isKind(e.kind())) {
            return "undeclared kind \"" + e.kind() + "\"";
        }
        for (int i = 0; i < e.attrCount(); i++) {
            String key = e.attrKey(i);
            if (!isKey(key)) {
                return "kind " + e.kind() + ": undeclared key \"" + key + "\"";
            }
            if (!allows(e.kind(), key)) {
                return "kind " + e.kind() + ": key \"" + key + "\" is declared, but not for this kind";
            }
            Object v = e.attrValue(i);
            if (!typeOf(key).accepts(v)) {
                return "kind " + e.kind() + ": key \"" + key + "\" should be " + typeOf(key).jsonName() + ", is "
                        + (v == null ? "null" : v.getClass().getSimpleName());
            }
        }
        return null;
    }

    /**
     * Renders the attribute keys as the Markdown table of docs/trace-format.md: key, type, unit, kinds.
     *
     * @return the table, one row a line, ending with a newline
     */
    public static String keyTableMarkdown() {
        StringBuilder sb = new StringBuilder("| key | type | unit | carried by |\n|---|---|---|---|\n");
        for (Map.Entry<String, ValueType> k : TYPES.entrySet()) {
            String unit = UNITS.get(k.getKey());
            sb.append("| `").append(k.getKey()).append("` | ").append(k.getValue().jsonName()).append(" | ")
                    .append(unit.isEmpty() ? "" : "`" + unit + "`").append(" | ");
            List<String> kinds = kindsWith(k.getKey());
            for (int i = 0; i < kinds.size(); i++) {
                sb.append(i == 0 ? "" : ", ").append('`').append(kinds.get(i)).append('`');
            }
            sb.append(" |\n");
        }
        return sb.toString();
    }
}
