package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;
import static org.datsim.scenario.load.RefChecker.isRef;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.NamedValues;

/** Checks each argument of a call against its {@link ArgType}. */
final class ArgumentChecker {

    /** The endpoint attributes ({@link ArgType#EP_ATTR}) that are sizes. */
    static final List<String> EP_ATTR_SIZES = List.of("max_message_size", "max_rdma_size", "max_recv_dtos",
            "max_request_dtos", "max_recv_iov", "max_request_iov", "max_rdma_read_in", "max_rdma_read_out");
    /** The endpoint attributes that are completion flags. */
    static final List<String> EP_ATTR_FLAGS = List.of("request_completion_flags", "recv_completion_flags");
    /** The fields of a remote target ({@link ArgType#RMR}); all but the offset are required. */
    static final List<String> RMR_FIELDS = List.of("rmr_context", "address", "length", "offset");

    private static final Pattern HEX = Pattern.compile(Patterns.HEX);

    private final Problems problems;
    private final QuantityChecker quantities;
    private final RefChecker refs;

    ArgumentChecker(Problems problems, QuantityChecker quantities, RefChecker refs) {
        this.problems = problems;
        this.quantities = quantities;
        this.refs = refs;
    }

    /**
     * Checks one argument.
     *
     * @param v its value
     * @param path its JSON path
     * @param a what the call expects there
     * @param process the calling process
     * @param loopVars the loop variables in scope
     */
    void arg(JsonNode v, String path, CallSpec.Arg a, String process, Collection<String> loopVars) {
        if ((a.type() == ArgType.INT || a.type() == ArgType.SIZE) && (v.isTextual() || v.isIntegralNumber())) {
            refs.numeric(v, path, process, loopVars, a.type() == ArgType.SIZE);
            return;
        }
        if (a.type() == ArgType.HOST && isRef(v)) {
            problems.add(path, "expected " + ArgType.HOST.expected() + ", found " + show(v));
            return;
        }
        boolean scalar = a.type() == ArgType.HANDLE || a.type() == ArgType.INT || a.type() == ArgType.SIZE
                || a.type() == ArgType.TIMEOUT || a.type() == ArgType.FLAGS;
        if (isRef(v) && scalar) {
            refs.ref(v.asText(), path, process, loopVars);
            return;
        }
        switch (a.type()) {
            case HANDLE:
                if (!v.isNull()) {
                    problems.add(path, "expected " + a.type().expected() + ", found " + show(v));
                }
                break;
            case INT:
                if (!v.isIntegralNumber()) {
                    problems.add(path, "expected " + a.type().expected() + ", found " + show(v));
                }
                break;
            case SIZE:
                quantities.size(v, path);
                break;
            case FLAGS:
                flags(v, path, a.flags());
                break;
            case TIMEOUT:
                if (v.isTextual() && Expr.isExpr(v.asText())) {
                    refs.numeric(v, path, process, loopVars, false);
                } else if (v.isTextual() && !"DAT_TIMEOUT_INFINITE".equals(v.asText())) {
                    Long t = quantities.duration(v, path);
                    if (t != null && t % SimTime.US != 0) {
                        problems.add(path, "expected a whole number of microseconds (DAT timeouts count them), found"
                                + " \"" + v.asText() + "\"");
                    }
                } else if (!(v.isIntegralNumber() && v.asLong() >= 0) && !v.isTextual()) {
                    problems.add(path, "expected " + a.type().expected() + ", found " + show(v));
                }
                break;
            case DURATION:
                quantities.duration(v, path);
                break;
            case STRING:
                if (!v.isTextual()) {
                    problems.add(path, "expected a string, found " + show(v));
                }
                break;
            case HOST:
                if (v.isObject()) {
                    problems.unknownKeys(v, path, Set.of("host_index"));
                    if (!v.has("host_index")) {
                        problems.add(path + ".host_index", "missing; expected " + ArgType.INT.expected());
                    } else {
                        refs.numeric(v.get("host_index"), path + ".host_index", process, loopVars, false);
                    }
                } else if (!v.isTextual()) {
                    problems.add(path, "expected " + ArgType.HOST.expected() + ", found " + show(v));
                }
                break;
            case IOV:
                iov(v, path, process, loopVars);
                break;
            case RMR:
                rmr(v, path, process, loopVars);
                break;
            case DATA:
                data(v, path, process, loopVars);
                break;
            case EP_ATTR:
                epAttr(v, path, process, loopVars);
                break;
            case SRQ_ATTR:
                srqAttr(v, path, process, loopVars);
                break;
            default:
                throw new IllegalStateException(a.type().name());
        }
    }

    private void flags(JsonNode v, String path, NamedValues group) {
        if (v.isIntegralNumber()) {
            return;
        }
        List<String> names = new ArrayList<>();
        if (v.isTextual()) {
            for (String s : v.asText().split("\\|")) {
                names.add(s.trim());
            }
        } else if (v.isArray()) {
            for (JsonNode e : v) {
                names.add(e.isTextual() ? e.asText() : e.toString());
            }
        } else {
            problems.add(path, "expected " + ArgType.FLAGS.expected() + ", found " + show(v));
            return;
        }
        for (String s : names) {
            if (group.value(s) == null) {
                problems.add(path, "\"" + s + "\" is not a " + group.group() + "; expected one of " + group.names());
            }
        }
    }

