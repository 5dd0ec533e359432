package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.fabric.dat.RmrTriplet;
import org.datsim.scenario.load.Expr;
import org.datsim.scenario.load.Operands;
import org.datsim.scenario.load.ProcessDef;
import org.datsim.scenario.load.Refs;
import org.datsim.scenario.load.Arg;
import org.datsim.scenario.load.Step;

/**
 * A process's named values (what its calls bound with "out", the scenario's variables, {@code $index},
 * {@code $count} and the loop variables in scope) and the reading of a step's arguments against them: handles,
 * numbers, flags, I/O vectors, attributes. References, expressions and sizes come parsed from the scenario's
 * {@link Operands}. A value that was never bound throws {@link Unbound}.
 */
final class Args {

    private final ScenarioRunner runner;
    private final Operands operands;
    private final Map<String, Object> values = new HashMap<>();
    private final Map<String, Long> loopVars = new HashMap<>();

    Args(ScenarioRunner runner, ProcessDef def) {
        this.runner = runner;
        this.operands = runner.operands();
        loopVars.put("index", (long) def.index());
        loopVars.put("count", (long) def.count());
    }

    /** Returns the value bound to a name, or null. */
    Object value(String name) {
        return values.get(name);
    }

    /** Binds a step's result to the name its "out" gives (nothing when it has none or the result is null). */
    void bind(Step s, Object value) {
        if (s.out() != null && value != null) {
            values.put(outName(s), value);
        }
    }

    /**
     * Returns the name a step's {@code "out"} (or another name-with-index field) binds now: the name, or for an
     * indexed one the name with its index evaluated ({@code ep[2]}); null if the step has no such field.
     */
    String outName(Step s) {
        return s.out() == null ? null : indexedName(s.out(), s.path() + ".out");
    }

    /** Evaluates the index of a name written {@code NAME} or {@code NAME[expr]}, at a JSON path. */
    String indexedName(String text, String path) {
        int open = text.indexOf('[');
        if (open < 0) {
            return text;
        }
        String index = text.substring(open + 1, text.length() - 1);
        return text.substring(0, open) + "[" + index(index, path) + "]";
    }

    /** Evaluates the index of an indexed name (the text between its brackets) in this process. */
    long index(String index, String path) {
        return number(com.fasterxml.jackson.databind.node.TextNode.valueOf(Refs.indexExpr(index)), path);
    }

    /** Sets a loop variable. */
    void loopVar(String name, long value) {
        loopVars.put(name, value);
    }

    /** Removes a loop variable whose block has ended. */
    void endLoop(String name) {
        loopVars.remove(name);
    }

    /** Resolves a reference such as "$evd", "$buf.address" or "$peer/buf.rmr_context". */
    Object resolve(String text, String path) {
        Refs.Ref r = operands.ref(text);
        if (r.bare()) {
            // Loop variables, $index and $count, then the scenario's vars (the loader keeps the names apart).
            Long v = loopVars.get(r.name());
            if (v == null) {
                v = runner.vars().get(r.name());
            }
            if (v != null) {
                return v;
            }
        }
        String key = r.index() == null ? r.name() : r.name() + "[" + index(r.index(), path) + "]";
        Object v = r.process() == null ? values.get(key) : runner.process(r.process()).args().value(key);
        if (v == null) {
            throw new Unbound(path + ": \"" + text + "\"" + (r.index() != null ? " (" + key + ")" : "")
                    + " is not bound: the call that binds it failed or has not run yet");
        }
        if (r.field() == null) {
            return v;
        }
        Object f = Fields.of(v, r.field());
        if (f == null) {
            throw new Unbound(path + ": \"" + text + "\" has no value");
        }
        return f;
    }

    /** A handle argument of a typed call: the object it names if it is a {@code type}, else null. */
    <T> T handle(Arg a, Class<T> type) {
        JsonNode n = a.node();
        if (n == null || n.isNull()) {
            return null;
        }
        Object v = resolve(n.asText(), a.path());
        return type.isInstance(v) ? type.cast(v) : null;
    }

    /** A handle argument of a typed call: the handle it names, or null (absent, null, or not a handle). */
    DatHandle handle(Arg a) {
        return handle(a, DatHandle.class);
    }

