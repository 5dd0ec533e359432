package org.datsim.scenario.calibrate;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSink;
import org.datsim.fabric.FabricParams;
import org.datsim.scenario.load.Scenario;

/**
 * {@code datsim perftest}: one perftest command (ib_write_lat, ib_write_bw, ib_read_lat, ib_read_bw, ib_send_lat,
 * ib_send_bw) run as generated scenarios of the DAT calls that perftest's loop makes, and reported with perftest's
 * own statistics and table format (linux-rdma/perftest, src/perftest_parameters.c {@code print_report_lat},
 * {@code print_report_bw}, {@code print_full_bw_report}, format strings from src/perftest_parameters.h).
 *
 * <p>What is modelled, per test:
 * <ul>
 *   <li>latency tests: {@code n} iterations; the samples are the {@code n - 1} differences between successive
 *       posts of the client, divided by 2 for Send and Write (a ping-pong) and not for Read. ib_write_lat's peer
 *       polls memory, which DAT cannot express: its Writes are posted one at a time and a half round trip is the
 *       post ({@code cpu.post_overhead}), the traced post-to-placement time and the peer's poll
 *       ({@code cpu.poll_overhead}), as in {@link Calibration}.</li>
 *   <li>bandwidth tests: perftest's post loop (per QP at most {@code tx_depth} outstanding, every {@code cq_mod}-th
 *       post signalled and the others posted with DAT_COMPLETION_SUPPRESS_FLAG, one completion reaped at a time);
 *       {@code tposted} are the client's post calls and {@code tcompleted} the signalled completions, so the peak and
 *       the average are perftest's formulas over the same arrays. {@code -b} adds the same client in the other
 *       direction (its own connection) and sums the two reports, as perftest sums the local and remote ones.</li>
 * </ul>
 * A timed run ({@code -D}) is {@link PerftestTimed}'s; the generated scenarios are {@link PerftestScenario}'s.
 */
public final class PerftestRun {

    /** perftest's MAX_SIZE: the largest size {@code -a} runs. */
    public static final long MAX_SIZE = 1L << 23;
    /** perftest's MIN_ITER. */
    public static final int MIN_ITER = 5;
    /** perftest's DEF_CQ_MOD. */
    public static final int DEF_CQ_MOD = 100;
    /** perftest's MSG_SIZE_CQ_MOD_LIMIT: above it, without -a, completions are not moderated. */
    static final long MSG_SIZE_CQ_MOD_LIMIT = 8192;
    /** perftest's DEF_RX_SEND: receives kept posted by the Send bandwidth server. */
    static final int DEF_RX_SEND = 512;
    /** perftest's LAT_MEASURE_TAIL: the largest samples left out of a latency report. */
    static final int LAT_MEASURE_TAIL = 2;
    /** perftest's MAX_OUT_READ_HERMON: outstanding Reads on ConnectX. */
    static final int OUT_READS = 16;

    /** perftest's RESULT_LINE. */
    public static final String RESULT_LINE =
            "---------------------------------------------------------------------------------------";
    /** perftest's RESULT_FMT (MiB/sec, since perftest 24.x; older versions printed MB/sec). */
    public static final String RESULT_FMT =
            " #bytes     #iterations    BW peak[MiB/sec]    BW average[MiB/sec]   MsgRate[Mpps]";
    /** perftest's RESULT_FMT_G (--report_gbits). */
    public static final String RESULT_FMT_G =
            " #bytes     #iterations    BW peak[Gb/sec]    BW average[Gb/sec]   MsgRate[Mpps]";
    /** perftest's RESULT_FMT_LAT. */
    public static final String RESULT_FMT_LAT = " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]"
            + "    t_avg[usec]    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec] ";
    /** perftest's REPORT_FMT, as a Java format. */
    static final String REPORT_FMT = " %-7d    %-10d       %-7s            %-7s\t\t     %-7s";
    /** perftest's REPORT_FMT_EXT (Gb/sec below 0.1), as a Java format. */
    static final String REPORT_FMT_EXT = " %-7d    %d           %-7s            %-7s            %-7s";
    /** perftest's REPORT_FMT_LAT, as a Java format. */
    static final String REPORT_FMT_LAT =
            " %-7d %d          %-7s        %-7s      %-7s  \t       %-7s     \t%-7s\t\t%-7s \t\t%-7s";

