package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.core.time.ByteSize;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatReturn;

/**
 * Reads a scenario's {@code "outcomes"}: {@code {"allowed": [entry, ...], "forbidden": [entry, ...]}}, each entry an
 * object from observation names (declared by steps with {@code "observe"}) to the value observed, or
 * {@code {"one_of": [...]}} of values. A value is written as the step's expectation would be: bytes as
 * {@code expect.data} ({@code {"fill": 1, "length": 8}}, {@code {"hex": ...}}, {@code {"text": ...}}), a status, an
 * event or a DAT_RETURN by name. Outcomes are compared after the run; they take plain values (no references).
 */
final class OutcomeReader {

    /** An observation's key in an outcome: an optional process, the name, an optional index. */
    static final Pattern KEY = Pattern.compile(Patterns.OUTCOME_KEY);
    private static final Pattern HEX = Pattern.compile(Patterns.HEX);

    private final Problems problems;

    OutcomeReader(Problems problems) {
        this.problems = problems;
    }

    /**
     * Reads the section.
     *
     * @param n the {@code outcomes} node, or null
     * @param observes the observation names the steps declare
     * @param processes the processes (for the names of template instances)
     * @return the outcomes ({@link Outcomes#NONE} without a section)
     */
    Outcomes read(JsonNode n, Map<String, CallReader.Observed> observes, List<ProcessDef> processes) {
        Map<String, ObserveKind> kinds = new LinkedHashMap<>();
        observes.forEach((k, v) -> kinds.put(k, v.kind()));
        if (n == null) {
            return new Outcomes(null, List.of(), kinds);
        }
        String path = "$.outcomes";
        if (!n.isObject()) {
            problems.add(path, "expected {\"allowed\": [...], \"forbidden\": [...]}, found " + show(n));
            return new Outcomes(null, List.of(), kinds);
        }
        problems.unknownKeys(n, path, Set.of("allowed", "forbidden", "comment"));
        if (!n.has("allowed") && !n.has("forbidden")) {
            problems.add(path, "expected \"allowed\" or \"forbidden\" (or both): arrays of outcomes such as"
                    + " {\"r1\": {\"fill\": 1, \"length\": 8}}");
        }
        if (observes.isEmpty()) {
            problems.add(path, "no step observes anything: give the steps whose results make the outcome an"
                    + " \"observe\": \"NAME\"");
            return new Outcomes(null, List.of(), kinds);
        }
        List<ObjectNode> allowed = n.has("allowed") ? entries(n.get("allowed"), path + ".allowed", observes,
                processes) : null;
        List<ObjectNode> forbidden = n.has("forbidden") ? entries(n.get("forbidden"), path + ".forbidden", observes,
                processes) : List.of();
        return new Outcomes(allowed, forbidden, kinds);
    }

