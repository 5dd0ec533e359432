package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.File;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code datsim serve --record} on a dtest run (opt-in like {@link DaplIntegrationTest}), on provider/examples'
 * two-hosts fabric and on it with every preset: {@code datsim run} of the recorded scenario gives the live run's
 * trace, timings included. Compared: every line of events.jsonl, in order; call lines on their
 * time, host, call, return and process (a scenario's call line also names the step and the objects it used, and
 * the bridge traces dat_ep_query and the other queries as one request, {@code dat_*_query}).
 */
class DaplRecordIntegrationTest {

    static final Path PROVIDER = DaplIntegrationTest.PROVIDER;
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dir;

    @BeforeAll
    static void build() throws Exception {
        Assumptions.assumeTrue("1".equals(System.getenv(DaplIntegrationTest.OPT_IN)),
                "the dapl integration test is opt-in: set " + DaplIntegrationTest.OPT_IN + "=1");
        Assumptions.assumeTrue(new File("/usr/bin/dtest").exists(), "dtest is missing: install dapl2-utils");
        Process make = new ProcessBuilder("make", "-s", "-C", PROVIDER.toString(), "all")
                .redirectErrorStream(true).start();
        String out = new String(make.getInputStream().readAllBytes());
        assertTrue(make.waitFor(120, TimeUnit.SECONDS) && make.exitValue() == 0, "make -C provider: " + out);
    }

    private Process start(Path out, String host, Path log, String... args) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(List.of(args)).redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().put("DAT_OVERRIDE", out.resolve("dat.conf").toString());
        pb.environment().put("DATSIM_HOST", host);
        return pb.start();
    }

    /** The trace's lines as compared: call lines reduced to what both runs write. */
    static List<String> comparable(Path events) throws Exception {
        List<String> lines = new ArrayList<>();
        for (String l : Files.readAllLines(events)) {
            JsonNode n = JSON.readTree(l);
            if ("call".equals(n.path("kind").asText())) {
                ObjectNode c = JSON.createObjectNode();
                for (String k : new String[] {"t_ps", "kind", "host", "call", "ret", "subtype", "process"}) {
                    if (n.has(k)) {
                        c.set(k, n.get(k));
                    }
                }
                c.put("call", c.get("call").asText().replaceAll("^dat_[a-z]+_query$", "dat_*_query"));
                lines.add(c.toString());
            } else {
                lines.add(n.toString());
            }
        }
        return lines;
    }

    @Test
    void aRecordedDtestRunReplaysToTheSameTraceOnEveryPreset() throws Exception {
        recordAndReplay("two-hosts", PROVIDER.resolve("examples/two-hosts.json"));
        for (String preset : org.datsim.fabric.FabricPresets.names()) {
            ObjectNode f = (ObjectNode) JSON.readTree(PROVIDER.resolve("examples/two-hosts.json").toFile());
            ((ObjectNode) f.get("fabric")).put("preset", preset);
            Path fabric = dir.resolve(preset + ".json");
            JSON.writeValue(fabric.toFile(), f);
            recordAndReplay(preset, fabric);
        }
    }

    /**
     * dtestsrq (dapl2-utils' SRQ test: four connections whose endpoints share one receive queue, three threads)
     * recorded and replayed on provider/examples' two-hosts fabric: its dat_srq_* calls, dat_ep_create_with_srq and
     * the rest are all recorded, and the replay gives the live trace, timings included.
     */
    @Test
    void aRecordedDtestsrqRunReplaysToTheSameTrace() throws Exception {
        Assumptions.assumeTrue(new File("/usr/bin/dtestsrq").exists(), "dtestsrq is missing: install dapl2-utils");
        List<String> args = List.of("-c", "4", "-B", "4", "-t", "3");
        List<String> server = new ArrayList<>(List.of("/usr/bin/dtestsrq", "-P", "datsim-A", "-s"));
        server.addAll(args);
        List<String> client = new ArrayList<>(List.of("/usr/bin/dtestsrq", "-P", "datsim-B", "-h", "127.0.1.1"));
        client.addAll(args);
        // a grace of 500 ms, as DaplIntegrationTest's dtestsrq: its threads compute between their calls
        String recording = recordAndReplay("two-hosts-srq", PROVIDER.resolve("examples/two-hosts.json"), server,
                "server ready", client, 500, 100);
        assertTrue(recording.contains("\"dat_srq_create\"") && recording.contains("\"dat_srq_post_recv\"")
                && recording.contains("\"dat_ep_create_with_srq\""), "the SRQ calls are recorded");
    }

    /** Serves dtest's server and client on the fabric with --record, replays the recording, compares the traces. */
    private void recordAndReplay(String name, Path fabric) throws Exception {
        recordAndReplay(name, fabric, List.of("/usr/bin/dtest", "-P", "datsim-A", "-s", "-B", "10", "-b", "65536"),
                "Waiting", List.of("/usr/bin/dtest", "-P", "datsim-B", "-h", "127.0.1.1", "-B", "10", "-b", "65536"),
                2000, 200);
    }

    /**
     * Serves a server program (on host A, until it prints {@code ready}) and a client (host B) on the fabric with
     * --record, replays the recording, compares the traces; returns the recording.
     */
    private String recordAndReplay(String name, Path fabric, List<String> serverCmd, String ready,
            List<String> clientCmd, long graceMs, int minLines) throws Exception {
        Path out = dir.resolve(name + "-live");
        Files.createDirectories(out);
        Path sock = out.resolve("s.sock");
        Path recording = dir.resolve(name + "-dtest-recorded.json");
        StringWriter log = new StringWriter();
        BridgeServer server = new BridgeServer(ScenarioLoader.load(fabric), sock, graceMs, 2,
                new PrintWriter(log, true));
        server.record(JSON.readTree(fabric.toFile()), recording);
        ServingThread serving = ServingThread.start(server, out, sock);
        Path slog = out.resolve("server.log");
        Process s = start(out, "A", slog, serverCmd.toArray(new String[0]));
        for (int i = 0; i < 300 && !Files.readString(slog).contains(ready); i++) {
            Thread.sleep(50);
        }
        Process c = start(out, "B", out.resolve("client.log"), clientCmd.toArray(new String[0]));
        boolean done = c.waitFor(240, TimeUnit.SECONDS) & s.waitFor(60, TimeUnit.SECONDS);
        if (!done) {
            s.destroyForcibly();
            c.destroyForcibly();
        }
        assertTrue(done, name + ": the programs did not end in time");
        serving.thread.join(30_000);
        assertEquals(0, serving.rc(), log.toString());
        assertEquals(0, c.exitValue(), Files.readString(out.resolve("client.log")));
        assertEquals(0, s.exitValue(), Files.readString(slog));
        assertTrue(log.toString().contains("recorded the programs' calls in " + recording), log.toString());
        assertTrue(!log.toString().contains("not recorded"), log.toString());

        Path replay = dir.resolve(name + "-replay");
        StringWriter runOut = new StringWriter();
        int run = DatsimCli.execute(new String[] {"run", recording.toString(), "--out", replay.toString()},
                new PrintWriter(runOut, true), new PrintWriter(runOut, true));
        assertEquals(0, run, name + ": " + runOut);
        List<String> live = comparable(out.resolve("events.jsonl"));
        List<String> replayed = comparable(replay.resolve("events.jsonl"));
        assertTrue(live.size() > minLines, name + ": a run of hundreds of trace lines");
        BridgeScenarioEquivalenceTest.sameLines(name, live, replayed);
        return Files.readString(recording);
    }
}
