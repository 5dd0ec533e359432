package org.datsim.fabric.cc;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.param.ParamSpec;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.core.time.SimTime;

/**
 * The congestion-control parameters, {@code cc.*}. The defaults are those of HPCC's {@code simulation/run.py} for
 * 100 Gb/s NICs ({@code --bw 100}; for DCQCN exactly the anchor's {@code config-dcqcn.txt}); where the paper's value
 * differs, the description gives it. Fractions are declared as whole numbers (a gain as 1/denominator, eta in
 * percent, as run.py's {@code --utgt}).
 */
public final class CcParams {

    private CcParams() {
    }

    /** The algorithm. */
    public static final ParamSpec ALGORITHM = ParamSpec.choice("cc.algorithm", "none",
            "Congestion control of every queue pair: none = line rate, no window; dcqcn = DCQCN (Zhu et al., SIGCOMM"
                    + " 2015) as HPCC's simulator's Mellanox version; hpcc = HPCC (Li et al., SIGCOMM 2019) with INT;"
                    + " dctcp = DCTCP in rate form as HPCC's simulator; timely = TIMELY (Mittal et al., SIGCOMM 2015)"
                    + " on RTTs from echoed send times, as HPCC's simulator", "none", "dcqcn", "hpcc", "dctcp", "timely");
    /** Lowest rate. */
    public static final ParamSpec MIN_RATE = ParamSpec.rate("cc.min_rate", "1000Mbps",
            "Lowest rate congestion control cuts a queue pair to (HPCC run.py MIN_RATE 1000Mb/s)");
    /** Base RTT. */
    public static final ParamSpec BASE_RTT = ParamSpec.time("cc.base_rtt", "0ns",
            "Base RTT T of hpcc (its EWMA and rate = W/T); 0 = the largest unloaded RTT between two hosts of the"
                    + " topology, as HPCC's simulator (maxRtt, GLOBAL_T 1)");
    /** Base window. */
    public static final ParamSpec WINDOW = ParamSpec.bytes("cc.window", "0B", 0, 1L << 40,
            "Window at line rate of hpcc and dctcp (scaled by rate / line rate); 0 = the largest bandwidth-delay"
                    + " product between two hosts of the topology, as HPCC's simulator (maxBdp, GLOBAL_T 1)");
    /** Header bytes a congestion-control algorithm adds. */
    public static final ParamSpec HEADER_BYTES = ParamSpec.integer("cc.header_bytes", -1, -1, 1024,
            "Bytes the congestion control adds to every data packet (Send, RDMA Write, RDMA Read response) and every"
                    + " ACK or NAK: -1 = the algorithm's own, as HPCC's simulator counts them: 42 for hpcc (its INT"
                    + " header: 5 hop records of 8 bytes and a 2-byte hop count, carried from the sender on), 8 for"
                    + " timely (the send time), 0 for dcqcn and dctcp (ECN rides in the IP header); ignored with"
                    + " cc.algorithm none");
    /** DCQCN alpha timer. */
    public static final ParamSpec DCQCN_ALPHA_INTERVAL = ParamSpec.time("cc.dcqcn.alpha_interval", "1us",
            "DCQCN: period of the alpha update (HPCC run.py ALPHA_RESUME_INTERVAL 1 us; paper 55 us)");
    /** DCQCN decrease check. */
    public static final ParamSpec DCQCN_RATE_DECREASE_INTERVAL = ParamSpec.time("cc.dcqcn.rate_decrease_interval",
            "4us", "DCQCN: period at which the reaction point cuts its rate if a CNP arrived since the last cut"
                    + " (HPCC run.py RATE_DECREASE_INTERVAL 4 us; paper 50 us)");
    /** DCQCN increase timer. */
    public static final ParamSpec DCQCN_RP_TIMER = ParamSpec.time("cc.dcqcn.rp_timer", "300us",
            "DCQCN: period of the rate-increase timer after a cut (HPCC run.py RP_TIMER 300 us; paper 55 us)");
    /** DCQCN gain. */
    public static final ParamSpec DCQCN_G_DENOMINATOR = ParamSpec.integer("cc.dcqcn.g_denominator", 256, 1, 1 << 20,
            "DCQCN: alpha gain g = 1 / this (HPCC run.py EWMA_GAIN 1/256, as the paper)");
    /** DCQCN F. */
    public static final ParamSpec DCQCN_FAST_RECOVERY_TIMES = ParamSpec.integer("cc.dcqcn.fast_recovery_times", 1, 0,
            1000, "DCQCN: F, increase events of fast recovery before additive increase (HPCC run.py"
                    + " FAST_RECOVERY_TIMES 1; paper 5)");
    /** DCQCN additive step. */
    public static final ParamSpec DCQCN_RATE_AI = ParamSpec.rate("cc.dcqcn.rate_ai", "20Mbps",
            "DCQCN: target-rate step of additive increase (HPCC run.py 5 Mb/s x bw/25 = 20 Mb/s at 100 Gb/s; paper"
                    + " 40 Mb/s)");
    /** DCQCN hyper step. */
    public static final ParamSpec DCQCN_RATE_HAI = ParamSpec.rate("cc.dcqcn.rate_hai", "200Mbps",
            "DCQCN: target-rate step of hyper increase (HPCC run.py 50 Mb/s x bw/25 = 200 Mb/s at 100 Gb/s)");
    /** DCQCN clamp. */
    public static final ParamSpec DCQCN_CLAMP_TARGET_RATE = ParamSpec.bool("cc.dcqcn.clamp_target_rate", false,
            "DCQCN: whether a cut always sets the target rate to the current rate; false = not when no increase"
                    + " happened since the last cut (HPCC run.py CLAMP_TARGET_RATE 0)");
    /** DCQCN byte counter. */
    public static final ParamSpec DCQCN_BYTE_COUNTER = ParamSpec.bytes("cc.dcqcn.byte_counter", "0B", 0, 1L << 40,
            "DCQCN: bytes sent per byte-counter increase event; 0 = no byte counter (HPCC's simulator; paper 10 MB)");
    /** DCQCN NP interval. */
    public static final ParamSpec DCQCN_CNP_INTERVAL = ParamSpec.time("cc.dcqcn.cnp_interval", "0ns",
            "DCQCN notification point: shortest time between two CNPs of a queue pair; 0 = one per ECN-marked packet"
                    + " (HPCC's simulator flags the ACK of each marked packet; paper 50 us)");
    /** DCQCN CNPs as a flag on ACKs. */
    public static final ParamSpec DCQCN_CNP_ON_ACK = ParamSpec.bool("cc.dcqcn.cnp_on_ack", false,
            "DCQCN: the congestion notification rides on the ACK of each ECN-marked packet (a flag, no packet of its"
                    + " own), as HPCC's simulator sends it; needs an ACK per packet (transport.ack_interval 1) and"
                    + " cc.dcqcn.cnp_interval 0. Off: a CNP packet of its own, as RoCEv2");
    /** HPCC eta. */
    public static final ParamSpec HPCC_ETA_PERCENT = ParamSpec.integer("cc.hpcc.eta_percent", 95, 1, 100,
            "HPCC: target utilisation eta, percent (HPCC run.py U_TARGET 0.95, as the paper)");
    /** HPCC additive step. */
    public static final ParamSpec HPCC_RATE_AI = ParamSpec.rate("cc.hpcc.rate_ai", "40Mbps",
            "HPCC: additive increase W_AI / T as a rate (HPCC run.py RATE_AI 10 Mb/s x bw/25 = 40 Mb/s at 100 Gb/s)");
    /** HPCC maxStage. */
    public static final ParamSpec HPCC_MAX_STAGE = ParamSpec.integer("cc.hpcc.max_stage", 0, 0, 1000,
            "HPCC: maxStage, additive updates before a multiplicative one while below eta (HPCC run.py MI_THRESH 0;"
                    + " paper 5)");
    /** HPCC fast react. */
    public static final ParamSpec HPCC_FAST_REACT = ParamSpec.bool("cc.hpcc.fast_react", true,
            "HPCC: whether every ACK sets the rate from the per-RTT reference rate (HPCC run.py FAST_REACT 1)");
    /** Unit of an INT record's transmitted bytes. */
    public static final ParamSpec HPCC_INT_BYTE_UNIT = ParamSpec.bytes("cc.hpcc.int_byte_unit", "1B", 1, 1 << 20,
            "HPCC: the unit a switch's INT record holds its port's transmitted bytes in (read rounded down); 1 B ="
                    + " exact. HPCC's simulator stores them in units of 128 bytes (IntHop::byteUnit, INT_MULTI 1); the"
                    + " hpcc-ns3 preset sets 128B");
    /** Unit of an INT record's queue length. */
    public static final ParamSpec HPCC_INT_QLEN_UNIT = ParamSpec.bytes("cc.hpcc.int_qlen_unit", "1B", 1, 1 << 20,
            "HPCC: the unit a switch's INT record holds its queue length in (read rounded down); 1 B = exact."
                    + " HPCC's simulator stores it in units of 80 bytes (IntHop::qlenUnit); the hpcc-ns3 preset sets"
                    + " 80B");
    /** DCTCP gain. */
    public static final ParamSpec DCTCP_G_DENOMINATOR = ParamSpec.integer("cc.dctcp.g_denominator", 16, 1, 1 << 20,
            "DCTCP: alpha gain g = 1 / this (HPCC run.py --cc dctcp EWMA_GAIN 0.0625, as the paper)");
    /** DCTCP additive step. */
    public static final ParamSpec DCTCP_RATE_AI = ParamSpec.rate("cc.dctcp.rate_ai", "615Mbps",
            "DCTCP: rate added per window without marks (HPCC run.py DCTCP_RATE_AI 615 Mb/s: one 1 KB MTU per"
                    + " 13 us RTT)");

