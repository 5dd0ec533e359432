package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A step's validated {@code "expect"}, typed once by the loader (issue 26's typed steps): its checks by key, in the
 * order they are judged ({@code "ret"} first, then the others as written), and the conditional form
 * {@code "if"/"then"/"else"}. Each expected value stays the file's JSON (a literal, a name, a reference, a
 * comparison such as {@code ">= 4"}, or {@code {"one_of": [...]}}), evaluated when the call is judged, as a typed
 * call's {@link Arg}s are.
 *
 * @param checks the checks of this block
 * @param condition the block's {@code "if"}, or null
 * @param then the expectation when the condition holds, or null
 * @param otherwise the expectation when it does not ({@code "else"}), or null
 * @param mentionsRet whether {@code "ret"} is said anywhere in it (else the call must succeed): here, in a branch,
 *     or in the condition unless the condition tests an earlier step
 */
public record Expect(List<Check> checks, Condition condition, Expect then, Expect otherwise, boolean mentionsRet) {

    /**
     * One expected value.
     *
     * @param key what it is about
     * @param want the value, or {@code {"one_of": [...]}} of values, or for {@link ExpectKey#ATTRS} the object of
     *     attribute names and values
     */
    public record Check(ExpectKey key, JsonNode want) {
    }

    /**
     * The {@code "if"} of a conditional expectation: it holds when every check matches.
     *
     * @param step the earlier step whose result it tests ({@code "step"}), or null for this call's
     * @param checks its checks, as written
     */
    public record Condition(String step, List<Check> checks) {

        /** Returns whether the condition tests this key. */
        boolean has(ExpectKey key) {
            for (Check c : checks) {
                if (c.key() == key) {
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Types a validated {@code "expect"}. Total on any JSON: what is not an expectation (a key no check has, an
     * {@code "if"} that is no object) is left out, and is a problem the loader reports ({@code ExpectationChecker}),
     * so a scenario with it never runs.
     *
     * @param e the node, or null
     * @return the expectation, or null when the step has none (or it is no object)
     */
    public static Expect of(JsonNode e) {
        if (e == null || !e.isObject()) {
            return null;
        }
        List<Check> checks = new ArrayList<>();
        if (e.has("ret")) {
            checks.add(new Check(ExpectKey.RET, e.get("ret")));
        }
        Iterator<Map.Entry<String, JsonNode>> it = e.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            ExpectKey key = ExpectKey.of(k);
            if (key != null && key != ExpectKey.RET) {
                checks.add(new Check(key, f.getValue()));
            }
        }
        Condition cond = condition(e.get("if"));
        Expect then = of(e.get("then"));
        Expect otherwise = of(e.get("else"));
        boolean condRet = cond != null && cond.step() == null && cond.has(ExpectKey.RET);
        boolean mentions = e.has("ret") || condRet || (then != null && then.mentionsRet())
                || (otherwise != null && otherwise.mentionsRet());
        return new Expect(List.copyOf(checks), cond, then, otherwise, mentions);
    }

    private static Condition condition(JsonNode c) {
        if (c == null || !c.isObject()) {
            return null;
        }
        List<Check> checks = new ArrayList<>();
        Iterator<Map.Entry<String, JsonNode>> it = c.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            ExpectKey key = ExpectKey.of(f.getKey());
            if (key != null) {
                checks.add(new Check(key, f.getValue()));
            }
        }
        JsonNode step = c.get("step");
        return new Condition(step == null ? null : step.asText(), List.copyOf(checks));
    }

    /**
     * Returns the check of a key in this block (not in its branches), or null.
     *
     * @param key the key
     * @return the check, or null
     */
    public Check check(ExpectKey key) {
        for (Check c : checks) {
            if (c.key() == key) {
                return c;
            }
        }
        return null;
    }
}