    /** The eight tests. */
    public enum Test {
        WRITE_LAT("ib_write_lat", "RDMA_Write", false, "dat_ep_post_rdma_write"),
        WRITE_BW("ib_write_bw", "RDMA_Write", true, "dat_ep_post_rdma_write"),
        READ_LAT("ib_read_lat", "RDMA_Read", false, "dat_ep_post_rdma_read"),
        READ_BW("ib_read_bw", "RDMA_Read", true, "dat_ep_post_rdma_read"),
        SEND_LAT("ib_send_lat", "Send", false, "dat_ep_post_send"),
        SEND_BW("ib_send_bw", "Send", true, "dat_ep_post_send"),
        ATOMIC_LAT("ib_atomic_lat", "Atomic", false, "dat_ib_post_fetch_and_add"),
        ATOMIC_BW("ib_atomic_bw", "Atomic", true, "dat_ib_post_fetch_and_add");

        /** perftest's size of an atomic (sizeof(uint64_t)): the only size of ib_atomic_lat and ib_atomic_bw. */
        public static final long ATOMIC_SIZE = 8;

        /** The perftest command. */
        public final String command;
        /** perftest's testsStr. */
        final String verb;
        /** True for the bandwidth tests. */
        public final boolean bw;
        final String call;

        Test(String command, String verb, boolean bw, String call) {
            this.command = command;
            this.verb = verb;
            this.bw = bw;
            this.call = call;
        }

        /** perftest's default -n: DEF_ITERS_WB (5000) for ib_write_bw, DEF_ITERS (1000) for the others. */
        public int defaultIters() {
            return this == WRITE_BW ? 5000 : 1000;
        }

        /** perftest's default -t: DEF_TX_BW (128) for bandwidth tests, DEF_TX_LAT (1) for latency tests. */
        public int defaultTxDepth() {
            return bw ? 128 : 1;
        }

        /** perftest's default inline size on RC: 220 B for Write latency, 236 B for Send latency, else 0. */
        public long defaultInline() {
            return this == WRITE_LAT ? 220 : this == SEND_LAT ? 236 : 0;
        }

        /** Reads and atomics: a full round trip per sample (perftest's rtt factor 1), read credits. */
        boolean isRead() {
            return this == READ_LAT || this == READ_BW || isAtomic();
        }

        /** ib_atomic_lat and ib_atomic_bw (perftest's default atomic, FETCH_AND_ADD). */
        public boolean isAtomic() {
            return this == ATOMIC_LAT || this == ATOMIC_BW;
        }

        boolean isSend() {
            return this == SEND_LAT || this == SEND_BW;
        }

        /**
         * Returns the test of a perftest command name, or null.
         *
         * @param command for example "ib_write_bw"
         * @return the test or null
         */
        public static Test named(String command) {
            for (Test t : values()) {
                if (t.command.equals(command)) {
                    return t;
                }
            }
            return null;
        }
    }

    /**
     * A run's options, perftest's after its own defaults and dependencies are applied (see {@link #resolve}).
     *
     * @param test the test
     * @param sizes the message sizes
     * @param all true for {@code -a} (perftest then keeps completion moderation at every size)
     * @param iters iterations per QP
     * @param qps QPs
     * @param txDepth outstanding posts per QP
     * @param cqMod completion moderation (bandwidth tests)
     * @param mtu the path MTU in bytes, or 0 for the preset's
     * @param inline the inline size in bytes
     * @param bidirectional {@code -b}
     * @param gbits {@code --report_gbits}
     * @param preset the fabric preset
     * @param switches switches in a chain between the two hosts
     * @param durationPs {@code -D}: the simulated time of a timed run in picoseconds (perftest's are whole seconds;
     *     tests take less), or 0 for a count of iterations
     * @param marginPs {@code -f}: the time at each end of a timed run left out of the sample, in picoseconds (see
     *     {@link PerftestTimed})
     */
    public record Options(Test test, List<Long> sizes, boolean all, int iters, int qps, int txDepth, int cqMod,
            long mtu, long inline, boolean bidirectional, boolean gbits, String preset, int switches, long durationPs,
            long marginPs) {

        /** The options of a run of a count of iterations (not timed). */
        public Options(Test test, List<Long> sizes, boolean all, int iters, int qps, int txDepth, int cqMod,
                long mtu, long inline, boolean bidirectional, boolean gbits, String preset, int switches) {
            this(test, sizes, all, iters, qps, txDepth, cqMod, mtu, inline, bidirectional, gbits, preset, switches,
                    0, 0);
        }

        /** True for perftest's duration mode ({@code -D}). */
        public boolean timed() {
            return durationPs > 0;
        }

        /** perftest's force_dependecies for one size: tx depth at most iters, cq_mod at most tx depth, 1 if large. */
        int cqModAt(long size) {
            int cq = cqMod;
            if (size > MSG_SIZE_CQ_MOD_LIMIT && !all) {
                cq = 1;
            }
            return Math.min(cq, txDepth);
        }
    }

