package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.scenario.load.Step;

/**
 * Judges a step's {@code "expect"} against what its call observed ({@link CallResult}), when the step ends: each
 * value, a {@code {"one_of": [...]}} of values (any may match), and the conditional form {@code "if": {...},
 * "then": {...}, "else": {...}} (the "if" holds when every value in it matches; the branch it picks is then checked
 * like the top level). Without {@code "ret"} anywhere in the expectation the call must succeed. Each miss is a failed
 * expectation of the step. A value the call did not produce (the event of a wait that timed out, the bytes of a read
 * that failed) is not compared, and makes an "if" false.
 */
final class Expectations {

    /** The result of comparing a value the call did not produce. */
    private static final String ABSENT = "\u0000absent";
    private static final String ONE_OF = "one_of";

    private Expectations() {
    }

    /** Checks the step's expectations against what the call observed, and records its observation. */
    static void check(ConsumerProcess p, Step s, CallResult r) {
        JsonNode e = s.node().get("expect");
        boolean error = r.returned && !DatReturn.isSuccess(r.ret);
        if (!mentionsRet(e) && error) {
            p.fail(s, "expected DAT_SUCCESS, the call returned " + DatReturn.describe(r.ret)
                    + " (calls are expected to succeed unless \"expect\" says otherwise)");
        }
        long before = p.runner().failuresSoFar();
        if (e != null) {
            block(p, s, r, e, "");
        }
        if (error && mentionsRet(e) && p.runner().failuresSoFar() == before) {
            p.runner().countExpectedError();
        }
        if (s.node().has("observe")) {
            p.runner().observe(p, s, r);
        }
        if (s.name() != null) {
            p.namedResults().put(s.name(), r.copy());
        }
    }

    private static boolean mentionsRet(JsonNode e) {
        if (e == null) {
            return false;
        }
        if (e.has("ret")) {
            return true;
        }
        JsonNode cond = e.get("if");
        boolean other = cond != null && cond.has("step"); // an "if" on an earlier step tests that step's ret
        return (!other && mentionsRet(cond)) || mentionsRet(e.get("then")) || mentionsRet(e.get("else"));
    }

