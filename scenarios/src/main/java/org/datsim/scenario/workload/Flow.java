package org.datsim.scenario.workload;

/**
 * One flow of a workload: a message from one host to another, posted at its start time.
 *
 * @param src the sending host's index (its id in the topology's host order)
 * @param dst the receiving host's index, never {@code src}
 * @param sizeBytes the message size, at least 1
 * @param startPs the simulated time at which it is posted, ps
 */
public record Flow(int src, int dst, long sizeBytes, long startPs) {
}
