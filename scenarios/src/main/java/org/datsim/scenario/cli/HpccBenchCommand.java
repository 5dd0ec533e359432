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
        description = "Run HPCC's topology and flow files (defaults: the reference run in /work/shared/anchors/hpcc:"
                + " 320 hosts, 3,143 WebSearch flows at 30%% load) on the roce-100g preset with HPCC's run.py settings"
                + " (hca.mtu=1000B, PFC with a 32 MiB shared buffer, an ACK per packet, ECN for dcqcn, INT for hpcc);"
                + " write DIR/fct.csv and DIR/summary.json; print key=value lines ending with process_wall_s.")
final class HpccBenchCommand implements Callable<Integer> {

    /** Where the reference files are. */
    static final String ANCHORS = "/work/shared/anchors/hpcc/";

    @Option(names = "--topology", paramLabel = "FILE", defaultValue = ANCHORS + "fat.topology",
            description = "HPCC topology file (default: ${DEFAULT-VALUE}).")
    Path topology;

    @Option(names = "--flows", paramLabel = "FILE", defaultValue = ANCHORS + "ws30-5ms.flows",
            description = "HPCC flow file (default: ${DEFAULT-VALUE}).")
    Path flowsFile;

    @Option(names = "--cc", paramLabel = "ALGORITHM", defaultValue = "none",
            description = "Congestion control: none, dcqcn or hpcc (sets cc.algorithm; default: ${DEFAULT-VALUE}).")
    String cc;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "runs/bench-hpcc",
            description = "Output directory (default: ${DEFAULT-VALUE}).")
    Path out;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the fabric's random"
            + " streams (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--no-ideal", description = "Do not run every flow alone for its ideal FCT (no slowdowns).")
    boolean noIdeal;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "A fabric parameter override (repeatable).")
    List<String> overrides = new ArrayList<>();

    @Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * HPCC's fabric ({@code run.py --bw 100}): the roce-100g preset, HPCC's 1000-byte payload per packet, PFC with
     * a shared switch buffer of 32 MiB and dynamic thresholds (BUFFER_SIZE 32, USE_DYNAMIC_PFC_THRESHOLD 1),
     * per-packet arbitration among queue pairs, an ACK per packet (L2_ACK_INTERVAL 1) in a class of its own that PFC
     * does not pause (ACK_HIGH_PRIO 1), ECN marking for dcqcn
     * (run.py's KMIN/KMAX/PMAX maps are the ecn.* defaults) and in-band telemetry for hpcc; then the overrides.
     * HPCC's NIC has no on-chip caches, so the QP-context and translation caches are unlimited here (never miss): with
     * them, every first touch of a 4 KiB page of a fresh flow buffer stalls the DMA channel a PCIe round trip, which
     * alone makes a 10 MB flow take 1.66 times as long and the comparison one of cache models, not of congestion
     * control. Override with --param hca.mtt_entries=4096 (and hca.qpc_entries) to see them.
     */
    static Params params(String cc, List<String> overrides, List<String> problems) {
        Map<String, String> map = new LinkedHashMap<>(FabricPresets.get("roce-100g").values());
        map.put(FabricParams.HCA_MTU.name(), "1000B");
        map.put(FabricParams.LINK_FLOW_CONTROL.name(), "pfc");
        map.put(FabricParams.SWITCH_BUFFER_MODE.name(), "shared");
        map.put(FabricParams.SWITCH_SHARED_BUFFER.name(), "32MiB");
        map.put(FabricParams.HCA_ARBITRATION.name(), "packet");
        map.put(FabricParams.ACK_INTERVAL.name(), "1");
        map.put(FabricParams.LINK_CONTROL_PRIORITY.name(), "true"); // ACK_HIGH_PRIO 1
        map.put(FabricParams.CC_ALGORITHM.name(), cc);
        map.put(FabricParams.HCA_MTT_ENTRIES.name(), "0"); // no translation cache misses: HPCC's NIC has none
        map.put(FabricParams.HCA_QPC_ENTRIES.name(), "0"); // nor QP-context misses (3,143 QPs against 256)
        if ("dcqcn".equals(cc) || "dctcp".equals(cc)) {
            map.put(FabricParams.ECN_ENABLED.name(), "true"); // run.py's KMIN/KMAX/PMAX maps are ecn.*'s defaults
        }
        if ("hpcc".equals(cc)) {
            map.put(FabricParams.CC_INT.name(), "true");
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

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        long t0 = System.nanoTime();
        List<String> problems = new ArrayList<>();
        Params p = params(cc, overrides, problems);
        HpccFiles.Topology topo = null;
        Topology topology = null;
        List<Flow> flows = null;
        String topoText = HpccFiles.read(topology(), problems);
        if (topoText != null) {
            topo = HpccFiles.topology(topology().toString(), topoText, problems);
        }
        if (topo != null) {
            List<String> shape = new ArrayList<>();
            topology = topo.lists().build(shape);
            for (String s : shape) {
                problems.add(topology() + ": " + s);
            }
            String flowText = HpccFiles.read(flowsFile, problems);
            if (flowText != null) {
                flows = HpccFiles.flows(flowsFile.toString(), flowText, topo.hostNodes(), problems);
            }
        }
        if (!problems.isEmpty()) {
            for (String s : problems) {
                err.println("datsim: " + s);
            }
            return DatsimCli.EXIT_INVALID;
        }
        long built = System.nanoTime();
        FlowRunner.Result r = FlowRunner.run(topology, p, flows, false, seed, !noIdeal);
        long ran = System.nanoTime();
        List<FctFile.Row> rows = FlowOutputs.rows(topology.hosts(), flows, r);
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("bench", "hpcc");
        root.put("topology", topology().toString());
        root.put("flows_file", flowsFile.toString());
        root.put("cc_algorithm", cc);
        root.put("seed", seed);
        root.put("hosts", topology.hosts().size());
        root.put("switches", topology.switches().size());
        root.put("end_time_ps", r.endPs());
        root.put("events_executed", r.events());
        root.put("packets", r.packets());
        root.put("flow_control_stall_ps", r.pauses());
        root.put("drops", r.drops());
        FlowOutputs.summarize(root.putObject("flows"), rows);
        try {
            Files.createDirectories(out);
            FlowOutputs.writeCsv(out, rows);
            mapper.writeValue(out.resolve("summary.json").toFile(), root);
        } catch (java.io.IOException e) {
            err.println("datsim: cannot write the outputs in " + out + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        KeyValues kv = new KeyValues().put("topology", topology().toString()).put("flows_file", flowsFile.toString())
                .put("cc", cc).put("hosts", topology.hosts().size()).put("switches", topology.switches().size())
                .put("flows", flows.size()).put("completed", flows.size() - r.failed()).put("failed", r.failed())
                .put("events", r.events()).put("packets", r.packets()).put("simulated_end_ps", r.endPs())
                .put("flow_control_stall_ps", r.pauses()).put("drops", r.drops());
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
        return r.failed() == 0 ? 0 : 1;
    }

    private Path topology() {
        return topology;
    }
}