    /** A text argument of a typed call (a name), or null when absent or null. */
    static String text(Arg a) {
        JsonNode n = a.node();
        return n == null || n.isNull() ? null : n.asText();
    }

    /** A duration argument of a typed call, in picoseconds. */
    long duration(Arg a) {
        return operands.duration(a.node().asText());
    }

    /** A number argument of a typed call, or {@code dflt} when the step leaves it out. */
    long number(Arg a, long dflt) {
        return a.node() == null ? dflt : number(a.node(), a.path());
    }

    /**
     * A flags argument of a typed call: a number, names joined by {@code |} or listed, or a reference to a number (a
     * loop variable or a scenario var, which the loader accepts for every scalar argument).
     */
    int flags(Arg a, NamedValues group) {
        JsonNode n = a.node();
        if (n != null && n.isTextual() && n.asText().startsWith("$")) {
            return count(number(n, a.path()));
        }
        return flags(n, group);
    }

    /** The local segments argument of a typed call. */
    LmrTriplet[] iov(Arg a) {
        return iov(a.node(), a.path());
    }

    /** The remote buffer argument of a typed call. */
    RmrTriplet rmr(Arg a) {
        return rmr(a.node(), a.path());
    }

    long number(JsonNode n, String path) {
        if (n.isTextual() && Expr.isExpr(n.asText())) {
            Expr e = operands.expr(n.asText());
            try {
                return e.eval(ref -> {
                    Object v = resolve(ref, path);
                    if (v instanceof Long) {
                        return (Long) v;
                    }
                    throw new Unbound(path + ": \"" + ref + "\" in " + n.asText() + " is not a number");
                });
            } catch (ArithmeticException x) {
                throw new Unbound(path + ": " + n.asText() + ": " + x.getMessage());
            }
        }
        if (n.isTextual()) {
            if (n.asText().startsWith("$")) {
                Object v = resolve(n.asText(), path);
                if (v instanceof Long) {
                    return (Long) v;
                }
                throw new Unbound(path + ": \"" + n.asText() + "\" is not a number");
            }
            return operands.size(n.asText());
        }
        return n.asLong();
    }

    /**
     * The fill byte of a data object ({"fill": 171, "length": 64}), which may be an expression; -1 for text and hex.
     *
     * @throws Unbound if it does not evaluate to a byte value
     */
    int fillByte(JsonNode data, String path) {
        JsonNode f = data.get("fill");
        if (f == null) {
            return -1;
        }
        long v = number(f, path + ".fill");
        if (v < 0 || v > 255) {
            throw new Unbound(path + ".fill: " + (f.isNumber() ? "" : f.asText() + " is ") + v + ", not a byte value"
                    + " from 0 to 255");
        }
        return (int) v;
    }

    /** The length of a data object in bytes: a fill's length (which may be an expression), or the literal's. */
    long dataLength(JsonNode data, String path) {
        return data.has("fill") ? number(data.get("length"), path + ".length") : Bytes.literal(data).length;
    }

