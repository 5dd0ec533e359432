package org.datsim.scenario.calibrate;

import java.io.PrintWriter;
import java.util.Locale;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSink;
import org.datsim.fabric.FabricParams;
import org.datsim.scenario.calibrate.PerftestRun.BwRow;
import org.datsim.scenario.calibrate.PerftestRun.Options;
import org.datsim.scenario.calibrate.PerftestRun.Test;
import org.datsim.scenario.load.Scenario;

/**
 * perftest's duration mode ({@code -D SECONDS}, {@code -f/--margin SECONDS}) in simulated time, as
 * linux-rdma/perftest does it (src/perftest_resources.c {@code catch_alarm}, {@code run_iter_bw},
 * {@code run_iter_lat}; src/perftest_parameters.c {@code force_dependecies}, {@code print_report_bw},
 * {@code print_report_lat_duration}):
 * <ul>
 *   <li>perftest's alarm walks START, SAMPLE, STOP_SAMPLE and END: the sample begins {@code margin} seconds after the
 *       loop began and ends {@code duration - margin} seconds after; posting stops at {@code duration}. Here the loop
 *       is a repeat block bounded in simulated time ({@code "for": "5s"}, so it stops at the first post at or after
 *       the bound) and the sample window is {@code [margin, duration - margin)} after the client's first post.</li>
 *   <li>the iterations counted are the messages whose completions are reaped in the window: each signalled
 *       completion counts cq_mod messages (perftest's {@code user_param->iters += cq_mod}); latency tests count one
 *       per completion.</li>
 *   <li>bandwidth tests report BW average = bytes counted over the window (perftest's {@code tcompleted[0] -
 *       tposted[0]}, the two alarms: the window exactly), the MsgRate likewise, and BW peak 0.00 (perftest sets
 *       noPeak in duration mode and prints its WARNING line); latency tests print perftest's RESULT_FMT_LAT_DUR: t_avg
 *       = window / rtt factor / iterations, and tps average = iterations per second. ib_write_lat's peer polls
 *       memory, which DAT cannot express (see {@link PerftestRun}): its iterations are the modelled round trips
 *       (twice post, mean post-to-placement and poll) that fit in the window.</li>
 *   <li>the default margin is perftest's {@code duration / 4} (whole seconds); perftest requires
 *       {@code duration > 2 * margin}, refuses {@code -a} ("Duration mode currently doesn't support running on all
 *       sizes") and ignores {@code -n} (it sets iters to 0).</li>
 * </ul>
 * The collector keeps counts only: a run of millions of messages takes constant memory. The loops themselves (the
 * bandwidth post loop's steady state, the Send servers' loops that start and stop with their clients) are
 * {@link PerftestScenario}'s.
 */
public final class PerftestTimed {

    /** perftest's RESULT_FMT_LAT_DUR. */
    public static final String RESULT_FMT_LAT_DUR = " #bytes        #iterations       t_avg[usec]    tps average";
    /** perftest's REPORT_FMT_LAT_DUR, as a Java format. */
    static final String REPORT_FMT_LAT_DUR = " %-7d       %d            %-7s        %-7s";
    /** perftest's DEF_DURATION: the duration its margin is checked against when {@code -D} is not given. */
    public static final int DEF_DURATION = 5;
    /** The line perftest prints for a bandwidth test in duration mode (noPeak). */
    public static final String NO_PEAK_WARNING = " WARNING: BW peak won't be measured in this run.";

    private PerftestTimed() {
    }

    /**
     * perftest's margin when {@code -f} is not given (DEF_INIT_MARGIN): a quarter of the duration, in whole seconds.
     *
     * @param duration the duration in seconds
     * @return the margin in seconds
     */
    public static int defaultMargin(int duration) {
        return duration / 4;
    }

