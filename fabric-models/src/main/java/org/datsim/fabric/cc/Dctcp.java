package org.datsim.fabric.cc;

/**
 * DCTCP (Alizadeh et al., SIGCOMM 2010) in rate form as HPCC's simulator implements it for RDMA
 * ({@code rdma-hw.cc} {@code HandleAckDctcp}): ACKs echo ECN marks; once per window of data (an ACK beyond the
 * sequence sent at the last update) alpha = (1-g) alpha + g F, F the fraction of marked ACKs in that window; on a
 * marked ACK outside congestion-window-reduced state the rate is cut to max(min_rate, rate (1 - alpha/2)) and CWR
 * lasts until the data sent by then is acknowledged; outside CWR each new window adds {@code cc.dctcp.rate_ai}. The
 * window is W x rate / line rate, as in HPCC's {@code run.py --cc dctcp} (HAS_WIN 1, VAR_WIN 1).
 */
public final class Dctcp extends RateController {

    /**
     * DCTCP's parameters (see {@link CcParams}).
     *
     * @param minRateBps cc.min_rate
     * @param g the alpha gain, 1 / cc.dctcp.g_denominator
     * @param rateAiBps cc.dctcp.rate_ai
     * @param mtuBytes the payload of a full packet (hca.mtu)
     */
    public record Config(long minRateBps, double g, long rateAiBps, long mtuBytes) {
        /** Checks the values are usable. */
        public Config {
            if (!(g > 0 && g <= 1) || minRateBps <= 0 || rateAiBps < 0 || mtuBytes <= 0) {
                throw new IllegalArgumentException("bad DCTCP parameters");
            }
        }
    }

    private final Config c;
    private final long baseWindowBytes;
    private double alpha = 1;
    private long lastUpdateSeq;
    private long batchSize;
    private long ecnCount;
    private boolean cwr;
    private long highSeq;

    /**
     * @param lineRateBps the NIC's line rate
     * @param config the parameters
     * @param baseWindowBytes the window at line rate (the bandwidth-delay product)
     */
    public Dctcp(long lineRateBps, Config config, long baseWindowBytes) {
        super(lineRateBps);
        if (baseWindowBytes <= 0) {
            throw new IllegalArgumentException("DCTCP needs a positive window");
        }
        this.c = config;
        this.baseWindowBytes = baseWindowBytes;
    }

    @Override
    public long windowBytes() {
        return scaledWindow(baseWindowBytes);
    }

    /** Returns alpha. */
    public double alpha() {
        return alpha;
    }

    @Override
    public void onAck(long nowPs, long ackSeq, long sndNxt, boolean ecnEcho, IntHops hops, long echoedSentPs) {
        boolean newBatch = false;
        if (ecnEcho) {
            ecnCount++;
        }
        if (ackSeq > lastUpdateSeq) {
            newBatch = true;
            if (lastUpdateSeq == 0) {
                lastUpdateSeq = sndNxt;
                batchSize = sndNxt / c.mtuBytes() + 1;
            } else {
                double frac = Math.min(1.0, (double) ecnCount / batchSize);
                alpha = (1 - c.g()) * alpha + c.g() * frac;
                lastUpdateSeq = sndNxt;
                ecnCount = 0;
                batchSize = (sndNxt - ackSeq) / c.mtuBytes() + 1;
            }
        }
        if (cwr && ackSeq > highSeq) {
            cwr = false;
        }
        if (ecnEcho && !cwr) {
            rateBps = Math.max(c.minRateBps(), (long) (rateBps * (1 - alpha / 2)));
            cwr = true;
            highSeq = sndNxt;
        }
        if (!cwr && newBatch) {
            rateBps = Math.min(lineRateBps, rateBps + c.rateAiBps());
        }
    }
}