    /** One row of a latency table, in microseconds. */
    public record LatRow(long size, long iters, double tMin, double tMax, double tTypical, double tAvg,
            double tStdev, double p99, double p999) {
    }

    /** One row of a bandwidth table: BW in MiB/s or Gb/s, the message rate in Mpps. */
    public record BwRow(long size, long iters, double peak, double avg, double msgRate) {
    }

    private PerftestRun() {
    }

    /** The sizes of {@code -a}: 2 B to 8 MiB (perftest runs 2^1 .. 2^23). */
    public static List<Long> allSizes() {
        List<Long> s = new ArrayList<>();
        for (int i = 1; i < 24; i++) {
            s.add(1L << i);
        }
        return List.copyOf(s);
    }

    /**
     * Returns the options with perftest's dependencies applied: tx depth at most the iterations (not in a timed run,
     * which has no count); cq_mod at most the tx depth.
     *
     * @param o the options as given
     * @return the options perftest would run
     */
    public static Options resolve(Options o) {
        int tx = o.timed() ? o.txDepth() : Math.min(o.txDepth(), o.iters());
        return new Options(o.test(), o.sizes(), o.all(), o.iters(), o.qps(), tx, Math.min(o.cqMod(), tx), o.mtu(),
                o.inline(), o.bidirectional(), o.gbits(), o.preset(), o.switches(), o.durationPs(), o.marginPs());
    }

    // ------------------------------------------------------------------ statistics (perftest's formulas)

    /**
     * perftest's print_report_lat: sorts the samples, leaves out the {@link #LAT_MEASURE_TAIL} largest, and reports
     * min, max (the largest kept), median (perftest's get_median), mean, standard deviation and the 99% and 99.9%
     * percentiles (element ceil(cnt * p) of the sorted samples). The deviation keeps perftest's integer arithmetic:
     * each difference from the mean is truncated to whole microseconds before it is squared, so variations under
     * 1 us give 0.00, as perftest prints them.
     *
     * @param size the message size
     * @param iters the iterations reported
     * @param samplesPs the samples in picoseconds (perftest's cycles), iters - 1 of them
     * @param rttFactor 2 for ping-pong tests, 1 for Read
     * @return the row
     */
    public static LatRow latRow(long size, long iters, long[] samplesPs, int rttFactor) {
        long[] delta = samplesPs.clone();
        Arrays.sort(delta);
        int cnt = delta.length - LAT_MEASURE_TAIL;
        if (cnt < 1) {
            throw new IllegalArgumentException("a latency report needs at least " + (LAT_MEASURE_TAIL + 1)
                    + " samples, found " + delta.length);
        }
        double q = 1e6 * rttFactor;
        long median = (cnt - 1) % 2 != 0 ? (delta[cnt / 2] + delta[cnt / 2 - 1]) / 2 : delta[cnt / 2];
        double sum = 0;
        for (int i = 0; i < cnt; i++) {
            sum += delta[i] / q;
        }
        double avg = sum / cnt;
        double stdevSum = 0;
        for (int i = 0; i < cnt; i++) {
            int tempVar = (int) (avg - delta[i] / q);
            int powVar = (int) Math.pow(tempVar, 2);
            stdevSum += powVar;
        }
        int i99 = (int) Math.ceil(cnt * 0.99);
        int i999 = (int) Math.ceil(cnt * 0.999);
        return new LatRow(size, iters, delta[0] / q, delta[cnt] / q, median / q, avg, Math.sqrt(stdevSum / cnt),
                delta[i99] / q, delta[i999] / q);
    }

