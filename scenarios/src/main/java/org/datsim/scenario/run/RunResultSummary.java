package org.datsim.scenario.run;

import java.util.List;

/**
 * What a run ended with, for the command line.
 *
 * @param exitCode 0 when every expectation held, 1 otherwise
 * @param lines the human summary, one line each
 */
public record RunResultSummary(int exitCode, List<String> lines) {
}