    private static void block(ConsumerProcess p, Step s, CallResult r, JsonNode e, String prefix) {
        List<String> misses = new ArrayList<>();
        if (e.has("ret")) {
            value(p, s, r, "ret", e.get("ret"), misses);
        }
        Iterator<Map.Entry<String, JsonNode>> it = e.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            if (!k.equals("ret") && !k.equals("if") && !k.equals("then") && !k.equals("else")) {
                value(p, s, r, k, f.getValue(), misses);
            }
        }
        for (String m : misses) {
            p.fail(s, prefix + m);
        }
        if (e.has("if")) {
            boolean holds = holds(p, s, r, e.get("if"));
            JsonNode branch = e.get(holds ? "then" : "else");
            if (branch != null) {
                block(p, s, r, branch, prefix + "(" + (holds ? "then" : "else") + ", as the \"if\" "
                        + (holds ? "holds" : "does not hold") + ") ");
            }
        }
    }

    /** Returns true if every value of an "if" matches what the call observed. */
    private static boolean holds(ConsumerProcess p, Step s, CallResult r, JsonNode cond) {
        if (cond.has("step")) {
            // "if": {"step": NAME, ...}: the values are those of the earlier step's result (false if it has not run).
            r = p.namedResults().get(cond.get("step").asText());
            if (r == null) {
                return false;
            }
        }
        Iterator<Map.Entry<String, JsonNode>> it = cond.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            if (f.getKey().equals("step")) {
                continue;
            }
            if (f.getKey().equals("attrs")) {
                if (r.attrs == null) {
                    return false;
                }
                List<String> misses = new ArrayList<>();
                attrs(p, s, r, f.getValue(), misses);
                if (!misses.isEmpty()) {
                    return false;
                }
            } else if (oneOf(p, s, r, f.getKey(), f.getValue()) != null) {
                return false;
            }
        }
        return true;
    }

    /** Compares one expected value (or one_of) and adds the miss, if any. */
    private static void value(ConsumerProcess p, Step s, CallResult r, String key, JsonNode want,
            List<String> misses) {
        if (key.equals("attrs")) {
            if (r.attrs != null) {
                attrs(p, s, r, want, misses);
            }
            return;
        }
        String m = oneOf(p, s, r, key, want);
        if (m != null && m != ABSENT) {
            misses.add(m);
        }
    }

    /** null if the value (or one of the values) matches, {@link #ABSENT}, or the miss. */
    private static String oneOf(ConsumerProcess p, Step s, CallResult r, String key, JsonNode want) {
        if (!isOneOf(want)) {
            return single(p, s, r, key, want);
        }
        boolean absent = true;
        for (JsonNode alt : want.get(ONE_OF)) {
            String m = single(p, s, r, key, alt);
            if (m == null) {
                return null;
            }
            absent &= m == ABSENT;
        }
        if (absent) {
            return ABSENT;
        }
        String wanted = want.get(ONE_OF).toString();
        if (key.equals("ret")) {
            return "expected one of " + names(want.get(ONE_OF)) + ", the call returned " + DatReturn.describe(r.ret);
        }
        return "expected " + key + " one of " + (key.equals("data") ? wanted : names(want.get(ONE_OF))) + ", got "
                + actual(key, r);
    }

    private static boolean isOneOf(JsonNode v) {
        return v.isObject() && v.has(ONE_OF);
    }

    /** The alternatives as a list of their texts: [DAT_SUCCESS, DAT_TIMEOUT_EXPIRED]. */
    private static String names(JsonNode alts) {
        List<String> out = new ArrayList<>();
        alts.forEach(a -> out.add(a.isTextual() ? a.asText() : a.toString()));
        return out.toString();
    }

    /** What the call observed under a key, for a message. */
    private static String actual(String key, CallResult r) {
        switch (key) {
            case "event":
                return r.event.numberName();
            case "status":
                return r.event.status >= 0 ? r.event.statusName() : "none (" + r.event.numberName() + ")";
            case "operation":
                return r.event.status >= 0 ? Dat.DTO_OPS.name(r.event.operation) : "none";
            case "cookie":
                return Long.toString(r.event.cookie);
            case "transfered_length":
                return Long.toString(r.event.transferredLength);
            case "immediate_data":
                return Long.toString((long) r.event.immediateData() & 0xffffffffL);
            case "ep":
                return r.event.ep == null ? "an event of no endpoint" : r.event.ep.name();
            case "state":
                return Dat.EP_STATES.name(r.state);
            case "handle_type":
                return Dat.HANDLE_TYPES.name(r.handleType);
            case "context":
                return Long.toString(r.context);
            case "message":
                return "\"" + r.message + "\"";
            case "recv_idle":
                return r.recvIdle.toString();
            case "request_idle":
                return r.requestIdle.toString();
            case "stale":
                return Boolean.toString(r.stale);
            case "data":
                return Observations.dataNode(r.data).toString();
            case "evd":
                return r.cnoEvd == null ? "none" : r.cnoEvd.name();
            default:
                return "?";
        }
    }

    /** null if one expected value matches, {@link #ABSENT}, or the miss. */
    private static String single(ConsumerProcess p, Step s, CallResult r, String key, JsonNode want) {
        String path = s.path() + ".expect." + key;
        switch (key) {
            case "ret": {
                if (!r.returned) {
                    return ABSENT;
                }
                return retMatches(want.asText(), r.ret) ? null
                        : "expected " + want.asText() + ", the call returned " + DatReturn.describe(r.ret);
            }
            case "event":
                return r.event == null ? ABSENT : name(key, want, Dat.EVENTS, r.event.number);
            case "status":
            case "operation":
                if (r.event == null) {
                    return ABSENT;
                }
                if (r.event.status < 0) {
                    return "expected " + key + " " + want.asText() + ", but the event is " + r.event.numberName()
                            + ", which has none";
                }
                if (key.equals("status") && want.asText().equals("any_error")) {
                    return r.event.status != Dat.DTO_SUCCESS ? null : "expected status any_error, got "
                            + r.event.statusName();
                }
                return key.equals("status") ? name(key, want, Dat.DTO_STATUS, r.event.status)
                        : name(key, want, Dat.DTO_OPS, r.event.operation);
            case "cookie":
            case "transfered_length":
            case "immediate_data": {
                if (r.event == null) {
                    return ABSENT;
                }
                long got = key.equals("cookie") ? r.event.cookie : key.equals("transfered_length")
                        ? r.event.transferredLength : (long) r.event.immediateData() & 0xffffffffL;
                return compareNumber(p, key, want, path, got);
            }
            case "ep": {
                if (r.event == null) {
                    return ABSENT;
                }
                Object w = p.args().resolve(want.asText(), path);
                if (w == r.event.ep) {
                    return null;
                }
                String wantName = w instanceof DatHandle ? ((DatHandle) w).name() : "not an endpoint";
                return "expected the event of endpoint " + want.asText() + " (" + wantName + "), got "
                        + actual(key, r);
            }
            case "evd": {
                if (!r.cnoWait || !DatReturn.isSuccess(r.ret)) {
                    return ABSENT;
                }
                Object w = want.isNull() ? null : p.args().resolve(want.asText(), path);
                return w == r.cnoEvd ? null : "expected the EVD " + (want.isNull() ? "null" : want.asText())
                        + ", got " + actual(key, r);
            }
            case "state":
                return r.state == null ? ABSENT : name(key, want, Dat.EP_STATES, r.state);
            case "handle_type":
                return r.handleType == null ? ABSENT : name(key, want, Dat.HANDLE_TYPES, r.handleType);
            case "context": {
                if (r.context == null) {
                    return ABSENT;
                }
                return compareNumber(p, key, want, path, r.context);
            }
            case "message":
                if (r.message == null) {
                    return ABSENT;
                }
                return want.asText().equals(r.message) ? null
                        : "expected message \"" + want.asText() + "\", got \"" + r.message + "\"";
            case "recv_idle":
            case "request_idle": {
                Boolean got = key.equals("recv_idle") ? r.recvIdle : r.requestIdle;
                if (got == null) {
                    return ABSENT;
                }
                return want.asBoolean() == got ? null : "expected " + key + " " + want.asBoolean() + ", got " + got;
            }
            case "stale":
                if (r.data == null) {
                    return ABSENT;
                }
                return want.asBoolean() == r.stale ? null : "expected stale " + want.asBoolean() + ", got " + r.stale;
            case "data":
                return r.data == null ? ABSENT : compareData(p, want, path, r.data);
            default:
                throw new IllegalStateException("expectation key " + key + " has no check");
        }
    }

    /** Compares an observed number with an expected one or a comparison ({@code ">= 4"}); null if it holds. */
    private static String compareNumber(ConsumerProcess p, String key, JsonNode want, String path, long got) {
        org.datsim.scenario.load.Comparison c = org.datsim.scenario.load.Comparison.parse(want);
        if (c == null) {
            long w = p.args().number(want, path);
            return w == got ? null : "expected " + key + " " + w + ", got " + got;
        }
        long w = p.args().number(c.operand(), path);
        return c.holds(got, w) ? null : "expected " + key + " " + c.op() + " " + w + ", got " + got;
    }

    private static String name(String key, JsonNode want, NamedValues group, int actual) {
        Integer w = group.value(want.asText());
        return w != null && w == actual ? null : "expected " + key + " " + want.asText() + ", got "
                + group.name(actual);
    }

    /** Compares a query's attributes with the expected ones (each a value or one_of), adding one miss each. */
    private static void attrs(ConsumerProcess p, Step s, CallResult r, JsonNode want, List<String> misses) {
        Iterator<Map.Entry<String, JsonNode>> it = want.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> a = it.next();
            Long got = r.attrs.get(a.getKey());
            String path = s.path() + ".expect.attrs." + a.getKey();
            JsonNode w = a.getValue();
            boolean ok = false;
            List<Long> wanted = new ArrayList<>();
            List<String> shown = new ArrayList<>();
            for (JsonNode alt : isOneOf(w) ? w.get(ONE_OF) : List.of(w)) {
                org.datsim.scenario.load.Comparison c = org.datsim.scenario.load.Comparison.parse(alt);
                long v = alt.isBoolean() ? (alt.asBoolean() ? 1 : 0)
                        : p.args().number(c != null ? c.operand() : alt, path);
                wanted.add(v);
                shown.add(c != null ? c.op() + " " + v : Long.toString(v));
                ok |= got != null && (c != null ? c.holds(got, v) : got == v);
            }
            if (!ok) {
                misses.add("expected " + a.getKey() + " " + (isOneOf(w) ? "one of " + shown : shown.get(0))
                        + ", got " + got);
            }
        }
    }

    /**
     * Returns true if a DAT_RETURN matches an expected name: a type name (compared by type; DAT_SUCCESS with any
     * success), a subtype name (an error with that subtype), or "any".
     */
    static boolean retMatches(String name, int ret) {
        if (name.equals("any")) {
            return true;
        }
        if (name.equals("any_error")) {
            return !DatReturn.isSuccess(ret);
        }
        Integer type = DatReturn.typeByName(name);
        if (type != null) {
            return type == DatReturn.SUCCESS ? DatReturn.isSuccess(ret) : DatReturn.type(ret) == type;
        }
        Integer sub = DatReturn.subtypeByName(name);
        return sub != null && DatReturn.subtype(ret) == sub && !DatReturn.isSuccess(ret);
    }

    /** Compares bytes read with expected data; null if they match, else the difference. */
    static String compareData(ConsumerProcess p, JsonNode want, String path, byte[] got) {
        if (want.has("fill_per_line")) {
            return comparePerLine(p, want, path, got);
        }
        long n;
        int fill = -1;
        byte[] lit = null;
        if (want.has("fill")) {
            fill = p.args().fillByte(want, path);
            n = p.args().number(want.get("length"), path + ".length");
        } else {
            lit = Bytes.literal(want);
            n = lit.length;
        }
        if (n != got.length) {
            return "expected " + n + " bytes of data but the read has " + got.length
                    + " (give mem_read the same length)";
        }
        for (int i = 0; i < got.length; i++) {
            byte w = lit == null ? (byte) fill : lit[i];
            if (got[i] != w) {
                return String.format("data differs at byte %d: expected 0x%02x, read 0x%02x (read starts %s)", i,
                        w & 0xff, got[i] & 0xff, Bytes.hex(got, 16));
            }
        }
        return null;
    }

    /** Compares bytes read with {"fill_per_line": [...], "line": L, "length": N}; null if they match. */
    private static String comparePerLine(ConsumerProcess p, JsonNode want, String path, byte[] got) {
        long n = p.args().number(want.get("length"), path + ".length");
        if (n != got.length) {
            return "expected " + n + " bytes of data but the read has " + got.length
                    + " (give mem_read the same length)";
        }
        int line = want.get("line").asInt();
        JsonNode fills = want.get("fill_per_line");
        for (int start = 0; start < got.length; start += line) {
            int end = (int) Math.min(got.length, (long) start + line);
            boolean any = false;
            for (JsonNode f : fills) {
                byte b = (byte) f.asInt();
                boolean all = true;
                for (int i = start; i < end && all; i++) {
                    all = got[i] == b;
                }
                any |= all;
            }
            if (!any) {
                return String.format("data differs in the line at byte %d: expected it filled with one of %s, read"
                        + " %s", start, fills, StepObservations.describe(java.util.Arrays.copyOfRange(got, start,
                                end)));
            }
        }
        return null;
    }

    /**
     * Returns whether the bytes read match the step's top-level {@code expect.data} (any of a one_of), or null when
     * it has none: the {@code match} of the mem_read trace line.
     */
    static Boolean dataMatches(ConsumerProcess p, Step s, byte[] got) {
        JsonNode e = s.node().get("expect");
        JsonNode want = e == null ? null : e.get("data");
        if (want == null) {
            return null;
        }
        String path = s.path() + ".expect.data";
        for (JsonNode alt : isOneOf(want) ? want.get(ONE_OF) : List.of(want)) {
            if (compareData(p, alt, path, got) == null) {
                return true;
            }
        }
        return false;
    }
}
