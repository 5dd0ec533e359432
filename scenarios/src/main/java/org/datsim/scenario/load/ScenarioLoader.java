package org.datsim.scenario.load;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.datsim.core.time.ByteSize;

/**
 * Reads and validates a scenario file completely before anything runs. Every problem is collected, each message
 * naming the file and either the line and column (for JSON that does not parse) or the JSON path (for everything
 * else), what was expected and what was found. Jackson reads the file as a plain tree: no polymorphic or default
 * typing, duplicate keys rejected, and a size bound on the file.
 *
 * <p>This class reads the top level (name, seed, limits, variables); {@link FabricReader} reads the fabric and
 * {@link ProcessReader} the processes, with their calls ({@link CallReader}), arguments ({@link ArgumentChecker}),
 * expectations ({@link ExpectationChecker}), references ({@link RefChecker}) and sizes and times
 * ({@link QuantityChecker}). {@link Problems} collects what they find.
 */
public final class ScenarioLoader {

    /** The largest scenario file accepted, in bytes. */
    public static final long MAX_FILE_BYTES = 16L << 20;
    /** The default bound on executed events. */
    public static final long DEFAULT_MAX_EVENTS = 200_000_000L;
    /** The most variables a scenario may declare. */
    static final int MAX_VARS = 1024;

    private final Problems problems;
    /** What validation parsed of the calls' operands, kept so that no call parses them again when it runs. */
    private final Operands.Builder operands = new Operands.Builder();
    private final QuantityChecker quantities;

    private ScenarioLoader(String file) {
        this.problems = new Problems(file);
        this.quantities = new QuantityChecker(problems, operands);
    }

    /**
     * Loads a scenario file.
     *
     * @param path the file
     * @return the validated scenario
     * @throws ScenarioException with one message per problem
     */
    public static Scenario load(Path path) throws ScenarioException {
        return parse(path.toString(), JsonInput.readFile(path, "scenario"));
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
        JsonNode root = JsonInput.tree(file, json, "scenario");
        ScenarioLoader loader = new ScenarioLoader(file);
        Scenario s = loader.validate(root);
        if (loader.problems.count() > 0) {
            throw new ScenarioException(loader.problems.messages());
        }
        return s;
    }

    private Scenario validate(JsonNode root) {
        if (!root.isObject()) {
            problems.add("$", "expected a scenario object, found " + show(root));
            return null;
        }
        problems.unknownKeys(root, "$", Set.of("scenario", "description", "seed", "vars", "fabric", "processes",
                "limits", "$schema", "workload", "outcomes"));
        Map<String, Long> vars = vars(root.get("vars"));
        String name = problems.string(root, "scenario", "$", true);
        String description = problems.string(root, "description", "$", false);
        long seed = 1;
        JsonNode seedNode = root.get("seed");
        if (seedNode != null) {
            if (seedNode.isIntegralNumber() && seedNode.canConvertToLong()) {
                seed = seedNode.asLong();
            } else {
                problems.add("$.seed", "expected a whole number, found " + show(seedNode));
            }
        }
        long maxEvents = DEFAULT_MAX_EVENTS;
        long maxTime = Long.MAX_VALUE;
        JsonNode limits = root.get("limits");
        if (limits != null) {
            if (!limits.isObject()) {
                problems.add("$.limits", "expected an object {\"max_events\": ..., \"max_time\": ...}, found "
                        + show(limits));
            } else {
                problems.unknownKeys(limits, "$.limits", Set.of("max_events", "max_time"));
                JsonNode me = limits.get("max_events");
                if (me != null) {
                    if (me.isIntegralNumber() && me.asLong() > 0) {
                        maxEvents = me.asLong();
                    } else {
                        problems.add("$.limits.max_events", "expected a positive whole number, found " + show(me));
                    }
                }
                JsonNode mt = limits.get("max_time");
                if (mt != null) {
                    Long t = quantities.duration(mt, "$.limits.max_time");
                    if (t != null) {
                        maxTime = t;
                    }
                }
            }
        }
        FabricReader.Fabric fabric = new FabricReader(problems, quantities).read(root.get("fabric"));
        ProcessReader processReader = new ProcessReader(problems, quantities, operands, vars);
        List<ProcessDef> processes = processReader.read(root.get("processes"), fabric.hosts());
        Outcomes outcomes = new OutcomeReader(problems).read(root.get("outcomes"), processReader.observes(),
                processes);
        org.datsim.scenario.workload.Workload workload = org.datsim.scenario.workload.WorkloadReader.read(
                root.get("workload"), problems.file(), fabric.hosts(), problems);
        return new Scenario(problems.file(), name, description == null ? "" : description, seed, fabric.topology(),
                fabric.params(), fabric.hostParams(), processes, maxEvents, maxTime, vars, operands.build(), workload,
                outcomes);
    }

    /** Reads the scenario's variables ({@code "vars"}), by name in file order. */
    private Map<String, Long> vars(JsonNode n) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (n == null) {
            return out;
        }
        if (!n.isObject()) {
            problems.add("$.vars", "expected an object of variable names and whole numbers or sizes, such as"
                    + " {\"size\": \"4KiB\"}, found " + show(n));
            return out;
        }
        if (n.size() > MAX_VARS) {
            problems.add("$.vars", "expected at most " + MAX_VARS + " variables, found " + n.size());
            return out;
        }
        Iterator<Map.Entry<String, JsonNode>> it = n.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.vars." + e.getKey();
            if (!Refs.isName(e.getKey())) {
                problems.add(path, "expected a variable name of letters, digits and _");
                continue;
            }
            if ("index".equals(e.getKey()) || "count".equals(e.getKey())) {
                problems.add(path, "\"" + e.getKey() + "\" is reserved for the process's $index and $count");
                continue;
            }
            JsonNode v = e.getValue();
            if (v.isIntegralNumber() && v.canConvertToLong()) {
                out.put(e.getKey(), v.asLong());
            } else if (v.isTextual()) {
                try {
                    out.put(e.getKey(), ByteSize.parse(v.asText()));
                } catch (IllegalArgumentException ex) {
                    problems.add(path, "expected a whole number or a size such as \"4KiB\", found " + show(v));
                }
            } else {
                problems.add(path, "expected a whole number or a size such as \"4KiB\", found " + show(v));
            }
        }
        return out;
    }
}
