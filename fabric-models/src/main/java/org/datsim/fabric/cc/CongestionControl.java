package org.datsim.fabric.cc;

import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;

/**
 * The congestion control of a fabric, read once from the {@code cc.*} parameters: it makes a {@link RateController}
 * for each sending queue pair and a {@link DcqcnNotificationPoint} for each receiving one, and says what the rest of
 * the fabric must provide (ECN marks, CNPs, INT records; TIMELY needs only the send times its ACKs echo, which every
 * ACK of a data packet carries).
 */
public final class CongestionControl {

    /** The algorithms of {@code cc.algorithm}. */
    public enum Algorithm {
        /** No congestion control. */
        NONE,
        /** DCQCN. */
        DCQCN,
        /** HPCC. */
        HPCC,
        /** DCTCP. */
        DCTCP,
        /** TIMELY. */
        TIMELY
    }

    private final Algorithm algorithm;
    private final long minRateBps;
    private final long baseRttPs;
    private final long windowBytes;
    private final long cnpIntervalPs;
    private final long timeResolutionPs;
    private final long mtuBytes;
    private final int headerBytes;
    private final boolean cnpOnAck;
    private final Dcqcn.Config dcqcn;
    private final Hpcc.Config hpcc;
    private final Dctcp.Config dctcp;
    private final Timely.Config timely;

    private CongestionControl(Params p) {
        algorithm = Algorithm.valueOf(p.choice(CcParams.ALGORITHM).toUpperCase(java.util.Locale.ROOT));
        minRateBps = p.get(CcParams.MIN_RATE);
        baseRttPs = p.get(CcParams.BASE_RTT);
        windowBytes = p.get(CcParams.WINDOW);
        cnpIntervalPs = p.get(CcParams.DCQCN_CNP_INTERVAL);
        timeResolutionPs = p.get(org.datsim.fabric.FabricParams.LINK_TIME_RESOLUTION);
        mtuBytes = p.get(FabricParams.HCA_MTU);
        headerBytes = headerBytes(p);
        cnpOnAck = algorithm == Algorithm.DCQCN && p.bool(CcParams.DCQCN_CNP_ON_ACK);
        dcqcn = algorithm != Algorithm.DCQCN ? null
                : new Dcqcn.Config(minRateBps, p.get(CcParams.DCQCN_ALPHA_INTERVAL),
                        p.get(CcParams.DCQCN_RATE_DECREASE_INTERVAL), p.get(CcParams.DCQCN_RP_TIMER),
                        1.0 / p.get(CcParams.DCQCN_G_DENOMINATOR), (int) p.get(CcParams.DCQCN_FAST_RECOVERY_TIMES),
                        p.get(CcParams.DCQCN_RATE_AI), p.get(CcParams.DCQCN_RATE_HAI),
                        p.bool(CcParams.DCQCN_CLAMP_TARGET_RATE), p.get(CcParams.DCQCN_BYTE_COUNTER));
        hpcc = algorithm != Algorithm.HPCC ? null
                : new Hpcc.Config(minRateBps, p.get(CcParams.HPCC_ETA_PERCENT) / 100.0, p.get(CcParams.HPCC_RATE_AI),
                        (int) p.get(CcParams.HPCC_MAX_STAGE), p.bool(CcParams.HPCC_FAST_REACT),
                        p.get(CcParams.HPCC_INT_BYTE_UNIT), p.get(CcParams.HPCC_INT_QLEN_UNIT));
        dctcp = algorithm != Algorithm.DCTCP ? null
                : new Dctcp.Config(minRateBps, 1.0 / p.get(CcParams.DCTCP_G_DENOMINATOR), p.get(CcParams.DCTCP_RATE_AI),
                        mtuBytes);
        timely = algorithm != Algorithm.TIMELY ? null
                : new Timely.Config(minRateBps, p.get(CcParams.TIMELY_ALPHA_PERMILLE) / 1000.0,
                        p.get(CcParams.TIMELY_BETA_PERMILLE) / 1000.0, p.get(CcParams.TIMELY_T_LOW),
                        p.get(CcParams.TIMELY_T_HIGH), p.get(CcParams.TIMELY_MIN_RTT), p.get(CcParams.TIMELY_RATE_AI),
                        p.get(CcParams.TIMELY_RATE_HAI));
    }

    /**
     * Reads the congestion control from validated parameters (see {@link CcParams#crossCheck}).
     *
     * @param p the fabric parameters
     * @return the congestion control
     */
    public static CongestionControl fromParams(Params p) {
        return new CongestionControl(p);
    }

    /** Returns the algorithm. */
    public Algorithm algorithm() {
        return algorithm;
    }

    /**
     * The bytes an algorithm adds to data packets and ACKs in HPCC's simulator (its IntHeader in the mode the
     * algorithm sets): HPCC's INT header, 5 hop records of 8 bytes and a 2-byte count; TIMELY's 8-byte send time;
     * nothing for the others.
     */
    private static int defaultHeaderBytes(Algorithm a) {
        return switch (a) {
            case HPCC -> 42;
            case TIMELY -> 8;
            case NONE, DCQCN, DCTCP -> 0;
        };
    }

