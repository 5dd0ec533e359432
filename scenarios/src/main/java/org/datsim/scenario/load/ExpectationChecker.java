package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;
import static org.datsim.scenario.load.RefChecker.isRef;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.NamedValues;

/**
 * Checks a call's {@code "expect"}: the DAT_RETURN, event, completion and state names, values and references; a
 * value may also be {@code {"one_of": [v1, v2, ...]}} (any of them is accepted), and an expectation may be
 * conditional: {@code "if": {...}, "then": {...}, "else": {...}}, each an expectation of the same call.
 */
final class ExpectationChecker {

    /** The keys of a conditional expectation. */
    static final List<String> CONDITIONAL = List.of("if", "then", "else");
    /** The key of a value that allows several. */
    static final String ONE_OF = "one_of";
    /** The key of an {@code "if"} that tests an earlier step's result. */
    static final String STEP = "step";
    /** The expected ret or status that accepts any error. */
    static final String ANY_ERROR = "any_error";
    /** The expectation keys whose values are numbers (and may be comparisons). */
    static final Set<String> NUMBERS = Set.of("cookie", "transfered_length", "immediate_data", "context");
    /** The key of expected data whose every line may hold one of several fills. */
    static final String PER_LINE = "fill_per_line";

    private final Problems problems;
    private final RefChecker refs;
    private final ArgumentChecker args;

    ExpectationChecker(Problems problems, RefChecker refs, ArgumentChecker args) {
        this.problems = problems;
        this.refs = refs;
        this.args = args;
    }

    /**
     * Checks one call's expectations.
     *
     * @param e the {@code expect} node
     * @param path its JSON path
     * @param spec the call
     * @param process the calling process
     * @param loopVars the loop variables and scenario variables in scope
     */
    void expect(JsonNode e, String path, CallSpec spec, String process, Collection<String> loopVars) {
        expect(e, path, spec, process, loopVars, name -> null);
    }

