package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Reads a process's list of calls into flat {@link Step}s: each call object (its name, fields, arguments,
 * {@code "out"} and {@code "expect"}) and each repeat block ({@code "repeat"} count, {@code "for"} time bound) with
 * its loop variable.
 */
final class CallReader {

    private final Problems problems;
    private final RefChecker refs;
    private final ArgumentChecker args;
    private final ExpectationChecker expectations;
    /** The scenario's variables, which no call may rebind. */
    private final Map<String, Long> vars;
    /** The observation names the steps declare ({@code "observe"}), in file order. */
    private final Map<String, Observed> observes = new java.util.LinkedHashMap<>();
    /** True while the calls of a process template are read. */
    private boolean template;
    /** The step names ({@code "name"}) of the process being read, with their paths. */
    private Map<String, String> stepNames = new java.util.LinkedHashMap<>();
    /** The calls of the named steps read so far in the process being read, for {@code "if": {"step": NAME}}. */
    private Map<String, CallSpec> stepSpecs = new java.util.HashMap<>();
    /** Every {@code "after"} read: its path and the process and step it names, checked once all are read. */
    private final List<String[]> afters = new java.util.ArrayList<>();

    /**
     * A step's {@code "observe"}.
     *
     * @param kind what it records
     * @param path the JSON path of the step
     * @param template true if the step belongs to a process template (its observations are named PROCESS/NAME)
     * @param indexed true if the name has an index ({@code "r[$i]"}), one observation per index
     */
    record Observed(ObserveKind kind, String path, boolean template, boolean indexed) {
    }

    CallReader(Problems problems, RefChecker refs, ArgumentChecker args, ExpectationChecker expectations,
            Map<String, Long> vars) {
        this.problems = problems;
        this.refs = refs;
        this.args = args;
        this.expectations = expectations;
        this.vars = vars;
    }

    /**
     * Validates a list of calls (and repeat blocks) into flat steps, appended to {@code steps}.
     *
     * @param calls the array of calls
     * @param path its JSON path
     * @param process the process making them
     * @param steps receives the steps
     * @param loopVars the names in scope that are not bound by calls: variables and enclosing loop variables
     */
    /** Says whether the calls read next belong to a process template. */
    void template(boolean on) {
        template = on;
    }

    /**
     * Starts the step names of another process's calls; returns those of the previous one (by name, with paths).
     */
    Map<String, String> takeStepNames() {
        Map<String, String> out = stepNames;
        stepNames = new java.util.LinkedHashMap<>();
        stepSpecs = new java.util.HashMap<>();
        return out;
    }

    /** Returns every "after" read: {path, process, step name}. */
    List<String[]> afters() {
        return afters;
    }

    /** Returns the observation names the steps declared, in file order. */
    Map<String, Observed> observes() {
        return observes;
    }

    void steps(JsonNode calls, String path, String process, List<Step> steps, Deque<String> loopVars) {
        for (int c = 0; c < calls.size(); c++) {
            JsonNode n = calls.get(c);
            String p = path + "[" + c + "]";
            if (isBlock(n)) {
                problems.unknownKeys(n, p, Set.of("repeat", "for", "as", "calls", "comment"));
                JsonNode count = n.get("repeat");
                if (count != null) {
                    refs.numeric(count, p + ".repeat", process, loopVars, false);
                }
                if (n.has("for")) {
                    args.time(n.get("for"), p + ".for");
                }
                String var = null;
                if (n.has("as")) {
                    JsonNode as = n.get("as");
                    if (!as.isTextual() || !Refs.isName(as.asText())) {
                        problems.add(p + ".as", "expected a loop variable name of letters, digits and _, found "
                                + show(as));
                    } else if (refs.binds(process, as.asText()) || loopVars.contains(as.asText())) {
                        problems.add(p + ".as", "\"" + as.asText() + "\" is already a name in this process; choose"
                                + " another loop variable");
                    } else {
                        var = as.asText();
                    }
                }
                JsonNode body = n.get("calls");
                if (body == null || !body.isArray()) {
                    problems.add(p + ".calls", "expected the array of calls to repeat, found " + show(body));
                    continue;
                }
                int begin = steps.size();
                steps.add(null);
                if (var != null) {
                    loopVars.push(var);
                }
                steps(body, p + ".calls", process, steps, loopVars);
                if (var != null) {
                    loopVars.pop();
                }
                int end = steps.size();
                steps.set(begin, new Step(begin, p, CallCatalog.REPEAT, (ObjectNode) n, Step.REPEAT_BEGIN, var, end));
                steps.add(new Step(end, p, CallCatalog.REPEAT, (ObjectNode) n, Step.REPEAT_END, var, begin));
                continue;
            }
            Step s = step(n, p, steps.size(), process, loopVars);
            if (s != null) {
                steps.add(s);
            }
        }
    }

