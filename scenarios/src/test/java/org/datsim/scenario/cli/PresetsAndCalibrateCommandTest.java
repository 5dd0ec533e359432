package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.List;
import org.datsim.fabric.FabricParams;
import org.junit.jupiter.api.Test;

/** {@code datsim presets} and {@code datsim calibrate}. */
class PresetsAndCalibrateCommandTest {

    private record Result(int code, String out, String err) {
        List<String> outLines() {
            return Arrays.asList(out.split("\n"));
        }
    }

    private static Result datsim(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = DatsimCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Result(code, out.toString().replace("\r\n", "\n"), err.toString());
    }

    @Test
    void presetsListsEveryPreset() {
        Result r = datsim("presets");
        assertEquals(0, r.code(), r.err());
        assertEquals(6, r.outLines().size(), r.out());
        assertTrue(r.out().contains("hpcc-ns3"), r.out());
        assertTrue(r.out().startsWith("ib-edr "), r.out());
        assertTrue(r.out().contains("roce-100g"), r.out());
    }

    @Test
    void presetsNamePrintsEveryParameterMarkingThoseItSets() {
        Result r = datsim("presets", "ib-hdr");
        assertEquals(0, r.code(), r.err());
        List<String> params = r.outLines().stream().filter(l -> !l.startsWith("#")).toList();
        assertEquals(FabricParams.ALL.size(), params.size(), r.out());
        assertTrue(params.stream().anyMatch(l -> l.matches("link\\.bandwidth +200Gbps +\\* +rate .*")), r.out());
        assertTrue(params.stream().anyMatch(l -> l.matches("cm\\.processing +2us +time .*")), "defaults unmarked: "
                + r.out());
    }

    /** Issue 15: a preset's values carry the preset's own notes, not the catalogue's words about its default. */
    @Test
    void presetsNamePrintsThePresetsOwnNoteOnEachValue() {
        for (String name : org.datsim.fabric.FabricPresets.names()) {
            org.datsim.fabric.FabricPresets.Preset p = org.datsim.fabric.FabricPresets.get(name);
            for (String param : p.values().keySet()) {
                String note = p.note(param);
                assertTrue(note != null && !note.isBlank(), name + " " + param + " has no note");
            }
        }
        Result roce = datsim("presets", "roce-100g");
        String header = line(roce, "link.header_bytes");
        assertTrue(header.contains("roce-100g: RoCEv2: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4"), header);
        assertTrue(!header.contains("(InfiniBand LRH"), "RoCE headers are not InfiniBand's: " + header);
        Result ideal = datsim("presets", "ideal");
        String pcie = line(ideal, "pcie.bandwidth");
        assertTrue(pcie.matches("pcie\\.bandwidth +1000Tbps +\\* +rate +ideal: effectively unlimited.*"), pcie);
        assertTrue(!pcie.contains("(Gen3 x16)"), "1000 Tbps is not Gen3 x16: " + pcie);
        // inherited values say whose they are
        String hdr = line(datsim("presets", "ib-hdr"), "link.header_bytes");
        assertTrue(hdr.contains("ib-hdr: as ib-edr: LRH 8 + BTH 12 + ICRC 4 + VCRC 2"), hdr);
    }

    private static String line(Result r, String param) {
        assertEquals(0, r.code(), r.err());
        return r.outLines().stream().filter(l -> l.startsWith(param + " ")).findFirst().orElse("");
    }

    @Test
    void unknownPresetIsAnInputError() {
        Result r = datsim("presets", "ib-qdr");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("[ib-edr, ib-hdr, ib-ndr, roce-100g, ideal, hpcc-ns3]"), r.err());
        assertTrue(datsim("presets", "ib-edrr").err().contains("; did you mean ib-edr or "));
        assertEquals(2, datsim("calibrate", "--preset", "nope").code());
        assertEquals(2, datsim("calibrate", "--test", "ib_atomic_lat").code());
    }

    @Test
    void calibratePrintsTheCurveWithTargetsAndVerdicts() {
        Result r = datsim("calibrate", "--test", "ib_send_lat", "--sizes", "2,32");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.out().contains("| test | size | model | target | within |"), r.out());
        assertTrue(r.outLines().stream().anyMatch(l -> l.matches("\\| ib_send_lat \\| 2 B \\| 0\\.\\d+ us \\|  \\|  \\|")),
                r.out());
        assertTrue(r.outLines().stream().anyMatch(l -> l.matches(
                "\\| ib_send_lat \\| 32 B \\| 0\\.\\d+ us \\| 0\\.810-0\\.830 us \\| yes \\(5%\\) \\|")), r.out());
    }

    @Test
    void calibrateChecksTheTargetOfAnotherPresetAndMissesItWhenAParameterIsOff() {
        Result r = datsim("calibrate", "--preset", "roce-100g", "--test", "ib_send_lat", "--sizes", "8");
        assertEquals(0, r.code(), r.err());
        assertTrue(r.outLines().stream().anyMatch(l -> l.matches(
                "\\| ib_send_lat \\| 8 B \\| 0\\.9\\d+ us \\| 0\\.920 us \\| yes \\(5%\\) \\|")), r.out());
        Result off = datsim("calibrate", "--preset", "roce-100g", "--test", "ib_send_lat", "--sizes", "8", "--param",
                "link.latency=1us");
        assertEquals(1, off.code(), off.out());
        assertTrue(off.err().contains("targets missed: [ib_send_lat 8 B]"), off.err());
    }

    @Test
    void emitPrintsTheScenarioOfOnePointAndTheShippedExampleIsThatScenario() {
        Result r = datsim("calibrate", "--emit", "--test", "ib_send_lat", "--sizes", "32");
        assertEquals(0, r.code(), r.err());
        com.fasterxml.jackson.databind.JsonNode emitted = org.datsim.scenario.ScenarioJson.readJson(r.out());
        com.fasterxml.jackson.databind.JsonNode example = org.datsim.scenario.ScenarioJson.readJson(
                org.datsim.scenario.ScenarioJson.examplesDir().resolve("ib-send-lat.json"));
        assertEquals(emitted.get("processes"), example.get("processes"), "regenerate examples/ib-send-lat.json");
        assertEquals(emitted.get("fabric"), example.get("fabric"));
        assertEquals(2, datsim("calibrate", "--emit", "--test", "ib_send_lat").code(), "one size needed");
    }

    @Test
    void calibrateExitsOneWhenATargetIsMissed() {
        Result r = datsim("calibrate", "--test", "ib_send_lat", "--sizes", "32", "--param", "pcie.latency=1us");
        assertEquals(1, r.code(), r.out());
        assertTrue(r.out().contains("| NO (5%) |"), r.out());
        assertTrue(r.err().contains("targets missed: [ib_send_lat 32 B]"), r.err());
        Result ideal = datsim("calibrate", "--test", "ib_send_lat", "--sizes", "32", "--preset", "ideal");
        assertEquals(0, ideal.code(), "no targets to miss: " + ideal.err());
        assertEquals(2, datsim("calibrate", "--param", "pcie.latncy=1us").code());
        Result bad = datsim("calibrate", "--sizes", "32", "--test", "ib_send_lat", "--param", "pcie.latency=fast");
        assertEquals(2, bad.code());
        assertTrue(bad.err().contains("$.fabric.params.pcie.latency"), bad.err());
    }
}
