package org.datsim.scenario.lab;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;

/**
 * A pattern of one trace event: field names (standard fields such as {@code kind}, {@code host}, {@code status},
 * or any extra field such as {@code reason}) mapped to the text their value must have, or to {@code "*"} for "any
 * value, but present". A lesson's hazard sign is the trace event that shows the hazard happened.
 */
public final class TraceSign {

    private final Map<String, String> fields;

    /**
     * Creates a sign.
     *
     * @param fields field name to required text (or "*"), in the lesson file's order
     */
    public TraceSign(Map<String, String> fields) {
        this.fields = new LinkedHashMap<>(fields);
    }

    /** Returns the fields, in order. */
    public Map<String, String> fields() {
        return fields;
    }

    /**
     * Tells whether an event has every field of this sign with the required value.
     *
     * @param e the event
     * @return true if it matches
     */
    public boolean matches(TraceEvent e) {
        for (Map.Entry<String, String> f : fields.entrySet()) {
            String v = value(e, f.getKey());
            if (v == null || (!"*".equals(f.getValue()) && !f.getValue().equals(v))) {
                return false;
            }
        }
        return true;
    }

    /**
     * Returns an event's field as text, or null if the event does not have it.
     *
     * @param e the event
     * @param key the field name
     * @return the text
     */
    static String value(TraceEvent e, String key) {
        switch (key) {
            case "kind":
                return e.kind();
            case "host":
                return e.host();
            case "ep":
                return e.ep();
            case "op":
                return e.op() < 0 ? null : Long.toString(e.op());
            case "cookie":
                return e.hasCookie() ? Long.toString(e.cookie()) : null;
            case "call":
                return e.call();
            case "ret":
                return e.ret();
            case "status":
                return e.status();
            default:
                Object v = e.attrValue(key);
                if (v instanceof long[]) {
                    List<String> s = new ArrayList<>();
                    for (long x : (long[]) v) {
                        s.add(Long.toString(x));
                    }
                    return String.join(",", s);
                }
                if (v instanceof String[]) {
                    return String.join("|", (String[]) v);
                }
                return v == null ? null : String.valueOf(v);
        }
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        for (Map.Entry<String, String> f : fields.entrySet()) {
            parts.add(f.getKey() + "=" + f.getValue());
        }
        return "{" + String.join(", ", parts) + "}";
    }
}
