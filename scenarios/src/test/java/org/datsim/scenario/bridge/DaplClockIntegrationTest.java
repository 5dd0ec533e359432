package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.scenario.calibrate.Calibration;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clock interposer and threads, with dapl's dapltest unmodified (opt-in like {@link DaplIntegrationTest}):
 * dapltest -T P's own bandwidth report, from its own gettimeofday calls, is the simulated fabric's, within 5% of
 * what {@code datsim calibrate} gives for ib_write_bw at 64 KiB on the same preset (ib-edr).
 */
class DaplClockIntegrationTest {

    static final Path PROVIDER = DaplIntegrationTest.PROVIDER;

    @TempDir
    Path dir;

    @BeforeAll
    static void build() throws Exception {
        Assumptions.assumeTrue("1".equals(System.getenv(DaplIntegrationTest.OPT_IN)),
                "the dapl integration test is opt-in: set " + DaplIntegrationTest.OPT_IN + "=1");
        Assumptions.assumeTrue(new File("/usr/bin/dapltest").exists(), "dapltest is missing: install dapl2-utils");
        Process make = new ProcessBuilder("make", "-s", "-C", PROVIDER.toString(), "all")
                .redirectErrorStream(true).start();
        String out = new String(make.getInputStream().readAllBytes());
        assertTrue(make.waitFor(120, TimeUnit.SECONDS) && make.exitValue() == 0, "make -C provider: " + out);
    }

    private Process start(Path out, String host, Path log, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        // What datsim exec sets (ExecCommandTest checks that it does).
        pb.environment().put("DAT_OVERRIDE", out.resolve("dat.conf").toString());
        pb.environment().put("DATSIM_HOST", host);
        pb.environment().put("LD_PRELOAD", PROVIDER.resolve("libdatsim_clock.so").toString());
        return pb.start();
    }

    @Test
    void dapltestPerformanceRdmaWriteBandwidthIsTheSimulatedFabricsWithin5PercentOfCalibrate() throws Exception {
        Path out = dir.resolve("dapltest");
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(PROVIDER.resolve("examples/two-hosts-edr.json")),
                sock, 20, 2, new PrintWriter(log, true));
        ServingThread serving = ServingThread.start(server, out, sock);
        Path slog = out.resolve("server.log");
        Process s = start(out, "A", slog, "/usr/bin/dapltest", "-T", "S", "-D", "datsim-A");
        for (int i = 0; i < 300 && !Files.readString(slog).contains("Service Point Ready"); i++) {
            Thread.sleep(50);
        }
        Path clog = out.resolve("client.log");
        Process c = start(out, "B", clog, "/usr/bin/dapltest", "-T", "P", "-D", "datsim-B", "-s", "127.0.1.1",
                "-i", "1000", "-p", "8", "RW", "65536", "1");
        boolean done = c.waitFor(240, TimeUnit.SECONDS);
        s.destroy(); // dapltest's server serves until it is stopped
        s.waitFor(10, TimeUnit.SECONDS);
        if (!done) {
            c.destroyForcibly();
        }
        serving.thread.join(30_000);
        if (serving.thread.isAlive()) {
            server.stop();
            serving.thread.join(10_000);
        }
        String client = Files.readString(clog);
        String all = "client:\n" + client + "\nserver:\n" + Files.readString(slog) + "\nserve:\n" + log;
        assertTrue(done, "dapltest -T P did not end in time\n" + all);
        assertEquals(0, c.exitValue(), all);
        assertTrue(log.toString().contains("another thread attached"), "dapltest's server test runs in a thread");
        Matcher m = Pattern.compile("Bandwidth\\s*:\\s*([0-9.]+) MB/sec").matcher(client);
        assertTrue(m.find(), all);
        double gbps = Double.parseDouble(m.group(1)) * 1048576 * 8 / 1e9; // dapltest: 1 MB = 1048576 B
        double calibrate = Calibration.measure("ib-edr", "ib_write_bw", 65536, "").value();
        System.out.printf("dapltest -T P RW 64 KiB: %.2f Gb/s; datsim calibrate ib_write_bw: %.2f Gb/s%n", gbps,
                calibrate);
        assertTrue(Math.abs(gbps - calibrate) <= 0.05 * calibrate,
                "dapltest " + gbps + " Gb/s against calibrate " + calibrate + " Gb/s\n" + all);
    }
}
