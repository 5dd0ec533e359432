package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.core.param.ParamSpec;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;

/**
 * Reads {@code "fabric"}: its hosts, switches and links (listed, generated from a prefix and a count, a star, or a
 * generated {@code "topology"}), its preset and parameters, per-host parameters, and builds the topology.
 */
final class FabricReader {

    /** The largest number of hosts a {"prefix", "count"} generator makes. */
    static final int MAX_GENERATED_HOSTS = 65536;

    /** A topology problem about one link: "links[3]: message". */
    private static final Pattern LINK_PROBLEM = Pattern.compile("(links\\[\\d+\\]): (.*)");

    /**
     * What the fabric section says.
     *
     * @param hosts the hosts' names, in order (empty if they could not be read)
     * @param topology the topology, or null if there were problems
     * @param params the fabric's parameters
     * @param hostParams the parameters of the hosts that override them, by host name in file order
     */
    record Fabric(List<String> hosts, Topology topology, Params params, Map<String, Params> hostParams) {
    }

    private final Problems problems;
    private final QuantityChecker quantities;
    /** Problems of link attributes (bandwidth, latency): such a link is still kept, so the shape can be checked. */
    private int attributeProblems;
    /** Whether the fabric is the hpcc-ns3 comparison preset (HPCC's 1000-byte payload allowed). */
    private boolean hpccNs3;

    FabricReader(Problems problems, QuantityChecker quantities) {
        this.problems = problems;
        this.quantities = quantities;
    }

    /**
     * Reads the fabric.
     *
     * @param fabric the {@code fabric} node, or null if absent
     * @return what it says; the defaults and no topology if it cannot be read
     */
    Fabric read(JsonNode fabric) {
        Topology topology = null;
        Params params = Params.defaults(FabricParams.ALL);
        Map<String, Params> hostParams = new LinkedHashMap<>();
        List<String> hosts = new ArrayList<>();
        if (fabric == null) {
            problems.add("$.fabric", "missing; expected {\"hosts\": [...], \"links\": [...]}");
        } else if (!fabric.isObject()) {
            problems.add("$.fabric", "expected an object, found " + show(fabric));
        } else {
            int before = problems.count();
            problems.unknownKeys(fabric, "$.fabric", Set.of("hosts", "switches", "links", "params", "host_params",
                    "topology", "preset"));
            List<String> switches;
            List<LinkSpec> links;
            if (fabric.has("topology")) {
                TopologyBuilder gen = TopologyReader.read(fabric.get("topology"), "$.fabric.topology", problems::add,
                        problems.file());
                for (String k : List.of("hosts", "switches", "links")) {
                    if (fabric.has(k)) {
                        problems.add("$.fabric." + k, "not allowed with $.fabric.topology, which makes the hosts,"
                                + " switches and links");
                    }
                }
                hosts = gen != null ? new ArrayList<>(gen.hosts()) : new ArrayList<>();
                switches = gen != null ? gen.switches() : List.of();
                links = gen != null ? gen.links() : List.of();
            } else {
                hosts = hostNames(fabric.get("hosts"));
                switches = names(fabric.get("switches"), "$.fabric.switches", false);
                links = links(fabric.get("links"), hosts);
            }
            // The shape is checked as soon as its names and links read, whatever the problems of the parameters and
            // of link attributes (a wrong preset or bandwidth must not hide a missing node; such a link is kept with
            // the default): not when a name or a link could not be read, which would make it wrong.
            List<String> topo = new ArrayList<>();
            Topology built = problems.count() - attributeProblems == before
                    ? Topology.build(hosts, switches, links, topo) : null;
            for (String p : topo) {
                Matcher m = LINK_PROBLEM.matcher(p);
                if (m.matches()) {
                    problems.add("$.fabric." + m.group(1), m.group(2));
                } else {
                    problems.add("$.fabric", p);
                }
            }
            // The preset replaces the catalogue defaults; params, host_params and link attributes override it.
            params = params(fabric.get("params"), preset(fabric.get("preset"), params), "$.fabric.params");
            for (String p : FabricParams.crossCheck(params)) {
                problems.add("$.fabric.params", p);
            }
            hostParams = hostParams(fabric.get("host_params"), params, hosts);
            hostParams.forEach((h, hp) -> FabricParams.crossCheck(hp)
                    .forEach(p -> problems.add("$.fabric.host_params." + h, p)));
            powersOfTwo(params, "$.fabric.params");
            hostParams.forEach((h, hp) -> powersOfTwo(hp, "$.fabric.host_params." + h));
            if (problems.count() == before) {
                topology = built;
            }
        }
        return new Fabric(hosts, topology, params, hostParams);
    }

