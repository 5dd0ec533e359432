package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;
import org.datsim.fabric.FabricPresets;
import org.datsim.scenario.calibrate.PerftestRun;
import org.datsim.scenario.calibrate.PerftestTimed;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim perftest}: runs one perftest command line on a simulated pair of hosts and prints perftest's table
 * (see {@link PerftestRun} for what is modelled and how each figure is computed).
 */
@Command(name = "perftest", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Run a perftest command (ib_write_lat, ib_write_bw, ib_read_lat, ib_read_bw, ib_send_lat,"
                + " ib_send_bw, ib_atomic_lat, ib_atomic_bw: Fetch and Add of 8 bytes) on two simulated hosts and print the table perftest prints, with perftest's"
                + " statistics (t_typical is the median, percentiles over the sorted samples without the 2 largest;"
                + " BW peak is the best post-to-completion window, BW average first post to last completion).",
            "Accepted perftest flags: -s, -a, -n, -q, -t, -m, -I, -b, -D, -f, --report_gbits, -F (no effect: there"
                + " is no CPU frequency to check), -d, -i, -x, -p (they pick hardware or a TCP port: ignored, and said"
                + " so on standard error) and the server address (ignored). Every other perftest flag (-c, -R, -Q,"
                + " -N, ...) is rejected, and --run_infinitely (a simulation needs an end). Connection type is always"
                + " RC, one port.",
            "-D SECONDS is perftest's timed run in simulated time: the loop posts until SECONDS have passed (a"
                + " repeat block with \"for\") and counts the messages completed between the margins (-f, default"
                + " SECONDS/4); bandwidth tests print BW average and MsgRate over that window (BW peak 0.00, as"
                + " perftest), latency tests t_avg and tps average. -n is then ignored, as perftest ignores it; -a is"
                + " refused, as perftest refuses it. A progress line on a terminal gives the simulated time reached and"
                + " the time left.",
            "datsim's own: --preset NAME and --switches N (N switches in a chain between the two hosts; 0: back"
                + " to back). Header lines datsim cannot know (device, PCIe relaxed ordering, addresses) say so."})