    /**
     * Returns why perftest refuses a timed run, or null: a duration that is not positive, a negative margin, a
     * duration not more than twice the margin, {@code -a}.
     *
     * @param duration {@code -D}
     * @param margin the margin (given or default)
     * @param all {@code -a}
     * @return the reason, or null
     */
    public static String refusal(int duration, int margin, boolean all) {
        if (duration <= 0) {
            return "-D " + duration + ": the duration is a positive number of seconds (perftest's \"Duration period\")";
        }
        if (margin < 0) {
            return "-f " + margin + ": the margin is a number of seconds, 0 or more (perftest's \"Margin\")";
        }
        if (duration <= 2 * margin) {
            return "-D " + duration + " -f " + margin + ": perftest: \"please check that DURATION > 2*MARGIN\" (the"
                    + " sample is the time between the margins)";
        }
        if (all) {
            return "-D with -a: perftest: \"Duration mode currently doesn't support running on all sizes.\"";
        }
        return null;
    }

    /** The simulated time a timed run has reached, for a progress display (read from another thread). */
    public static final class Clock {
        private volatile long nowPs;
        private volatile long startPs = -1;

        /** Simulated time reached since the client's first post (0 before it). */
        public long sinceStartPs() {
            long s = startPs;
            return s < 0 ? 0 : Math.max(0, nowPs - s);
        }
    }

    /**
     * Runs a timed test and prints perftest's report: its warning line (bandwidth tests), the header, the column
     * line, the row and the closing line.
     *
     * @param given the options (resolved here); {@link Options#timed()} must hold
     * @param out where the table goes
     * @param clock told the simulated time as the run goes (may be null)
     * @throws IllegalArgumentException if the preset, a parameter or the generated scenario is invalid
     */
    public static void report(Options given, PrintWriter out, Clock clock) {
        Options o = PerftestRun.resolve(given);
        Test t = o.test();
        long size = o.sizes().get(0);
        Measured m = measure(o, size, clock == null ? new Clock() : clock);
        if (t.bw) {
            out.println(NO_PEAK_WARNING);
        }
        PerftestRun.header(o, m.scenario, out);
        out.println(PerftestRun.RESULT_LINE);
        out.println(t.bw ? (o.gbits() ? PerftestRun.RESULT_FMT_G : PerftestRun.RESULT_FMT) : RESULT_FMT_LAT_DUR);
        out.println(m.line);
        out.println(PerftestRun.RESULT_LINE);
        out.flush();
    }

    /**
     * Runs a timed bandwidth test's size and returns its row (peak 0, as perftest's in duration mode).
     *
     * @param given the options (resolved here)
     * @return the row
     */
    public static BwRow bandwidth(Options given) {
        Options o = PerftestRun.resolve(given);
        return (BwRow) measure(o, o.sizes().get(0), new Clock()).row;
    }

    /**
     * Runs a timed latency test and returns its row.
     *
     * @param given the options (resolved here)
     * @return the row
     */
    public static LatRow latency(Options given) {
        Options o = PerftestRun.resolve(given);
        return (LatRow) measure(o, o.sizes().get(0), new Clock()).row;
    }

    /** A timed latency row: perftest's t_avg in microseconds and tps. */
    public record LatRow(long size, long iters, double tAvg, double tps) {
    }

    /** A row in perftest's REPORT_FMT_LAT_DUR. */
    public static String format(LatRow r) {
        return String.format(Locale.ROOT, REPORT_FMT_LAT_DUR, r.size(), r.iters(), PerftestRun.c(r.tAvg(), 2),
                PerftestRun.c(r.tps(), 2));
    }

    private record Measured(Object row, String line, Scenario scenario) {
    }