    /** TIMELY alpha. */
    public static final ParamSpec TIMELY_ALPHA_PERMILLE = ParamSpec.integer("cc.timely.alpha_permille", 875, 1, 1000,
            "TIMELY: EWMA gain alpha of the RTT difference, per mille: rttDiff = (1 - alpha) rttDiff + alpha (rtt -"
                    + " last rtt) (HPCC TimelyAlpha 0.875)");
    /** TIMELY beta. */
    public static final ParamSpec TIMELY_BETA_PERMILLE = ParamSpec.integer("cc.timely.beta_permille", 800, 0, 1000,
            "TIMELY: multiplicative decrease factor beta, per mille: rate x (1 - beta x gradient) on a positive"
                    + " gradient, rate x (1 - beta (1 - t_high / rtt)) above t_high (HPCC TimelyBeta 0.8)");
    /** TIMELY T_low. */
    public static final ParamSpec TIMELY_T_LOW = ParamSpec.time("cc.timely.t_low", "50us",
            "TIMELY: an RTT below this always increases the rate (HPCC TimelyTLow 50000 ns)");
    /** TIMELY T_high. */
    public static final ParamSpec TIMELY_T_HIGH = ParamSpec.time("cc.timely.t_high", "500us",
            "TIMELY: an RTT above this always decreases the rate, by beta (1 - t_high / rtt) (HPCC TimelyTHigh"
                    + " 500000 ns)");
    /** TIMELY minRTT. */
    public static final ParamSpec TIMELY_MIN_RTT = ParamSpec.time("cc.timely.min_rtt", "20us",
            "TIMELY: minRTT, the gradient's normaliser: gradient = rttDiff / this (HPCC TimelyMinRtt 20000"
                    + " ns)");
    /** TIMELY additive step. */
    public static final ParamSpec TIMELY_RATE_AI = ParamSpec.rate("cc.timely.rate_ai", "100Mbps",
            "TIMELY: rate added by an increase (HPCC run.py --cc timely RATE_AI 10 Mb/s x bw/10 = 100 Mb/s at 100"
                    + " Gb/s)");
    /** TIMELY hyper step. */
    public static final ParamSpec TIMELY_RATE_HAI = ParamSpec.rate("cc.timely.rate_hai", "500Mbps",
            "TIMELY: rate added by an increase once five increases in a row have happened (HPCC run.py RATE_HAI"
                    + " 50 Mb/s x bw/10 = 500 Mb/s at 100 Gb/s; the count of five is fixed in HPCC's code)");

