package org.datsim.fabric.cc;

/**
 * HPCC (Li et al., SIGCOMM 2019) as HPCC's simulator implements it with one rate per flow ({@code rdma-hw.cc}
 * {@code HandleAckHp}, {@code UpdateRateHp}, {@code FastReactHp}, {@code MULTI_RATE 0}):
 * <ul>
 * <li>for every hop of the ACK's INT, against the record of that hop the last ACK brought: u = txRate / B + min(qlen,
 * previous qlen) x lineRate / B / W, with txRate = bytes transmitted between the two records / time between them,
 * B the hop's rate and W the base window (bandwidth-delay product at line rate);</li>
 * <li>U = the largest u; the EWMA U = (U (T - dt) + u dt) / T, dt the time between the records of the hop with the
 * largest u, at most the base RTT T;</li>
 * <li>k = U / eta; if k &ge; 1 or the increase stage has reached maxStage, rate = Rc / k + W_AI/T (multiplicative),
 * else rate = Rc + W_AI/T (additive) and the stage counts up; the rate is kept between min_rate and line rate;</li>
 * <li>an ACK beyond the sequence sent when the reference rate Rc was last set updates Rc (once per RTT); other ACKs
 * only set the current rate from Rc (fast react);</li>
 * <li>window = W x rate / line rate (HPCC's variable window), at least 1 byte.</li>
 * </ul>
 * This is the paper's W = W_c / (U / eta) + W_AI written in rates: rate = W / T. A change of rate moves the next send
 * time by the difference it makes to the last packet (HPCC's {@code ChangeRate}).
 */
public final class Hpcc extends RateController {

    /**
     * HPCC's parameters (see {@link CcParams}).
     *
     * @param minRateBps cc.min_rate
     * @param eta the target utilisation, cc.hpcc.eta_percent / 100
     * @param rateAiBps cc.hpcc.rate_ai (W_AI / T)
     * @param maxStage cc.hpcc.max_stage (HPCC's MI_THRESH)
     * @param fastReact cc.hpcc.fast_react
     * @param intByteUnit cc.hpcc.int_byte_unit: the unit a hop's transmitted bytes are read in (rounded down)
     * @param intQlenUnit cc.hpcc.int_qlen_unit: the unit a hop's queue length is read in (rounded down)
     */
    public record Config(long minRateBps, double eta, long rateAiBps, int maxStage, boolean fastReact,
            long intByteUnit, long intQlenUnit) {
        /** Checks the values are usable. */
        public Config {
            if (!(eta > 0 && eta <= 1) || minRateBps <= 0 || rateAiBps < 0 || maxStage < 0 || intByteUnit < 1
                    || intQlenUnit < 1) {
                throw new IllegalArgumentException("bad HPCC parameters");
            }
        }

        /**
         * The parameters with exact INT records (units of one byte).
         *
         * @param minRateBps cc.min_rate
         * @param eta cc.hpcc.eta_percent / 100
         * @param rateAiBps cc.hpcc.rate_ai
         * @param maxStage cc.hpcc.max_stage
         * @param fastReact cc.hpcc.fast_react
         */
        public Config(long minRateBps, double eta, long rateAiBps, int maxStage, boolean fastReact) {
            this(minRateBps, eta, rateAiBps, maxStage, fastReact, 1, 1);
        }
    }

    private final Config c;
    private final long baseRttPs;
    private final long baseWindowBytes;
    private final long[] hopQlen = new long[IntHops.MAX_HOPS];
    private final long[] hopTx = new long[IntHops.MAX_HOPS];
    private final long[] hopTime = new long[IntHops.MAX_HOPS];
    private long curRateBps;
    private int incStage;
    private double u = 1;
    private long lastUpdateSeq;

