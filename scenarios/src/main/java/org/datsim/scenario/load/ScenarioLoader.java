package org.datsim.scenario.load;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.datsim.core.param.ParamSpec;
import org.datsim.core.param.Params;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.DataRate;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;

/**
 * Reads and validates a scenario file completely before anything runs. Every problem is collected, each message
 * naming the file and either the line and column (for JSON that does not parse) or the JSON path (for everything
 * else), what was expected and what was found. Jackson reads the file as a plain tree: no polymorphic or default
 * typing, duplicate keys rejected, and a size bound on the file.
 */
public final class ScenarioLoader {

    /** The largest scenario file accepted, in bytes. */
    public static final long MAX_FILE_BYTES = 16L << 20;
    /** The default bound on executed events. */
    public static final long DEFAULT_MAX_EVENTS = 200_000_000L;

    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private final String file;
    private final List<String> problems = new ArrayList<>();
    /** What validation parsed of the calls' operands, kept so that no call parses them again when it runs. */
    private final Operands.Builder operands = new Operands.Builder();

    private ScenarioLoader(String file) {
        this.file = file;
    }

    /**
     * Loads a scenario file.
     *
     * @param path the file
     * @return the validated scenario
     * @throws ScenarioException with one message per problem
     */
    public static Scenario load(Path path) throws ScenarioException {
        String file = path.toString();
        byte[] bytes;
        try {
            if (Files.isDirectory(path)) {
                throw new ScenarioException(List.of(file + ": is a directory, expected a scenario JSON file"));
            }
            if (Files.size(path) > MAX_FILE_BYTES) {
                throw new ScenarioException(List.of(file + ": the file is " + Files.size(path)
                        + " bytes; scenario files are limited to " + MAX_FILE_BYTES + " bytes"));
            }
            bytes = Files.readAllBytes(path);
        } catch (NoSuchFileException e) {
            throw new ScenarioException(List.of(file + ": no such file"));
        } catch (IOException e) {
            throw new ScenarioException(List.of(file + ": cannot be read: " + e.getMessage()));
        }
        return parse(file, new String(bytes, StandardCharsets.UTF_8));
    }

    /**
     * Validates scenario text.
     *
     * @param file the name to use in messages
     * @param json the scenario's JSON text
     * @return the validated scenario
     * @throws ScenarioException with one message per problem
     */
    public static Scenario parse(String file, String json) throws ScenarioException {
        JsonNode root;
        try {
            root = MAPPER.readTree(json);
        } catch (JsonProcessingException e) {
            JsonLocation loc = e.getLocation();
            String where = loc != null ? ":" + loc.getLineNr() + ":" + loc.getColumnNr() : "";
            throw new ScenarioException(List.of(file + where + ": invalid JSON: " + e.getOriginalMessage()));
        }
        if (root == null || root.isMissingNode()) {
            throw new ScenarioException(List.of(file + ": the file is empty, expected a scenario JSON object"));
        }
        ScenarioLoader loader = new ScenarioLoader(file);
        Scenario s = loader.validate(root);
        if (!loader.problems.isEmpty()) {
            throw new ScenarioException(loader.problems);
        }
        return s;
    }

    private void problem(String path, String message) {
        problems.add(file + ": " + path + ": " + message);
    }

    private static String show(JsonNode n) {
        String s = n == null ? "nothing" : n.toString();
        return s.length() > 60 ? s.substring(0, 57) + "..." : s;
    }

    private void unknownKeys(JsonNode obj, String path, Set<String> allowed) {
        Iterator<String> it = obj.fieldNames();
        while (it.hasNext()) {
            String k = it.next();
            if (!allowed.contains(k)) {
                problem(path + "." + k, "unknown field; expected one of " + new java.util.TreeSet<>(allowed));
            }
        }
    }

    private String string(JsonNode obj, String key, String path, boolean required) {
        JsonNode n = obj.get(key);
        if (n == null) {
            if (required) {
                problem(path + "." + key, "missing; expected a string");
            }
            return null;
        }
        if (!n.isTextual()) {
            problem(path + "." + key, "expected a string, found " + show(n));
            return null;
        }
        return n.asText();
    }

