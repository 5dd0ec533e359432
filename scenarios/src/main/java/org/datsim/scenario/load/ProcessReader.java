package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads {@code "processes"}: hand-written processes and templates ({@code "hosts"}: one process per chosen host,
 * named NAME_HOST, with {@code $index} and {@code $count}), their hosts, start times and calls.
 */
final class ProcessReader {

    /** The largest number of processes a scenario may have after templates are expanded. */
    static final int MAX_PROCESSES = 1 << 20;

    /** One process to be: a hand-written process, or one host's instance of a template. */
    private record Instance(String name, String host, int index, int count, JsonNode node, String path,
            boolean first) {
    }

    private final Problems problems;
    private final QuantityChecker quantities;
    private final RefChecker refs;
    private final CallReader calls;
    /** The scenario's variables, in scope in every process. */
    private final Map<String, Long> vars;

    /**
     * Creates the reader of one scenario's processes.
     *
     * @param problems receives the problems
     * @param quantities checks sizes and times
     * @param operands receives what validation parsed of the calls' operands
     * @param vars the scenario's variables
     */
    ProcessReader(Problems problems, QuantityChecker quantities, Operands.Builder operands, Map<String, Long> vars) {
        this.problems = problems;
        this.quantities = quantities;
        this.refs = new RefChecker(problems, operands, quantities);
        ArgumentChecker args = new ArgumentChecker(problems, quantities, refs);
        this.calls = new CallReader(problems, refs, args, new ExpectationChecker(problems, refs, args), vars);
        this.vars = vars;
    }

    /**
     * Reads the processes.
     *
     * @param n the {@code processes} node, or null if absent
     * @param hosts the fabric's hosts
     * @return the processes, templates expanded
     */
    /** Returns the observation names the processes' steps declared ({@code "observe"}), in file order. */
    Map<String, CallReader.Observed> observes() {
        return calls.observes();
    }

    List<ProcessDef> read(JsonNode n, List<String> hosts) {
        List<ProcessDef> out = new ArrayList<>();
        if (n == null) {
            problems.add("$.processes", "missing; expected an array of processes such as [{\"name\": \"a\", \"host\":"
                    + " \"A\", \"calls\": [...]}]");
            return out;
        }
        if (!n.isArray()) {
            problems.add("$.processes", "expected an array of processes, found " + show(n));
            return out;
        }
        List<Instance> all = instances(n, hosts);
        // First pass: names and what each process binds, so references can be checked in any order.
        for (Instance p : all) {
            refs.bind(p.name(), p.node().get("calls"), p.path());
        }
        List<Step> shared = null;
        long start = 0;
        for (Instance p : all) {
            if (p.first()) {
                // A template's start is validated once, for its first instance; every instance starts then.
                Long t = p.node().has("start") ? quantities.duration(p.node().get("start"), p.path() + ".start")
                        : null;
                start = t != null ? t : 0;
                // A template's calls are validated once, for its first instance; every instance shares them.
                JsonNode list = p.node().get("calls");
                shared = new ArrayList<>();
                if (list == null || !list.isArray()) {
                    problems.add(p.path() + ".calls", "expected an array of calls, found " + show(list));
                } else {
                    ArrayDeque<String> scope = new ArrayDeque<>();
                    for (String v : vars.keySet()) {
                        scope.push(v);
                    }
                    scope.push("count");
                    scope.push("index");
                    calls.template(p.node().has("hosts"));
                    calls.steps(list, p.path() + ".calls", p.name(), shared, scope);
                }
                shared = List.copyOf(shared);
            }
            out.add(new ProcessDef(p.name(), p.host(), start, shared, p.index(), p.count(), p.node().has("hosts")));
        }
        return out;
    }

    private List<Instance> instances(JsonNode n, List<String> hosts) {
        List<Instance> out = new ArrayList<>();
        Set<String> hostSet = new HashSet<>(hosts); // membership only: up to 65,536 hosts
        for (int i = 0; i < n.size(); i++) {
            String path = "$.processes[" + i + "]";
            JsonNode p = n.get(i);
            if (!p.isObject()) {
                problems.add(path, "expected {\"name\": ..., \"host\": ..., \"calls\": [...]}, found " + show(p));
                continue;
            }
            problems.unknownKeys(p, path, Set.of("name", "host", "hosts", "start", "calls", "description"));
            String pname = problems.string(p, "name", path, true);
            if (pname != null && !Refs.isName(pname)) {
                problems.add(path + ".name", "expected a name of letters, digits and _, found \"" + pname + "\"");
            }
            if (pname == null) {
                pname = "#" + i;
            }
            if (p.has("hosts")) {
                if (p.has("host")) {
                    problems.add(path, "give either \"host\" (one process) or \"hosts\" (a template), not both");
                }
                List<String> chosen = templateHosts(p.get("hosts"), path + ".hosts", hosts, hostSet);
                for (int k = 0; k < chosen.size(); k++) {
                    out.add(new Instance(pname + "_" + chosen.get(k), chosen.get(k), k, chosen.size(), p, path,
                            k == 0));
                }
            } else {
                String host = problems.string(p, "host", path, true);
                if (host != null && !hosts.isEmpty() && !hostSet.contains(host)) {
                    problems.add(path + ".host", "no host is named \"" + host + "\"; the fabric's hosts are "
                            + abbreviate(hosts));
                }
                out.add(new Instance(pname, host, 0, 1, p, path, true));
            }
            if (out.size() > MAX_PROCESSES) {
                problems.add(path, "the scenario expands to more than " + MAX_PROCESSES + " processes");
                break;
            }
        }
        return out;
    }

    private static String abbreviate(List<String> names) {
        return names.size() <= 8 ? names.toString()
                : "[" + String.join(", ", names.subList(0, 4)) + ", ... " + names.get(names.size() - 1) + "] ("
                        + names.size() + " hosts)";
    }

    private List<String> templateHosts(JsonNode h, String path, List<String> hosts, Set<String> hostSet) {
        if (h.isTextual() && "*".equals(h.asText())) {
            return hosts;
        }
        List<String> chosen = new ArrayList<>();
        if (h.isObject()) {
            problems.unknownKeys(h, path, Set.of("all_except"));
            JsonNode except = h.get("all_except");
            if (except == null || !except.isArray()) {
                problems.add(path + ".all_except", "expected an array of host names, found " + show(except));
                return chosen;
            }
            Set<String> skip = new HashSet<>();
            for (JsonNode e : except) {
                skip.add(e.asText());
                if (!hostSet.contains(e.asText())) {
                    problems.add(path + ".all_except", "no host is named " + show(e));
                }
            }
            for (String x : hosts) {
                if (!skip.contains(x)) {
                    chosen.add(x);
                }
            }
            return chosen;
        }
        if (!h.isArray() || h.isEmpty()) {
            problems.add(path, "expected \"*\", {\"all_except\": [...]} or a non-empty array of host names, found "
                    + show(h));
            return chosen;
        }
        for (int i = 0; i < h.size(); i++) {
            String x = h.get(i).asText();
            if (!hostSet.contains(x)) {
                problems.add(path + "[" + i + "]", "no host is named " + show(h.get(i)));
            } else {
                chosen.add(x);
            }
        }
        return chosen;
    }
}
