package org.datsim.scenario.workload;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.datsim.core.time.SimTime;
import org.datsim.scenario.load.JsonInput;
import org.datsim.scenario.load.Problems;

/**
 * Reads a scenario's {@code workload} section. Generated flows:
 * <pre>
 * "workload": {"distribution": "WebSearch", "load": "30%", "duration": "1ms", "start": "0s",
 *              "pattern": "uniform", "operation": "rdma_write", "ideal_fct": true}
 * </pre>
 * {@code distribution} is one of {@link FlowSizeCdf#NAMES} or {@code {"cdf_file": "PATH"}} (HPCC's CDF format);
 * {@code load} a fraction in (0, 1] or a percentage string in (0%, 100%]; {@code pattern} is {@code "uniform"},
 * {@code "permutation"} or {@code {"incast": {"senders": N, "target": "HOST"}}}; {@code operation} is
 * {@code "rdma_write"} (default) or {@code "send"}. Imported flows: {@code "workload": {"hpcc_flows": "PATH"}} (with
 * {@code operation} and {@code ideal_fct} allowed), whose node numbers name hosts {@code h<number>}; relative paths
 * are taken from the scenario file's directory. Every problem is reported with the file and the JSON path (or, for
 * an imported file, its own file and line).
 */
public final class WorkloadReader {

    /** The longest duration of generated arrivals. */
    static final long MAX_DURATION_PS = 10L * 1_000_000_000_000L;

    private WorkloadReader() {
    }

    /**
     * Reads the section.
     *
     * @param n the {@code workload} node, or null
     * @param scenarioFile the scenario file (relative paths are resolved from its directory)
     * @param hosts the topology's host names, in host order
     * @param problems receives the problems
     * @return the workload, or null if absent or invalid
     */
    public static Workload read(JsonNode n, String scenarioFile, List<String> hosts, Problems problems) {
        if (n == null) {
            return null;
        }
        String at = "$.workload";
        if (!n.isObject()) {
            problems.add(at, "expected an object such as {\"distribution\": \"WebSearch\", \"load\": \"30%\","
                    + " \"duration\": \"1ms\"}, found " + show(n));
            return null;
        }
        int before = problems.count();
        boolean imported = n.has("hpcc_flows");
        problems.unknownKeys(n, at, imported ? Set.of("hpcc_flows", "operation", "ideal_fct")
                : Set.of("distribution", "load", "duration", "start", "pattern", "operation", "ideal_fct"));
        boolean send = false;
        String op = problems.string(n, "operation", at, false);
        if (op != null) {
            if (op.equals("send")) {
                send = true;
            } else if (!op.equals("rdma_write")) {
                problems.add(at + ".operation", "expected \"rdma_write\" or \"send\", found \"" + op + "\"");
            }
        }
        boolean ideal = true;
        JsonNode id = n.get("ideal_fct");
        if (id != null) {
            if (id.isBoolean()) {
                ideal = id.asBoolean();
            } else {
                problems.add(at + ".ideal_fct", "expected true or false, found " + show(id));
            }
        }
        Path base = Path.of(scenarioFile).toAbsolutePath().getParent();
        if (imported) {
            String f = problems.string(n, "hpcc_flows", at, true);
            if (f == null) {
                return null;
            }
            Path file = JsonInput.userPath(base, f);
            if (file == null) {
                problems.add(at + ".hpcc_flows", JsonInput.badPath(f));
                return null;
            }
            List<String> msgs = new ArrayList<>();
            String text = HpccFiles.read(file, msgs);
            List<Flow> flows = text == null ? null : HpccFiles.flows(f, text, hostNodes(hosts), msgs);
            for (String m : msgs) {
                problems.add(at + ".hpcc_flows", m);
            }
            return flows == null || problems.count() > before ? null
                    : new Workload(null, null, 0, 0, 0, -1, 0, send, flows, ideal);
        }
        FlowSizeCdf cdf = distribution(n.get("distribution"), at + ".distribution", base, problems);
        double load = load(n.get("load"), at + ".load", problems);
        long duration = duration(n.get("duration"), at + ".duration", true, problems);
        long start = n.has("start") ? duration(n.get("start"), at + ".start", false, problems) : 0;
        FlowGenerator.Pattern pattern = FlowGenerator.Pattern.UNIFORM;
        int target = -1;
        int senders = 0;
        JsonNode p = n.get("pattern");
        if (p != null && p.isTextual() && p.asText().equals("permutation")) {
            pattern = FlowGenerator.Pattern.PERMUTATION;
        } else if (p != null && p.isObject() && p.size() == 1 && p.has("incast")) {
            pattern = FlowGenerator.Pattern.INCAST;
            JsonNode in = p.get("incast");
            String pa = at + ".pattern.incast";
            if (!in.isObject()) {
                problems.add(pa, "expected {\"senders\": N, \"target\": \"HOST\"}, found " + show(in));
            } else {
                problems.unknownKeys(in, pa, Set.of("senders", "target"));
                String t = problems.string(in, "target", pa, true);
                if (t != null) {
                    target = hosts.indexOf(t);
                    if (target < 0) {
                        problems.add(pa + ".target", "no host named \"" + t + "\" in the topology");
                    }
                }
                JsonNode s = in.get("senders");
                if (s == null || !s.isIntegralNumber() || s.asLong() < 1 || s.asLong() > hosts.size() - 1) {
                    problems.add(pa + ".senders", "expected a whole number from 1 to " + (hosts.size() - 1)
                            + " (the other hosts), found " + show(s));
                } else {
                    senders = s.asInt();
                }
            }
        } else if (p != null && !(p.isTextual() && p.asText().equals("uniform"))) {
            problems.add(at + ".pattern", "expected \"uniform\", \"permutation\" or {\"incast\": {\"senders\": N,"
                    + " \"target\": \"HOST\"}}, found " + show(p));
        }
        if (hosts.size() < 2) {
            problems.add(at, "a workload needs at least two hosts");
        }
        if (problems.count() > before || cdf == null) {
            return null;
        }
        return new Workload(cdf, pattern, load, start, duration, target, senders, send, null, ideal);
    }