    /**
     * Returns the bytes the congestion control of these parameters adds to every data packet and every ACK or NAK
     * (cc.header_bytes, or the algorithm's own; 0 with none), without checking the rest of its parameters.
     *
     * @param p the parameters
     * @return the bytes
     */
    public static int headerBytes(Params p) {
        Algorithm a = Algorithm.valueOf(p.choice(CcParams.ALGORITHM).toUpperCase(java.util.Locale.ROOT));
        long header = p.get(CcParams.HEADER_BYTES);
        return a == Algorithm.NONE ? 0 : header >= 0 ? (int) header : defaultHeaderBytes(a);
    }

    /**
     * Returns the ACK interval a responder uses (transport.ack_interval): 0, one ACK per message, means one ACK per
     * packet under the algorithms that react to every ACK (hpcc, dctcp, timely), as HPCC's L2_ACK_INTERVAL 1.
     *
     * @param ackInterval transport.ack_interval
     * @param algorithm the algorithm, null for none
     * @return the interval in effect, in packets (0 = per message)
     */
    public static int effectiveAckInterval(long ackInterval, Algorithm algorithm) {
        if (ackInterval == 0 && (algorithm == Algorithm.HPCC || algorithm == Algorithm.DCTCP
                || algorithm == Algorithm.TIMELY)) {
            return 1;
        }
        return (int) ackInterval;
    }

    /**
     * Returns the bytes this congestion control adds to every data packet and every ACK or NAK (cc.header_bytes, or
     * the algorithm's own; 0 with none).
     */
    public int headerBytes() {
        return headerBytes;
    }

    /** Returns whether switches must ECN-mark packets and receivers answer marks (dcqcn with CNPs, dctcp with ACKs). */
    public boolean usesEcn() {
        return algorithm == Algorithm.DCQCN || algorithm == Algorithm.DCTCP;
    }

    /** Returns whether receivers send CNPs through a {@link DcqcnNotificationPoint}. */
    public boolean usesCnp() {
        return algorithm == Algorithm.DCQCN && !cnpOnAck;
    }

    /**
     * Returns whether an ACK that echoes an ECN mark notifies the sender's DCQCN (cc.dcqcn.cnp_on_ack: HPCC's
     * simulator's CNP flag on the ACK), instead of CNP packets.
     */
    public boolean cnpOnAck() {
        return cnpOnAck;
    }

    /** Returns whether switches append INT records that ACKs echo. */
    public boolean usesInt() {
        return algorithm == Algorithm.HPCC;
    }

    /**
     * Returns the base RTT the controllers use.
     *
     * @param topologyMaxRttPs the largest unloaded RTT between two hosts (HPCC's maxRtt)
     * @return cc.base_rtt if set, else the topology's
     */
    public long baseRttPs(long topologyMaxRttPs) {
        return baseRttPs > 0 ? baseRttPs : topologyMaxRttPs;
    }

    /**
     * Returns the window at line rate the controllers use.
     *
     * @param topologyMaxBdpBytes the largest bandwidth-delay product between two hosts (HPCC's maxBdp)
     * @return cc.window if set, else the topology's
     */
    public long windowBytes(long topologyMaxBdpBytes) {
        return windowBytes > 0 ? windowBytes : topologyMaxBdpBytes;
    }

    /**
     * Makes the controller of one sending queue pair.
     *
     * @param lineRateBps the line rate of its NIC port
     * @param topologyMaxRttPs the largest unloaded RTT between two hosts, picoseconds (used by hpcc unless
     *        cc.base_rtt is set)
     * @param topologyMaxBdpBytes the largest bandwidth-delay product between two hosts, bytes (used by hpcc and
     *        dctcp unless cc.window is set)
     * @param timers the owner's timers for this queue pair (used by dcqcn)
     * @return a new controller
     */
    public RateController newController(long lineRateBps, long topologyMaxRttPs, long topologyMaxBdpBytes,
            CcTimers timers) {
        RateController rc = switch (algorithm) {
            case NONE -> new NoCc(lineRateBps);
            case DCQCN -> new Dcqcn(lineRateBps, dcqcn, timers);
            case HPCC -> new Hpcc(lineRateBps, hpcc, baseRttPs(topologyMaxRttPs), windowBytes(topologyMaxBdpBytes));
            case DCTCP -> new Dctcp(lineRateBps, dctcp, windowBytes(topologyMaxBdpBytes));
            case TIMELY -> new Timely(lineRateBps, timely);
        };
        rc.setTimeResolution(timeResolutionPs);
        return rc;
    }

    /**
     * Makes the notification point of one receiving queue pair (meaningful with {@link #usesCnp()}).
     *
     * @return a new notification point
     */
    public DcqcnNotificationPoint newNotificationPoint() {
        return new DcqcnNotificationPoint(cnpIntervalPs);
    }
}
