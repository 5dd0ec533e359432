package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
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
 * {@code "out"} and {@code "expect"}) and each {@code "repeat"} block with its loop variable.
 */
final class CallReader {

    private final Problems problems;
    private final RefChecker refs;
    private final ArgumentChecker args;
    private final ExpectationChecker expectations;
    /** The scenario's variables, which no call may rebind. */
    private final Map<String, Long> vars;

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
    void steps(JsonNode calls, String path, String process, List<Step> steps, Deque<String> loopVars) {
        for (int c = 0; c < calls.size(); c++) {
            JsonNode n = calls.get(c);
            String p = path + "[" + c + "]";
            if (n.isObject() && n.has("repeat")) {
                problems.unknownKeys(n, p, Set.of("repeat", "as", "calls", "comment"));
                JsonNode count = n.get("repeat");
                refs.numeric(count, p + ".repeat", process, loopVars, false);
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
            problems.add(path + ".call", "\"" + call + "\" " + why + "; the supported calls are "
                    + CallCatalog.all().keySet());
            return null;
        }
        Set<String> allowed = new HashSet<>(spec.args().keySet());
        allowed.add("call");
        allowed.add("expect");
        allowed.add("comment");
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
        out(c.get("out"), path + ".out");
        JsonNode expect = c.get("expect");
        if (expect != null) {
            expectations.expect(expect, path + ".expect", spec, process);
        }
        return new Step(index, path, spec, (ObjectNode) c);
    }

    /** The name a call binds its result to: not a reserved name, not a scenario variable, a valid name. */
    private void out(JsonNode out, String path) {
        if (out != null && out.isTextual() && ("index".equals(out.asText()) || "count".equals(out.asText()))) {
            problems.add(path, "\"" + out.asText() + "\" is reserved for the process's $index and $count");
        }
        if (out != null && out.isTextual() && vars.containsKey(out.asText())) {
            problems.add(path, "\"" + out.asText() + "\" is a scenario variable (\"vars\"); bind the result to"
                    + " another name");
        }
        if (out != null && (!out.isTextual() || !Refs.isName(out.asText()))) {
            problems.add(path, "expected a name of letters, digits and _ to bind the result to, found "
                    + show(out));
        }
    }
}
