package org.datsim.scenario.load;

import java.util.List;

/**
 * One consumer process of a scenario.
 *
 * @param name the process name, unique in the scenario
 * @param host the host it runs on
 * @param startPs when it starts, in picoseconds
 * @param steps its calls in order
 */
public record ProcessDef(String name, String host, long startPs, List<Step> steps) {
}
