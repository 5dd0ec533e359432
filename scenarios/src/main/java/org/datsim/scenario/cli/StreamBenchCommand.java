package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.datsim.core.param.Params;
import org.datsim.fabric.bench.StreamBench;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code datsim bench stream}: RDMA Writes between two hosts through the whole HCA and link model. */
@Command(name = "stream", mixinStandardHelpOptions = true,
        description = "Two hosts back to back (100 Gb/s, 1 us, 1 KiB MTU); one queue pair keeps W of N RDMA Writes"
                + " outstanding. Prints key=value lines: the last byte's predicted (closed form) and simulated arrival"
                + " times, packets, events per second, and the process's wall time. Exits 1 if they disagree or a"
                + " write failed.")
final class StreamBenchCommand implements Callable<Integer> {

    @Option(names = "--quiet", description = "No progress line (otherwise, when standard error is a terminal, a"
            + " line there says every second the simulated time reached and the events per second; never in the"
            + " key=value output).")
    boolean quiet;

    @Option(names = "--writes", paramLabel = "N", defaultValue = "100000", description = "RDMA Writes (default:"
            + " ${DEFAULT-VALUE}).")
    int writes;

    @Option(names = "--bytes", paramLabel = "B", defaultValue = "4096", description = "Bytes per write (default:"
            + " ${DEFAULT-VALUE}).")
    int bytes;

    @Option(names = "--window", paramLabel = "W", defaultValue = "128", description = "Writes outstanding at once,"
            + " like perftest's tx depth: W are posted at time 0, then each completion posts the next (default:"
            + " ${DEFAULT-VALUE}).")
    int window;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "A fabric parameter override, for example"
            + " --param hca.wqe_interval=500ns (repeatable).")
    java.util.List<String> overrides = new java.util.ArrayList<>();

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        if (writes < 1 || window < 1 || bytes < 1 || bytes > (1 << 30)) {
            spec.commandLine().getErr().println("datsim: --writes and --window must be positive and --bytes from 1"
                    + " to 1GiB");
            return 2;
        }
        java.util.Map<String, String> map = new java.util.LinkedHashMap<>();
        java.util.List<String> problems = new java.util.ArrayList<>();
        for (String s : overrides) {
            int eq = s.indexOf('=');
            if (eq < 1) {
                problems.add("--param expects NAME=VALUE, found \"" + s + "\"");
            } else {
                map.put(s.substring(0, eq).trim(), s.substring(eq + 1).trim());
            }
        }
        Params p = StreamBench.params().with(map, problems);
        if (problems.isEmpty()) {
            problems.addAll(org.datsim.fabric.FabricParams.crossCheck(p));
        }
        if (!problems.isEmpty()) {
            problems.forEach(m -> spec.commandLine().getErr().println("datsim: " + m));
            return 2;
        }
        java.util.concurrent.atomic.AtomicReference<org.datsim.core.engine.Simulator> running =
                new java.util.concurrent.atomic.AtomicReference<>();
        StreamBench.Result r;
        try (TerminalProgress shown = TerminalProgress.start(quiet, spec.commandLine().getErr(),
                TerminalProgress.simulation(() -> running.get() == null ? 0 : running.get().now(),
                        () -> running.get() == null ? 0 : running.get().eventsExecuted(), () -> ""))) {
            r = StreamBench.run(p, writes, bytes, window, running::set);
        }
        double simS = r.simNanos() / 1e9;
        KeyValues kv = new KeyValues().put("window", window).put("writes", writes).put("bytes_per_write", bytes)
                .put("mtu", p.get(org.datsim.fabric.FabricParams.HCA_MTU)).put("completed", r.completed())
                .put("failed", r.failed()).put("packets", r.packets()).put("events", r.events())
                .put("bottleneck", r.regime()).put("predicted_last_byte_ps", r.predictedLastArrivalPs())
                .put("simulated_last_byte_ps", r.simulatedLastArrivalPs())
                .put("prediction_holds", r.predictedLastArrivalPs() == r.simulatedLastArrivalPs())
                .put("last_completion_ps", r.lastCompletionPs()).put("pooled_packets", r.pooledPackets())
                .put("sim_wall_s", simS, 3).put("events_per_second", r.events() / simS, 0);
        // The CPU time counts every thread (JIT and GC too); the wall time is the kernel's account (ProcessClock).
        ProcessHandle.current().info().totalCpuDuration().ifPresent(d -> kv.put("process_cpu_s", d.toNanos() / 1e9,
                3));
        ProcessClock.Wall wall = ProcessClock.wall();
        kv.put("process_wall_s", wall.seconds(), wall.precisionSeconds() < 0.01 ? 3 : 2);
        kv.writeTo(o);
        boolean ok = r.failed() == 0 && r.completed() == writes
                && r.predictedLastArrivalPs() == r.simulatedLastArrivalPs();
        return ok ? 0 : 1;
    }
}