    /**
     * Checks one call's expectations, where an {@code "if"} may name an earlier step of its process
     * ({@code "if": {"step": "NAME", ...}}): its other keys are then that step's call's.
     *
     * @param e the {@code expect} node
     * @param path its JSON path
     * @param spec the call
     * @param process the calling process
     * @param loopVars the loop variables and scenario variables in scope
     * @param earlier the call of an earlier named step of the process, by name (null if there is none)
     */
    void expect(JsonNode e, String path, CallSpec spec, String process, Collection<String> loopVars,
            java.util.function.Function<String, CallSpec> earlier) {
        if (!e.isObject()) {
            problems.add(path, "expected an object such as {\"ret\": \"DAT_SUCCESS\"}, found " + show(e));
            return;
        }
        Set<String> allowed = new TreeSet<>(spec.expectKeys());
        allowed.add("ret");
        allowed.addAll(CONDITIONAL);
        problems.unknownKeys(e, path, allowed);
        if ((e.has("then") || e.has("else")) && !e.has("if")) {
            problems.add(path + (e.has("then") ? ".then" : ".else"), "a \"then\" or \"else\" needs an \"if\": write"
                    + " {\"if\": {\"ret\": \"DAT_SUCCESS\"}, \"then\": {...}}");
        }
        if (e.has("if") && !e.has("then") && !e.has("else")) {
            problems.add(path + ".if", "an \"if\" needs a \"then\" or an \"else\" to apply when it holds or not");
        }
        Iterator<Map.Entry<String, JsonNode>> it = e.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            if (k.equals("if") && f.getValue().isObject() && (f.getValue().has("if") || f.getValue().has("then")
                    || f.getValue().has("else"))) {
                problems.add(path + ".if", "an \"if\" tests values of a call; it cannot hold another \"if\","
                        + " \"then\" or \"else\" (write the inner test as a \"then\" of the outer one)");
            }
            if (k.equals("if") && f.getValue().isObject() && f.getValue().has(STEP)) {
                JsonNode step = f.getValue().get(STEP);
                CallSpec of = step.isTextual() ? earlier.apply(step.asText()) : null;
                if (of == null) {
                    problems.add(path + ".if." + STEP, "expected the name (\"name\") of an earlier step of this"
                            + " process, found " + show(step));
                } else {
                    ObjectNode rest = ((ObjectNode) f.getValue()).deepCopy();
                    rest.remove(STEP);
                    if (rest.isEmpty()) {
                        problems.add(path + ".if", "an \"if\" on step \"" + step.asText() + "\" needs a value of"
                                + " its result to test, such as \"ret\": \"DAT_SUCCESS\"");
                    } else {
                        expect(rest, path + ".if", of, process, loopVars, earlier);
                    }
                }
            } else if (CONDITIONAL.contains(k)) {
                expect(f.getValue(), path + "." + k, spec, process, loopVars, earlier);
            } else if (allowed.contains(k)) {
                value(k, f.getValue(), path + "." + k, spec, process, loopVars);
            }
        }
    }

    /** One expected value, or {"one_of": [...]} of them. */
    private void value(String key, JsonNode v, String path, CallSpec spec, String process,
            Collection<String> loopVars) {
        if (isOneOf(v) && !key.equals("attrs")) { // attrs take one_of per attribute
            problems.unknownKeys(v, path, Set.of(ONE_OF));
            JsonNode alts = v.get(ONE_OF);
            if (!alts.isArray() || alts.isEmpty()) {
                problems.add(path + "." + ONE_OF, "expected a non-empty array of the values allowed, found "
                        + show(alts));
                return;
            }
            for (int i = 0; i < alts.size(); i++) {
                if (isOneOf(alts.get(i))) {
                    problems.add(path + "." + ONE_OF + "[" + i + "]", "expected a value, not another \"one_of\"");
                } else {
                    single(key, alts.get(i), path + "." + ONE_OF + "[" + i + "]", spec, process, loopVars);
                }
            }
            return;
        }
        single(key, v, path, spec, process, loopVars);
    }

    /** Returns true if an expected value is written {"one_of": [...]}. */
    static boolean isOneOf(JsonNode v) {
        return v != null && v.isObject() && v.has(ONE_OF);
    }

    private void single(String key, JsonNode x, String path, CallSpec spec, String process,
            Collection<String> loopVars) {
        if (Comparison.looksLikeOne(x) && !NUMBERS.contains(key)) {
            problems.add(path, "a comparison (" + show(x) + ") applies to numbers only: cookie, transfered_length,"
                    + " immediate_data, context and the values of attrs; " + key + " is not a number"
                    + (key.equals("ret") || key.equals("status") ? " (\"any_error\" accepts any error)" : ""));
            return;
        }
        switch (key) {
            case "ret":
                ret(x, path, problems);
                break;
            case "event":
                name(x, path, Dat.EVENTS);
                break;
            case "status":
                if (!ANY_ERROR.equals(x.asText(null))) {
                    name(x, path, Dat.DTO_STATUS);
                }
                break;
            case "operation":
                name(x, path, Dat.DTO_OPS);
                break;
            case "state":
                name(x, path, Dat.EP_STATES);
                break;
            case "handle_type":
                name(x, path, Dat.HANDLE_TYPES);
                break;
            case "cookie":
            case "transfered_length":
            case "immediate_data":
            case "context":
                if (Comparison.looksLikeOne(x)) {
                    comparison(x, path, process, loopVars);
                } else if (x.isTextual() || x.isIntegralNumber()) {
                    refs.numeric(x, path, process, loopVars, false);
                } else {
                    problems.add(path, "expected " + ArgType.INT.expected() + ", found " + show(x));
                }
                break;
            case "message":
                if (!x.isTextual()) {
                    problems.add(path, "expected a string, found " + show(x));
                }
                break;
            case "attrs":
                attrs(x, path, spec, process, loopVars);
                break;
            case "recv_idle":
            case "request_idle":
            case "stale":
                if (!x.isBoolean()) {
                    problems.add(path, "expected true or false, found " + show(x));
                }
                break;
            case "data":
                if (x.isObject() && x.has(PER_LINE)) {
                    perLine(x, path, process, loopVars);
                } else {
                    args.data(x, path, process, loopVars);
                }
                break;
            case "evd":
                if (!x.isNull() && !isRef(x)) {
                    problems.add(path, "expected a reference to an EVD such as \"$evd\", or null, found " + show(x));
                } else if (!x.isNull()) {
                    refs.ref(x.asText(), path, process, loopVars);
                }
                break;
            case "ep":
                if (!isRef(x)) {
                    problems.add(path, "expected a reference to an endpoint such as \"$ep\", found " + show(x));
                } else {
                    endpoint(x.asText(), path, process, loopVars);
                }
                break;
            default:
                throw new IllegalStateException("expectation key " + key + " has no check");
        }
    }

    /**
     * Checks expected data written {@code {"fill_per_line": [0, 171], "line": 64, "length": "4KiB"}}: every line of
     * {@code line} bytes, counted from the read's first byte, filled with one of the listed bytes (a read of a
     * non-coherent host's memory, where each cache line may be stale or fresh: rule 32).
     */
    private void perLine(JsonNode x, String path, String process, Collection<String> loopVars) {
        problems.unknownKeys(x, path, Set.of(PER_LINE, "line", "length"));
        JsonNode fills = x.get(PER_LINE);
        if (!fills.isArray() || fills.isEmpty()) {
            problems.add(path + "." + PER_LINE, "expected a non-empty array of byte values such as [0, 171], found "
                    + show(fills));
        } else {
            for (int i = 0; i < fills.size(); i++) {
                JsonNode f = fills.get(i);
                if (!f.isIntegralNumber() || f.asInt() < 0 || f.asInt() > 255) {
                    problems.add(path + "." + PER_LINE + "[" + i + "]", "expected a byte value from 0 to 255, found "
                            + show(f));
                }
            }
        }
        JsonNode line = x.get("line");
        if (line == null) {
            problems.add(path + ".line", "missing; expected the line size in bytes, such as 64");
        } else if (!line.isIntegralNumber() || line.asLong() < 1 || line.asLong() > (1L << 30)) {
            problems.add(path + ".line", "expected a line size in bytes from 1 to 1073741824, found " + show(line));
        }
        if (!x.has("length")) {
            problems.add(path + ".length", "missing; expected the read's length, such as \"4KiB\"");
        } else {
            refs.numeric(x.get("length"), path + ".length", process, loopVars, true);
        }
    }

    /** Checks an expected DAT_RETURN: a type name, a subtype name, "any", or "any_error". */
    static void ret(JsonNode ret, String path, Problems problems) {
        String r = ret.isTextual() ? ret.asText() : "";
        if (!r.equals("any") && !r.equals(ANY_ERROR) && DatReturn.typeByName(r) == null
                && DatReturn.subtypeByName(r) == null) {
            problems.add(path, "expected a DAT_RETURN name such as \"DAT_SUCCESS\" or"
                    + " \"DAT_INVALID_STATE\", a subtype name, \"any\", or \"any_error\", found " + show(ret));
        }
    }

    /** Checks a comparison ({@code ">= 4"}): its operator and its operand, an expression. */
    private void comparison(JsonNode x, String path, String process, Collection<String> loopVars) {
        Comparison c = Comparison.parse(x);
        if (c == null) {
            problems.add(path, "expected a comparison such as \">= 4\" or \"!= $n\" (an operator !=, <, <=, >, >="
                    + " and a number, reference or expression), found " + show(x));
            return;
        }
        refs.numeric(c.operand(), path, process, loopVars, false);
    }

    /** The attributes a query's result is expected to have: fields of the call's result kind. */
    private void attrs(JsonNode attrs, String path, CallSpec spec, String process, Collection<String> loopVars) {
        if (!attrs.isObject()) {
            problems.add(path, "expected an object of attribute names and values, found " + show(attrs));
            return;
        }
        Iterator<Map.Entry<String, JsonNode>> it = attrs.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> a = it.next();
            if (spec.outKind() == null) {
                return; // a call without a result: "attrs" is already reported as an unknown field
            }
            List<String> known = Refs.FIELDS.get(spec.outKind());
            String p = path + "." + a.getKey();
            if (!known.contains(a.getKey())) {
                problems.add(p, "unknown attribute; expected one of " + known);
                continue;
            }
            JsonNode v = a.getValue();
            if (isOneOf(v)) {
                problems.unknownKeys(v, p, Set.of(ONE_OF));
                JsonNode alts = v.get(ONE_OF);
                if (!alts.isArray() || alts.isEmpty()) {
                    problems.add(p + "." + ONE_OF, "expected a non-empty array of the values allowed, found "
                            + show(alts));
                    continue;
                }
                for (int i = 0; i < alts.size(); i++) {
                    attrValue(alts.get(i), p + "." + ONE_OF + "[" + i + "]", process, loopVars);
                }
            } else {
                attrValue(v, p, process, loopVars);
            }
        }
    }

    private void attrValue(JsonNode v, String path, String process, Collection<String> loopVars) {
        if (v.isBoolean()) {
            return;
        }
        if (Comparison.looksLikeOne(v)) {
            comparison(v, path, process, loopVars);
            return;
        }
        if (v.isIntegralNumber() || v.isTextual() && (Expr.isExpr(v.asText()) || isRef(v))) {
            refs.numeric(v, path, process, loopVars, false);
            return;
        }
        problems.add(path, "expected a number, true/false, a reference or an expression, found " + show(v));
    }

    /** An expected endpoint: a reference that names an endpoint, or an event's endpoint field. */
    private void endpoint(String text, String path, String process, Collection<String> loopVars) {
        int before = problems.count();
        refs.ref(text, path, process, loopVars);
        Refs.Ref r = Refs.parse(text);
        if (problems.count() == before && r != null) {
            String kind = refs.kind(r, process);
            if (kind == null) {
                return; // a loop variable: a number, checked when the call runs
            }
            boolean endpoint = r.field() == null ? "ep".equals(kind) : "ep".equals(r.field());
            if (!endpoint) {
                problems.add(path, "expected a reference to an endpoint such as \"$ep\" or"
                        + " \"$event.ep\", found \"" + text + "\", which is a " + (r.field() == null ? kind
                                : kind + "'s " + r.field()));
            }
        }
    }

    private void name(JsonNode x, String path, NamedValues group) {
        if (!x.isTextual() || group.value(x.asText()) == null) {
            problems.add(path, "expected a " + group.group() + " name such as \"" + group.names().get(0)
                    + "\", found " + show(x));
        }
    }
}
