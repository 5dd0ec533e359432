package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.BiConsumer;
import org.datsim.fabric.topology.TopologyBuilder;

/**
 * Reads {@code fabric.topology}, a generated topology: exactly one of
 * {@code {"back_to_back": {}}}, {@code {"single_switch": {"hosts": N}}} or
 * {@code {"fat_tree": {"k": K, "levels": 2|3}}}, each with an optional {@code "host_prefix"} (default {@code "h"}),
 * or {@code {"hpcc": {"file": "PATH"}}}, HPCC's topology file format (hosts {@code h<number>}, switches
 * {@code s<number>}; see {@link org.datsim.scenario.workload.HpccFiles}), the path relative to the scenario's.
 * Sizes are bounded so that a scenario cannot ask for a fabric that exhausts memory.
 */
final class TopologyReader {

    private static final Set<String> KINDS = Set.of("back_to_back", "single_switch", "fat_tree", "hpcc");

    private TopologyReader() {
    }

    /**
     * Reads a topology description.
     *
     * @param n the {@code topology} node
     * @param path its JSON path
     * @param problem receives (JSON path, message) for each problem
     * @return the generated lists, or null if there were problems
     */
    static TopologyBuilder read(JsonNode n, String path, BiConsumer<String, String> problem) {
        return read(n, path, problem, null);
    }

    /**
     * Reads a topology description whose files are relative to a scenario file.
     *
     * @param n the {@code topology} node
     * @param path its JSON path
     * @param problem receives (JSON path, message) for each problem
     * @param scenarioFile the scenario file, or null to take paths as they are
     * @return the generated lists, or null if there were problems
     */
    static TopologyBuilder read(JsonNode n, String path, BiConsumer<String, String> problem, String scenarioFile) {
        if (n == null || !n.isObject() || n.size() != 1) {
            problem.accept(path, "expected an object with exactly one of " + new TreeSet<>(KINDS)
                    + ", such as {\"fat_tree\": {\"k\": 4, \"levels\": 3}}, found " + show(n));
            return null;
        }
        String kind = n.fieldNames().next();
        JsonNode spec = n.get(kind);
        String at = path + "." + kind;
        if (!KINDS.contains(kind)) {
            problem.accept(at, "unknown topology; expected one of " + new TreeSet<>(KINDS));
            return null;
        }
        if (!spec.isObject()) {
            problem.accept(at, "expected an object, found " + show(spec));
            return null;
        }
        if (kind.equals("hpcc")) {
            if (Problems.unknownKeys(spec, at, Set.of("file"), problem)) {
                return null;
            }
            JsonNode f = spec.get("file");
            if (f == null || !f.isTextual()) {
                problem.accept(at + ".file", "expected the path of an HPCC topology file, found " + show(f));
                return null;
            }
            java.nio.file.Path base = scenarioFile == null ? null
                    : java.nio.file.Path.of(scenarioFile).toAbsolutePath().getParent();
            java.nio.file.Path file = JsonInput.userPath(base, f.asText());
            if (file == null) {
                problem.accept(at + ".file", JsonInput.badPath(f.asText()));
                return null;
            }
            java.util.List<String> msgs = new java.util.ArrayList<>();
            String text = org.datsim.scenario.workload.HpccFiles.read(file, msgs);
            org.datsim.scenario.workload.HpccFiles.Topology t = text == null ? null
                    : org.datsim.scenario.workload.HpccFiles.topology(f.asText(), text, msgs);
            for (String m : msgs) {
                problem.accept(at + ".file", m);
            }
            return t == null ? null : t.lists();
        }
        Set<String> allowed = switch (kind) {
            case "single_switch" -> Set.of("hosts", "host_prefix");
            case "fat_tree" -> Set.of("k", "levels", "host_prefix");
            default -> Set.of("host_prefix");
        };
        boolean ok = !Problems.unknownKeys(spec, at, allowed, problem);
        String prefix = "h";
        JsonNode p = spec.get("host_prefix");
        if (p != null) {
            if (!p.isTextual() || !Refs.isName(p.asText())) {
                problem.accept(at + ".host_prefix", "expected a name of letters, digits and _, found " + show(p));
                ok = false;
            } else {
                prefix = p.asText();
            }
        }
        switch (kind) {
            case "single_switch": {
                long hosts = integer(spec, "hosts", at, 1, TopologyBuilder.MAX_SINGLE_SWITCH_HOSTS, -1, problem);
                return ok && hosts > 0 ? TopologyBuilder.singleSwitch(prefix, (int) hosts) : null;
            }
            case "fat_tree": {
                long levels = integer(spec, "levels", at, 2, 3, 3, problem);
                long max = levels == 2 ? TopologyBuilder.MAX_K_TWO_LEVELS : TopologyBuilder.MAX_K_THREE_LEVELS;
                long k = integer(spec, "k", at, 2, max, -1, problem);
                if (k > 0 && k % 2 != 0) {
                    problem.accept(at + ".k", "expected an even switch radix (each switch splits its k ports half"
                            + " down, half up), found " + k);
                    return null;
                }
                return ok && k > 0 && levels > 0 ? TopologyBuilder.fatTree(prefix, (int) k, (int) levels) : null;
            }
            default:
                return ok ? TopologyBuilder.backToBack(prefix) : null;
        }
    }

    /** Reads an integer field within bounds; returns -1 after reporting a problem, or the default if absent. */
    private static long integer(JsonNode spec, String key, String at, long min, long max, long dflt,
            BiConsumer<String, String> problem) {
        JsonNode v = spec.get(key);
        if (v == null && dflt >= 0) {
            return dflt;
        }
        if (v == null || !v.isIntegralNumber() || v.asLong() < min || v.asLong() > max) {
            problem.accept(at + "." + key, (v == null ? "missing; expected" : "expected") + " an integer from "
                    + min + " to " + max + (v == null ? "" : ", found " + show(v)));
            return -1;
        }
        return v.asLong();
    }
}
