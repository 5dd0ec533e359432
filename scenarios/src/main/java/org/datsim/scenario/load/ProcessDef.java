package org.datsim.scenario.load;

import java.util.List;

/**
 * One consumer process of a scenario.
 *
 * @param name the process name, unique in the scenario
 * @param host the host it runs on
 * @param startPs when it starts, in picoseconds
 * @param steps its calls in order
 * @param index its position among the processes made from the same template ({@code $index}), 0 otherwise
 * @param count how many processes its template made ({@code $count}), 1 otherwise
 * @param template true if a process template made it (its observations are named PROCESS/NAME)
 */
public record ProcessDef(String name, String host, long startPs, List<Step> steps, int index, int count,
        boolean template) {

    /** A process with its template's index and count. */
    public ProcessDef(String name, String host, long startPs, List<Step> steps, int index, int count) {
        this(name, host, startPs, steps, index, count, false);
    }

    /**
     * A process written out by hand.
     *
     * @param name the process name
     * @param host the host it runs on
     * @param startPs when it starts, in picoseconds
     * @param steps its calls in order
     */
    public ProcessDef(String name, String host, long startPs, List<Step> steps) {
        this(name, host, startPs, steps, 0, 1);
    }
}
