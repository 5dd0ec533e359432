package org.datsim.fabric.topology;

/**
 * One full-duplex link between two nodes, with optional overrides of the fabric-wide link parameters.
 *
 * @param a the name of one end
 * @param b the name of the other end
 * @param bandwidthBps the rate in bits per second, or 0 for the fabric default
 * @param latencyPs the propagation delay in picoseconds, or -1 for the fabric default
 */
public record LinkSpec(String a, String b, long bandwidthBps, long latencyPs) {
}