    /**
     * Whether a call-list element is a repeat block: it has {@code "repeat"} (a count), {@code "for"} (a time bound),
     * or both.
     */
    static boolean isBlock(JsonNode n) {
        return n.isObject() && (n.has("repeat") || n.has("for"));
    }

    private Step step(JsonNode c, String path, int index, String process, Collection<String> loopVars) {
        if (!c.isObject()) {
            problems.add(path, "expected a call object such as {\"call\": \"dat_ia_open\", \"out\": \"ia\"}, found "
                    + show(c));
            return null;
        }
        JsonNode callNode = c.get("call");
        if (callNode == null || !callNode.isTextual()) {
            problems.add(path + ".call", "expected the name of a call such as \"dat_ep_post_send\", found "
                    + show(callNode));
            return null;
        }
        String call = callNode.asText();
        CallSpec spec = CallCatalog.get(call);
        if (spec == null) {
            String why = call.startsWith("dat_") ? "is not supported by this version of datsim"
                    : "is not a call scenarios can make";
            problems.add(path + ".call", "\"" + call + "\" " + why
                    + org.datsim.core.param.Suggestions.hint(call, CallCatalog.all().keySet())
                    + "; the supported calls are " + CallCatalog.all().keySet());
            return null;
        }
        Set<String> allowed = new HashSet<>(spec.args().keySet());
        allowed.add("call");
        allowed.add("expect");
        allowed.add("comment");
        allowed.add("observe");
        allowed.add("name");
        allowed.add("after");
        if (spec.outKind() != null) {
            allowed.add("out");
        }
        problems.unknownKeys(c, path, new TreeSet<>(allowed));
        for (CallSpec.Arg a : spec.args().values()) {
            JsonNode v = c.get(a.name());
            if (v == null) {
                if (a.required()) {
                    problems.add(path + "." + a.name(), "missing; expected " + a.type().expected());
                }
                continue;
            }
            args.arg(v, path + "." + a.name(), a, process, loopVars);
        }
        out(c.get("out"), path + ".out", process, loopVars);
        JsonNode expect = c.get("expect");
        if (expect != null) {
            expectations.expect(expect, path + ".expect", spec, process, loopVars, stepSpecs::get);
        }
        observe(c.get("observe"), path + ".observe", spec, process, loopVars);
        stepName(c.get("name"), path, spec);
        after(c.get("after"), path + ".after");
        try {
            return new Step(index, path, spec, (ObjectNode) c);
        } catch (Arg.Undeclared e) {
            problems.add(e.path, e.detail); // a typed call out of step with the catalogue: located, never a default
            return null;
        }
    }

    /** A step's {@code "name"}, which other processes' {@code "after"} may name: unique in its process. */
    private void stepName(JsonNode n, String path, CallSpec spec) {
        if (n == null) {
            return;
        }
        if (!n.isTextual() || !Refs.isName(n.asText())) {
            problems.add(path + ".name", "expected a step name of letters, digits and _, found " + show(n));
            return;
        }
        String before = stepNames.putIfAbsent(n.asText(), path);
        stepSpecs.putIfAbsent(n.asText(), spec);
        if (before != null) {
            problems.add(path + ".name", "the step name \"" + n.asText() + "\" is already used at " + before
                    + " in this process");
        }
    }

    /**
     * A step's {@code "after"}: "PROCESS/STEP" or an array of them, the steps another process must have reached
     * before this call starts; checked once every process's step names are known.
     */
    private void after(JsonNode a, String path) {
        if (a == null) {
            return;
        }
        if (a.isArray() && !a.isEmpty()) {
            for (int i = 0; i < a.size(); i++) {
                afterOne(a.get(i), path + "[" + i + "]");
            }
        } else {
            afterOne(a, path);
        }
    }

