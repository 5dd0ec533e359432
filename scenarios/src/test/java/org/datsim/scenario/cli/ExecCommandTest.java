package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.datsim.scenario.bridge.BridgeServer;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code datsim exec}: located errors (exit 2) and the environment it gives the program. */
class ExecCommandTest {

    @TempDir
    Path dir;

    private int exec(StringWriter err, String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "exec";
        System.arraycopy(args, 0, all, 1, args.length);
        return DatsimCli.execute(all, new PrintWriter(new StringWriter()), new PrintWriter(err, true));
    }

    @Test
    void noServerAtTheSocketIsALocatedErrorExit2() {
        StringWriter err = new StringWriter();
        assertEquals(2, exec(err, "--socket", dir.resolve("none.sock").toString(), "--host", "A", "--", "true"));
        assertTrue(err.toString().contains("--socket " + dir.resolve("none.sock") + ": no such socket"), err.toString());
    }

    @Test
    void anUnknownHostIsALocatedErrorExit2AndAKnownOneRunsTheProgramWithTheServersEnvironment() throws Exception {
        Path fabric = dir.resolve("fabric.json");
        Files.writeString(fabric, "{\"scenario\": \"t\", \"seed\": 1, \"fabric\": {\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}, \"processes\": []}");
        Path sock = dir.resolve("s.sock");
        Path lib = dir.resolve("libdatsim.so");
        Files.writeString(lib, "");
        Files.writeString(dir.resolve("libdatsim_clock.so"), "");
        BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric), sock, 2000, 0,
                new PrintWriter(new StringWriter()));
        server.writeDatConf(dir.resolve("dat.conf"), lib);
        Thread t = new Thread(() -> {
            try {
                server.serve(dir.resolve("out"));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        t.start();
        try {
            while (!Files.exists(sock)) {
                Thread.sleep(10);
            }
            StringWriter err = new StringWriter();
            assertEquals(2, exec(err, "--socket", sock.toString(), "--host", "Q", "--", "true"));
            assertTrue(err.toString().contains("--host Q: not a host of the fabric served on " + sock
                    + " (hosts: A, B)"), err.toString());
            Path env = dir.resolve("env.txt");
            // The program gets the server's dat.conf, the host, the socket and the clock interposer beside the
            // provider library (an empty file here: the loader ignores it with a warning, and the shell runs).
            assertEquals(0, exec(new StringWriter(), "--socket", sock.toString(), "--host", "B", "--", "sh", "-c",
                    "echo \"$DAT_OVERRIDE $DATSIM_HOST $DATSIM_SOCKET $LD_PRELOAD\" > " + env + "; exit 0"),
                    "the program's exit status");
            assertEquals(dir.resolve("dat.conf").toAbsolutePath() + " B " + sock.toAbsolutePath() + " "
                    + dir.resolve("libdatsim_clock.so").toAbsolutePath(),
                    Files.readString(env).trim());
            assertEquals(3, exec(new StringWriter(), "--socket", sock.toString(), "--host", "A", "--no-clock", "--",
                    "sh", "-c", "exit 3"), "exec exits with the program's status");
        } finally {
            server.stop();
            t.join(10_000);
        }
    }
}