    private Scenario validate(JsonNode root) {
        if (!root.isObject()) {
            problem("$", "expected a scenario object, found " + show(root));
            return null;
        }
        unknownKeys(root, "$", Set.of("scenario", "description", "seed", "vars", "fabric", "processes", "limits",
                "$schema"));
        vars = vars(root.get("vars"));
        String name = string(root, "scenario", "$", true);
        String description = string(root, "description", "$", false);
        long seed = 1;
        JsonNode seedNode = root.get("seed");
        if (seedNode != null) {
            if (seedNode.isIntegralNumber() && seedNode.canConvertToLong()) {
                seed = seedNode.asLong();
            } else {
                problem("$.seed", "expected a whole number, found " + show(seedNode));
            }
        }
        long maxEvents = DEFAULT_MAX_EVENTS;
        long maxTime = Long.MAX_VALUE;
        JsonNode limits = root.get("limits");
        if (limits != null) {
            if (!limits.isObject()) {
                problem("$.limits", "expected an object {\"max_events\": ..., \"max_time\": ...}, found "
                        + show(limits));
            } else {
                unknownKeys(limits, "$.limits", Set.of("max_events", "max_time"));
                JsonNode me = limits.get("max_events");
                if (me != null) {
                    if (me.isIntegralNumber() && me.asLong() > 0) {
                        maxEvents = me.asLong();
                    } else {
                        problem("$.limits.max_events", "expected a positive whole number, found " + show(me));
                    }
                }
                JsonNode mt = limits.get("max_time");
                if (mt != null) {
                    Long t = duration(mt, "$.limits.max_time");
                    if (t != null) {
                        maxTime = t;
                    }
                }
            }
        }
        JsonNode fabric = root.get("fabric");
        Topology topology = null;
        Params params = Params.defaults(FabricParams.ALL);
        Map<String, Params> hostParams = new LinkedHashMap<>();
        List<String> hosts = new ArrayList<>();
        if (fabric == null) {
            problem("$.fabric", "missing; expected {\"hosts\": [...], \"links\": [...]}");
        } else if (!fabric.isObject()) {
            problem("$.fabric", "expected an object, found " + show(fabric));
        } else {
            int before = problems.size();
            unknownKeys(fabric, "$.fabric", Set.of("hosts", "switches", "links", "params", "host_params",
                    "topology", "preset"));
            List<String> switches;
            List<LinkSpec> links;
            if (fabric.has("topology")) {
                TopologyBuilder gen = TopologyReader.read(fabric.get("topology"), "$.fabric.topology", this::problem);
                for (String k : List.of("hosts", "switches", "links")) {
                    if (fabric.has(k)) {
                        problem("$.fabric." + k, "not allowed with $.fabric.topology, which makes the hosts,"
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
            // The preset replaces the catalogue defaults; params, host_params and link attributes override it.
            params = params(fabric.get("params"), preset(fabric.get("preset"), params), "$.fabric.params");
            for (String p : FabricParams.crossCheck(params)) {
                problem("$.fabric.params", p);
            }
            hostParams = hostParams(fabric.get("host_params"), params, hosts);
            hostParams.forEach((h, hp) -> FabricParams.crossCheck(hp)
                    .forEach(p -> problem("$.fabric.host_params." + h, p)));
            powersOfTwo(params, "$.fabric.params");
            hostParams.forEach((h, hp) -> powersOfTwo(hp, "$.fabric.host_params." + h));
            if (problems.size() == before) {
                List<String> topo = new ArrayList<>();
                topology = Topology.build(hosts, switches, links, topo);
                for (String p : topo) {
                    java.util.regex.Matcher m = LINK_PROBLEM.matcher(p);
                    if (m.matches()) {
                        problem("$.fabric." + m.group(1), m.group(2));
                    } else {
                        problem("$.fabric", p);
                    }
                }
            }
        }
        List<ProcessDef> processes = processes(root.get("processes"), hosts);
        return new Scenario(file, name, description == null ? "" : description, seed, topology, params, hostParams,
                processes,
                maxEvents, maxTime, vars, operands.build());
    }

    /** The scenario's variables ({@code "vars"}), by name in file order; empty until read. */
    private Map<String, Long> vars = Map.of();

    /** The most variables a scenario may declare. */
    static final int MAX_VARS = 1024;

    private Map<String, Long> vars(JsonNode n) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isObject()) {
            problem("$.vars", "expected an object of variable names and whole numbers or sizes, such as"
                    + " {\"size\": \"4KiB\"}, found " + show(n));
            return out;
        }
        if (n.size() > MAX_VARS) {
            problem("$.vars", "expected at most " + MAX_VARS + " variables, found " + n.size());
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.vars." + e.getKey();
            if (!Refs.isName(e.getKey())) {
                problem(path, "expected a variable name of letters, digits and _");
                continue;
            }
            if ("index".equals(e.getKey()) || "count".equals(e.getKey())) {
                problem(path, "\"" + e.getKey() + "\" is reserved for the process's $index and $count");
                continue;
            }
            JsonNode v = e.getValue();
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                out.put(e.getKey(), v.asLong());
            } else if (v.isTextual()) {
                try {
                    out.put(e.getKey(), ByteSize.parse(v.asText()));
                } catch (IllegalArgumentException ex) {
                    problem(path, "expected a whole number or a size such as \"4KiB\", found " + show(v));
                }
            } else {
                problem(path, "expected a whole number or a size such as \"4KiB\", found " + show(v));
            }
        }
        return out;
    }

    private List<String> names(JsonNode n, String path, boolean required) {
        List<String> out = new ArrayList<>();
        if (n == null) {
            if (required) {
                problem(path, "missing; expected an array of names such as [\"A\", \"B\"]");
            }
            return out;
        }
        if (!n.isArray() || (required && n.isEmpty())) {
            problem(path, "expected " + (required ? "a non-empty" : "an") + " array of names, found " + show(n));
            return out;
        }
        for (int i = 0; i < n.size(); i++) {
            JsonNode e = n.get(i);
            if (!e.isTextual() || !Refs.isName(e.asText())) {
                problem(path + "[" + i + "]", "expected a name of letters, digits and _, found " + show(e));
            } else {
                out.add(e.asText());
            }
        }
        return out;
    }

    /** A topology problem about one link: "links[3]: message". */
    private static final java.util.regex.Pattern LINK_PROBLEM = java.util.regex.Pattern.compile(
            "(links\\[\\d+\\]): (.*)");

    /** The largest number of hosts a {"prefix", "count"} generator makes. */
    static final int MAX_GENERATED_HOSTS = 65536;

    private List<String> hostNames(JsonNode n) {
        if (n != null && n.isObject()) {
            unknownKeys(n, "$.fabric.hosts", Set.of("prefix", "count"));
            String prefix = string(n, "prefix", "$.fabric.hosts", true);
            JsonNode count = n.get("count");
            if (count == null || !count.isIntegralNumber() || count.asLong() < 1
                    || count.asLong() > MAX_GENERATED_HOSTS) {
                problem("$.fabric.hosts.count", "expected a number of hosts from 1 to " + MAX_GENERATED_HOSTS
                        + ", found " + show(count));
                return new ArrayList<>();
            }
            if (prefix == null || !Refs.isName(prefix)) {
                if (prefix != null) {
                    problem("$.fabric.hosts.prefix", "expected a name of letters, digits and _, found \"" + prefix
                            + "\"");
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
            unknownKeys(n, "$.fabric.links", Set.of("star"));
            String center = string(n, "star", "$.fabric.links", true);
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
            problem("$.fabric.links", "missing; expected an array of links such as [{\"a\": \"A\", \"b\": \"B\"}]");
            return out;
        }
        if (!n.isArray()) {
            problem("$.fabric.links", "expected an array of links, found " + show(n));
            return out;
        }
        for (int i = 0; i < n.size(); i++) {
            String path = "$.fabric.links[" + i + "]";
            JsonNode l = n.get(i);
            if (!l.isObject()) {
                problem(path, "expected {\"a\": ..., \"b\": ...}, found " + show(l));
                continue;
            }
            unknownKeys(l, path, Set.of("a", "b", "bandwidth", "latency"));
            String a = string(l, "a", path, true);
            String b = string(l, "b", path, true);
            long bw = 0;
            long lat = -1;
            if (l.has("bandwidth")) {
                try {
                    bw = DataRate.parse(l.get("bandwidth").asText()).bitsPerSecond();
                } catch (IllegalArgumentException e) {
                    problem(path + ".bandwidth", e.getMessage());
                }
            }
            if (l.has("latency")) {
                Long t = duration(l.get("latency"), path + ".latency");
                lat = t != null ? t : -1;
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
        if (preset == null) {
            problem("$.fabric.preset", "expected one of " + FabricPresets.names() + ", found " + show(n));
            return defaults;
        }
        return preset.params();
    }

    /** The MTU (an InfiniBand MTU: 256, 512, 1024, 2048 or 4096 bytes) and the MTT page size are powers of two. */
    private void powersOfTwo(Params p, String at) {
        for (ParamSpec spec : List.of(FabricParams.HCA_MTU, FabricParams.HCA_MTT_PAGE)) {
            long v = p.get(spec);
            if (Long.bitCount(v) != 1) {
                problem(at + "." + spec.name(), "expected a power of two" + (spec == FabricParams.HCA_MTU
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
            problem("$.fabric.host_params", "expected an object {\"HOST\": {\"param\": value}}, found " + show(n));
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.fabric.host_params." + e.getKey();
            if (!hosts.contains(e.getKey())) {
                problem(path, "no host is named \"" + e.getKey() + "\"; the fabric's hosts are " + hosts);
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
            problem(at, "expected an object of parameter names and values, found " + show(n));
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
                problem(at + "." + e.getKey(), "expected a string such as \"100Gbps\" or a number, found "
                        + show(v));
            }
        }
        List<String> msgs = new ArrayList<>();
        Params p = defaults.with(overrides, msgs);
        for (String m : msgs) {
            int colon = m.indexOf(": ");
            problem(at + "." + m.substring(0, colon), m.substring(colon + 2));
        }
        return p;
    }

    /** The longest duration a scenario may name: a million seconds, far from the 2^63 ps the clock can count. */
    static final long MAX_DURATION_PS = 1_000_000L * SimTime.S;

    private Long duration(JsonNode n, String path) {
        if (!n.isTextual()) {
            problem(path, "expected a time such as \"250ns\" or \"1.5us\", found " + show(n));
            return null;
        }
        try {
            long t = SimTime.parse(n.asText());
            if (t > MAX_DURATION_PS) {
                problem(path, "expected a time of at most 1000000s, found \"" + n.asText() + "\"");
                return null;
            }
            operands.duration(n.asText(), t);
            return t;
        } catch (IllegalArgumentException e) {
            problem(path, e.getMessage());
            return null;
        }
    }

    // ------------------------------------------------------------------ processes and calls

    /** One process to be: a hand-written process, or one host's instance of a template. */
    private record Instance(String name, String host, int index, int count, JsonNode node, String path,
            boolean first) {
    }

    /** The largest number of processes a scenario may have after templates are expanded. */
    static final int MAX_PROCESSES = 1 << 20;

    private List<Instance> instances(JsonNode n, List<String> hosts) {
        List<Instance> out = new ArrayList<>();
        Set<String> hostSet = new java.util.HashSet<>(hosts); // membership only: up to 65,536 hosts
        for (int i = 0; i < n.size(); i++) {
            String path = "$.processes[" + i + "]";
            JsonNode p = n.get(i);
            if (!p.isObject()) {
                problem(path, "expected {\"name\": ..., \"host\": ..., \"calls\": [...]}, found " + show(p));
                continue;
            }
            unknownKeys(p, path, Set.of("name", "host", "hosts", "start", "calls", "description"));
            String pname = string(p, "name", path, true);
            if (pname != null && !Refs.isName(pname)) {
                problem(path + ".name", "expected a name of letters, digits and _, found \"" + pname + "\"");
            }
            if (pname == null) {
                pname = "#" + i;
            }
            if (p.has("hosts")) {
                if (p.has("host")) {
                    problem(path, "give either \"host\" (one process) or \"hosts\" (a template), not both");
                }
                List<String> chosen = templateHosts(p.get("hosts"), path + ".hosts", hosts, hostSet);
                for (int k = 0; k < chosen.size(); k++) {
                    out.add(new Instance(pname + "_" + chosen.get(k), chosen.get(k), k, chosen.size(), p, path,
                            k == 0));
                }
            } else {
                String host = string(p, "host", path, true);
                if (host != null && !hosts.isEmpty() && !hostSet.contains(host)) {
                    problem(path + ".host", "no host is named \"" + host + "\"; the fabric's hosts are "
                            + abbreviate(hosts));
                }
                out.add(new Instance(pname, host, 0, 1, p, path, true));
            }
            if (out.size() > MAX_PROCESSES) {
                problem(path, "the scenario expands to more than " + MAX_PROCESSES + " processes");
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
            unknownKeys(h, path, Set.of("all_except"));
            JsonNode except = h.get("all_except");
            if (except == null || !except.isArray()) {
                problem(path + ".all_except", "expected an array of host names, found " + show(except));
                return chosen;
            }
            Set<String> skip = new java.util.HashSet<>();
            for (JsonNode e : except) {
                skip.add(e.asText());
                if (!hostSet.contains(e.asText())) {
                    problem(path + ".all_except", "no host is named " + show(e));
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
            problem(path, "expected \"*\", {\"all_except\": [...]} or a non-empty array of host names, found "
                    + show(h));
            return chosen;
        }
        for (int i = 0; i < h.size(); i++) {
            String x = h.get(i).asText();
            if (!hostSet.contains(x)) {
                problem(path + "[" + i + "]", "no host is named " + show(h.get(i)));
            } else {
                chosen.add(x);
            }
        }
        return chosen;
    }

    private List<ProcessDef> processes(JsonNode n, List<String> hosts) {
        List<ProcessDef> out = new ArrayList<>();
        if (n == null) {
            problem("$.processes", "missing; expected an array of processes such as [{\"name\": \"a\", \"host\":"
                    + " \"A\", \"calls\": [...]}]");
            return out;
        }
        if (!n.isArray()) {
            problem("$.processes", "expected an array of processes, found " + show(n));
            return out;
        }
        List<Instance> all = instances(n, hosts);
        // First pass: names and what each process binds, so references can be checked in any order.
        Map<String, Map<String, String>> bound = new LinkedHashMap<>();
        for (Instance p : all) {
            Map<String, String> outs = new LinkedHashMap<>();
            collectOuts(p.node().get("calls"), outs);
            if (bound.containsKey(p.name())) {
                problem(p.path() + ".name", "process name \"" + p.name() + "\" is used twice");
                bound.get(p.name()).putAll(outs);
            } else {
                bound.put(p.name(), outs);
            }
        }
        List<Step> shared = null;
        long start = 0;
        for (Instance p : all) {
            if (p.first()) {
                // A template's start is validated once, for its first instance; every instance starts then.
                Long t = p.node().has("start") ? duration(p.node().get("start"), p.path() + ".start") : null;
                start = t != null ? t : 0;
                // A template's calls are validated once, for its first instance; every instance shares them.
                JsonNode calls = p.node().get("calls");
                shared = new ArrayList<>();
                if (calls == null || !calls.isArray()) {
                    problem(p.path() + ".calls", "expected an array of calls, found " + show(calls));
                } else {
                    java.util.ArrayDeque<String> scope = new java.util.ArrayDeque<>();
                    for (String v : vars.keySet()) {
                        scope.push(v);
                    }
                    scope.push("count");
                    scope.push("index");
                    steps(calls, p.path() + ".calls", p.name(), bound, shared, scope);
                }
                shared = List.copyOf(shared);
            }
            out.add(new ProcessDef(p.name(), p.host(), start, shared, p.index(), p.count()));
        }
        return out;
    }

    private static void collectOuts(JsonNode calls, Map<String, String> outs) {
        if (calls == null || !calls.isArray()) {
            return;
        }
        for (JsonNode c : calls) {
            if (c.has("repeat")) {
                collectOuts(c.get("calls"), outs);
                continue;
            }
            JsonNode call = c.get("call");
            JsonNode o = c.get("out");
            if (call != null && call.isTextual() && o != null && o.isTextual()) {
                CallSpec spec = CallCatalog.get(call.asText());
                if (spec != null && spec.outKind() != null) {
                    outs.put(o.asText(), spec.outKind());
                }
            }
        }
    }

    /** Validates a list of calls (and repeat blocks) into flat steps, appended to {@code steps}. */
    private void steps(JsonNode calls, String path, String process, Map<String, Map<String, String>> bound,
            List<Step> steps, java.util.Deque<String> loopVars) {
        for (int c = 0; c < calls.size(); c++) {
            JsonNode n = calls.get(c);
            String p = path + "[" + c + "]";
            if (n.isObject() && n.has("repeat")) {
                unknownKeys(n, p, Set.of("repeat", "as", "calls", "comment"));
                JsonNode count = n.get("repeat");
                numeric(count, p + ".repeat", process, bound, loopVars, false);
                String var = null;
                if (n.has("as")) {
                    JsonNode as = n.get("as");
                    if (!as.isTextual() || !Refs.isName(as.asText())) {
                        problem(p + ".as", "expected a loop variable name of letters, digits and _, found " + show(as));
                    } else if (bound.get(process).containsKey(as.asText()) || loopVars.contains(as.asText())) {
                        problem(p + ".as", "\"" + as.asText() + "\" is already a name in this process; choose"
                                + " another loop variable");
                    } else {
                        var = as.asText();
                    }
                }
                JsonNode body = n.get("calls");
                if (body == null || !body.isArray()) {
                    problem(p + ".calls", "expected the array of calls to repeat, found " + show(body));
                    continue;
                }
                int begin = steps.size();
                steps.add(null);
                if (var != null) {
                    loopVars.push(var);
                }
                steps(body, p + ".calls", process, bound, steps, loopVars);
                if (var != null) {
                    loopVars.pop();
                }
                int end = steps.size();
                steps.set(begin, new Step(begin, p, CallCatalog.REPEAT, (ObjectNode) n, Step.REPEAT_BEGIN, var, end));
                steps.add(new Step(end, p, CallCatalog.REPEAT, (ObjectNode) n, Step.REPEAT_END, var, begin));
                continue;
            }
            Step s = step(n, p, steps.size(), process, bound, loopVars);
            if (s != null) {
                steps.add(s);
            }
        }
    }

    /**
     * Checks a whole-number value: a number, a size (when allowed), a reference, or an expression whose references
     * are all known.
     */
    private void numeric(JsonNode v, String path, String process, Map<String, Map<String, String>> bound,
            java.util.Collection<String> loopVars, boolean sizes) {
        if (v.isIntegralNumber()) {
            return;
        }
        if (v.isTextual() && Expr.isExpr(v.asText())) {
            try {
                Expr e = Expr.parse(v.asText());
                operands.expr(v.asText(), e);
                for (String r : e.refs()) {
                    ref(r, path, process, bound, loopVars);
                }
            } catch (IllegalArgumentException e) {
                problem(path, e.getMessage());
            }
            return;
        }
        if (v.isTextual() && v.asText().startsWith("$")) {
            ref(v.asText(), path, process, bound, loopVars);
            return;
        }
        if (sizes) {
            size(v, path);
        } else {
            problem(path, "expected " + ArgType.INT.expected() + ", found " + show(v));
        }
    }

    private Step step(JsonNode c, String path, int index, String process, Map<String, Map<String, String>> bound,
            java.util.Collection<String> loopVars) {
        if (!c.isObject()) {
            problem(path, "expected a call object such as {\"call\": \"dat_ia_open\", \"out\": \"ia\"}, found "
                    + show(c));
            return null;
        }
        JsonNode callNode = c.get("call");
        if (callNode == null || !callNode.isTextual()) {
            problem(path + ".call", "expected the name of a call such as \"dat_ep_post_send\", found "
                    + show(callNode));
            return null;
        }
        String call = callNode.asText();
        CallSpec spec = CallCatalog.get(call);
        if (spec == null) {
            String why = call.startsWith("dat_") ? "is not supported by this version of datsim"
                    : "is not a call scenarios can make";
            problem(path + ".call", "\"" + call + "\" " + why + "; the supported calls are "
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
        unknownKeys(c, path, new java.util.TreeSet<>(allowed));
        for (CallSpec.Arg a : spec.args().values()) {
            JsonNode v = c.get(a.name());
            if (v == null) {
                if (a.required()) {
                    problem(path + "." + a.name(), "missing; expected " + a.type().expected());
                }
                continue;
            }
            arg(v, path + "." + a.name(), a, process, bound, loopVars);
        }
        JsonNode out = c.get("out");
        if (out != null && out.isTextual() && ("index".equals(out.asText()) || "count".equals(out.asText()))) {
            problem(path + ".out", "\"" + out.asText() + "\" is reserved for the process's $index and $count");
        }
        if (out != null && out.isTextual() && vars.containsKey(out.asText())) {
            problem(path + ".out", "\"" + out.asText() + "\" is a scenario variable (\"vars\"); bind the result to"
                    + " another name");
        }
        if (out != null && (!out.isTextual() || !Refs.isName(out.asText()))) {
            problem(path + ".out", "expected a name of letters, digits and _ to bind the result to, found "
                    + show(out));
        }
        JsonNode expect = c.get("expect");
        if (expect != null) {
            expect(expect, path + ".expect", spec, process, bound);
        }
        return new Step(index, path, spec, (ObjectNode) c);
    }

    private void ref(String text, String path, String process, Map<String, Map<String, String>> bound) {
        ref(text, path, process, bound, List.of());
    }

    private void ref(String text, String path, String process, Map<String, Map<String, String>> bound,
            java.util.Collection<String> loopVars) {
        Refs.Ref r = Refs.parse(text);
        if (r != null) {
            operands.ref(text, r);
        }
        if (r != null && r.process() == null && r.field() == null && loopVars.contains(r.name())) {
            return; // a loop variable in scope
        }
        if (r == null) {
            problem(path, "expected a reference such as \"$name\", \"$name.field\" or \"$process/name.field\","
                    + " found \"" + text + "\"");
            return;
        }
        String proc = r.process() != null ? r.process() : process;
        Map<String, String> names = bound.get(proc);
        if (names == null) {
            problem(path, "no process is named \"" + proc + "\"");
            return;
        }
        String kind = names.get(r.name());
        if (kind == null) {
            problem(path, "dangling reference \"" + text + "\": no call of process \"" + proc + "\" binds \""
                    + r.name() + "\" with \"out\"");
            return;
        }
        if (r.field() != null && !Refs.FIELDS.get(kind).contains(r.field())) {
            problem(path, "\"" + r.name() + "\" is a " + kind + ", which has no field \"" + r.field()
                    + "\"; its fields are " + Refs.FIELDS.get(kind));
        }
    }

    private boolean isRef(JsonNode v) {
        return v.isTextual() && v.asText().startsWith("$");
    }

    private void arg(JsonNode v, String path, CallSpec.Arg a, String process,
            Map<String, Map<String, String>> bound, java.util.Collection<String> loopVars) {
        if ((a.type() == ArgType.INT || a.type() == ArgType.SIZE) && (v.isTextual() || v.isIntegralNumber())) {
            numeric(v, path, process, bound, loopVars, a.type() == ArgType.SIZE);
            return;
        }
        if (a.type() == ArgType.HOST && v.isTextual() && v.asText().startsWith("$")) {
            problem(path, "expected " + ArgType.HOST.expected() + ", found " + show(v));
            return;
        }
        boolean scalar = a.type() == ArgType.HANDLE || a.type() == ArgType.INT || a.type() == ArgType.SIZE
                || a.type() == ArgType.TIMEOUT || a.type() == ArgType.FLAGS;
        if (isRef(v) && scalar) {
            ref(v.asText(), path, process, bound, loopVars);
            return;
        }
        switch (a.type()) {
            case HANDLE:
                if (!v.isNull()) {
                    problem(path, "expected " + a.type().expected() + ", found " + show(v));
                }
                break;
            case INT:
                if (!v.isIntegralNumber()) {
                    problem(path, "expected " + a.type().expected() + ", found " + show(v));
                }
                break;
            case SIZE:
                size(v, path);
                break;
            case FLAGS:
                flags(v, path, a.flags());
                break;
            case TIMEOUT:
                if (!(v.isIntegralNumber() && v.asLong() >= 0)
                        && !(v.isTextual() && "DAT_TIMEOUT_INFINITE".equals(v.asText()))) {
                    problem(path, "expected " + a.type().expected() + ", found " + show(v));
                }
                break;
            case DURATION:
                duration(v, path);
                break;
            case STRING:
                if (!v.isTextual()) {
                    problem(path, "expected a string, found " + show(v));
                }
                break;
            case HOST:
                if (v.isObject()) {
                    unknownKeys(v, path, Set.of("host_index"));
                    if (!v.has("host_index")) {
                        problem(path + ".host_index", "missing; expected " + ArgType.INT.expected());
                    } else {
                        numeric(v.get("host_index"), path + ".host_index", process, bound, loopVars, false);
                    }
                } else if (!v.isTextual()) {
                    problem(path, "expected " + ArgType.HOST.expected() + ", found " + show(v));
                }
                break;
            case IOV:
                iov(v, path, process, bound, loopVars);
                break;
            case RMR:
                rmr(v, path, process, bound, loopVars);
                break;
            case DATA:
                data(v, path);
                break;
            case EP_ATTR:
                epAttr(v, path);
                break;
            case SRQ_ATTR:
                srqAttr(v, path);
                break;
            default:
                throw new IllegalStateException(a.type().name());
        }
    }

    private void size(JsonNode v, String path) {
        if (v.isIntegralNumber() && v.asLong() >= 0) {
            return;
        }
        if (v.isTextual()) {
            try {
                operands.size(v.asText(), ByteSize.parse(v.asText()));
                return;
            } catch (IllegalArgumentException e) {
                problem(path, e.getMessage());
                return;
            }
        }
        problem(path, "expected " + ArgType.SIZE.expected() + ", found " + show(v));
    }

    private void flags(JsonNode v, String path, NamedValues group) {
        if (v.isIntegralNumber()) {
            return;
        }
        List<String> names = new ArrayList<>();
        if (v.isTextual()) {
            for (String s : v.asText().split("\\|")) {
                names.add(s.trim());
            }
        } else if (v.isArray()) {
            for (JsonNode e : v) {
                names.add(e.isTextual() ? e.asText() : e.toString());
            }
        } else {
            problem(path, "expected " + ArgType.FLAGS.expected() + ", found " + show(v));
            return;
        }
        for (String s : names) {
            if (group.value(s) == null) {
                problem(path, "\"" + s + "\" is not a " + group.group() + "; expected one of " + group.names());
            }
        }
    }

    private void iov(JsonNode v, String path, String process, Map<String, Map<String, String>> bound,
            java.util.Collection<String> loopVars) {
        if (!v.isArray()) {
            problem(path, "expected " + ArgType.IOV.expected() + ", found " + show(v));
            return;
        }
        for (int i = 0; i < v.size(); i++) {
            String p = path + "[" + i + "]";
            JsonNode s = v.get(i);
            if (!s.isObject()) {
                problem(p, "expected a segment {\"lmr\": \"$buf\", \"offset\": 0, \"length\": 64}, found " + show(s));
                continue;
            }
            unknownKeys(s, p, Set.of("lmr", "offset", "length"));
            JsonNode lmr = s.get("lmr");
            if (lmr == null) {
                problem(p + ".lmr", "missing; expected a reference to an LMR such as \"$buf\"");
            } else if (!isRef(lmr)) {
                problem(p + ".lmr", "expected a reference to an LMR such as \"$buf\", found " + show(lmr));
            } else {
                ref(lmr.asText(), p + ".lmr", process, bound);
            }
            for (String k : new String[] {"offset", "length"}) {
                JsonNode x = s.get(k);
                if (x == null) {
                    if (k.equals("length")) {
                        problem(p + ".length", "missing; expected " + ArgType.SIZE.expected());
                    }
                } else {
                    numeric(x, p + "." + k, process, bound, loopVars, true);
                }
            }
        }
    }

    private void rmr(JsonNode v, String path, String process, Map<String, Map<String, String>> bound,
            java.util.Collection<String> loopVars) {
        if (!v.isObject()) {
            problem(path, "expected " + ArgType.RMR.expected() + ", found " + show(v));
            return;
        }
        unknownKeys(v, path, Set.of("rmr_context", "address", "length", "offset"));
        for (String k : new String[] {"rmr_context", "address", "length", "offset"}) {
            JsonNode x = v.get(k);
            if (x == null) {
                if (!k.equals("offset")) {
                    problem(path + "." + k, "missing; expected a number or a reference such as \"$peer/buf." + k
                            + "\"");
                }
            } else {
                numeric(x, path + "." + k, process, bound, loopVars, k.equals("length") || k.equals("offset"));
            }
        }
    }

    private void data(JsonNode v, String path) {
        if (!v.isObject()) {
            problem(path, "expected " + ArgType.DATA.expected() + ", found " + show(v));
            return;
        }
        unknownKeys(v, path, Set.of("text", "hex", "fill", "length"));
        int kinds = (v.has("text") ? 1 : 0) + (v.has("hex") ? 1 : 0) + (v.has("fill") ? 1 : 0);
        if (kinds != 1) {
            problem(path, "expected exactly one of \"text\", \"hex\" or \"fill\", found " + show(v));
            return;
        }
        if (v.has("text") && !v.get("text").isTextual()) {
            problem(path + ".text", "expected a string, found " + show(v.get("text")));
        }
        if (v.has("hex")) {
            JsonNode h = v.get("hex");
            if (!h.isTextual() || !h.asText().matches("([0-9a-fA-F]{2})*")) {
                problem(path + ".hex", "expected an even number of hexadecimal digits, found " + show(h));
            }
        }
        if (v.has("fill")) {
            JsonNode f = v.get("fill");
            if (!f.isIntegralNumber() || f.asInt() < 0 || f.asInt() > 255) {
                problem(path + ".fill", "expected a byte value from 0 to 255, found " + show(f));
            }
            if (!v.has("length")) {
                problem(path + ".length", "missing; a fill needs a length such as \"4KiB\"");
            } else {
                size(v.get("length"), path + ".length");
            }
        } else if (v.has("length")) {
            problem(path + ".length", "only a fill takes a length; text and hex have their own");
        }
    }

    private void epAttr(JsonNode v, String path) {
        if (!v.isObject()) {
            problem(path, "expected " + ArgType.EP_ATTR.expected() + ", found " + show(v));
            return;
        }
        Set<String> numeric = Set.of("max_message_size", "max_rdma_size", "max_recv_dtos", "max_request_dtos",
                "max_recv_iov", "max_request_iov", "max_rdma_read_in", "max_rdma_read_out");
        Set<String> flagKeys = Set.of("request_completion_flags", "recv_completion_flags");
        Set<String> all = new java.util.TreeSet<>(numeric);
        all.addAll(flagKeys);
        unknownKeys(v, path, all);
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            if (numeric.contains(e.getKey())) {
                size(e.getValue(), path + "." + e.getKey());
            } else if (flagKeys.contains(e.getKey())) {
                flags(e.getValue(), path + "." + e.getKey(), org.datsim.fabric.dat.Dat.COMPLETION_FLAGS);
            }
        }
    }

    private void srqAttr(JsonNode v, String path) {
        if (!v.isObject()) {
            problem(path, "expected " + ArgType.SRQ_ATTR.expected() + ", found " + show(v));
            return;
        }
        unknownKeys(v, path, new java.util.TreeSet<>(CallCatalog.SRQ_ATTR_FIELDS));
        Iterator<Map.Entry<String, JsonNode>> it = v.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            size(e.getValue(), path + "." + e.getKey());
        }
    }

    private void expect(JsonNode e, String path, CallSpec spec, String process,
            Map<String, Map<String, String>> bound) {
        if (!e.isObject()) {
            problem(path, "expected an object such as {\"ret\": \"DAT_SUCCESS\"}, found " + show(e));
            return;
        }
        Set<String> allowed = new java.util.TreeSet<>(spec.expectKeys());
        allowed.add("ret");
        unknownKeys(e, path, allowed);
        JsonNode ret = e.get("ret");
        if (ret != null) {
            String r = ret.isTextual() ? ret.asText() : "";
            if (!r.equals("any") && DatReturn.typeByName(r) == null && DatReturn.subtypeByName(r) == null) {
                problem(path + ".ret", "expected a DAT_RETURN name such as \"DAT_SUCCESS\" or"
                        + " \"DAT_INVALID_STATE\", a subtype name, or \"any\", found " + show(ret));
            }
        }
        expectName(e, "event", path, org.datsim.fabric.dat.Dat.EVENTS);
        expectName(e, "status", path, org.datsim.fabric.dat.Dat.DTO_STATUS);
        expectName(e, "operation", path, org.datsim.fabric.dat.Dat.DTO_OPS);
        expectName(e, "state", path, org.datsim.fabric.dat.Dat.EP_STATES);
        for (String k : new String[] {"cookie", "transfered_length"}) {
            JsonNode x = e.get(k);
            if (x != null && !x.isIntegralNumber()) {
                problem(path + "." + k, "expected a whole number, found " + show(x));
            }
        }
        expectName(e, "handle_type", path, org.datsim.fabric.dat.Dat.HANDLE_TYPES);
        if (e.has("context") && !e.get("context").isIntegralNumber()) {
            problem(path + ".context", "expected a whole number, found " + show(e.get("context")));
        }
        if (e.has("message") && !e.get("message").isTextual()) {
            problem(path + ".message", "expected a string, found " + show(e.get("message")));
        }
        if (e.has("attrs")) {
            JsonNode attrs = e.get("attrs");
            if (!attrs.isObject()) {
                problem(path + ".attrs", "expected an object of attribute names and values, found " + show(attrs));
            } else {
                Iterator<Map.Entry<String, JsonNode>> it = attrs.fields();
                while (it.hasNext()) {
                    Map.Entry<String, JsonNode> a = it.next();
                    List<String> known = Refs.FIELDS.get(spec.outKind());
                    if (!known.contains(a.getKey())) {
                        problem(path + ".attrs." + a.getKey(), "unknown attribute; expected one of " + known);
                    } else if (!a.getValue().isIntegralNumber() && !a.getValue().isBoolean()) {
                        problem(path + ".attrs." + a.getKey(), "expected a number or true/false, found "
                                + show(a.getValue()));
                    }
                }
            }
        }
        for (String k : new String[] {"recv_idle", "request_idle"}) {
            if (e.has(k) && !e.get(k).isBoolean()) {
                problem(path + "." + k, "expected true or false, found " + show(e.get(k)));
            }
        }
        if (e.has("stale") && !e.get("stale").isBoolean()) {
            problem(path + ".stale", "expected true or false, found " + show(e.get("stale")));
        }
        if (e.has("data")) {
            data(e.get("data"), path + ".data");
        }
        if (e.has("evd") && !e.get("evd").isNull() && !isRef(e.get("evd"))) {
            problem(path + ".evd", "expected a reference to an EVD such as \"$evd\", or null, found "
                    + show(e.get("evd")));
        } else if (e.has("evd") && !e.get("evd").isNull()) {
            ref(e.get("evd").asText(), path + ".evd", process, bound);
        }
        if (e.has("ep") && !isRef(e.get("ep"))) {
            problem(path + ".ep", "expected a reference to an endpoint such as \"$ep\", found " + show(e.get("ep")));
        } else if (e.has("ep")) {
            String text = e.get("ep").asText();
            int before = problems.size();
            ref(text, path + ".ep", process, bound);
            Refs.Ref r = Refs.parse(text);
            if (problems.size() == before && r != null) {
                String kind = bound.get(r.process() != null ? r.process() : process).get(r.name());
                boolean endpoint = r.field() == null ? "ep".equals(kind) : "ep".equals(r.field());
                if (!endpoint) {
                    problem(path + ".ep", "expected a reference to an endpoint such as \"$ep\" or"
                            + " \"$event.ep\", found \"" + text + "\", which is a " + (r.field() == null ? kind
                                    : kind + "'s " + r.field()));
                }
            }
        }
    }

    private void expectName(JsonNode e, String key, String path, NamedValues group) {
        JsonNode x = e.get(key);
        if (x != null && (!x.isTextual() || group.value(x.asText()) == null)) {
            problem(path + "." + key, "expected a " + group.group() + " name such as \"" + group.names().get(0)
                    + "\", found " + show(x));
        }
    }
}