    private List<ObjectNode> entries(JsonNode a, String path, Map<String, CallReader.Observed> observes,
            List<ProcessDef> processes) {
        List<ObjectNode> out = new ArrayList<>();
        if (!a.isArray() || a.isEmpty()) {
            problems.add(path, "expected a non-empty array of outcomes such as [{\"r1\": \"DAT_DTO_SUCCESS\"}], found "
                    + show(a));
            return out;
        }
        for (int i = 0; i < a.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode e = a.get(i);
            if (!e.isObject() || e.isEmpty()) {
                problems.add(p, "expected an object of observation names and values, found " + show(e));
                continue;
            }
            Iterator<Map.Entry<String, JsonNode>> it = e.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> f = it.next();
                ObserveKind kind = key(f.getKey(), p + "." + f.getKey(), observes, processes);
                if (kind != null) {
                    value(f.getValue(), p + "." + f.getKey(), kind);
                }
            }
            out.add((ObjectNode) e);
        }
        return out;
    }

    /** Checks an observation's key; returns what it records, or null after a problem. */
    private ObserveKind key(String key, String path, Map<String, CallReader.Observed> observes,
            List<ProcessDef> processes) {
        Matcher m = KEY.matcher(key);
        if (!m.matches()) {
            problems.add(path, "expected an observation name (NAME, NAME[3] or PROCESS/NAME), found \"" + key + "\"");
            return null;
        }
        CallReader.Observed o = observes.get(m.group(2));
        if (o == null) {
            problems.add(path, "no step observes \"" + m.group(2) + "\"; the observation names are "
                    + observes.keySet());
            return null;
        }
        if (o.template() && m.group(1) == null) {
            problems.add(path, "\"" + m.group(2) + "\" is observed by a process template (" + o.path() + "): name"
                    + " the instance, as PROCESS/" + m.group(2));
            return null;
        }
        if (!o.template() && m.group(1) != null) {
            problems.add(path, "\"" + m.group(2) + "\" is observed by one process (" + o.path() + "): write \""
                    + m.group(2) + (m.group(3) != null ? "[" + m.group(3) + "]" : "") + "\" without a process");
            return null;
        }
        if (m.group(1) != null && processes.stream().noneMatch(p -> p.name().equals(m.group(1)))) {
            problems.add(path, "no process is named \"" + m.group(1) + "\"");
            return null;
        }
        if (o.indexed() != (m.group(3) != null)) {
            problems.add(path, o.indexed() ? "\"" + m.group(2) + "\" is observed in a repeat block with an index ("
                    + o.path() + "): name one observation, such as \"" + m.group(2) + "[0]\""
                    : "\"" + m.group(2) + "\" has no index (" + o.path() + "): write \"" + m.group(2) + "\"");
            return null;
        }
        return o.kind();
    }

    private void value(JsonNode v, String path, ObserveKind kind) {
        if (ExpectationChecker.isOneOf(v)) {
            problems.unknownKeys(v, path, Set.of(ExpectationChecker.ONE_OF));
            JsonNode alts = v.get(ExpectationChecker.ONE_OF);
            if (!alts.isArray() || alts.isEmpty()) {
                problems.add(path + ".one_of", "expected a non-empty array of the values allowed, found " + show(alts));
                return;
            }
            for (int i = 0; i < alts.size(); i++) {
                single(alts.get(i), path + ".one_of[" + i + "]", kind);
            }
            return;
        }
        single(v, path, kind);
    }

    private void single(JsonNode v, String path, ObserveKind kind) {
        switch (kind) {
            case DATA:
                data(v, path);
                break;
            case STATUS: {
                String t = v.isTextual() ? v.asText() : "";
                if (Dat.DTO_STATUS.value(t) == null && Dat.EVENTS.value(t) == null && DatReturn.typeByName(t) == null
                        && DatReturn.subtypeByName(t) == null && !t.equals(ExpectationChecker.ANY_ERROR)) {
                    problems.add(path, "expected a completion status such as \"DAT_DTO_SUCCESS\", an event name, or"
                            + " a DAT_RETURN name such as \"DAT_TIMEOUT_EXPIRED\", found " + show(v));
                }
                break;
            }
            case FIELD:
                if (!v.isIntegralNumber() && !v.isTextual()) {
                    problems.add(path, "expected the event field's value: a number (cookie, length, immediate_data)"
                            + " or a name (ep such as \"B/ep0\", status, event, operation, or the DAT_RETURN of a"
                            + " wait that took no event), found " + show(v));
                }
                break;
            default:
                ExpectationChecker.ret(v, path, problems);
                break;
        }
    }

    /** Bytes with plain values: {"text": ...}, {"hex": ...} or {"fill": 0-255, "length": size}. */
    private void data(JsonNode v, String path) {
        if (!v.isObject()) {
            problems.add(path, "expected bytes such as {\"fill\": 1, \"length\": 8} or {\"hex\": \"0102\"}, found "
                    + show(v));
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
        if (v.has("hex") && (!v.get("hex").isTextual() || !HEX.matcher(v.get("hex").asText()).matches())) {
            problems.add(path + ".hex", "expected an even number of hexadecimal digits, found " + show(v.get("hex")));
        }
        if (v.has("fill")) {
            JsonNode f = v.get("fill");
            if (!f.isIntegralNumber() || f.asInt() < 0 || f.asInt() > 255) {
                problems.add(path + ".fill", "expected a byte value from 0 to 255, found " + show(f));
            }
            JsonNode l = v.get("length");
            if (l == null) {
                problems.add(path + ".length", "missing; a fill needs a length such as 8");
            } else if (!(l.isIntegralNumber() && l.asLong() >= 0) && !validSize(l)) {
                problems.add(path + ".length", "expected a byte count or a size such as \"4KiB\", found " + show(l));
            }
        } else if (v.has("length")) {
            problems.add(path + ".length", "only a fill takes a length; text and hex have their own");
        }
    }

    private static boolean validSize(JsonNode l) {
        if (!l.isTextual()) {
            return false;
        }
        try {
            ByteSize.parse(l.asText());
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }
}