    /**
     * Converts a scenario number to a C int argument (DAT_COUNT). Values outside the int range saturate, so a
     * too-large count stays too large and the provider's range check rejects it, instead of wrapping around.
     */
    static int count(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    private static int flags(JsonNode n, NamedValues group) {
        if (n == null) {
            return 0;
        }
        if (n.isNumber()) {
            return n.asInt();
        }
        int bits = 0;
        if (n.isArray()) {
            for (JsonNode e : n) {
                bits |= group.value(e.asText());
            }
        } else {
            for (String name : n.asText().split("\\|")) {
                bits |= group.value(name.trim());
            }
        }
        return bits;
    }

    /** A DAT_TIMEOUT argument of a typed call, in microseconds (absent or "DAT_TIMEOUT_INFINITE" is infinite;
     * a time such as "10us" is converted, the loader checking it is whole microseconds; a number, reference or
     * expression counts microseconds). */
    long timeoutUs(Arg a) {
        JsonNode n = a.node();
        if (n == null || n.isTextual() && "DAT_TIMEOUT_INFINITE".equals(n.asText())) {
            return Dat.TIMEOUT_INFINITE;
        }
        if (n.isTextual() && !n.asText().startsWith("$") && !Expr.isExpr(n.asText())) {
            return operands.duration(n.asText()) / org.datsim.core.time.SimTime.US;
        }
        return number(n, a.path());
    }

    private LmrTriplet[] iov(JsonNode arr, String path) {
        LmrTriplet[] out = new LmrTriplet[arr.size()];
        for (int i = 0; i < arr.size(); i++) {
            JsonNode seg = arr.get(i);
            String p = path + "[" + i + "]";
            Object l = resolve(seg.get("lmr").asText(), p + ".lmr");
            long offset = seg.has("offset") ? number(seg.get("offset"), p + ".offset") : 0;
            long length = number(seg.get("length"), p + ".length");
            if (l instanceof Lmr) {
                Lmr lmr = (Lmr) l;
                out[i] = new LmrTriplet(lmr.lmrContext(), lmr.address() + offset, length);
            } else {
                out[i] = new LmrTriplet(0, offset, length); // not an LMR: a context no LMR has
            }
        }
        return out;
    }

    private RmrTriplet rmr(JsonNode r, String p) {
        long ctx = number(r.get("rmr_context"), p + ".rmr_context");
        long address = number(r.get("address"), p + ".address");
        long offset = r.has("offset") ? number(r.get("offset"), p + ".offset") : 0;
        long length = number(r.get("length"), p + ".length");
        return new RmrTriplet(ctx >= 0 && ctx <= 0xffffffffL ? (int) ctx : 0, address + offset, length);
    }

    /** A host argument: a name, or {"host_index": n} for the fabric's n-th host ("" when out of range). */
    String hostArg(Arg a) {
        JsonNode n = a.node();
        if (n.isTextual()) {
            return n.asText();
        }
        long i = number(n.get("host_index"), a.path() + ".host_index");
        List<String> hosts = runner.fabric().topology().hosts();
        return i >= 0 && i < hosts.size() ? hosts.get((int) i) : "";
    }

    /** A private data argument of a typed call (a data object); no bytes when absent. */
    byte[] privateData(Arg a) {
        JsonNode d = a.node();
        if (d == null) {
            return new byte[0];
        }
        String path = a.path();
        int fill = fillByte(d, path);
        if (fill >= 0) {
            byte[] b = new byte[(int) Math.max(0, Math.min(dataLength(d, path), 4096))];
            java.util.Arrays.fill(b, (byte) fill);
            return b;
        }
        return Bytes.literal(d);
    }

    /**
     * An attributes argument of a typed call: its fields over {@code base} (the defaults when null); base if absent.
     */
    EpAttributes epAttr(Arg arg, EpAttributes base) {
        JsonNode a = arg.node();
        if (a == null) {
            return base;
        }
        EpAttributes d = base != null ? base : EpAttributes.defaults();
        String p = arg.path();
        return new EpAttributes(a.has("max_message_size") ? number(a.get("max_message_size"), p) : d.maxMessageSize(),
                a.has("max_rdma_size") ? number(a.get("max_rdma_size"), p) : d.maxRdmaSize(),
                count(a.has("max_recv_dtos") ? number(a.get("max_recv_dtos"), p) : d.maxRecvDtos()),
                count(a.has("max_request_dtos") ? number(a.get("max_request_dtos"), p) : d.maxRequestDtos()),
                count(a.has("max_recv_iov") ? number(a.get("max_recv_iov"), p) : d.maxRecvIov()),
                count(a.has("max_request_iov") ? number(a.get("max_request_iov"), p) : d.maxRequestIov()),
                a.has("request_completion_flags") ? flags(a.get("request_completion_flags"), Dat.COMPLETION_FLAGS)
                        : d.requestCompletionFlags(),
                a.has("recv_completion_flags") ? flags(a.get("recv_completion_flags"), Dat.COMPLETION_FLAGS)
                        : d.recvCompletionFlags(),
                count(a.has("max_rdma_read_in") ? number(a.get("max_rdma_read_in"), p) : d.maxRdmaReadIn()),
                count(a.has("max_rdma_read_out") ? number(a.get("max_rdma_read_out"), p) : d.maxRdmaReadOut()));
    }
}
