package org.datsim.fabric.sw;

import org.apache.commons.math3.random.RandomGenerator;

/**
 * ECN marking at a switch's egress queues ({@code ecn.*}): a data packet leaving an egress queue that still holds q
 * bytes is marked Congestion Experienced with probability 0 for q at or below kmin, pmax x (q - kmin) / (kmax - kmin)
 * between, and 1 above kmax, as HPCC's SwitchMmu::ShouldSendCN (RED on the instantaneous queue). kmin equal to kmax is
 * DCTCP's step marking at K. The thresholds are per output port (given at 100 Gb/s, they scale with each port's
 * rate: {@link #scaled}).
 */
public final class EcnMarker {

    private final RandomGenerator random;
    private final long[] kmin;
    private final long[] kmax;
    private final double pmax;
    private long marks;

    /**
     * Creates a marker.
     *
     * @param random the switch's seeded random stream
     * @param kmin the lower threshold of each output port in bytes
     * @param kmax the upper threshold of each output port in bytes (at least its kmin)
     * @param pmax the marking probability reached at kmax, in [0, 1]
     */
    public EcnMarker(RandomGenerator random, long[] kmin, long[] kmax, double pmax) {
        if (kmin.length != kmax.length || pmax < 0 || pmax > 1) {
            throw new IllegalArgumentException("ECN needs kmin <= kmax and pmax in [0, 1]");
        }
        for (int i = 0; i < kmin.length; i++) {
            if (kmin[i] > kmax[i]) {
                throw new IllegalArgumentException("ECN needs kmin <= kmax and pmax in [0, 1]");
            }
        }
        this.random = random;
        this.kmin = kmin.clone();
        this.kmax = kmax.clone();
        this.pmax = pmax;
    }

    /**
     * A marker whose thresholds, given for a 100 Gb/s port, scale with each port's rate ({@link #threshold}).
     *
     * @param random the switch's seeded random stream
     * @param kminAt100G the lower threshold in bytes at 100 Gb/s
     * @param kmaxAt100G the upper threshold in bytes at 100 Gb/s (at least kminAt100G)
     * @param pmax the marking probability reached at kmax, in [0, 1]
     * @param portBps each output port's rate, by port index
     * @return the marker
     */
    public static EcnMarker scaled(RandomGenerator random, long kminAt100G, long kmaxAt100G, double pmax,
            long[] portBps) {
        if (kminAt100G > kmaxAt100G || pmax < 0 || pmax > 1) {
            throw new IllegalArgumentException("ECN needs kmin <= kmax and pmax in [0, 1]");
        }
        long[] lo = new long[portBps.length];
        long[] hi = new long[portBps.length];
        for (int i = 0; i < portBps.length; i++) {
            lo[i] = threshold(kminAt100G, portBps[i]);
            hi[i] = threshold(kmaxAt100G, portBps[i]);
        }
        return new EcnMarker(random, lo, hi, pmax);
    }

    /**
     * An ECN threshold given at 100 Gb/s (ecn.kmin, ecn.kmax) as a port of that rate applies it: scaled with the rate,
     * exactly (the product fits a long for sizes below 2^40 and rates below 10 Pb/s).
     *
     * @param bytesAt100G the threshold at 100 Gb/s
     * @param bps the port's rate
     * @return the port's threshold, bytes
     */
    public static long threshold(long bytesAt100G, long bps) {
        return java.math.BigInteger.valueOf(bytesAt100G).multiply(java.math.BigInteger.valueOf(bps))
                .divide(java.math.BigInteger.valueOf(100_000_000_000L)).longValue();
    }

    /**
     * Decides whether a data packet leaving an output port's queue is marked (drawing from the random stream only
     * between the thresholds), and counts it.
     *
     * @param port the output port
     * @param queuedBytes the bytes still queued behind it
     * @return true to mark it
     */
    public boolean mark(int port, long queuedBytes) {
        long lo = kmin[port];
        if (queuedBytes <= lo) {
            return false;
        }
        long hi = kmax[port];
        if (queuedBytes > hi || random.nextDouble() < pmax * (double) (queuedBytes - lo) / (double) (hi - lo)) {
            marks++;
            return true;
        }
        return false;
    }

    /** Returns the lower threshold of an output port, bytes. */
    public long kmin(int port) {
        return kmin[port];
    }

    /** Returns the upper threshold of an output port, bytes. */
    public long kmax(int port) {
        return kmax[port];
    }

    /** Returns the packets marked so far. */
    public long marks() {
        return marks;
    }

    /** Forgets the marks counted (the random stream goes on: it belongs to the run). */
    public void reset() {
        marks = 0;
    }
}