    private static Measured measure(Options o, long size, Clock clock) {
        Test t = o.test();
        long window = o.durationPs() - 2 * o.marginPs();
        Collector c = new Collector(o, clock);
        Scenario s = Calibration.run(PerftestScenario.json(o, size), c);
        double unitsPerSecond = 1e12;
        if (t.bw) {
            int cq = o.cqModAt(size);
            BwRow row = bwRow(size, c.reaped[0] * cq, window, o.gbits());
            if (o.bidirectional() && !t.isSend()) {
                // perftest sums the local and the remote report; for Sends in duration mode it prints its own only
                row = PerftestRun.sum(row, bwRow(size, c.reaped[1] * cq, window, o.gbits()));
            }
            return new Measured(row, PerftestRun.format(row, o.gbits()), s);
        }
        long iters;
        if (t == Test.WRITE_LAT) {
            // the modelled ping-pong (PerftestRun): a round trip is twice post + post-to-placement + the peer's poll;
            // the iterations are the round trips of the mean one that fit in the window
            long post = s.params().get(FabricParams.CPU_POST_OVERHEAD);
            long poll = s.params().get(FabricParams.CPU_POLL_OVERHEAD);
            if (c.placed == 0) {
                throw new IllegalStateException("perftest run: no Write placed in the sample window");
            }
            double rtt = 2 * (post + poll + (double) c.postToPlaceSum / c.placed);
            iters = (long) Math.floor(window / rtt);
        } else {
            iters = c.reaped[0];
        }
        if (iters == 0) {
            throw new IllegalStateException("perftest run: no iteration completed in the sample window");
        }
        int rttFactor = t.isRead() ? 1 : 2;
        double latency = window / unitsPerSecond * 1e6 / rttFactor / iters;
        double tps = iters / (window / unitsPerSecond);
        LatRow row = new LatRow(size, iters, latency, tps);
        return new Measured(row, format(row), s);
    }

    /** perftest's print_report_bw in duration mode: the counted messages over the window, no peak. */
    static BwRow bwRow(long size, long messages, long windowPs, boolean gbits) {
        double unitsPerSecond = 1e12;
        double format = gbits ? 125_000_000.0 : 0x100000;
        double avg = (double) size * messages * unitsPerSecond / (windowPs * format);
        double rate = messages * unitsPerSecond / (windowPs * 1e6);
        return new BwRow(size, messages, 0, avg, rate);
    }

    /**
     * Counts, per client, the signalled completions reaped in the sample window ({@code [margin, duration -
     * margin)} after the client's first post), and for ib_write_lat the post-to-placement times of the Writes placed
     * in it: a few numbers, whatever the run's length.
     */
    static final class Collector implements TraceSink<TraceEvent> {
        private final long from;
        private final long to;
        private final boolean bidirectional;
        private final boolean writeLat;
        private final Clock clock;
        /** Per side (0: the client on A, 1: the one on B with -b): its first post, or -1. */
        private final long[] start = {-1, -1};
        /** Per side: signalled completions reaped in the window. */
        final long[] reaped = new long[2];
        /** ib_write_lat: the last Write's post time and operation. */
        private long lastPostPs = -1;
        private long lastPostOp = -1;
        /** ib_write_lat: Writes placed in the window, and the sum of their post-to-placement times. */
        long placed;
        long postToPlaceSum;

        Collector(Options o, Clock clock) {
            this.from = o.marginPs();
            this.to = o.durationPs() - o.marginPs();
            this.bidirectional = o.bidirectional();
            this.writeLat = o.test() == Test.WRITE_LAT;
            this.clock = clock;
        }

        /** The client side of a host: 0 for A; 1 for B with -b; -1 for B without (the server's host). */
        private int side(String host) {
            if ("A".equals(host)) {
                return 0;
            }
            return bidirectional ? 1 : -1;
        }

        private boolean inWindow(int side, long t) {
            long s = start[side];
            return s >= 0 && t - s >= from && t - s < to;
        }

        @Override
        public void accept(TraceEvent e) {
            long t = e.tPs();
            clock.nowPs = t;
            switch (e.kind()) {
                case TraceEvent.POST: {
                    int side = side(e.host());
                    if (side >= 0 && !"recv".equals(e.attrValue(TraceKey.OPCODE))) {
                        if (start[side] < 0) {
                            start[side] = t;
                            if (side == 0) {
                                clock.startPs = t;
                            }
                        }
                        lastPostPs = t;
                        lastPostOp = e.op();
                    }
                    break;
                }
                case TraceEvent.PLACE:
                    if (writeLat && e.op() == lastPostOp && lastPostPs >= 0 && inWindow(0, t)) {
                        placed++;
                        postToPlaceSum += t - lastPostPs;
                    }
                    break;
                case TraceEvent.COMPLETE: {
                    int side = side(e.host());
                    if (side >= 0 && e.attrValue(TraceKey.SUPPRESSED) == null
                            && !"recv".equals(e.attrValue(TraceKey.OPCODE)) && inWindow(side, t)) {
                        reaped[side]++;
                    }
                    break;
                }
                default:
                    break;
            }
        }
    }
}
