package org.datsim.scenario.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPresets;
import org.datsim.fabric.topology.Topology;
import org.datsim.scenario.workload.FctFile;
import org.datsim.scenario.workload.Flow;
import org.datsim.scenario.workload.FlowOutputs;
import org.datsim.scenario.workload.FlowRunner;
import org.datsim.scenario.workload.HpccFiles;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code datsim bench hpcc}: HPCC's own topology and flow files, run with HPCC's fabric parameters (the
 * {@code roce-100g} preset with a 1000-byte MTU, HPCC's payload per packet, and PFC), writing fct.csv and
 * summary.json.
 */
@Command(name = "hpcc", mixinStandardHelpOptions = true,
        description = "Run HPCC's topology and flow files (defaults: HPCC's fat-tree, 320 hosts, and its 3,143 WebSearch"
                + " flows at 30%% load, shipped with datsim) with HPCC's run.py settings (a 1000-byte payload per"
                + " packet, PFC with a 32 MiB shared buffer, an ACK per packet, ECN for dcqcn and dctcp, INT for hpcc,"
                + " ACKs sent first by the NIC and queued with the data at switches, as HPCC's simulator does) on datsim's roce-100g host"
                + " model or, with --model hpcc-ns3, on what HPCC's simulator models; write DIR/fct.csv and"
                + " DIR/summary.json; print key=value lines ending with process_wall_s (and progress on a terminal).")
final class HpccBenchCommand implements Callable<Integer> {

    /** The bundled copies of HPCC's reference files (HPCC's fat.txt and its ws30 trace of 5 ms). */
    static final String BUNDLED_TOPOLOGY = "fat.topology";
    static final String BUNDLED_FLOWS = "ws30-5ms.flows";

    @Option(names = "--topology", paramLabel = "FILE",
            description = "HPCC topology file (default: HPCC's fat.txt, 320 hosts, shipped with datsim).")
    Path topologyFile;

    @Option(names = "--flows", paramLabel = "FILE",
            description = "HPCC flow file (default: HPCC's WebSearch trace at 30%% load for 5 ms, 3,143 flows,"
                    + " shipped with datsim).")
    Path flowsFile;

    @Option(names = "--cc", paramLabel = "ALGORITHM", defaultValue = "none",
            description = "Congestion control: none, dcqcn, hpcc, dctcp or timely (sets cc.algorithm; default:"
                    + " ${DEFAULT-VALUE}).")
    String cc;

    @Option(names = "--model", paramLabel = "MODEL", defaultValue = "datsim",
            description = "datsim: datsim's host model (the roce-100g preset: PCIe, WQE and receive processing, PHYs,"
                    + " switch latency, RoCE headers); hpcc-ns3: what HPCC's simulator models and nothing more (the"
                    + " hpcc-ns3 preset: no host costs, HPCC's header sizes), for comparison with it only (default:"
                    + " ${DEFAULT-VALUE}).")
    String model;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "runs/bench-hpcc",
            description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the fabric's random"
            + " streams (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--progress", negatable = true, description = "Say every second on standard error how far the run"
            + " has got (default: when standard error is a terminal, as Linux tells it; elsewhere only when asked).")
    Boolean showProgress;

    @Option(names = "--no-ideal", description = "Do not run every flow alone for its ideal FCT (no slowdowns).")
    boolean noIdeal;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "A fabric parameter override (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Option(names = "--max-events", paramLabel = "N", defaultValue = "1000000000",
            description = "Stop the loaded run (and the ideal runs, in all) after this many events, keeping the FCTs"
                    + " of the flows finished by then (exit 1; default: ${DEFAULT-VALUE}, about 4 times the largest"
                    + " run of the validation matrix). Flows whose packets alone need more are refused before they"
                    + " run.")
    long maxEvents;

    @Option(names = "--max-time", paramLabel = "TIME",
            description = "Stop the loaded run at this simulated time, e.g. 2.01s (HPCC's flows start at 2 s),"
                    + " keeping the FCTs of the flows finished by then (exit 1; default: none).")
    String maxTime;

    @picocli.CommandLine.Mixin
    EngineOptions engine = new EngineOptions();

    @Spec
    CommandLine.Model.CommandSpec spec;

    /** The algorithms bench hpcc runs, as run.py names them (hp is hpcc). */
    static final List<String> ALGORITHMS = List.of("none", "dcqcn", "hpcc", "dctcp", "timely");

    /**
     * HPCC's fabric ({@code run.py --bw BW}) on a host model: HPCC's 1000-byte payload per packet, PFC with a shared
     * switch buffer of 16 x BW / 50 MiB and dynamic thresholds (BUFFER_SIZE, USE_DYNAMIC_PFC_THRESHOLD 1), per-packet
     * arbitration among queue pairs, an ACK per packet (L2_ACK_INTERVAL 1), ECN marking for dcqcn and dctcp (run.py's
     * KMIN/KMAX/PMAX maps are the ecn.* defaults; dctcp's step marking), in-band telemetry for hpcc, and ACKs as
     * HPCC's simulator treats them: queued with the data at every switch and sent first by the NIC (whatever run.py's
     * ACK_HIGH_PRIO, which in HPCC's simulator decides only whether a pause of the NIC's data holds them); then the
     * overrides.
     *
     * <p>Model {@code datsim} is the {@code roce-100g} preset; its QP-context and translation caches are unlimited
     * (never miss), as HPCC's NIC has none, so the comparison is one of congestion control, not of cache models
     * ({@code --param hca.mtt_entries=4096}, {@code hca.qpc_entries=256} show them). Model {@code hpcc-ns3} is the
     * {@code hpcc-ns3} preset: what HPCC's simulator models (links, store-and-forward switches with no latency, NIC
     * pacing) and no host cost at all, with HPCC's header sizes, so that the two simulators can be compared on the
     * same thing.
     *
     * <p>run.py's settings that depend on its {@code --bw} (the NIC's rate in Gb/s) are computed as run.py computes
     * them, in Python 2's integer division: DCQCN's RATE_AI 5 x bw / 25 and RATE_HAI 50 x bw / 25 Mb/s; HPCC's RATE_AI 10 x bw / 25 Mb/s and INT_MULTI bw / 25 (under the hpcc-ns3
     * model, the INT record's units: 128 and 80 bytes times INT_MULTI; datsim's own model reads INT exactly); TIMELY's
     * RATE_AI 10 x bw / 10 and RATE_HAI 50 x bw / 10 Mb/s; DCTCP's marking threshold 30 x bw / 10 KB; BUFFER_SIZE
     * 16 x bw / 50 MB. At 100 Gb/s these are datsim's defaults, but for INT_MULTI (4).
     *
     * @param cc the algorithm
     * @param model datsim or hpcc-ns3
     * @param bwGbps run.py's --bw: the NIC's rate, whole Gb/s, positive
     * @param overrides NAME=VALUE overrides
     * @param problems receives one message per problem
     * @return the parameters, or null if there were problems
     */
    static Params params(String cc, String model, long bwGbps, List<String> overrides, List<String> problems) {
        if (!ALGORITHMS.contains(cc)) {
            problems.add("--cc: expected one of " + ALGORITHMS + ", found \"" + cc + "\"");
            return null;
        }
        if (!"datsim".equals(model) && !"hpcc-ns3".equals(model)) {
            problems.add("--model: expected datsim or hpcc-ns3, found \"" + model + "\"");
            return null;
        }
        Map<String, String> map = new LinkedHashMap<>(FabricPresets.get("datsim".equals(model) ? "roce-100g"
                : "hpcc-ns3").values());
        map.put(FabricParams.HCA_MTU.name(), "1000B");
        map.put(FabricParams.LINK_FLOW_CONTROL.name(), "pfc");
        map.put(FabricParams.SWITCH_BUFFER_MODE.name(), "shared");
        map.put(FabricParams.SWITCH_SHARED_BUFFER.name(), Math.max(1, 16 * bwGbps / 50) + "MiB"); // third.cc: x 2^20
        map.put(FabricParams.HCA_ARBITRATION.name(), "packet");
        map.put(FabricParams.ACK_INTERVAL.name(), "1");
        // HPCC's NIC always sends its ACKs first; its ACK_HIGH_PRIO (run.py's ack_prio: 1 for dcqcn and timely, 0 for
        // hp and dctcp) only decides whether a pause of the data priority holds them there (third.cc sets
        // RdmaEgressQueue::ack_q_idx and nothing else: its switches' AckHighPrio attribute stays 0, so every switch
        // queues ACKs with the data). Under ack_prio 0 a pause of the NIC's own link holds its ACKs too: the
        // hpcc-ns3 model does that (hca.control_paused); datsim's own model keeps its control class unpaused.
        map.put(FabricParams.LINK_CONTROL_PRIORITY.name(), "false");
        map.put(FabricParams.HCA_CONTROL_FIRST.name(), "true");
        if ("hpcc-ns3".equals(model) && ("hpcc".equals(cc) || "dctcp".equals(cc))) {
            // run.py's ack_prio 0 for hp and dctcp: HPCC's NIC queues its ACKs at the data's priority, so a pause of
            // its link holds them (they still go before its data)
            map.put(FabricParams.HCA_CONTROL_PAUSED.name(), "true");
        }
        map.put(FabricParams.CC_ALGORITHM.name(), cc);
        map.put(FabricParams.HCA_MTT_ENTRIES.name(), "0"); // HPCC's NIC has no translation cache
        map.put(FabricParams.HCA_QPC_ENTRIES.name(), "0"); // nor a QP-context cache (3,143 QPs against 256)
        if ("dcqcn".equals(cc) || "dctcp".equals(cc)) {
            map.put(FabricParams.ECN_ENABLED.name(), "true"); // run.py's KMIN/KMAX/PMAX maps are ecn.*'s defaults
        }
        if ("dctcp".equals(cc)) { // run.py for dctcp: step marking at K = 30 x bw / 10 KB, pmax 1
            // ecn.kmin and ecn.kmax are given at a 100 Gb/s port and scaled with the port's rate: K at bw Gb/s
            // scaled to 100 Gb/s
            String k = 30 * bwGbps / 10 * 1000 * 100 / bwGbps + "B";
            map.put(FabricParams.ECN_KMIN.name(), k);
            map.put(FabricParams.ECN_KMAX.name(), k);
            map.put(FabricParams.ECN_PMAX_PERCENT.name(), "100");
        }
        if ("dcqcn".equals(cc)) {
            map.put("cc.dcqcn.rate_ai", 5 * bwGbps / 25 + "Mbps");
            map.put("cc.dcqcn.rate_hai", 50 * bwGbps / 25 + "Mbps");
        }
        if ("timely".equals(cc)) {
            map.put("cc.timely.rate_ai", 10 * bwGbps / 10 + "Mbps");
            map.put("cc.timely.rate_hai", 50 * bwGbps / 10 + "Mbps");
        }
        if ("hpcc".equals(cc)) {
            map.put(FabricParams.CC_INT.name(), "true");
            map.put("cc.hpcc.rate_ai", 10 * bwGbps / 25 + "Mbps");
            if ("hpcc-ns3".equals(model)) { // run.py's INT_MULTI bw / 25 (IntHop::multi), at least 1
                long multi = Math.max(1, bwGbps / 25);
                map.put("cc.hpcc.int_byte_unit", 128 * multi + "B");
                map.put("cc.hpcc.int_qlen_unit", 80 * multi + "B");
            }
        }
        for (String s : overrides) {
            int eq = s.indexOf('=');
            if (eq < 1) {
                problems.add("--param expects NAME=VALUE, found \"" + s + "\"");
                continue;
            }
            map.put(s.substring(0, eq), s.substring(eq + 1));
        }
        Params p = Params.defaults(FabricParams.ALL).with(map, problems);
        if (problems.isEmpty()) {
            problems.addAll(FabricParams.crossCheck(p));
        }
        return problems.isEmpty() ? p : null;
    }

    /** run.py's --bw: the host links' rate, whole Gb/s (at least 1). */
    private long bwGbps = 100;

    /**
     * Returns run.py's {@code --bw} for a topology: the rate of its host links in whole Gb/s (at least 1). run.py takes
     * one NIC rate and derives its settings from it; HPCC's third.cc takes the first host's link as the NIC rate (its
     * PFC alpha scaling); so a topology whose host links differ in rate, or run at a rate that is not whole Gb/s,
     * would be run with settings that fit none or some of them: that is a problem, naming the links.
     *
     * @param topo the topology
     * @param file its name, for messages
     * @param problems receives a message if the host links differ in rate or are not at whole Gb/s
     * @return the rate in Gb/s (the fastest host link's, if there was a problem)
     */
    static long nicGbps(HpccFiles.Topology topo, String file, List<String> problems) {
        java.util.Set<String> hosts = new java.util.HashSet<>(topo.lists().hosts());
        org.datsim.fabric.topology.LinkSpec first = null;
        long best = 0;
        for (org.datsim.fabric.topology.LinkSpec l : topo.lists().links()) {
            if (!hosts.contains(l.a()) && !hosts.contains(l.b())) {
                continue;
            }
            best = Math.max(best, l.bandwidthBps());
            if (first == null) {
                first = l;
                if (l.bandwidthBps() % 1_000_000_000L != 0) {
                    problems.add(file + ": host link " + ends(l) + " runs at " + gbps(l) + " Gb/s; run.py's --bw, from"
                            + " which bench hpcc derives HPCC's settings, is whole Gb/s");
                }
            } else if (l.bandwidthBps() != first.bandwidthBps()) {
                problems.add(file + ": host link " + ends(l) + " runs at " + gbps(l) + " Gb/s but host link "
                        + ends(first) + " at " + gbps(first) + " Gb/s; run.py's --bw, from which bench hpcc derives"
                        + " HPCC's settings, is one NIC rate for every host");
                break;
            }
        }
        return Math.max(1, best / 1_000_000_000L);
    }

    /** A link's ends as HPCC's file numbers them, {@code A-B}. */
    private static String ends(org.datsim.fabric.topology.LinkSpec l) {
        return l.a().substring(1) + "-" + l.b().substring(1);
    }

    private static String gbps(org.datsim.fabric.topology.LinkSpec l) {
        return java.math.BigDecimal.valueOf(l.bandwidthBps()).movePointLeft(9).stripTrailingZeros().toPlainString();
    }

    /** Reads a file given on the command line, or the bundled copy of HPCC's. */
    private static String readOrBundled(Path file, String bundled, List<String> problems) {
        if (file != null) {
            return HpccFiles.read(file, problems);
        }
        try (java.io.InputStream in = HpccBenchCommand.class.getResourceAsStream("/org/datsim/scenario/hpcc/"
                + bundled)) {
            if (in == null) {
                problems.add("the bundled " + bundled + " is missing from datsim's jar (a build problem); give"
                        + " HPCC's files with --topology FILE and --flows FILE");
                return null;
            }
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII);
        } catch (java.io.IOException e) {
            problems.add("cannot read the bundled " + bundled + ": " + e.getMessage());
            return null;
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        long t0 = System.nanoTime();
        List<String> problems = new ArrayList<>();
        HpccFiles.Topology topo = null;
        Topology topology = null;
        List<Flow> flows = null;
        String topoText = readOrBundled(topologyFile, BUNDLED_TOPOLOGY, problems);
        if (topoText != null) {
            topo = HpccFiles.topology(topologyName(), topoText, problems);
        }
        bwGbps = topo != null ? nicGbps(topo, topologyName(), problems) : 100;
        Params p = params(cc, model, bwGbps, overrides, problems);
        if (topo != null) {
            List<String> shape = new ArrayList<>();
            topology = topo.lists().build(shape);
            for (String s : shape) {
                problems.add(topologyName() + ": " + s);
            }
            String flowText = readOrBundled(flowsFile, BUNDLED_FLOWS, problems);
            if (flowText != null) {
                // hpcc-ns3: each flow starts when HPCC's simulator starts it (its double, ns-3's nanoseconds)
                flows = HpccFiles.flows(flowsName(), flowText, topo.hostNodes(), "hpcc-ns3".equals(model), problems);
            }
        }
        if (!problems.isEmpty()) {
            for (String s : problems) {
                err.println("datsim: " + s);
            }
            return DatsimCli.EXIT_INVALID;
        }
        FlowRunner.Limits limits = limits(problems);
        if (limits == null) {
            for (String s : problems) {
                err.println("datsim: " + s);
            }
            return DatsimCli.EXIT_INVALID;
        }
        EngineOptions.Choice engineChoice = engine.resolve(topology.hosts().size(),
                Runtime.getRuntime().availableProcessors(), err);
        if (engineChoice == null) {
            return DatsimCli.EXIT_INVALID;
        }
        int t = engineChoice.threads();
        int parts = engineChoice.partitions();
        if (engineChoice.note() != null) {
            err.println("datsim: note: " + engineChoice.note());
        }
        String tooMany = tooManyEvents(p, flows);
        if (tooMany != null) {
            err.println("datsim: " + tooMany);
            return 1;
        }
        long built = System.nanoTime();
        FlowRunner.Progress progress = new FlowRunner.Progress();
        int n = flows.size();
        boolean ideal = !noIdeal;
        // --[no-]progress decides; without it, a terminal on standard error does
        boolean show = showProgress != null ? showProgress : TerminalProgress.stderrIsTerminal();
        FlowRunner.Result r;
        try (TerminalProgress shown = show ? TerminalProgress.show(err, () -> String.format(java.util.Locale.ROOT,
                "simulated %.6f s, %d of %d flows done%s", progress.simulatedPs() / 1e12, progress.completed(), n,
                ideal ? ", " + progress.idealDone() + " of " + n + " alone" : ""),
                () -> n == 0 ? Double.NaN : (progress.completed() + (ideal ? progress.idealDone() : 0))
                        / (double) (ideal ? 2L * n : n)) : null) {
            r = FlowRunner.run(topology, p, flows, false, seed, ideal, true, progress, limits, parts, t);
        } catch (IllegalArgumentException e) { // what a partitioned run cannot do (a trace, a too short link)
            err.println("datsim: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        long ran = System.nanoTime();
        List<FctFile.Row> rows = FlowOutputs.rows(topology.hosts(), flows, r);
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("bench", "hpcc");
        root.put("topology", topologyName());
        root.put("flows_file", flowsName());
        root.put("model", model);
        root.put("cc_algorithm", cc);
        root.put("run_py_bw_gbps", bwGbps);
        root.put("seed", seed);
        root.put("hosts", topology.hosts().size());
        root.put("switches", topology.switches().size());
        root.put("end_time_ps", r.endPs());
        root.put("events_executed", r.events());
        root.put("packets", r.packets());
        root.put("flow_control_stall_ps", r.pauses());
        root.put("drops", r.drops());
        if (r.destroyedQpDrops() > 0) { // only after a lost last ACK: printed only then (outputs stay as before)
            root.put("packets_for_destroyed_qps", r.destroyedQpDrops());
        }
        if (r.stopped() != null) {
            root.put("stopped", r.stopped());
        }
        ObjectNode resolved = org.datsim.scenario.run.ResolvedValues.of(mapper, p, r.fabric());
        root.set("resolved", resolved);
        FlowOutputs.summarize(root.putObject("flows"), rows);
        try {
            Files.createDirectories(out);
            FlowOutputs.writeCsv(out, rows);
            mapper.writeValue(out.resolve("summary.json").toFile(), root);
        } catch (java.io.IOException e) {
            err.println("datsim: cannot write the outputs in " + out + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        KeyValues kv = new KeyValues().put("topology", topologyName()).put("flows_file", flowsName()).put("model", model)
                .put("cc", cc).put("hosts", topology.hosts().size()).put("switches", topology.switches().size())
                .put("flows", flows.size()).put("completed", flows.size() - r.failed()).put("failed", r.failed())
                .put("events", r.events()).put("packets", r.packets()).put("simulated_end_ps", r.endPs())
                .put("flow_control_stall_ps", r.pauses()).put("drops", r.drops());
        if (r.destroyedQpDrops() > 0) {
            kv.put("packets_for_destroyed_qps", r.destroyedQpDrops());
        }
        kv.put("engine", parts > 1 ? "partitioned" : "sequential").put("threads", t)
                .put("threads_from", engineChoice.fromDefault() ? "default" : "--threads").put("partitions", parts);
        if (parts > 1) {
            EngineOptions.putWindows(kv, r.fabric().engine().stats(), r.fabric().engine().lookaheadPs());
        }
        if (resolved.has("cc.base_rtt_ps")) { // the round trip and window the algorithm used (0 given: derived)
            kv.put("cc_base_rtt_ps", resolved.path("cc.base_rtt_ps").asLong())
                    .put("cc_window_bytes", resolved.path("cc.window_bytes").asLong());
        }
        for (FctFile.Bucket b : FctFile.buckets(rows)) {
            String k = "slowdown_" + b.label().replace("<", "lt").replace(">", "gt").replace("-", "_to_");
            kv.put(k + "_flows", b.flows()).put(k + "_p50", b.p50(), 3).put(k + "_p95", b.p95(), 3)
                    .put(k + "_p99", b.p99(), 3);
        }
        for (FctFile.Bucket b : FctFile.bucketsVsStandalone(rows)) { // fct / HPCC's standalone FCT, its own figure
            String k = "standalone_" + b.label().replace("<", "lt").replace(">", "gt").replace("-", "_to_");
            kv.put(k + "_p50", b.p50(), 3).put(k + "_p95", b.p95(), 3).put(k + "_p99", b.p99(), 3);
        }
        double runS = r.runNanos() / 1e9;
        kv.put("out", out.toString()).put("load_wall_s", (built - t0) / 1e9, 3)
                .put("main_thread_cpu_s", ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9, 3)
                .put("run_wall_s", runS, 3).put("run_and_ideal_wall_s", (ran - built) / 1e9, 3)
                .put("events_per_second", r.events() / runS, 0);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            kv.put("process_cpu_s", os.getProcessCpuTime() / 1e9, 3);
        }
        ProcessClock.Wall wall = ProcessClock.wall(); // from the process's start, to the kernel's tick
        kv.put("process_wall_s", wall.seconds(), wall.precisionSeconds() < 0.01 ? 3 : 2);
        kv.writeTo(spec.commandLine().getOut());
        if (r.stopped() != null) {
            err.println("datsim: " + r.stopped() + "; the FCTs of the flows finished by then are in " + out);
            return 1;
        }
        return r.failed() == 0 ? 0 : 1;
    }

    /** The run's guards from --max-events and --max-time, or null with the problems of a limit that is not valid. */
    private FlowRunner.Limits limits(List<String> problems) {
        if (maxEvents < 1) {
            problems.add("--max-events: expected a positive number of events, found " + maxEvents);
            return null;
        }
        long timePs = Long.MAX_VALUE;
        if (maxTime != null) {
            try {
                timePs = org.datsim.core.time.SimTime.parse(maxTime);
            } catch (IllegalArgumentException e) {
                problems.add("--max-time: " + org.datsim.core.util.Text.clean(e.getMessage()));
                return null;
            }
        }
        return new FlowRunner.Limits(maxEvents, timePs);
    }

    /**
     * Why the flows are refused before they run, or null: their packets' arrivals alone (each data packet reaches a
     * switch and a host at least; twice with the ideal runs) need more events than --max-events (a 1 TB flow would
     * otherwise run for hours).
     */
    private String tooManyEvents(Params p, List<Flow> flows) {
        long mtu = p.get(FabricParams.HCA_MTU);
        long packets = 0;
        for (Flow f : flows) {
            packets += Math.max(1, (f.sizeBytes() + mtu - 1) / mtu);
            if (packets < 0 || packets > Long.MAX_VALUE / 4) {
                packets = Long.MAX_VALUE / 4;
                break;
            }
        }
        long least = 2 * packets;
        if (least <= maxEvents) {
            return null;
        }
        return "the flows need at least " + least + " events (each of their " + packets + " data packets arrives at a"
                + " switch and a host), more than the event limit of " + maxEvents + " (each alone for the ideal FCTs"
                + " takes as many again); raise it with --max-events if the run is meant to be that long";
    }

    private String topologyName() {
        return topologyFile != null ? topologyFile.toString() : "(bundled) " + BUNDLED_TOPOLOGY;
    }

    private String flowsName() {
        return flowsFile != null ? flowsFile.toString() : "(bundled) " + BUNDLED_FLOWS;
    }
}
