package org.datsim.fabric.cc;

/**
 * A reusable view of the in-band telemetry (INT) a packet collected, one record per switch egress it crossed, as
 * HPCC's {@code IntHop}: the egress queue length in bytes, the bytes the port has transmitted in all (a counter), the
 * time the record was taken and the port's line rate. The HCA fills one instance per ACK it receives (from the ACK's
 * echo of the data packet's records) and passes it to {@link RateController#onAck}; nothing is retained by reference.
 */
public final class IntHops {

    /** Most hops a packet records (HPCC's {@code IntHeader::maxHop}). */
    public static final int MAX_HOPS = 5;

    private final long[] qlenBytes = new long[MAX_HOPS];
    private final long[] txBytes = new long[MAX_HOPS];
    private final long[] timePs = new long[MAX_HOPS];
    private final long[] lineRateBps = new long[MAX_HOPS];
    private int count;

    /** Empties the view for reuse. */
    public void clear() {
        count = 0;
    }

    /**
     * Appends one hop record.
     *
     * @param qlen the egress queue length in bytes when the packet left
     * @param txBytesTotal the bytes the egress port has transmitted since it started (monotonic)
     * @param tPs the time the record was taken, picoseconds
     * @param rateBps the egress port's line rate, bits per second
     * @throws IllegalStateException if {@link #MAX_HOPS} records are already held
     */
    public void add(long qlen, long txBytesTotal, long tPs, long rateBps) {
        if (count == MAX_HOPS) {
            throw new IllegalStateException("a packet records at most " + MAX_HOPS + " INT hops");
        }
        qlenBytes[count] = qlen;
        txBytes[count] = txBytesTotal;
        timePs[count] = tPs;
        lineRateBps[count] = rateBps;
        count++;
    }

    /** Returns the number of hop records. */
    public int count() {
        return count;
    }

    /** Returns hop {@code i}'s queue length in bytes. */
    public long qlenBytes(int i) {
        return qlenBytes[i];
    }

    /** Returns hop {@code i}'s transmitted-bytes counter. */
    public long txBytes(int i) {
        return txBytes[i];
    }

    /** Returns hop {@code i}'s timestamp in picoseconds. */
    public long timePs(int i) {
        return timePs[i];
    }

    /** Returns hop {@code i}'s line rate in bits per second. */
    public long lineRateBps(int i) {
        return lineRateBps[i];
    }
}
