package org.datsim.scenario.load;

import org.datsim.core.util.Text;
import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The names each process binds with {@code "out"}, and the checks of what refers to them: references
 * ({@code "$name"}, {@code "$name.field"}, {@code "$process/name.field"}), expressions ({@code "= $i * 4096"}) and
 * whole-number values that may be either. What it parses is kept in the scenario's {@link Operands}.
 */
final class RefChecker {

    private final Problems problems;
    private final Operands.Builder operands;
    private final QuantityChecker quantities;
    /** For each process, in file order: the names its calls bind and the kind of value each names. */
    private final Map<String, Map<String, String>> bound = new LinkedHashMap<>();
    /** For each process: whether each name it binds is indexed ({@code "out": "ep[$i]"}), as first bound. */
    private final Map<String, Map<String, Boolean>> indexed = new LinkedHashMap<>();

    RefChecker(Problems problems, Operands.Builder operands, QuantityChecker quantities) {
        this.problems = problems;
        this.operands = operands;
        this.quantities = quantities;
    }

    /**
     * Records the names a process's calls bind, before any call is checked, so that references can be checked in
     * any order; reports a process name used twice.
     *
     * @param process the process's name
     * @param calls its {@code calls} node, may be anything
     * @param path the process's JSON path
     */
    void bind(String process, JsonNode calls, String path) {
        Map<String, String> outs = new LinkedHashMap<>();
        Map<String, Boolean> idx = new LinkedHashMap<>();
        collectOuts(calls, outs, idx);
        if (bound.containsKey(process)) {
            problems.add(path + ".name", "process name \"" + process + "\" is used twice");
            bound.get(process).putAll(outs);
            idx.forEach(indexed.get(process)::putIfAbsent);
        } else {
            bound.put(process, outs);
            indexed.put(process, idx);
        }
    }

    private static void collectOuts(JsonNode calls, Map<String, String> outs, Map<String, Boolean> idx) {
        if (calls == null || !calls.isArray()) {
            return;
        }
        for (JsonNode c : calls) {
            if (CallReader.isBlock(c)) {
                collectOuts(c.get("calls"), outs, idx);
                continue;
            }
            JsonNode call = c.get("call");
            JsonNode o = c.get("out");
            Refs.IndexedName n = o != null && o.isTextual() ? Refs.parseIndexed(o.asText()) : null;
            if (call != null && call.isTextual() && n != null) {
                CallSpec spec = CallCatalog.get(call.asText());
                if (spec != null && spec.outKind() != null) {
                    outs.put(n.name(), spec.outKind());
                    idx.putIfAbsent(n.name(), n.index() != null);
                }
            }
        }
    }

    /** Returns whether the process binds the name with an index, as its first binding does; null if it does not. */
    Boolean indexed(String process, String name) {
        return indexed.get(process).get(name);
    }

    /** Returns true if a call of the process binds the name. */
    boolean binds(String process, String name) {
        return bound.get(process).containsKey(name);
    }

    /** Returns the kind of value a reference names, which must have been checked without a problem. */
    String kind(Refs.Ref r, String process) {
        return bound.get(r.process() != null ? r.process() : process).get(r.name());
    }

    /** Returns true if the value is written as a reference (a string starting with {@code $}). */
    static boolean isRef(JsonNode v) {
        return v.isTextual() && v.asText().startsWith(Patterns.REF_PREFIX);
    }

    /**
     * Checks a whole-number value: a number, a size (when allowed), a reference, or an expression whose references
     * are all known.
     */
    void numeric(JsonNode v, String path, String process, Collection<String> loopVars, boolean sizes) {
        if (v.isIntegralNumber()) {
            return;
        }
        if (v.isTextual() && Expr.isExpr(v.asText())) {
            try {
                Expr e = Expr.parse(v.asText());
                operands.expr(v.asText(), e);
                for (String r : e.refs()) {
                    ref(r, path, process, loopVars);
                }
            } catch (IllegalArgumentException e) {
                problems.add(path, e.getMessage());
            }
            return;
        }
        if (isRef(v)) {
            ref(v.asText(), path, process, loopVars);
            return;
        }
        if (sizes) {
            quantities.size(v, path);
        } else {
            problems.add(path, "expected " + ArgType.INT.expected() + ", found " + show(v));
        }
    }

    /**
     * Checks the index of an indexed name (the text between the brackets): an expression whose references, read in
     * the process {@code process}, are all known.
     */
    void index(String index, String path, String process, Collection<String> loopVars) {
        String text = Refs.indexExpr(index);
        try {
            Expr e = Expr.parse(text);
            operands.expr(text, e);
            for (String r : e.refs()) {
                ref(r, path, process, loopVars);
            }
        } catch (IllegalArgumentException e) {
            problems.add(path, "the index [" + Text.clean(index, 60) + "]: " + e.getMessage());
        }
    }

    /** Checks a reference where no loop variable may stand. */
    void ref(String text, String path, String process) {
        ref(text, path, process, List.of());
    }

    /** Checks a reference: a loop variable in scope, or a name some process binds, with a field its kind has. */
    void ref(String text, String path, String process, Collection<String> loopVars) {
        Refs.Ref r = Refs.parse(text);
        if (r != null) {
            operands.ref(text, r);
        }
        if (r != null && r.bare() && loopVars.contains(r.name())) {
            return; // a loop variable in scope
        }
        if (r == null) {
            problems.add(path, "expected a reference such as \"$name\", \"$name.field\" or \"$process/name.field\","
                    + " found \"" + text + "\"");
            return;
        }
        String proc = r.process() != null ? r.process() : process;
        Map<String, String> names = bound.get(proc);
        if (names == null) {
            problems.add(path, "no process is named \"" + proc + "\"");
            return;
        }
        String kind = names.get(r.name());
        if (kind == null) {
            problems.add(path, "dangling reference \"" + text + "\": no call of process \"" + proc + "\" binds \""
                    + r.name() + "\" with \"out\"");
            return;
        }
        boolean isIndexed = indexed.get(proc).getOrDefault(r.name(), false);
        if (isIndexed && r.index() == null) {
            problems.add(path, "\"" + r.name() + "\" is bound with an index (\"out\": \"" + r.name() + "[...]\"): refer"
                    + " to one of them, as \"$" + (r.process() != null ? r.process() + "/" : "") + r.name() + "[$i]"
                    + (r.field() != null ? "." + r.field() : "") + "\"");
            return;
        }
        if (!isIndexed && r.index() != null) {
            problems.add(path, "\"" + r.name() + "\" is bound without an index; refer to it as \"$"
                    + (r.process() != null ? r.process() + "/" : "") + r.name()
                    + (r.field() != null ? "." + r.field() : "") + "\"");
            return;
        }
        if (r.index() != null) {
            index(r.index(), path, process, loopVars);
        }
        if (r.field() != null && !Refs.FIELDS.get(kind).contains(r.field())) {
            problems.add(path, "\"" + r.name() + "\" is a " + kind + ", which has no field \"" + r.field()
                    + "\"; its fields are " + Refs.FIELDS.get(kind));
        }
    }
}
