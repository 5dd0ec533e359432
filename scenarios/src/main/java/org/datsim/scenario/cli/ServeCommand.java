package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.Callable;
import org.datsim.scenario.bridge.BridgeServer;
import org.datsim.scenario.load.Scenario;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim serve}: the fabric of a scenario file, for real uDAPL programs (docs/bridge.md). */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Simulate a scenario's fabric for real uDAPL programs attached through provider/libdatsim.so"
                + " (docs/bridge.md); writes dat.conf and events.jsonl into the output directory.")
final class ServeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FABRIC", description = "A scenario JSON file: its fabric (its processes are not run).")
    Path file;

    @Option(names = "--socket", paramLabel = "PATH",
            description = "The Unix domain socket (default: OUT/datsim.sock); made 0600 and never replacing anything"
                    + " there but a stale socket of yours.")
    Path socket;

    @Option(names = "--force",
            description = "Write into DIR even if it is not empty and datsim did not create it (datsim deletes"
                    + " nothing there that it did not write).")
    boolean force;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: runs/serve-<scenario>).")
    Path out;

    @Option(names = "--provider", paramLabel = "LIB",
            description = "The provider library (default: provider/libdatsim.so; build it with make -C provider).")
    Path provider = Paths.get("provider", "libdatsim.so");

    @Option(names = "--grace", paramLabel = "MS", defaultValue = "2000",
            description = "Wall time a program may spend between two DAT calls before it stops holding simulated"
                    + " time (default: ${DEFAULT-VALUE} ms).")
    long graceMs;

    @Option(names = "--processes", paramLabel = "N", defaultValue = "0",
            description = "Start simulated time once N programs have attached, and end when N have left"
                    + " (default: 0, serve until interrupted).")
    int processes;

    @Option(names = "--cpu-scale", paramLabel = "F", defaultValue = "0",
            description = "The time a program spends between two DAT calls counts as its measured thread CPU time"
                    + " times F (default: ${DEFAULT-VALUE}: not at all, which keeps runs deterministic).")
    double cpuScale;

    @Option(names = "--spin-us", paramLabel = "US", defaultValue = "50",
            description = "On a shared-memory connection, the longest the server and the library spin before they"
                    + " sleep on the socket (default: ${DEFAULT-VALUE}; 0: never spin, which costs less on a heavily"
                    + " loaded machine).")
    int spinUs;

    @Option(names = "--record", paramLabel = "FILE",
            description = "Write the calls each attached program made, with their arguments, as a scenario that"
                    + " datsim run replays.")
    Path record;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter o = spec.commandLine().getOut();
        Scenario s = org.datsim.scenario.cli.InputFiles.load(file, err, org.datsim.scenario.load.ScenarioLoader::load);
        if (s == null) {
            return DatsimCli.EXIT_INVALID;
        }
        if (graceMs < 0 || processes < 0) {
            err.println("datsim serve: --grace and --processes must not be negative");
            return DatsimCli.EXIT_INVALID;
        }
        if (!(cpuScale >= 0 && cpuScale <= 1000)) {
            err.println("datsim serve: --cpu-scale " + cpuScale + ": expected a factor from 0 to 1000");
            return DatsimCli.EXIT_INVALID;
        }
        if (spinUs < 0 || spinUs > 100_000) {
            err.println("datsim serve: --spin-us " + spinUs + ": expected microseconds from 0 to 100000");
            return DatsimCli.EXIT_INVALID;
        }
        if (!Files.isRegularFile(provider)) {
            err.println("datsim serve: no provider library at " + provider + " (build it with: make -C provider;"
                    + " it needs gcc and libdapl-dev)");
            return DatsimCli.EXIT_INVALID;
        }
        Path dir = out != null ? out : Paths.get("runs", "serve-" + org.datsim.scenario.run.OutputDir.safeName(s.name()));
        Path sock = socket != null ? socket : dir.resolve("datsim.sock");
        try {
            // serve --out follows run's rules: a new, empty or datsim-marked directory, or --force; only datsim's
            // own files in it are ever replaced.
            org.datsim.scenario.run.OutputDir.claim(dir, force);
            java.util.List<String> ours = new java.util.ArrayList<>(java.util.List.of("dat.conf", "events.jsonl"));
            if (socket == null) {
                ours.add("datsim.sock");
            }
            for (String n : ours) {
                Path f = dir.resolve(n);
                if (!n.equals("datsim.sock") && Files.exists(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)
                        && !Files.isRegularFile(f, java.nio.file.LinkOption.NOFOLLOW_LINKS)) {
                    err.println("datsim serve: " + f + " exists and is not a regular file; not replaced");
                    return DatsimCli.EXIT_INVALID;
                }
            }
            org.datsim.scenario.run.OutputDir.record(dir, ours);
        } catch (java.io.IOException e) {
            err.println("datsim serve: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        BridgeServer server = new BridgeServer(s, sock, graceMs, processes, err);
        server.cpuScale(cpuScale);
        server.spinUs(spinUs);
        if (record != null) {
            server.record(new com.fasterxml.jackson.databind.ObjectMapper().readTree(file.toFile()), record);
        }
        try {
            server.listen();
        } catch (BridgeServer.SocketRefused e) {
            err.println("datsim serve: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        Path conf = dir.resolve("dat.conf");
        server.writeDatConf(conf, provider);
        o.println("datsim serve: fabric of " + file + " on " + sock.toAbsolutePath());
        o.println("export DAT_OVERRIDE=" + conf.toAbsolutePath());
        for (String line : server.addresses()) {
            String[] hp = line.split(" ");
            o.println("  host " + hp[0] + ": provider datsim-" + hp[0] + ", IA address " + hp[1]);
        }
        o.flush();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop));
        return server.serve(dir);
    }
}
