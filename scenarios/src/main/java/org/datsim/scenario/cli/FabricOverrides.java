package org.datsim.scenario.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.scenario.load.JsonInput;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;

/**
 * A one-off what-if from the command line: {@code run --preset NAME} and {@code --param NAME=VALUE}. The preset
 * replaces the scenario's {@code fabric.preset} (its own {@code params} and {@code host_params} still override it);
 * each {@code --param} is written over the scenario's {@code fabric.params} and over every host's
 * {@code host_params}, so it holds on every host and wins over the file. A link's own {@code bandwidth} or
 * {@code latency} attribute still wins for that link. The edited scenario then goes through the loader like any
 * file, so every check applies; the names and values of {@code --param} are checked first, with their own messages.
 */
final class FabricOverrides {

    private final String preset;
    private final Map<String, String> params;

    private FabricOverrides(String preset, Map<String, String> params) {
        this.preset = preset;
        this.params = params;
    }

    /**
     * Reads the options, or reports their problems.
     *
     * @param preset the {@code --preset} value, or null
     * @param params the {@code --param} values, in order (a later one for the same name wins)
     * @param problems receives one message per problem, worded for the command line
     * @return the overrides, or null if there were problems
     */
    static FabricOverrides of(String preset, List<String> params, List<String> problems) {
        int before = problems.size();
        if (preset != null && FabricPresets.get(preset) == null) {
            problems.add("--preset " + preset + ": expected one of " + FabricPresets.names()
                    + org.datsim.core.param.Suggestions.hint(preset, FabricPresets.names()));
        }
        Map<String, String> map = new LinkedHashMap<>();
        for (String s : params) {
            int eq = s.indexOf('=');
            if (eq < 1) {
                problems.add("--param expects NAME=VALUE, found \"" + s + "\"");
                continue;
            }
            map.put(s.substring(0, eq).trim(), s.substring(eq + 1).trim());
        }
        List<String> bad = new java.util.ArrayList<>();
        Params.defaults(FabricParams.ALL).with(map, bad);
        for (String b : bad) {
            problems.add("--param " + b);
        }
        return problems.size() == before ? new FabricOverrides(preset, map) : null;
    }

    /** Whether there is nothing to override. */
    boolean isEmpty() {
        return preset == null && params.isEmpty();
    }

    /** The preset given, or null. */
    String preset() {
        return preset;
    }

    /** The parameters given, in order. */
    Map<String, String> params() {
        return params;
    }

    /**
     * Loads a scenario file with the overrides applied.
     *
     * @param file the scenario file
     * @return the scenario
     * @throws ScenarioException with its problems
     */
    Scenario load(Path file) throws ScenarioException {
        String name = file.toString();
        JsonNode root = JsonInput.tree(name, JsonInput.readFile(file, "scenario"), "scenario");
        if (root.isObject() && root.get("fabric") instanceof ObjectNode fabric) {
            if (preset != null) {
                fabric.put("preset", preset);
            }
            if (!params.isEmpty()) {
                JsonNode p = fabric.get("params");
                ObjectNode target = p instanceof ObjectNode o ? o : p == null ? fabric.putObject("params") : null;
                if (target != null) {
                    params.forEach(target::put);
                }
                if (fabric.get("host_params") instanceof ObjectNode hosts) {
                    for (Iterator<JsonNode> it = hosts.elements(); it.hasNext(); ) {
                        if (it.next() instanceof ObjectNode host) {
                            params.forEach(host::put);
                        }
                    }
                }
            }
        }
        try {
            return ScenarioLoader.parse(name, new ObjectMapper().writeValueAsString(root));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new ScenarioException(List.of(name + ": " + e.getOriginalMessage()));
        }
    }
}