    /** Every congestion-control parameter in catalogue order. */
    public static final List<ParamSpec> ALL = List.of(ALGORITHM, MIN_RATE, BASE_RTT, WINDOW, HEADER_BYTES, DCQCN_ALPHA_INTERVAL,
            DCQCN_RATE_DECREASE_INTERVAL, DCQCN_RP_TIMER, DCQCN_G_DENOMINATOR, DCQCN_FAST_RECOVERY_TIMES, DCQCN_RATE_AI,
            DCQCN_RATE_HAI, DCQCN_CLAMP_TARGET_RATE, DCQCN_BYTE_COUNTER, DCQCN_CNP_INTERVAL, DCQCN_CNP_ON_ACK, HPCC_ETA_PERCENT,
            HPCC_RATE_AI, HPCC_MAX_STAGE, HPCC_FAST_REACT, HPCC_INT_BYTE_UNIT, HPCC_INT_QLEN_UNIT, DCTCP_G_DENOMINATOR, DCTCP_RATE_AI, TIMELY_ALPHA_PERMILLE,
            TIMELY_BETA_PERMILLE, TIMELY_T_LOW, TIMELY_T_HIGH, TIMELY_MIN_RTT, TIMELY_RATE_AI, TIMELY_RATE_HAI);

    /**
     * Checks the congestion-control parameters against each other and the link rate.
     *
     * @param p the parameters
     * @param linkRate the NIC line rate parameter (link.bandwidth)
     * @param flowControl the link flow control parameter (link.flow_control): InfiniBand credits have no ECN/INT path
     * @return one message per problem, each naming the parameters; empty if consistent
     */
    public static List<String> crossCheck(Params p, ParamSpec linkRate, ParamSpec flowControl) {
        List<String> out = new ArrayList<>();
        String algorithm = p.choice(ALGORITHM);
        if ("none".equals(algorithm)) {
            return out;
        }
        if ("ib_credits".equals(p.choice(flowControl))) {
            out.add("cc.algorithm " + algorithm + " is not available with " + flowControl.name()
                    + " ib_credits (InfiniBand links): it needs RoCE's ECN marking, CNPs or INT; InfiniBand congestion"
                    + " control (FECN/BECN) is not modelled; use a RoCE preset (roce-100g) or " + flowControl.name()
                    + " pfc");
        }
        long line = p.get(linkRate);
        if (p.get(MIN_RATE) > line) {
            out.add("cc.min_rate (" + DataRate.ofBitsPerSecond(p.get(MIN_RATE)) + ") must not exceed "
                    + linkRate.name() + " (" + DataRate.ofBitsPerSecond(line) + ")");
        }
        if ("dcqcn".equals(algorithm)) {
            for (ParamSpec s : List.of(DCQCN_ALPHA_INTERVAL, DCQCN_RATE_DECREASE_INTERVAL, DCQCN_RP_TIMER)) {
                if (p.get(s) <= 0) {
                    out.add(s.name() + " must be more than 0 with cc.algorithm dcqcn");
                }
            }
            if (p.bool(DCQCN_CNP_ON_ACK) && p.get(DCQCN_CNP_INTERVAL) != 0) {
                out.add("cc.dcqcn.cnp_on_ack needs cc.dcqcn.cnp_interval 0 (the ACK of every marked packet carries"
                        + " the notification)");
            }
            if (p.bool(DCQCN_CNP_ON_ACK) && p.get(org.datsim.fabric.FabricParams.ACK_INTERVAL) != 1) {
                out.add("cc.dcqcn.cnp_on_ack needs transport.ack_interval 1 (an ACK per packet to carry it)");
            }
        }
        if ("timely".equals(algorithm)) {
            if (p.get(TIMELY_T_LOW) >= p.get(TIMELY_T_HIGH)) {
                out.add("cc.timely.t_low (" + SimTime.format(p.get(TIMELY_T_LOW)) + ") must be below cc.timely.t_high ("
                        + SimTime.format(p.get(TIMELY_T_HIGH)) + ")");
            }
            if (p.get(TIMELY_MIN_RTT) <= 0) {
                out.add("cc.timely.min_rtt must be more than 0 with cc.algorithm timely (the gradient is divided by"
                        + " it)");
            }
        }
        return out;
    }
}