    /**
     * perftest's print_report_bw: the average is all the bytes over the time from the first post to the last
     * completion; the peak is the best, over every first post i and every moderated completion j after it, of
     * (tcompleted[j] - tposted[i]) / (j - i + 1) per message.
     *
     * @param size the message size
     * @param tposted post times in ps, one per message (all QPs, in posting order)
     * @param tcompleted completion times in ps, one per message (the time its moderated completion was reaped)
     * @param cqMod the completion moderation
     * @param gbits Gb/s instead of MiB/s
     * @return the row
     */
    public static BwRow bwRow(long size, long[] tposted, long[] tcompleted, int cqMod, boolean gbits) {
        int n = tposted.length;
        long optDelta = tcompleted[0] - tposted[0];
        for (int i = 0; i < n; i++) {
            for (int j = roundUp(i + 1, cqMod) - 1; j < n; j += cqMod) {
                long t = (tcompleted[j] - tposted[i]) / (j - i + 1);
                optDelta = Math.min(optDelta, t);
            }
            if (n % cqMod != 0) {
                int j = n - 1;
                long t = (tcompleted[j] - tposted[i]) / (j - i + 1);
                optDelta = Math.min(optDelta, t);
            }
        }
        double unitsPerSecond = 1e12;
        double format = gbits ? 125_000_000.0 : 0x100000;
        double cycles = tcompleted[n - 1] - tposted[0];
        double avg = (double) size * n * unitsPerSecond / (cycles * format);
        double rate = n * unitsPerSecond / (cycles * 1e6);
        double peak = (double) size * unitsPerSecond / (optDelta * format);
        return new BwRow(size, n, peak, avg, rate);
    }

    private static int roundUp(int value, int multiple) {
        return (value + multiple - 1) / multiple * multiple;
    }

    /** Sums two reports, as perftest's print_full_bw_report sums the local and the remote one of {@code -b}. */
    static BwRow sum(BwRow a, BwRow b) {
        return new BwRow(a.size(), a.iters(), a.peak() + b.peak(), a.avg() + b.avg(), a.msgRate() + b.msgRate());
    }

    /** A latency row in perftest's REPORT_FMT_LAT. */
    public static String format(LatRow r) {
        return String.format(Locale.ROOT, REPORT_FMT_LAT, r.size(), r.iters(), c(r.tMin(), 2), c(r.tMax(), 2),
                c(r.tTypical(), 2), c(r.tAvg(), 2), c(r.tStdev(), 2), c(r.p99(), 2), c(r.p999(), 2));
    }

    /** A bandwidth row in perftest's REPORT_FMT (or REPORT_FMT_EXT for Gb/s averages under 0.1, as perftest). */
    public static String format(BwRow r, boolean gbits) {
        boolean ext = gbits && r.avg() < 0.1;
        int d = ext ? 6 : 2;
        return String.format(Locale.ROOT, ext ? REPORT_FMT_EXT : REPORT_FMT, r.size(), r.iters(), c(r.peak(), d),
                c(r.avg(), d), c(r.msgRate(), 6));
    }

    /**
     * C's printf("%.Nf"): the exact binary value rounded half to even (Java's Formatter rounds half up, which prints
     * 1235.125 as 1235.13 where perftest prints 1235.12).
     */
    static String c(double v, int decimals) {
        return new java.math.BigDecimal(v).setScale(decimals, java.math.RoundingMode.HALF_EVEN).toPlainString();
    }

    // ------------------------------------------------------------------ the report

    /**
     * Runs every size and prints perftest's output: the header block, the column line, one row per size, the closing
     * line.
     *
     * @param given the options (resolved here)
     * @param out where to print
     * @throws IllegalArgumentException if the preset, a parameter or the generated scenario is invalid
     */
    public static void report(Options given, PrintWriter out) {
        report(given, out, size -> { });
    }

