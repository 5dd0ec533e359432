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

    @Option(names = "--quiet", description = "No progress line (otherwise, when standard error is a terminal, a"
            + " line there says every second the simulated time reached and the events per second; never in the"
            + " key=value output).")
    boolean quiet;

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

    @picocli.CommandLine.Mixin
    EngineOptions engine = new EngineOptions();

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "A fabric parameter override, for example"
            + " --param link.flow_control=pfc (repeatable).")
    java.util.List<String> overrides = new java.util.ArrayList<>();

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        int hosts = k * k * k / 4;
        PrintWriter err = spec.commandLine().getErr();
        boolean bad = false;
        if (k < 2 || k % 2 != 0 || k > 32) {
            err.println("datsim: --k must be even from 2 to 32, found " + k);
            bad = true;
        } else if (peers < 1 || peers >= hosts) {
            err.println("datsim: --peers must be from 1 to " + (hosts - 1) + " (the fat-tree's " + hosts
                    + " hosts less one), found " + peers);
            bad = true;
        }
        if (bytes < 1 || bytes > (1 << 24)) {
            err.println("datsim: --bytes must be from 1 to 16MiB, found " + bytes);
            bad = true;
        }
        if (bad) {
            return 2;
        }
        EngineOptions.Choice engineChoice = engine.resolve(hosts, Runtime.getRuntime().availableProcessors(),
                spec.commandLine().getErr());
        if (engineChoice == null) {
            return 2;
        }
        int t = engineChoice.threads();
        int parts = engineChoice.partitions();
        String small = engineChoice.note();
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
        java.util.concurrent.atomic.AtomicReference<org.datsim.core.engine.Simulator> running =
                new java.util.concurrent.atomic.AtomicReference<>();
        FatTreeBench.Result r;
        try (TerminalProgress shown = TerminalProgress.start(quiet, spec.commandLine().getErr(),
                TerminalProgress.simulation(() -> running.get() == null ? 0 : running.get().now(),
                        () -> running.get() == null ? 0 : running.get().eventsExecuted(), () -> ""))) {
            r = FatTreeBench.run(p, k, peers, bytes, seed, parts, t, running::set);
        } catch (IllegalArgumentException e) {
            spec.commandLine().getErr().println("datsim: " + e.getMessage());
            return 2;
        }
        double runS = r.runNanos() / 1e9;
        KeyValues out = new KeyValues().put("k", k).put("hosts", r.hosts()).put("switches", r.switches())
                .put("flow_control", p.choice(org.datsim.fabric.FabricParams.LINK_FLOW_CONTROL))
                .put("switch_mode", p.choice(org.datsim.fabric.FabricParams.SWITCH_MODE)).put("writes", r.writes())
                .put("completed", r.completed()).put("failed", r.failed()).put("packets", r.packets())
                .put("events", r.events()).put("simulated_end_ps", r.endPs()).put("max_port_stall_ps", r.maxStallPs())
                .put("pooled_packets", r.pooledPackets())
                .put("engine", parts == 1 ? "sequential" : "partitioned").put("threads", t)
                .put("threads_from", engineChoice.fromDefault() ? "default" : "--threads").put("partitions", parts);
        if (r.windows() != null) {
            EngineOptions.putWindows(out, r.windows(), r.lookaheadPs());
        }
        if (small != null) {
            spec.commandLine().getErr().println("datsim: note: " + small);
            out.put("threads_note", "too small: one thread");
        }
        out.put("build_wall_s", r.buildNanos() / 1e9, 3)
                .put("run_wall_s", runS, 3).put("events_per_second", r.events() / runS, 0);
        long peak = 0;
        for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
            if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
                peak += pool.getPeakUsage().getUsed();
            }
        }
        out.put("peak_heap_bytes", peak).put("peak_heap_mib", peak >> 20)
                .put("max_heap_mib", Runtime.getRuntime().maxMemory() >> 20);
        ProcessClock.Wall wall = ProcessClock.wall(); // from the process's start, to the kernel's tick
        out.put("process_wall_s", wall.seconds(), wall.precisionSeconds() < 0.01 ? 3 : 2);
        // CPU time of this thread (the simulation) since JVM start: what the wall time would be on an idle machine,
        // less the JVM start-up done on other threads. The machine may be shared, so both are printed.
        out.put("main_thread_cpu_s", ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() / 1e9, 3);
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
            out.put("process_cpu_s", os.getProcessCpuTime() / 1e9, 3); // all threads: JIT and GC too
        }
        out.writeTo(o);
        return r.failed() == 0 && r.completed() == r.writes() ? 0 : 1;
    }
}