    private void iov(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (!v.isArray()) {
            problems.add(path, "expected " + ArgType.IOV.expected() + ", found " + show(v));
            return;
        }
        for (int i = 0; i < v.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode s = v.get(i);
            if (!s.isObject()) {
                problems.add(p, "expected a segment {\"lmr\": \"$buf\", \"offset\": 0, \"length\": 64}, found "
                        + show(s));
                continue;
            }
            problems.unknownKeys(s, p, Set.of("lmr", "offset", "length"));
            JsonNode lmr = s.get("lmr");
            if (lmr == null) {
                problems.add(p + ".lmr", "missing; expected a reference to an LMR such as \"$buf\"");
            } else if (!isRef(lmr)) {
                problems.add(p + ".lmr", "expected a reference to an LMR such as \"$buf\", found " + show(lmr));
            } else {
                refs.ref(lmr.asText(), p + ".lmr", process, loopVars);
            }
            for (String k : new String[] {"offset", "length"}) {
                JsonNode x = s.get(k);
                if (x == null) {
                    if (k.equals("length")) {
                        problems.add(p + ".length", "missing; expected " + ArgType.SIZE.expected());
                    }
                } else {
                    refs.numeric(x, p + "." + k, process, loopVars, true);
                }
            }
        }
    }

    private void rmr(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (!v.isObject()) {
            problems.add(path, "expected " + ArgType.RMR.expected() + ", found " + show(v));
            return;
        }
        problems.unknownKeys(v, path, Set.copyOf(RMR_FIELDS));
        for (String k : RMR_FIELDS) {
            JsonNode x = v.get(k);
            if (x == null) {
                if (!k.equals("offset")) {
                    problems.add(path + "." + k, "missing; expected a number or a reference such as \"$peer/buf."
                            + k + "\"");
                }
            } else {
                refs.numeric(x, path + "." + k, process, loopVars, k.equals("length") || k.equals("offset"));
            }
        }
    }

    /**
     * Checks bytes written as {"text": ...}, {"hex": ...} or {"fill": ..., "length": ...}; the fill byte and the
     * length may be references or expressions ({@code "= 100 + $i"}), evaluated when the call runs.
     */
    void data(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (!v.isObject()) {
            problems.add(path, "expected " + ArgType.DATA.expected() + ", found " + show(v));
            return;
        }
        problems.unknownKeys(v, path, Set.of("text", "hex", "fill", "length"));
        int kinds = (v.has("text") ? 1 : 0) + (v.has("hex") ? 1 : 0) + (v.has("fill") ? 1 : 0);
        if (kinds != 1) {
            problems.add(path, "expected exactly one of \"text\", \"hex\" or \"fill\", found " + show(v));
            return;
        }
        if (v.has("text") && !v.get("text").isTextual()) {
            problems.add(path + ".text", "expected a string, found " + show(v.get("text")));
        }
        if (v.has("hex")) {
            JsonNode h = v.get("hex");
            if (!h.isTextual() || !HEX.matcher(h.asText()).matches()) {
                problems.add(path + ".hex", "expected an even number of hexadecimal digits, found " + show(h));
            }
        }
        if (v.has("fill")) {
            JsonNode f = v.get("fill");
            if (f.isTextual() && (Expr.isExpr(f.asText()) || isRef(f))) {
                refs.numeric(f, path + ".fill", process, loopVars, false);
            } else if (!f.isIntegralNumber() || f.asInt() < 0 || f.asInt() > 255) {
                problems.add(path + ".fill", "expected a byte value from 0 to 255, found " + show(f));
            }
            if (!v.has("length")) {
                problems.add(path + ".length", "missing; a fill needs a length such as \"4KiB\"");
            } else {
                refs.numeric(v.get("length"), path + ".length", process, loopVars, true);
            }
        } else if (v.has("length")) {
            problems.add(path + ".length", "only a fill takes a length; text and hex have their own");
        }
    }

    private void epAttr(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (!v.isObject()) {
            problems.add(path, "expected " + ArgType.EP_ATTR.expected() + ", found " + show(v));
            return;
        }
        Set<String> all = new TreeSet<>(EP_ATTR_SIZES);
        all.addAll(EP_ATTR_FLAGS);
        problems.unknownKeys(v, path, all);
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (EP_ATTR_SIZES.contains(e.getKey())) {
                attrSize(e.getValue(), path + "." + e.getKey(), process, loopVars);
            } else if (EP_ATTR_FLAGS.contains(e.getKey())) {
                flags(e.getValue(), path + "." + e.getKey(), Dat.COMPLETION_FLAGS);
            }
        }
    }

    private void srqAttr(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (!v.isObject()) {
            problems.add(path, "expected " + ArgType.SRQ_ATTR.expected() + ", found " + show(v));
            return;
        }
        problems.unknownKeys(v, path, new TreeSet<>(CallCatalog.SRQ_ATTR_FIELDS));
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            attrSize(e.getValue(), path + "." + e.getKey(), process, loopVars);
        }
    }

    /** An attribute that is a size: a byte count (not negative), a size, a reference or an expression. */
    private void attrSize(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (v.isIntegralNumber()) {
            quantities.size(v, path);
        } else {
            refs.numeric(v, path, process, loopVars, true);
        }
    }

    /**
     * Checks a time such as {@code "5s"} (a repeat block's {@code "for"}).
     *
     * @param v the value
     * @param path its JSON path, for messages
     * @return the time in picoseconds, or null after reporting a problem
     */
    Long time(JsonNode v, String path) {
        return quantities.duration(v, path);
    }
}