    /**
     * @param lineRateBps the NIC's line rate
     * @param config the parameters
     * @param baseRttPs the base RTT T, picoseconds (HPCC: the largest RTT between two hosts of the topology)
     * @param baseWindowBytes the base window W, bytes (HPCC: the largest bandwidth-delay product between two hosts)
     */
    public Hpcc(long lineRateBps, Config config, long baseRttPs, long baseWindowBytes) {
        super(lineRateBps);
        if (baseRttPs <= 0 || baseWindowBytes <= 0) {
            throw new IllegalArgumentException("HPCC needs a positive base RTT and window");
        }
        if (config.minRateBps() > lineRateBps) {
            throw new IllegalArgumentException("HPCC min rate above the line rate");
        }
        this.c = config;
        this.baseRttPs = baseRttPs;
        this.baseWindowBytes = baseWindowBytes;
        this.curRateBps = lineRateBps;
    }

    @Override
    public long windowBytes() {
        return scaledWindow(baseWindowBytes);
    }

    /** Returns the reference rate Rc, updated once per RTT. */
    public long referenceRateBps() {
        return curRateBps;
    }

    /** Returns the EWMA of the normalised utilisation U. */
    public double utilisation() {
        return u;
    }

    /** Returns the additive increase stage. */
    public int incStage() {
        return incStage;
    }

    @Override
    public void onAck(long nowPs, long ackSeq, long sndNxt, boolean ecnEcho, IntHops hops, long echoedSentPs) {
        if (hops == null) {
            return;
        }
        if (ackSeq > lastUpdateSeq) {
            update(hops, sndNxt, false);
        } else if (c.fastReact()) {
            update(hops, sndNxt, true);
        }
    }

    private void update(IntHops hops, long sndNxt, boolean fastReact) {
        int n = hops.count();
        if (lastUpdateSeq == 0) {
            // first RTT: remember the records
            lastUpdateSeq = sndNxt;
            for (int i = 0; i < n; i++) {
                store(hops, i);
            }
            return;
        }
        double maxU = 0;
        long dt = 0;
        boolean updatedAny = false;
        for (int i = 0; i < n; i++) {
            long tau = hops.timePs(i) - hopTime[i];
            long rate = hops.lineRateBps(i);
            if (tau > 0) {
                double txRate = (txBytes(hops, i) - hopTx[i]) * 8 / (tau * 1e-12);
                double hu = txRate / rate
                        + (double) Math.min(qlenBytes(hops, i), hopQlen[i]) * lineRateBps / rate / baseWindowBytes;
                if (hu > maxU) {
                    maxU = hu;
                    dt = tau;
                }
                updatedAny = true;
            }
            store(hops, i);
        }
        if (updatedAny) {
            if (dt > baseRttPs) {
                dt = baseRttPs;
            }
            u = (u * (baseRttPs - dt) + maxU * dt) / baseRttPs;
            double k = u / c.eta();
            long newRate;
            int newStage;
            if (k >= 1 || incStage >= c.maxStage()) {
                newRate = saturatingAdd((long) (curRateBps / k), c.rateAiBps());
                newStage = 0;
            } else {
                newRate = curRateBps + c.rateAiBps();
                newStage = incStage + 1;
            }
            newRate = Math.min(lineRateBps, Math.max(c.minRateBps(), newRate));
            changeRateShiftingNextSend(newRate);
            if (!fastReact) {
                curRateBps = newRate;
                incStage = newStage;
            }
        }
        if (!fastReact && sndNxt > lastUpdateSeq) {
            lastUpdateSeq = sndNxt;
        }
    }

    private static long saturatingAdd(long a, long b) {
        long s = a + b;
        return s < a ? Long.MAX_VALUE : s;
    }

    private void store(IntHops hops, int i) {
        hopQlen[i] = qlenBytes(hops, i);
        hopTx[i] = txBytes(hops, i);
        hopTime[i] = hops.timePs(i);
    }

    /** A hop's transmitted bytes as the INT record holds them: in units of cc.hpcc.int_byte_unit, rounded down. */
    private long txBytes(IntHops hops, int i) {
        long unit = c.intByteUnit();
        return unit == 1 ? hops.txBytes(i) : hops.txBytes(i) / unit * unit;
    }

    /** A hop's queue length as the INT record holds it: in units of cc.hpcc.int_qlen_unit, rounded down. */
    private long qlenBytes(IntHops hops, int i) {
        long unit = c.intQlenUnit();
        return unit == 1 ? hops.qlenBytes(i) : hops.qlenBytes(i) / unit * unit;
    }
}
