package org.datsim.scenario.load;

import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.fabric.topology.Topology;

/**
 * A validated scenario, ready to run.
 *
 * @param file the file it came from (as given by the user)
 * @param name the scenario's name
 * @param description what it shows
 * @param seed the random seed
 * @param topology the validated topology
 * @param params the fabric parameters, defaults overridden by the file
 * @param hostParams the parameters of hosts with their own overrides, by host name, in file order
 * @param processes the consumer processes in declaration order
 * @param maxEvents the event guard
 * @param maxTimePs the simulated-time guard in picoseconds
 * @param vars the scenario's variables ({@code "vars"}), usable as {@code $name} in every process, in file order
 * @param operands the references, expressions, sizes and durations of the processes' calls, parsed once by the
 *     loader
 * @param workload the flows of the {@code workload} section, or null if it has none
 * @param outcomes the joint outcomes the scenario allows or forbids ({@code "outcomes"}), and what its steps observe
 */
public record Scenario(String file, String name, String description, long seed, Topology topology, Params params,
        java.util.Map<String, Params> hostParams, List<ProcessDef> processes, long maxEvents, long maxTimePs,
        java.util.Map<String, Long> vars, Operands operands, org.datsim.scenario.workload.Workload workload,
        Outcomes outcomes) {

    /** A scenario without an outcomes section. */
    public Scenario(String file, String name, String description, long seed, Topology topology, Params params,
            java.util.Map<String, Params> hostParams, List<ProcessDef> processes, long maxEvents, long maxTimePs,
            java.util.Map<String, Long> vars, Operands operands, org.datsim.scenario.workload.Workload workload) {
        this(file, name, description, seed, topology, params, hostParams, processes, maxEvents, maxTimePs, vars,
                operands, workload, Outcomes.NONE);
    }

    /** A scenario without a workload section. */
    public Scenario(String file, String name, String description, long seed, Topology topology, Params params,
            java.util.Map<String, Params> hostParams, List<ProcessDef> processes, long maxEvents, long maxTimePs,
            java.util.Map<String, Long> vars, Operands operands) {
        this(file, name, description, seed, topology, params, hostParams, processes, maxEvents, maxTimePs, vars,
                operands, null);
    }

    /**
     * Returns a copy with other guards.
     *
     * @param events the most events to execute
     * @param timePs the latest simulated time in picoseconds
     * @return the copy
     */
    public Scenario withLimits(long events, long timePs) {
        return new Scenario(file, name, description, seed, topology, params, hostParams, processes, events, timePs,
                vars, operands, workload, outcomes);
    }

    /** Returns a copy with another seed. */
    public Scenario withSeed(long newSeed) {
        return new Scenario(file, name, description, newSeed, topology, params, hostParams, processes, maxEvents,
                maxTimePs, vars, operands, workload, outcomes);
    }
}