public final class PerftestCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "TEST", description = "ib_write_lat, ib_write_bw, ib_read_lat, ib_read_bw,"
            + " ib_send_lat, ib_send_bw, ib_atomic_lat or ib_atomic_bw.")
    String test;

    @Parameters(index = "1", arity = "0..1", paramLabel = "SERVER", description = "perftest's server address;"
            + " accepted so that a client's command line runs unchanged, and ignored.")
    String server;

    @Option(names = {"-s", "--size"}, paramLabel = "SIZE", description = "Message size in bytes (default: 2 for"
            + " latency tests, 65536 for bandwidth tests).")
    Long size;

    @Option(names = {"-a", "--all"}, description = "Run sizes 2 to 2^23 (8 MiB), powers of two.")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "ITERS", description = "Iterations (default: 5000 for ib_write_bw,"
            + " 1000 for the others; at least 5).")
    Integer iters;

    @Option(names = {"-q", "--qp"}, paramLabel = "QPS", description = "QPs (bandwidth tests; default 1).")
    int qps = 1;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "TX_DEPTH", description = "Outstanding posts per QP (default:"
            + " 128 for bandwidth tests, 1 for latency tests).")
    Integer txDepth;

    @Option(names = {"-m", "--mtu"}, paramLabel = "MTU", description = "Path MTU: 256, 512, 1024, 2048 or 4096"
            + " (default: the preset's hca.mtu).")
    Integer mtu;

    @Option(names = {"-I", "--inline_size"}, paramLabel = "INLINE_SIZE", description = "Inline size in bytes, 0-1024"
            + " (default: 220 ib_write_lat, 236 ib_send_lat, 0 otherwise and for Reads); sets hca.max_inline.")
    Long inline;

    @Option(names = {"-b", "--bidirectional"}, description = "Bandwidth tests: both directions at once; the"
            + " figures are the sums of both sides, as perftest reports them.")
    boolean bidirectional;

    @Option(names = "--report_gbits", description = "Bandwidth in Gb/sec instead of MiB/sec.")
    boolean gbits;

    @Option(names = {"-F", "--CPU-freq"}, description = "Accepted; no effect.")
    boolean cpuFreq;

    @Option(names = "--preset", paramLabel = "NAME", defaultValue = "ib-edr", description = "The fabric preset"
            + " (default: ${DEFAULT-VALUE}).")
    String preset;

    @Option(names = "--switches", paramLabel = "N", description = "Switches in a chain between the hosts (default"
            + " 0: back to back).")
    int switches;

    @Option(names = "--emit", description = "Print the generated scenario of the first size instead of running it.")
    boolean emit;

    @Option(names = "--quiet", description = "datsim: no progress line (on a terminal, standard error says which"
            + " size is running with -a, and the simulated time reached with -D).")
    boolean quiet;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "perftest's timed run, in simulated"
            + " time: post for SECONDS, report the messages completed between the margins (-n is then ignored).")
    Integer duration;

    @Option(names = {"-f", "--margin"}, paramLabel = "SECONDS", description = "With -D: seconds at each end left out"
            + " of the sample (default: perftest's SECONDS/4, whole seconds; SECONDS must exceed twice it).")
    Integer margin;

    @Option(names = "--run_infinitely", description = "perftest's endless run: not simulated (a simulation needs an"
            + " end; refused with a message naming -D).")
    boolean runInfinitely;

    @Option(names = {"-d", "--ib-dev"}, paramLabel = "DEV", description = "The device (mlx5_0, ...): picks hardware;"
            + " accepted, ignored, and said so on standard error.")
    String ibDev;

    @Option(names = {"-i", "--ib-port"}, paramLabel = "PORT", description = "The device's port: accepted, ignored.")
    String ibPort;

    @Option(names = {"-x", "--gid-index"}, paramLabel = "INDEX", description = "The GID index (RoCE): accepted,"
            + " ignored.")
    String gidIndex;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "The TCP port of perftest's out-of-band"
            + " exchange: accepted, ignored.")
    String tcpPort;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        String problem = check();
        if (problem != null) {
            err.println("datsim perftest: " + problem);
            err.flush();
            return DatsimCli.EXIT_INVALID;
        }
        List<String> ignored = new java.util.ArrayList<>();
        if (ibDev != null) {
            ignored.add("-d " + ibDev);
        }
        if (ibPort != null) {
            ignored.add("-i " + ibPort);
        }
        if (gidIndex != null) {
            ignored.add("-x " + gidIndex);
        }
        if (tcpPort != null) {
            ignored.add("-p " + tcpPort);
        }
        if (!ignored.isEmpty()) {
            err.println("datsim perftest: ignored (they pick hardware or a TCP port; the simulated pair has one"
                    + " device, port and address): " + String.join(", ", ignored));
            err.flush();
        }
        PerftestRun.Test t = PerftestRun.Test.named(test);
        List<Long> sizes = all ? PerftestRun.allSizes() : List.of(size != null ? size : t.isAtomic() ? PerftestRun.Test.ATOMIC_SIZE
                : t.bw ? 65536L : 2L);
        int n = iters != null ? iters : t.defaultIters();
        long inl = inline != null ? inline : t.defaultInline();
        if (t == PerftestRun.Test.READ_LAT || t == PerftestRun.Test.READ_BW) {
            inl = 0; // perftest: Reads have no inline data
        }
        int d = duration != null ? duration : 0;
        int f = margin != null ? margin : PerftestTimed.defaultMargin(d);
        if (d == 0 && margin != null) {
            err.println("datsim perftest: -f " + margin + " ignored without -D (perftest uses the margin only in a"
                    + " timed run)");
            err.flush();
        }
        if (d > 0 && iters != null) {
            err.println("datsim perftest: -n " + iters + " ignored with -D (perftest ignores it too: a timed run counts"
                    + " the iterations completed in its sample window)");
            err.flush();
        }
        PerftestRun.Options opts = new PerftestRun.Options(t, sizes, all, n, qps,
                txDepth != null ? txDepth : t.defaultTxDepth(), PerftestRun.DEF_CQ_MOD, mtu != null ? mtu : 0, inl,
                bidirectional, gbits, preset, switches, d * org.datsim.core.time.SimTime.S,
                f * org.datsim.core.time.SimTime.S);
        try {
            if (emit) {
                com.fasterxml.jackson.databind.ObjectMapper m = new com.fasterxml.jackson.databind.ObjectMapper();
                o.println(m.writerWithDefaultPrettyPrinter().writeValueAsString(m.readTree(
                        PerftestRun.scenarioJson(opts, sizes.get(0)))));
                o.flush();
                return 0;
            }
            if (opts.timed()) {
                PerftestTimed.Clock clock = new PerftestTimed.Clock();
                long total = (long) d * org.datsim.core.time.SimTime.S;
                try (TerminalProgress shown = TerminalProgress.start(quiet, err, () -> timedProgress(clock, d, f),
                        () -> Math.min(1.0, clock.sinceStartPs() / (double) total))) {
                    PerftestTimed.report(opts, o, clock);
                }
                return 0;
            }
            long[] at = {0, 0};
            // the work of a size: its packets (iterations x the 4 KiB packets of a message, and one more for its
            // setup), so that the estimate of the time left does not take 8 MiB for as quick as 2 B
            double[] work = new double[sizes.size() + 1];
            for (int i = 0; i < sizes.size(); i++) {
                work[i + 1] = work[i] + 1 + (sizes.get(i) + 4095) / 4096;
            }
            try (TerminalProgress shown = TerminalProgress.start(quiet || sizes.size() < 2, err,
                    () -> "size " + at[0] + " B (" + at[1] + " of " + sizes.size() + ")",
                    () -> work[(int) Math.max(0, Math.min(sizes.size(), at[1] - 1))] / work[sizes.size()])) {
                PerftestRun.report(opts, o, s -> {
                    at[0] = s;
                    at[1]++;
                });
            }
        } catch (IllegalArgumentException e) {
            err.println("datsim perftest: " + e.getMessage());
            err.flush();
            return DatsimCli.EXIT_INVALID;
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
        return 0;
    }

    /** The progress words of a timed run: the simulated time reached, the duration and the sample window. */
    static String timedProgress(PerftestTimed.Clock clock, int duration, int margin) {
        return "simulated " + org.datsim.core.time.SimTime.format(clock.sinceStartPs()) + " of " + duration
                + " s (sampling from " + margin + " s to " + (duration - margin) + " s)";
    }

    /** Returns the first problem with the command line, or null. */
    private String check() {
        PerftestRun.Test t = PerftestRun.Test.named(test);
        if (t == null) {
            return "unknown test \"" + org.datsim.core.util.Text.clean(test, 80) + "\"; the tests are ib_write_lat,"
                    + " ib_write_bw, ib_read_lat, ib_read_bw, ib_send_lat, ib_send_bw, ib_atomic_lat, ib_atomic_bw";
        }
        if (runInfinitely) {
            return "--run_infinitely: an endless run is not simulated (a simulation needs an end); give a duration"
                    + " in simulated seconds with -D SECONDS, or the iterations with -n (perftest's default for "
                    + test + ": " + t.defaultIters() + ")";
        }
        if (margin != null && duration == null && (margin < 0 || 2 * margin >= PerftestTimed.DEF_DURATION)) {
            // perftest checks the margin against its default duration even when it will not time the run
            return PerftestTimed.refusal(PerftestTimed.DEF_DURATION, margin, false)
                    + " (without -D, perftest's default duration of " + PerftestTimed.DEF_DURATION + " s)";
        }
        if (duration != null) {
            String why = PerftestTimed.refusal(duration,
                    margin != null ? margin : PerftestTimed.defaultMargin(duration), all);
            if (why != null) {
                return why;
            }
        }
        if (t.isAtomic() && (all || size != null && size != PerftestRun.Test.ATOMIC_SIZE)) {
            return (all ? "-a" : "-s " + size) + ": " + test + " has one size, 8 bytes (a 64-bit atomic), as perftest's";
        }
        if (FabricPresets.get(preset) == null) {
            return "--preset: no preset is named \"" + org.datsim.core.util.Text.clean(preset, 80)
                    + "\"; the presets are " + FabricPresets.names();
        }
        if (size != null && all) {
            return "-s and -a exclude each other";
        }
        if (size != null && (size < 1 || size > PerftestRun.MAX_SIZE)) {
            return "-s: expected a size from 1 to " + PerftestRun.MAX_SIZE + " bytes, found " + size;
        }
        if (iters != null && (iters < PerftestRun.MIN_ITER || iters > 1_000_000)) {
            return "-n: expected from " + PerftestRun.MIN_ITER + " to 1000000 iterations, found " + iters;
        }
        if (qps < 1 || qps > 64) {
            return "-q: expected 1 to 64 QPs, found " + qps;
        }
        if (qps > 1 && !t.bw) {
            return "-q: the latency tests run one QP";
        }
        if (txDepth != null && (txDepth < 1 || txDepth > 4096)) {
            return "-t: expected a tx depth from 1 to 4096, found " + txDepth;
        }
        if (txDepth != null && !t.bw && txDepth != 1) {
            return "-t: the latency tests keep one operation outstanding (tx depth 1)";
        }
        if (mtu != null && !List.of(256, 512, 1024, 2048, 4096).contains(mtu)) {
            return "-m: expected an MTU of 256, 512, 1024, 2048 or 4096, found " + mtu;
        }
        if (inline != null && (inline < 0 || inline > 1024)) {
            return "-I: expected an inline size from 0 to 1024 bytes, found " + inline;
        }
        if (t == PerftestRun.Test.SEND_BW && qps > 1 && duration == null
                && (long) (iters != null ? iters : t.defaultIters()) * qps > 100_000) {
            return "-q: ib_send_bw with several QPs posts every receive up front; at most 100000 iterations in all";
        }
        if (bidirectional && !t.bw) {
            return "-b: only the bandwidth tests run bidirectionally";
        }
        if (switches < 0 || switches > 16) {
            return "--switches: expected 0 to 16, found " + switches;
        }
        return null;
    }
}