    private void afterOne(JsonNode a, String path) {
        String t = a.isTextual() ? a.asText() : "";
        int slash = t.indexOf('/');
        if (slash <= 0 || !Refs.isName(t.substring(slash + 1))) {
            problems.add(path, "expected \"PROCESS/STEP\" (a step of another process that has a \"name\"), or an"
                    + " array of them, found " + show(a));
            return;
        }
        afters.add(new String[] {path, t.substring(0, slash), t.substring(slash + 1)});
    }

    /**
     * A step's {@code "observe"}: a name used by no other step; or, on a wait or dequeue, an object of names, each
     * recording one field of the event taken ({@code {"first": "cookie", "first_ep": "ep"}}).
     */
    private void observe(JsonNode o, String path, CallSpec spec, String process, Collection<String> loopVars) {
        if (o == null) {
            return;
        }
        if (o.isObject()) {
            if (ObserveKind.of(spec.name()) != ObserveKind.STATUS) {
                problems.add(path, "only dat_evd_wait and dat_evd_dequeue observe an event's fields; " + spec.name()
                        + " takes \"observe\": \"NAME\"");
                return;
            }
            if (o.isEmpty()) {
                problems.add(path, "expected at least one NAME: FIELD pair, such as {\"first\": \"cookie\"}");
                return;
            }
            java.util.Iterator<Map.Entry<String, JsonNode>> it = o.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> f = it.next();
                String p = path + "." + f.getKey();
                JsonNode field = f.getValue();
                if (!field.isTextual() || !ObserveKind.FIELDS.containsKey(field.asText())) {
                    problems.add(p, "expected the event field to observe, one of " + ObserveKind.FIELDS.keySet()
                            + ", found " + show(field));
                    continue;
                }
                observeName(TextNode.valueOf(f.getKey()), p, process, loopVars, ObserveKind.FIELD,
                        path.substring(0, path.length() - ".observe".length()));
            }
            return;
        }
        observeName(o, path, process, loopVars, ObserveKind.of(spec.name()),
                path.substring(0, path.length() - ".observe".length()));
    }

    private void observeName(JsonNode o, String path, String process, Collection<String> loopVars, ObserveKind kind,
            String stepPath) {
        Refs.IndexedName n = o.isTextual() ? Refs.parseIndexed(o.asText()) : null;
        if (n == null) {
            problems.add(path, "expected a name of letters, digits and _ for the observation (with an index such as"
                    + " \"r[$i]\" in a repeat block), found " + show(o));
            return;
        }
        if (n.index() != null) {
            refs.index(n.index(), path, process, loopVars);
        }
        Observed before = observes.get(n.name());
        if (before != null) {
            problems.add(path, "the observation name \"" + n.name() + "\" is already used at " + before.path()
                    + "; give each observing step its own name");
            return;
        }
        observes.put(n.name(), new Observed(kind, stepPath, template, n.index() != null));
    }

    /**
     * The name a call binds its result to: a valid name, or a name with an index ({@code "ep[$i]"}: one value per
     * index); not a reserved name, not a scenario variable, and indexed everywhere or nowhere in the process.
     */
    private void out(JsonNode out, String path, String process, Collection<String> loopVars) {
        if (out == null) {
            return;
        }
        Refs.IndexedName n = out.isTextual() ? Refs.parseIndexed(out.asText()) : null;
        if (n == null) {
            problems.add(path, "expected a name of letters, digits and _ to bind the result to (with an index such"
                    + " as \"ep[$i]\" for one value per index), found " + show(out));
            return;
        }
        if ("index".equals(n.name()) || "count".equals(n.name())) {
            problems.add(path, "\"" + n.name() + "\" is reserved for the process's $index and $count");
        }
        if (vars.containsKey(n.name())) {
            problems.add(path, "\"" + n.name() + "\" is a scenario variable (\"vars\"); bind the result to"
                    + " another name");
        }
        Boolean first = refs.indexed(process, n.name());
        if (first != null && first != (n.index() != null)) {
            problems.add(path, "\"" + n.name() + "\" is bound " + (first ? "with" : "without") + " an index by an"
                    + " earlier call of this process; bind it " + (first ? "with one (\"" + n.name() + "[$i]\")"
                    : "without one") + " everywhere");
        }
        if (n.index() != null) {
            refs.index(n.index(), path, process, loopVars);
        }
    }
}
