package org.datsim.fabric.cc;

/**
 * TIMELY (Mittal et al., SIGCOMM 2015) as HPCC's simulator implements it ({@code rdma-hw.cc} {@code HandleAckTimely},
 * {@code UpdateRateTimely}, CC_MODE 7; its {@code FastReactTimely} is empty). Every data packet carries the time it
 * started to leave the sender and its ACK echoes it; an ACK's RTT sample is its arrival time minus that echo.
 * <ul>
 * <li>An ACK beyond the sequence sent at the last update (once per RTT) updates the rate; other ACKs do nothing.
 * The first such ACK only records its RTT (HPCC's {@code m_lastUpdateSeq == 0}).</li>
 * <li>rttDiff = (1 - alpha) rttDiff + alpha (rtt - lastRtt); gradient = rttDiff / minRtt.</li>
 * <li>rtt &lt; T_low: increase; rtt &gt; T_high: rate = rate (1 - beta (1 - T_high / rtt)); otherwise a gradient
 * &le; 0 increases and a positive one sets rate = rate max(0, 1 - beta gradient).</li>
 * <li>An increase adds {@code cc.timely.rate_ai}, or {@code cc.timely.rate_hai} once five increases in a row have
 * happened (HPCC's {@code m_incStage < 5}), capped at the line rate; a decrease resets the count and keeps the rate at
 * least {@code cc.min_rate}.</li>
 * <li>At the update the sequence sent so far becomes the next update's mark and the RTT becomes lastRtt.</li>
 * </ul>
 * No window (HPCC run.py {@code --cc timely}: HAS_WIN 0). As in HPCC, the rate is set directly: the next send time
 * computed when the last packet left is not moved (unlike HPCC's and DCQCN's {@code ChangeRate}). The rate starts at
 * line rate. Times are picoseconds: the thresholds are HPCC's nanosecond attributes times 1000.
 */
public final class Timely extends RateController {

    /** Increases in a row after which the hyper step applies (HPCC's {@code m_incStage < 5}, not an attribute). */
    public static final int HAI_AFTER = 5;

    /**
     * TIMELY's parameters (see {@link CcParams}).
     *
     * @param minRateBps cc.min_rate
     * @param alpha the EWMA gain of the RTT difference, cc.timely.alpha_permille / 1000 (HPCC's TimelyAlpha)
     * @param beta the multiplicative decrease factor, cc.timely.beta_permille / 1000 (TimelyBeta)
     * @param tLowPs cc.timely.t_low (TimelyTLow)
     * @param tHighPs cc.timely.t_high (TimelyTHigh)
     * @param minRttPs cc.timely.min_rtt, the gradient's normaliser (TimelyMinRtt)
     * @param rateAiBps cc.timely.rate_ai (RATE_AI)
     * @param rateHaiBps cc.timely.rate_hai (RATE_HAI)
     */
    public record Config(long minRateBps, double alpha, double beta, long tLowPs, long tHighPs, long minRttPs,
            long rateAiBps, long rateHaiBps) {
        /** Checks the values are usable. */
        public Config {
            if (minRateBps <= 0 || !(alpha > 0 && alpha <= 1) || !(beta >= 0 && beta <= 1) || tLowPs < 0
                    || tHighPs <= tLowPs || minRttPs <= 0 || rateAiBps < 0 || rateHaiBps < 0) {
                throw new IllegalArgumentException("bad TIMELY parameters");
            }
        }
    }

    private final Config c;
    private long curRateBps;
    private int incStage;
    private double rttDiffPs;
    private long lastRttPs;
    private long lastUpdateSeq;
    private double lastGradient;

    /**
     * @param lineRateBps the NIC's line rate
     * @param config the parameters
     */
    public Timely(long lineRateBps, Config config) {
        super(lineRateBps);
        if (config.minRateBps() > lineRateBps) {
            throw new IllegalArgumentException("TIMELY min rate above the line rate");
        }
        this.c = config;
        this.curRateBps = lineRateBps;
    }

    /** Returns the increases in a row so far (HPCC's {@code m_incStage}). */
    public int incStage() {
        return incStage;
    }

    /** Returns the EWMA of the RTT difference, picoseconds. */
    public double rttDiffPs() {
        return rttDiffPs;
    }

    /** Returns the RTT recorded at the last update, picoseconds (0 before the first). */
    public long lastRttPs() {
        return lastRttPs;
    }

    /** Returns the gradient (rttDiff / minRtt) the last update computed (0 before the second RTT sample). */
    public double lastGradient() {
        return lastGradient;
    }

    @Override
    public void onAck(long nowPs, long ackSeq, long sndNxt, boolean ecnEcho, IntHops hops, long echoedSentPs) {
        if (echoedSentPs < 0 || ackSeq <= lastUpdateSeq) {
            return; // no RTT sample, or not a full RTT of feedback yet (HPCC's FastReactTimely does nothing)
        }
        long rtt = nowPs - echoedSentPs;
        if (lastUpdateSeq != 0) {
            long newRttDiff = rtt - lastRttPs;
            double rttDiff = (1 - c.alpha()) * rttDiffPs + c.alpha() * newRttDiff;
            double gradient = rttDiff / c.minRttPs();
            lastGradient = gradient;
            boolean inc;
            double factor = 0;
            if (rtt < c.tLowPs()) {
                inc = true;
            } else if (rtt > c.tHighPs()) {
                factor = 1 - c.beta() * (1 - (double) c.tHighPs() / rtt);
                inc = false;
            } else if (gradient <= 0) {
                inc = true;
            } else {
                factor = Math.max(0, 1 - c.beta() * gradient);
                inc = false;
            }
            if (inc) {
                long step = incStage < HAI_AFTER ? c.rateAiBps() : c.rateHaiBps();
                long r = curRateBps + step;
                rateBps = r < curRateBps || r > lineRateBps ? lineRateBps : r;
                incStage++;
            } else {
                rateBps = Math.max(c.minRateBps(), (long) (curRateBps * factor));
                incStage = 0;
            }
            curRateBps = rateBps;
            rttDiffPs = rttDiff;
        }
        if (sndNxt > lastUpdateSeq) {
            lastUpdateSeq = sndNxt;
            lastRttPs = rtt;
        }
    }
}