    /**
     * Runs every size and prints perftest's report, telling {@code sizeStarted} each size before it runs (a
     * progress display).
     *
     * @param given the options
     * @param out where the table goes
     * @param sizeStarted told each size as it starts
     */
    public static void report(Options given, PrintWriter out, java.util.function.LongConsumer sizeStarted) {
        if (given.timed()) {
            sizeStarted.accept(given.sizes().get(0));
            PerftestTimed.report(given, out, null);
            return;
        }
        Options o = resolve(given);
        boolean headerDone = false;
        for (long size : o.sizes()) {
            sizeStarted.accept(size);
            Measured m = measure(o, size);
            if (!headerDone) {
                header(o, m.scenario, out);
                out.println(RESULT_LINE);
                out.println(o.test().bw ? (o.gbits() ? RESULT_FMT_G : RESULT_FMT) : RESULT_FMT_LAT);
                headerDone = true;
            }
            out.println(m.line);
            out.flush();
        }
        out.println(RESULT_LINE);
        out.flush();
    }

    /** perftest's header block, with what datsim knows. */
    static void header(Options o, Scenario s, PrintWriter out) {
        Test t = o.test();
        long mtu = s.params().get(FabricParams.HCA_MTU);
        boolean eth = o.preset().startsWith("roce");
        out.println(RESULT_LINE);
        out.println("                    " + t.verb + " " + (t.bw ? (o.bidirectional() ? "Bidirectional BW " : "BW ")
                : "Latency ") + "Test");
        out.println(" Dual-port       : OFF\t\tDevice         : datsim:" + o.preset());
        out.println(" Number of qps   : " + o.qps() + "\t\tTransport type : IB");
        out.println(" Connection type : RC\t\tUsing SRQ      : OFF");
        out.println(" PCIe relax order: (not modelled)");
        out.println(" ibv_wr* API     : (not modelled)");
        out.println(" TX depth        : " + o.txDepth());
        if (t == Test.SEND_BW) {
            out.println(" RX depth        : " + (o.timed() ? DEF_RX_SEND : Math.min(DEF_RX_SEND, o.iters())));
        }
        if (t.bw) {
            out.println(" CQ Moderation   : " + o.cqModAt(o.sizes().get(0)));
        }
        out.println(" Mtu             : " + mtu + "[B]");
        out.println(" Link type       : " + (eth ? "Ethernet" : "IB"));
        if (t.isAtomic()) {
            out.println(" Atomic Type     : FETCH_AND_ADD");
        }
        if (t.isRead()) {
            out.println(" Outstand reads  : " + OUT_READS);
        } else {
            out.println(" Max inline data : " + o.inline() + "[B]");
        }
        out.println(" rdma_cm QPs\t : OFF");
        out.println(" Data ex. method : Ethernet");
        out.println(RESULT_LINE);
        out.println(" local address, remote address: not printed (datsim has no LIDs, QPNs, PSNs or keys)");
        out.println(" topology        : " + (o.switches() == 0 ? "back to back" : o.switches()
                + " switch" + (o.switches() == 1 ? "" : "es") + " in a chain") + " (datsim)");
    }

    /** A measured size: its row (a {@link LatRow} or a {@link BwRow}), its table line and the scenario it ran. */
    private record Measured(Object row, String line, Scenario scenario) {
    }

    /**
     * Runs one size of a latency test.
     *
     * @param given the options (resolved here); the test must be a latency test
     * @param size the message size
     * @return perftest's row
     */
    public static LatRow latency(Options given, long size) {
        return (LatRow) measure(resolve(given), size).row();
    }

    /**
     * Runs one size of a bandwidth test.
     *
     * @param given the options (resolved here); the test must be a bandwidth test
     * @param size the message size
     * @return perftest's row (Gb/s or MiB/s as the options say)
     */
    public static BwRow bandwidth(Options given, long size) {
        return (BwRow) measure(resolve(given), size).row();
    }

