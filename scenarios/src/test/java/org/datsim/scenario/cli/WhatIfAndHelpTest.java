package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15, commands people expect: {@code run --param} and {@code run --preset} for one-off what-ifs,
 * {@code bench stream --param}, {@code datsim help [COMMAND]}, "did you mean" for misspelt commands, options,
 * parameters and scenario keys, and the exit codes in {@code run --help}.
 */
class WhatIfAndHelpTest {

    @TempDir
    Path tmp;


    private static CliRun datsim(String... args) {
        return CliRun.of(args);
    }

    private JsonNode summary(Path dir) throws Exception {
        return new ObjectMapper().readTree(dir.resolve("summary.json").toFile());
    }

    /** A two-host scenario whose host A has host_params of its own. */
    private Path scenarioWithHostParams() throws Exception {
        String text = Files.readString(ScenarioJson.writeThenSend());
        JsonNode root = new ObjectMapper().readTree(text);
        ((com.fasterxml.jackson.databind.node.ObjectNode) root.path("fabric")).putObject("host_params")
                .putObject("A").put("hca.mtu", "2KiB");
        Path f = tmp.resolve("hp.json");
        Files.writeString(f, root.toString());
        return f;
    }

    @Test
    void runParamOverridesTheFileOnEveryHostAndIsRecorded() throws Exception {
        Path f = scenarioWithHostParams();
        Path plain = tmp.resolve("plain");
        CliRun r0 = datsim("run", f.toString(), "--out", plain.toString(), "--no-perfetto");
        assertEquals(0, r0.code(), r0.all());
        assertEquals("2KiB", summary(plain).path("host_params").path("A").path("hca.mtu").asText(), r0.all());
        Path dir = tmp.resolve("whatif");
        CliRun r = datsim("run", f.toString(), "--out", dir.toString(), "--no-perfetto", "--param", "hca.mtu=256B",
                "--param", "link.bandwidth=25Gbps");
        assertEquals(0, r.code(), r.all());
        JsonNode s = summary(dir);
        assertEquals("256B", s.path("params").path("hca.mtu").asText(), s.toString());
        assertEquals("25Gbps", s.path("params").path("link.bandwidth").asText(), s.toString());
        assertTrue(s.path("host_params").path("A").path("hca.mtu").isMissingNode(), "A now has the --param: " + s);
        assertEquals("256B", s.path("overrides").path("params").path("hca.mtu").asText(), s.toString());
        assertTrue(summary(plain).path("overrides").isMissingNode());
        // the what-if changed the run: a quarter of the rate, more packets
        assertTrue(s.path("end_time_ps").asLong() > summary(plain).path("end_time_ps").asLong(), s.toString());
        assertTrue(s.path("packets").asLong() > summary(plain).path("packets").asLong(), s.toString());
    }

    @Test
    void runPresetReplacesTheScenariosPreset() throws Exception {
        Path dir = tmp.resolve("ideal");
        CliRun r = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", dir.toString(), "--no-perfetto",
                "--preset", "ideal");
        assertEquals(0, r.code(), r.all());
        JsonNode s = summary(dir);
        assertEquals("0B", s.path("params").path("link.header_bytes").asText(), s.toString());
        assertEquals("ideal", s.path("overrides").path("preset").asText(), s.toString());
        CliRun bad = datsim("run", ScenarioJson.writeThenSend().toString(), "--out", tmp.resolve("x").toString(),
                "--preset", "roce-100", "--param", "hca.mtuu=1KiB", "--param", "hca.mtu");
        assertEquals(2, bad.code(), bad.all());
        assertTrue(bad.err().contains("datsim: --preset roce-100: expected one of [ib-edr, ib-hdr, ib-ndr, roce-100g,"
                + " ideal, hpcc-ns3]; did you mean roce-100g?"), bad.all());
        assertTrue(bad.err().contains("datsim: --param hca.mtuu: unknown parameter (see `datsim params` for the"
                + " catalogue); did you mean hca.mtu?"), bad.all());
        assertTrue(bad.err().contains("datsim: --param expects NAME=VALUE, found \"hca.mtu\""), bad.all());
        assertFalse(Files.exists(tmp.resolve("x")), "nothing runs");
    }

    @Test
    void benchStreamTakesParamAsTheReadmeShows() {
        CliRun r = datsim("bench", "stream", "--writes", "200", "--param", "hca.wqe_interval=500ns");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("\nbottleneck=hca_engine\n"), r.all());
        assertTrue(r.out().contains("\nprediction_holds=true\n"), r.all());
        CliRun cal = datsim("calibrate", "--test", "ib_send_lat", "--sizes", "32", "--param", "hca.mtuu=1KiB");
        assertEquals(2, cal.code(), cal.all());
        assertTrue(cal.err().contains("did you mean hca.mtu?"), cal.all());
        CliRun bad = datsim("bench", "stream", "--param", "hca.wqe_intervall=500ns");
        assertEquals(2, bad.code(), bad.all());
        assertTrue(bad.err().contains("did you mean hca.wqe_interval?"), bad.all());
    }

    @Test
    void helpCommandPrintsACommandsUsage() {
        CliRun all = datsim("help");
        assertEquals(0, all.code(), all.all());
        assertTrue(all.out().contains("Usage: datsim"), all.all());
        CliRun run = datsim("help", "run");
        assertEquals(0, run.code(), run.all());
        assertTrue(run.out().contains("Usage: datsim run"), run.all());
        assertTrue(run.out().contains("--param"), run.all());
    }

    @Test
    void runHelpListsTheExitCodes() {
        CliRun r = datsim("run", "--help");
        assertEquals(0, r.code(), r.all());
        assertTrue(r.out().contains("Exit codes:"), r.all());
        for (String c : new String[] {"0   the run finished", "1   an expectation failed", "2   the input is invalid",
            "3   datsim itself failed"}) {
            assertTrue(r.out().contains(c), c + " in " + r.all());
        }
    }

    @Test
    void misspeltCommandsAndOptionsGetASuggestion() {
        CliRun r = datsim("rn", "x.json");
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("did you mean run?"), r.all());
        CliRun b = datsim("bench", "straem");
        assertEquals(2, b.code(), b.all());
        assertTrue(b.err().contains("did you mean stream?"), b.all());
        CliRun o = datsim("run", ScenarioJson.writeThenSend().toString(), "--no-perfeto");
        assertEquals(2, o.code(), o.all());
        assertTrue(o.err().contains("did you mean --no-perfetto?"), o.all());
    }

    @Test
    void misspeltScenarioKeysAndParametersGetASuggestion() throws Exception {
        String text = Files.readString(ScenarioJson.writeThenSend()).replaceFirst("\"seed\"", "\"sed\"");
        JsonNode root = new ObjectMapper().readTree(text);
        ((com.fasterxml.jackson.databind.node.ObjectNode) root.path("fabric")).putObject("params")
                .put("link.bandwith", "10Gbps");
        Path f = tmp.resolve("typo.json");
        Files.writeString(f, root.toString());
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code(), r.all());
        assertTrue(r.err().contains("$.sed: unknown field; expected one of") && r.err().contains("did you mean seed?"),
                r.all());
        assertTrue(r.err().contains("did you mean link.bandwidth?"), r.all());
    }
}
