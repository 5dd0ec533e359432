package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.concurrent.Callable;
import org.datsim.fabric.bench.FatTreeBench;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code datsim bench fattree}: all-to-random-peers RDMA Writes on a three-level fat-tree. */
@Command(name = "fattree", mixinStandardHelpOptions = true,
        description = "A k-ary three-level fat-tree (default k=16: 1024 hosts, 320 switches, 100 Gb/s, 4 KiB MTU);"
                + " every host RDMA-Writes 64 KiB to each of 64 random peers (seeded). Prints key=value lines:"
                + " events per second, packets, wall time, peak heap. Exits 1 if a write did not complete.")
final class FatTreeBenchCommand implements Callable<Integer> {

    @Option(names = "--k", paramLabel = "K", defaultValue = "16", description = "Switch radix, even, 2 to 32"
            + " (default: ${DEFAULT-VALUE}).")
    int k;

    @Option(names = "--peers", paramLabel = "P", defaultValue = "64", description = "Peers per host (default:"
            + " ${DEFAULT-VALUE}).")
    int peers;

    @Option(names = "--bytes", paramLabel = "B", defaultValue = "65536", description = "Bytes per write (default:"
            + " ${DEFAULT-VALUE}).")
    int bytes;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "1", description = "Seed of the peer choice.")
    long seed;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "A fabric parameter override, for example"
            + " --param link.flow_control=pfc (repeatable).")
    java.util.List<String> overrides = new java.util.ArrayList<>();

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        int hosts = k * k * k / 4;
        if (k < 2 || k % 2 != 0 || k > 32 || peers < 1 || peers >= hosts || bytes < 1 || bytes > (1 << 24)) {
            spec.commandLine().getErr().println("datsim: --k must be even from 2 to 32, --peers from 1 to hosts-1,"
                    + " --bytes from 1 to 16MiB");
            return 2;
        }
        String[] kv = new String[2 * overrides.size()];
        for (int i = 0; i < overrides.size(); i++) {
            String s = overrides.get(i);
            int eq = s.indexOf('=');
            if (eq < 1) {
                spec.commandLine().getErr().println("datsim: --param expects NAME=VALUE, found \"" + s + "\"");
                return 2;
            }
            kv[2 * i] = s.substring(0, eq);
            kv[2 * i + 1] = s.substring(eq + 1);
        }
        org.datsim.core.param.Params p;
        try {
            p = FatTreeBench.params(kv);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("datsim: " + e.getMessage());
            return 2;
        }
        FatTreeBench.Result r = FatTreeBench.run(p, k, peers, bytes, seed);
        double runS = r.runNanos() / 1e9;
        o.printf("k=%d%nhosts=%d%nswitches=%d%nflow_control=%s%nswitch_mode=%s%nwrites=%d%ncompleted=%d%nfailed=%d%n",
                k, r.hosts(), r.switches(), p.choice(org.datsim.fabric.FabricParams.LINK_FLOW_CONTROL),
                p.choice(org.datsim.fabric.FabricParams.SWITCH_MODE), r.writes(), r.completed(), r.failed());
        o.printf("packets=%d%nevents=%d%nsimulated_end_ps=%d%nmax_port_stall_ps=%d%npooled_packets=%d%n", r.packets(),
                r.events(), r.endPs(), r.maxStallPs(), r.pooledPackets());
        o.printf("build_wall_s=%.3f%nrun_wall_s=%.3f%nevents_per_second=%.0f%n", r.buildNanos() / 1e9, runS,
                r.events() / runS);
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        o.printf("peak_heap_bytes=%d%npeak_heap_mib=%d%nmax_heap_mib=%d%n", peak, peak >> 20,
                Runtime.getRuntime().maxMemory() >> 20);
        long processMs = System.currentTimeMillis() - ManagementFactory.getRuntimeMXBean().getStartTime();
        o.printf("process_wall_s=%.3f%n", processMs / 1000.0);
        // CPU time of this thread (the simulation) since JVM start: what the wall time would be on an idle machine,
        // less the JVM start-up done on other threads. The machine may be shared, so both are printed.
        o.printf("main_thread_cpu_s=%.3f%n",
                ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            o.printf("process_cpu_s=%.3f%n", os.getProcessCpuTime() / 1e9); // all threads: JIT and GC too
        }
        o.flush();
        return r.failed() == 0 && r.completed() == r.writes() ? 0 : 1;
    }
}
