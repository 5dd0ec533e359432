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
import org.datsim.scenario.load.Expect;
import org.datsim.scenario.load.ExpectKey;
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
        Expect e = s.expect();
        boolean mentionsRet = e != null && e.mentionsRet();
        boolean error = r.returned && !DatReturn.isSuccess(r.ret);
        if (!mentionsRet && error) {
            p.fail(s, "expected DAT_SUCCESS, the call returned " + DatReturn.describe(r.ret)
                    + " (calls are expected to succeed unless \"expect\" says otherwise)");
        }
        long before = p.runner().failuresSoFar();
        if (e != null) {
            block(p, s, r, e, "");
        }
        if (error && mentionsRet && p.runner().failuresSoFar() == before) {
            p.runner().countExpectedError();
        }
        if (s.observe() != null) {
            p.runner().observe(p, s, r);
        }
        if (s.name() != null) {
            p.namedResults().put(s.name(), r.copy());
        }
    }

    private static void block(ConsumerProcess p, Step s, CallResult r, Expect e, String prefix) {
        List<String> misses = new ArrayList<>();
        for (Expect.Check c : e.checks()) {
            value(p, s, r, c.key(), c.want(), misses);
        }
        for (String m : misses) {
            p.fail(s, prefix + m);
        }
        if (e.condition() != null) {
            boolean holds = holds(p, s, r, e.condition());
            Expect branch = holds ? e.then() : e.otherwise();
            if (branch != null) {
                block(p, s, r, branch, prefix + "(" + (holds ? "then" : "else") + ", as the \"if\" "
                        + (holds ? "holds" : "does not hold") + ") ");
            }
        }
    }

    /** Returns true if every value of an "if" matches what the call observed. */
    private static boolean holds(ConsumerProcess p, Step s, CallResult r, Expect.Condition cond) {
        if (cond.step() != null) {
            // "if": {"step": NAME, ...}: the values are those of the earlier step's result (false if it has not run).
            r = p.namedResults().get(cond.step());
            if (r == null) {
                return false;
            }
        }
        for (Expect.Check c : cond.checks()) {
            if (c.key() == ExpectKey.ATTRS) {
                if (r.attrs == null) {
                    return false;
                }
                List<String> misses = new ArrayList<>();
                attrs(p, s, r, c.want(), misses);
                if (!misses.isEmpty()) {
                    return false;
                }
            } else if (oneOf(p, s, r, c.key(), c.want()) != null) {
                return false;
            }
        }
        return true;
    }

    /** Compares one expected value (or one_of) and adds the miss, if any. */
    private static void value(ConsumerProcess p, Step s, CallResult r, ExpectKey key, JsonNode want,
            List<String> misses) {
        if (key == ExpectKey.ATTRS) {
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
    private static String oneOf(ConsumerProcess p, Step s, CallResult r, ExpectKey key, JsonNode want) {
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
        if (key == ExpectKey.RET) {
            return "expected one of " + names(want.get(ONE_OF)) + ", the call returned " + DatReturn.describe(r.ret);
        }
        return "expected " + key.key() + " one of " + (key == ExpectKey.DATA ? wanted : names(want.get(ONE_OF)))
                + ", got " + actual(key, r);
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
    private static String actual(ExpectKey key, CallResult r) {
        return switch (key) {
            case EVENT -> r.event.numberName();
            case STATUS -> r.event.status >= 0 ? r.event.statusName() : "none (" + r.event.numberName() + ")";
            case OPERATION -> r.event.status >= 0 ? Dat.DTO_OPS.name(r.event.operation) : "none";
            case COOKIE -> Long.toString(r.event.cookie);
            case TRANSFERED_LENGTH -> Long.toString(r.event.transferredLength);
            case IMMEDIATE_DATA -> Long.toString((long) r.event.immediateData() & 0xffffffffL);
            case EP -> r.event.ep == null ? "an event of no endpoint" : r.event.ep.name();
            case STATE -> Dat.EP_STATES.name(r.state);
            case HANDLE_TYPE -> Dat.HANDLE_TYPES.name(r.handleType);
            case CONTEXT -> Long.toString(r.context);
            case MESSAGE -> "\"" + r.message + "\"";
            case RECV_IDLE -> r.recvIdle.toString();
            case REQUEST_IDLE -> r.requestIdle.toString();
            case STALE -> Boolean.toString(r.stale);
            case DATA -> Observations.dataNode(r.data).toString();
            case EVD -> r.cnoEvd == null ? "none" : r.cnoEvd.name();
            case RET, ATTRS -> "?"; // a ret's miss says what the call returned; attrs are compared one by one
        };
    }

    /** null if one expected value matches, {@link #ABSENT}, or the miss. */
    private static String single(ConsumerProcess p, Step s, CallResult r, ExpectKey key, JsonNode want) {
        String k = key.key();
        String path = s.path() + ".expect." + k;
        switch (key) {
            case RET: {
                if (!r.returned) {
                    return ABSENT;
                }
                return retMatches(want.asText(), r.ret) ? null
                        : "expected " + want.asText() + ", the call returned " + DatReturn.describe(r.ret);
            }
            case EVENT:
                return r.event == null ? ABSENT : name(k, want, Dat.EVENTS, r.event.number);
            case STATUS:
            case OPERATION:
                if (r.event == null) {
                    return ABSENT;
                }
                if (r.event.status < 0) {
                    return "expected " + k + " " + want.asText() + ", but the event is " + r.event.numberName()
                            + ", which has none";
                }
                if (key == ExpectKey.STATUS && want.asText().equals("any_error")) {
                    return r.event.status != Dat.DTO_SUCCESS ? null : "expected status any_error, got "
                            + r.event.statusName();
                }
                return key == ExpectKey.STATUS ? name(k, want, Dat.DTO_STATUS, r.event.status)
                        : name(k, want, Dat.DTO_OPS, r.event.operation);
            case COOKIE:
            case TRANSFERED_LENGTH:
            case IMMEDIATE_DATA: {
                if (r.event == null) {
                    return ABSENT;
                }
                long got = key == ExpectKey.COOKIE ? r.event.cookie : key == ExpectKey.TRANSFERED_LENGTH
                        ? r.event.transferredLength : (long) r.event.immediateData() & 0xffffffffL;
                return compareNumber(p, k, want, path, got);
            }
            case EP: {
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
            case EVD: {
                if (!r.cnoWait || !DatReturn.isSuccess(r.ret)) {
                    return ABSENT;
                }
                Object w = want.isNull() ? null : p.args().resolve(want.asText(), path);
                return w == r.cnoEvd ? null : "expected the EVD " + (want.isNull() ? "null" : want.asText())
                        + ", got " + actual(key, r);
            }
            case STATE:
                return r.state == null ? ABSENT : name(k, want, Dat.EP_STATES, r.state);
            case HANDLE_TYPE:
                return r.handleType == null ? ABSENT : name(k, want, Dat.HANDLE_TYPES, r.handleType);
            case CONTEXT: {
                if (r.context == null) {
                    return ABSENT;
                }
                return compareNumber(p, k, want, path, r.context);
            }
            case MESSAGE:
                if (r.message == null) {
                    return ABSENT;
                }
                return want.asText().equals(r.message) ? null
                        : "expected message \"" + want.asText() + "\", got \"" + r.message + "\"";
            case RECV_IDLE:
            case REQUEST_IDLE: {
                Boolean got = key == ExpectKey.RECV_IDLE ? r.recvIdle : r.requestIdle;
                if (got == null) {
                    return ABSENT;
                }
                return want.asBoolean() == got ? null : "expected " + k + " " + want.asBoolean() + ", got " + got;
            }
            case STALE:
                if (r.data == null) {
                    return ABSENT;
                }
                return want.asBoolean() == r.stale ? null : "expected stale " + want.asBoolean() + ", got " + r.stale;
            case DATA:
                return r.data == null ? ABSENT : compareData(p, want, path, r.data);
            case ATTRS:
                throw new IllegalStateException("attrs are compared by attrs(), one attribute at a time");
        }
        throw new IllegalStateException("expectation key " + key + " has no check");
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
        Expect.Check c = s.expect() == null ? null : s.expect().check(ExpectKey.DATA);
        if (c == null) {
            return null;
        }
        JsonNode want = c.want();
        String path = s.path() + ".expect.data";
        for (JsonNode alt : isOneOf(want) ? want.get(ONE_OF) : List.of(want)) {
            if (compareData(p, alt, path, got) == null) {
                return true;
            }
        }
        return false;
    }
}