    private static FlowSizeCdf distribution(JsonNode d, String at, Path base, Problems problems) {
        if (d != null && d.isTextual()) {
            FlowSizeCdf cdf = FlowSizeCdf.named(d.asText());
            if (cdf == null) {
                problems.add(at, "unknown distribution \"" + d.asText() + "\"; expected one of " + FlowSizeCdf.NAMES
                        + " or {\"cdf_file\": \"PATH\"}");
            }
            return cdf;
        }
        if (d != null && d.isObject() && d.size() == 1 && d.get("cdf_file") != null && d.get("cdf_file").isTextual()) {
            String f = d.get("cdf_file").asText();
            Path file = JsonInput.userPath(base, f);
            if (file == null) {
                problems.add(at + ".cdf_file", JsonInput.badPath(f));
                return null;
            }
            List<String> msgs = new ArrayList<>();
            String text = HpccFiles.read(file, msgs);
            FlowSizeCdf cdf = text == null ? null : FlowSizeCdf.parse(f, text, msgs);
            for (String m : msgs) {
                problems.add(at + ".cdf_file", m);
            }
            return cdf;
        }
        problems.add(at, (d == null ? "missing; expected" : "expected") + " one of " + FlowSizeCdf.NAMES
                + " or {\"cdf_file\": \"PATH\"}" + (d == null ? "" : ", found " + show(d)));
        return null;
    }

    private static double load(JsonNode l, String at, Problems problems) {
        double v = Double.NaN;
        if (l != null && l.isNumber()) {
            v = l.asDouble();
        } else if (l != null && l.isTextual() && l.asText().endsWith("%")) {
            try {
                v = Double.parseDouble(l.asText().substring(0, l.asText().length() - 1)) / 100;
            } catch (NumberFormatException e) {
                v = Double.NaN;
            }
        }
        if (!(v > 0 && v <= 1)) {
            problems.add(at, (l == null ? "missing; expected" : "expected") + " the offered load of each host's link,"
                    + " more than 0 and at most 100%: a fraction such as 0.3 or a string such as \"30%\""
                    + (l == null ? "" : ", found " + show(l)));
            return Double.NaN;
        }
        return v;
    }

    private static long duration(JsonNode d, String at, boolean positive, Problems problems) {
        String found = d == null ? "nothing" : show(d);
        if (d != null && d.isTextual()) {
            try {
                long ps = SimTime.parse(d.asText());
                if ((positive ? ps > 0 : ps >= 0) && ps <= MAX_DURATION_PS) {
                    return ps;
                }
            } catch (IllegalArgumentException e) {
                // reported below
            }
        }
        problems.add(at, (d == null ? "missing; expected" : "expected") + " a time such as \"1ms\", "
                + (positive ? "more than 0" : "0 or more") + " and at most 10s" + (d == null ? "" : ", found " + found));
        return -1;
    }

    /** The node number of each host named {@code h<number>}, in host order; -1 for other names. */
    static int[] hostNodes(List<String> hosts) {
        int[] out = new int[hosts.size()];
        for (int i = 0; i < out.length; i++) {
            String h = hosts.get(i);
            out[i] = h.matches("h[0-9]{1,9}") ? Integer.parseInt(h.substring(1)) : -1;
        }
        return out;
    }
}
