package org.datsim.scenario.workload;

/**
 * One flow of a workload: a message from one host to another, posted at its start time.
 *
 * @param src the sending host's index (its id in the topology's host order)
 * @param dst the receiving host's index, never {@code src}
 * @param sizeBytes the message size, at least 1
 * @param startPs the simulated time at which it is posted, ps
 * @param dport its UDP destination port, 0 to 65535: an HPCC flow file's {@code dport}, 100 otherwise (what HPCC's
 *        traffic_gen.py writes); only {@code switch.ecmp hpcc} reads it
 */
public record Flow(int src, int dst, long sizeBytes, long startPs, int dport) {

    /** HPCC's traffic_gen.py's destination port. */
    public static final int DEFAULT_DPORT = 100;

    /** Checks the port. */
    public Flow {
        if (dport < 0 || dport > 0xFFFF) {
            throw new IllegalArgumentException("dport out of 0..65535: " + dport);
        }
    }

    /**
     * A flow to port {@link #DEFAULT_DPORT}.
     *
     * @param src the sending host's index
     * @param dst the receiving host's index
     * @param sizeBytes the message size
     * @param startPs the start time, ps
     */
    public Flow(int src, int dst, long sizeBytes, long startPs) {
        this(src, dst, sizeBytes, startPs, DEFAULT_DPORT);
    }
}