    private static Measured measure(Options o, long size) {
        Test t = o.test();
        Collector c = new Collector(o);
        Scenario s = Calibration.run(scenarioJson(o, size), c);
        if (!t.bw) {
            long[] samples;
            if (t == Test.WRITE_LAT) {
                long post = s.params().get(FabricParams.CPU_POST_OVERHEAD);
                long poll = s.params().get(FabricParams.CPU_POLL_OVERHEAD);
                List<Long> p2p = c.postToPlace;
                samples = new long[p2p.size() - 1];
                for (int i = 1; i < p2p.size(); i++) {
                    samples[i - 1] = 2 * (post + p2p.get(i) + poll);
                }
            } else {
                long[] posted = c.posted(0);
                samples = new long[posted.length - 1];
                for (int i = 0; i < samples.length; i++) {
                    samples[i] = posted[i + 1] - posted[i];
                }
            }
            LatRow row = latRow(size, o.iters(), samples, t.isRead() ? 1 : 2);
            return new Measured(row, format(row), s);
        }
        int cq = o.cqModAt(size);
        BwRow row = bwRow(size, c.posted(0), c.completed(0), cq, o.gbits());
        if (o.bidirectional()) {
            row = sum(row, bwRow(size, c.posted(1), c.completed(1), cq, o.gbits()));
        }
        return new Measured(row, format(row, o.gbits()), s);
    }

    // ------------------------------------------------------------------ scenarios
    /**
     * Returns the scenario of one size, as JSON text.
     *
     * @param given the options (resolved here)
     * @param size the message size
     * @return the scenario
     */
    public static String scenarioJson(Options given, long size) {
        return PerftestScenario.json(resolve(given), size);
    }

    /** Collects the post and completion times of the clients ("c", and "c2" with -b) from the trace. */
    private static final class Collector implements TraceSink<TraceEvent> {
        private final Options o;
        private final List<List<Long>> posted = List.of(new ArrayList<>(), new ArrayList<>());
        private final List<List<Long>> completed = List.of(new ArrayList<>(), new ArrayList<>());
        private final List<Map<Long, Integer>> index = List.of(new HashMap<>(), new HashMap<>());
        /** Per client side and endpoint: how many messages' completions are suppressed and not yet reaped. */
        private final List<Map<String, int[]>> unreaped = List.of(new HashMap<>(), new HashMap<>());
        final List<Long> postToPlace = new ArrayList<>();
        private final Map<Long, Long> postTimes = new HashMap<>();

        Collector(Options o) {
            this.o = o;
        }

        private int side(String host) {
            return "A".equals(host) ? 0 : 1;
        }

        @Override
        public void accept(TraceEvent e) {
            String opcode = e.attrValue(TraceKey.OPCODE) == null ? null : e.attrValue(TraceKey.OPCODE).toString();
            switch (e.kind()) {
                case TraceEvent.POST:
                    if (opcode != null && !opcode.equals("recv") && isClientOp(e.host(), opcode)) {
                        int side = side(e.host());
                        index.get(side).put(e.op(), posted.get(side).size());
                        posted.get(side).add(e.tPs());
                        postTimes.put(e.op(), e.tPs());
                    }
                    break;
                case TraceEvent.PLACE:
                    Long p = postTimes.get(e.op());
                    if (p != null) {
                        postToPlace.add(e.tPs() - p);
                    }
                    break;
                case TraceEvent.COMPLETE:
                    if (opcode != null && index.get(side(e.host())).containsKey(e.op())) {
                        int side = side(e.host());
                        int[] waiting = unreaped.get(side).computeIfAbsent(e.ep(), k -> new int[1]);
                        waiting[0]++;
                        if (e.attrValue(TraceKey.SUPPRESSED) == null) {
                            // perftest's tcompleted: a reaped completion counts every message it stands for
                            for (int k = 0; k < waiting[0]; k++) {
                                completed.get(side).add(e.tPs());
                            }
                            waiting[0] = 0;
                        }
                    }
                    break;
                default:
                    break;
            }
        }

        /** True for the clients' own posts: "c" on host A, "c2" on host B (only with -b, and not Send replies). */
        private boolean isClientOp(String host, String opcode) {
            if ("A".equals(host)) {
                return true;
            }
            return o.bidirectional() && !(o.test() == Test.SEND_LAT && opcode.equals("send"));
        }

        long[] posted(int side) {
            return toArray(posted.get(side));
        }

        long[] completed(int side) {
            long[] c = toArray(completed.get(side));
            if (c.length != posted.get(side).size()) {
                throw new IllegalStateException("perftest run: " + posted.get(side).size() + " posts but "
                        + c.length + " completions in the trace");
            }
            return c;
        }

        private static long[] toArray(List<Long> l) {
            long[] a = new long[l.size()];
            for (int i = 0; i < a.length; i++) {
                a[i] = l.get(i);
            }
            return a;
        }
    }
}