    private List<String> names(JsonNode n, String path, boolean required) {
        List<String> out = new ArrayList<>();
        if (n == null) {
            if (required) {
                problems.add(path, "missing; expected an array of names such as [\"A\", \"B\"]");
            }
            return out;
        }
        if (!n.isArray() || (required && n.isEmpty())) {
            problems.add(path, "expected " + (required ? "a non-empty" : "an") + " array of names, found " + show(n));
            return out;
        }
        for (int i = 0; i < n.size(); i++) {
            JsonNode e = n.get(i);
            if (!e.isTextual() || !Refs.isName(e.asText())) {
                problems.add(path + "[" + i + "]", "expected a name of letters, digits and _, found " + show(e));
            } else {
                out.add(e.asText());
            }
        }
        return out;
    }

    private List<String> hostNames(JsonNode n) {
        if (n != null && n.isObject()) {
            problems.unknownKeys(n, "$.fabric.hosts", Set.of("prefix", "count"));
            String prefix = problems.string(n, "prefix", "$.fabric.hosts", true);
            JsonNode count = n.get("count");
            if (count == null || !count.isIntegralNumber() || count.asLong() < 1
                    || count.asLong() > MAX_GENERATED_HOSTS) {
                problems.add("$.fabric.hosts.count", "expected a number of hosts from 1 to " + MAX_GENERATED_HOSTS
                        + ", found " + show(count));
                return new ArrayList<>();
            }
            if (prefix == null || !Refs.isName(prefix)) {
                if (prefix != null) {
                    problems.add("$.fabric.hosts.prefix", "expected a name of letters, digits and _, found \""
                            + prefix + "\"");
                }
                return new ArrayList<>();
            }
            List<String> out = new ArrayList<>();
            for (int i = 0; i < count.asInt(); i++) {
                out.add(prefix + i);
            }
            return out;
        }
        return names(n, "$.fabric.hosts", true);
    }

    private List<LinkSpec> links(JsonNode n, List<String> hosts) {
        if (n != null && n.isObject()) {
            problems.unknownKeys(n, "$.fabric.links", Set.of("star"));
            String center = problems.string(n, "star", "$.fabric.links", true);
            List<LinkSpec> out = new ArrayList<>();
            if (center != null) {
                for (String h : hosts) {
                    out.add(new LinkSpec(h, center, 0, -1));
                }
            }
            return out;
        }
        return links(n);
    }

