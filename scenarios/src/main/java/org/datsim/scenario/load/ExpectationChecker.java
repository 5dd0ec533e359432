package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;
import static org.datsim.scenario.load.RefChecker.isRef;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.NamedValues;

/** Checks a call's {@code "expect"}: the DAT_RETURN, event, completion and state names, values and references. */
final class ExpectationChecker {

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
     */
    void expect(JsonNode e, String path, CallSpec spec, String process) {
        if (!e.isObject()) {
            problems.add(path, "expected an object such as {\"ret\": \"DAT_SUCCESS\"}, found " + show(e));
            return;
        }
        Set<String> allowed = new TreeSet<>(spec.expectKeys());
        allowed.add("ret");
        problems.unknownKeys(e, path, allowed);
        JsonNode ret = e.get("ret");
        if (ret != null) {
            String r = ret.isTextual() ? ret.asText() : "";
            if (!r.equals("any") && DatReturn.typeByName(r) == null && DatReturn.subtypeByName(r) == null) {
                problems.add(path + ".ret", "expected a DAT_RETURN name such as \"DAT_SUCCESS\" or"
                        + " \"DAT_INVALID_STATE\", a subtype name, or \"any\", found " + show(ret));
            }
        }
        expectName(e, "event", path, Dat.EVENTS);
        expectName(e, "status", path, Dat.DTO_STATUS);
        expectName(e, "operation", path, Dat.DTO_OPS);
        expectName(e, "state", path, Dat.EP_STATES);
        for (String k : new String[] {"cookie", "transfered_length"}) {
            JsonNode x = e.get(k);
            if (x != null && !x.isIntegralNumber()) {
                problems.add(path + "." + k, "expected a whole number, found " + show(x));
            }
        }
        expectName(e, "handle_type", path, Dat.HANDLE_TYPES);
        if (e.has("context") && !e.get("context").isIntegralNumber()) {
            problems.add(path + ".context", "expected a whole number, found " + show(e.get("context")));
        }
        if (e.has("message") && !e.get("message").isTextual()) {
            problems.add(path + ".message", "expected a string, found " + show(e.get("message")));
        }
        if (e.has("attrs")) {
            attrs(e.get("attrs"), path + ".attrs", spec);
        }
        for (String k : new String[] {"recv_idle", "request_idle"}) {
            if (e.has(k) && !e.get(k).isBoolean()) {
                problems.add(path + "." + k, "expected true or false, found " + show(e.get(k)));
            }
        }
        if (e.has("stale") && !e.get("stale").isBoolean()) {
            problems.add(path + ".stale", "expected true or false, found " + show(e.get("stale")));
        }
        if (e.has("data")) {
            args.data(e.get("data"), path + ".data");
        }
        if (e.has("evd") && !e.get("evd").isNull() && !isRef(e.get("evd"))) {
            problems.add(path + ".evd", "expected a reference to an EVD such as \"$evd\", or null, found "
                    + show(e.get("evd")));
        } else if (e.has("evd") && !e.get("evd").isNull()) {
            refs.ref(e.get("evd").asText(), path + ".evd", process);
        }
        if (e.has("ep") && !isRef(e.get("ep"))) {
            problems.add(path + ".ep", "expected a reference to an endpoint such as \"$ep\", found "
                    + show(e.get("ep")));
        } else if (e.has("ep")) {
            endpoint(e.get("ep").asText(), path + ".ep", process);
        }
    }

    /** The attributes a query's result is expected to have: fields of the call's result kind. */
    private void attrs(JsonNode attrs, String path, CallSpec spec) {
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
            if (!known.contains(a.getKey())) {
                problems.add(path + "." + a.getKey(), "unknown attribute; expected one of " + known);
            } else if (!a.getValue().isIntegralNumber() && !a.getValue().isBoolean()) {
                problems.add(path + "." + a.getKey(), "expected a number or true/false, found "
                        + show(a.getValue()));
            }
        }
    }

    /** An expected endpoint: a reference that names an endpoint, or an event's endpoint field. */
    private void endpoint(String text, String path, String process) {
        int before = problems.count();
        refs.ref(text, path, process);
        Refs.Ref r = Refs.parse(text);
        if (problems.count() == before && r != null) {
            String kind = refs.kind(r, process);
            boolean endpoint = r.field() == null ? "ep".equals(kind) : "ep".equals(r.field());
            if (!endpoint) {
                problems.add(path, "expected a reference to an endpoint such as \"$ep\" or"
                        + " \"$event.ep\", found \"" + text + "\", which is a " + (r.field() == null ? kind
                                : kind + "'s " + r.field()));
            }
        }
    }

    private void expectName(JsonNode e, String key, String path, NamedValues group) {
        JsonNode x = e.get(key);
        if (x != null && (!x.isTextual() || group.value(x.asText()) == null)) {
            problems.add(path + "." + key, "expected a " + group.group() + " name such as \""
                    + group.names().get(0) + "\", found " + show(x));
        }
    }
}
