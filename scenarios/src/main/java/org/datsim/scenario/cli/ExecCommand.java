package org.datsim.scenario.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.datsim.scenario.bridge.ServerInfo;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim exec}: runs an unmodified uDAPL program on a host of a running {@code datsim serve} (docs/bridge.md):
 * DAT_OVERRIDE names the server's dat.conf, DATSIM_HOST and DATSIM_SOCKET the host and the server, and LD_PRELOAD
 * the clock interposer, so that the program's gettimeofday, clock_gettime and time() are its simulated clock.
 */
@Command(name = "exec", mixinStandardHelpOptions = true,
        description = "Run a uDAPL program on a host of a running datsim serve, with the provider and simulated"
                + " clocks (docs/bridge.md); exits with the program's exit status.")
final class ExecCommand implements Callable<Integer> {

    @Option(names = "--socket", paramLabel = "PATH", required = true,
            description = "The socket of a running datsim serve (its --socket, or OUT/datsim.sock).")
    Path socket;

    @Option(names = "--host", paramLabel = "NAME", required = true, description = "The simulated host to run on.")
    String host;

    @Option(names = "--no-clock", description = "Do not preload the clock interposer: the program sees wall time.")
    boolean noClock;

    @Parameters(paramLabel = "PROGRAM", arity = "1..*", description = "The program and its arguments (after --).")
    List<String> command;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        if (!Files.exists(socket)) {
            err.println("datsim exec: --socket " + socket + ": no such socket (start the fabric first: datsim serve"
                    + " FABRIC.json --socket " + socket + ")");
            return DatsimCli.EXIT_INVALID;
        }
        ServerInfo info;
        try {
            info = ServerInfo.ask(socket);
        } catch (IOException e) {
            err.println("datsim exec: --socket " + socket + ": no datsim serve answers there (" + e.getMessage()
                    + ")");
            return DatsimCli.EXIT_INVALID;
        }
        if (!info.hosts().contains(host)) {
            err.println("datsim exec: --host " + host + ": not a host of the fabric served on " + socket
                    + " (hosts: " + String.join(", ", info.hosts()) + ")");
            return DatsimCli.EXIT_INVALID;
        }
        ProcessBuilder pb = new ProcessBuilder(command).inheritIO();
        Map<String, String> env = pb.environment();
        env.put("DAT_OVERRIDE", info.datConf().toString());
        env.put("DATSIM_HOST", host);
        env.put("DATSIM_SOCKET", socket.toAbsolutePath().toString());
        if (!noClock) {
            Path clock = info.library().resolveSibling("libdatsim_clock.so");
            if (!Files.isRegularFile(clock)) {
                err.println("datsim exec: no clock interposer at " + clock + " (build it with: make -C provider),"
                        + " or run with --no-clock");
                return DatsimCli.EXIT_INVALID;
            }
            String pre = env.get("LD_PRELOAD");
            env.put("LD_PRELOAD", pre == null || pre.isBlank() ? clock.toString() : clock + ":" + pre);
        }
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            err.println("datsim exec: cannot run " + command.get(0) + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(p::destroy));
        return p.waitFor();
    }

}