    private List<LinkSpec> links(JsonNode n) {
        List<LinkSpec> out = new ArrayList<>();
        if (n == null) {
            problems.add("$.fabric.links", "missing; expected an array of links such as [{\"a\": \"A\", \"b\":"
                    + " \"B\"}]");
            return out;
        }
        if (!n.isArray()) {
            problems.add("$.fabric.links", "expected an array of links, found " + show(n));
            return out;
        }
        for (int i = 0; i < n.size(); i++) {
            String path = "$.fabric.links[" + i + "]";
            JsonNode l = n.get(i);
            if (!l.isObject()) {
                problems.add(path, "expected {\"a\": ..., \"b\": ...}, found " + show(l));
                continue;
            }
            problems.unknownKeys(l, path, Set.of("a", "b", "bandwidth", "latency"));
            String a = problems.string(l, "a", path, true);
            String b = problems.string(l, "b", path, true);
            long bw = 0;
            long lat = -1;
            if (l.has("bandwidth")) {
                try {
                    bw = DataRate.parse(l.get("bandwidth").asText()).bitsPerSecond();
                } catch (IllegalArgumentException e) {
                    problems.add(path + ".bandwidth", e.getMessage());
                    attributeProblems++;
                }
            }
            if (l.has("latency")) {
                Long t = quantities.duration(l.get("latency"), path + ".latency");
                lat = t != null ? t : -1;
                attributeProblems += t == null ? 1 : 0;
            }
            if (a != null && b != null) {
                out.add(new LinkSpec(a, b, bw, lat));
            }
        }
        return out;
    }

    /** Applies {@code fabric.preset}: its values replace the catalogue defaults. */
    private Params preset(JsonNode n, Params defaults) {
        if (n == null) {
            return defaults;
        }
        FabricPresets.Preset preset = n.isTextual() ? FabricPresets.get(n.asText()) : null;
        hpccNs3 = preset != null && "hpcc-ns3".equals(preset.name());
        if (preset == null) {
            problems.add("$.fabric.preset", "expected one of " + FabricPresets.names() + ", found " + show(n));
            return defaults;
        }
        return preset.params();
    }

    /**
     * The MTU (an InfiniBand MTU: 256, 512, 1024, 2048 or 4096 bytes) and the MTT page size are powers of two; the
     * hpcc-ns3 comparison preset alone has HPCC's 1000-byte payload (any MTU from 256 bytes, for comparison with its
     * simulator).
     */
    private void powersOfTwo(Params p, String at) {
        for (ParamSpec spec : List.of(FabricParams.HCA_MTU, FabricParams.HCA_MTT_PAGE)) {
            long v = p.get(spec);
            if (spec == FabricParams.HCA_MTU && hpccNs3 && v >= 256) {
                continue;
            }
            if (Long.bitCount(v) != 1) {
                problems.add(at + "." + spec.name(), "expected a power of two" + (spec == FabricParams.HCA_MTU
                        ? " (256B, 512B, 1KiB, 2KiB or 4KiB)" : "") + ", found " + v + " bytes");
            }
        }
    }

    private Map<String, Params> hostParams(JsonNode n, Params fabricParams, List<String> hosts) {
        Map<String, Params> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isObject()) {
            problems.add("$.fabric.host_params", "expected an object {\"HOST\": {\"param\": value}}, found "
                    + show(n));
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.fabric.host_params." + e.getKey();
            if (!hosts.contains(e.getKey())) {
                problems.add(path, "no host is named \"" + e.getKey() + "\"; the fabric's hosts are " + hosts);
                continue;
            }
            out.put(e.getKey(), params(e.getValue(), fabricParams, path));
        }
        return out;
    }

    private Params params(JsonNode n, Params defaults, String at) {
        if (n == null) {
            return defaults;
        }
        if (!n.isObject()) {
            problems.add(at, "expected an object of parameter names and values, found " + show(n));
            return defaults;
        }
        Map<String, String> overrides = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            JsonNode v = e.getValue();
            if (v.isTextual() || v.isIntegralNumber() || v.isBoolean()) {
                overrides.put(e.getKey(), v.asText());
            } else {
                problems.add(at + "." + e.getKey(), "expected a string such as \"100Gbps\" or a number, found "
                        + show(v));
            }
        }
        List<String> msgs = new ArrayList<>();
        Params p = defaults.with(overrides, msgs);
        for (String m : msgs) {
            int colon = m.indexOf(": ");
            problems.add(at + "." + m.substring(0, colon), m.substring(colon + 2));
        }
        return p;
    }
}
