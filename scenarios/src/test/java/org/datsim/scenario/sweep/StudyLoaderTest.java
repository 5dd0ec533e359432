package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Study files: planning (cartesian products, zipped axes, ranges, fixed settings, repetitions and their seeds), run
 * identities, and validation of the study and of every point's scenario before anything runs.
 */
class StudyLoaderTest {

    @TempDir
    Path dir;

    private Study parse(String body) throws ScenarioException {
        return StudyLoader.parse("s.json", "{\"study\": \"t\", \"scenario\": " + ScenarioJson.base() + ", " + body
                + "}", dir);
    }

    private List<String> problems(String body) {
        return assertThrows(ScenarioException.class, () -> parse(body)).problems();
    }

    private static boolean has(List<String> problems, String text) {
        return problems.stream().anyMatch(p -> p.contains(text));
    }

    @Test
    void axesMakeACartesianProductOfZippedGroupsFirstAxisSlowest() throws Exception {
        Study s = parse("\"repetitions\": 2, \"axes\": ["
                + "{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\"]},"
                + "{\"zip\": [{\"name\": \"bw\", \"path\": \"/fabric/params/link.bandwidth\", \"values\":"
                + " [\"25Gbps\", \"100Gbps\", \"200Gbps\"]},"
                + "{\"name\": \"lat\", \"path\": \"/fabric/links/0/latency\", \"values\": [\"10ns\", \"20ns\","
                + " \"30ns\"]}]}]");
        assertEquals(6, s.points());
        assertEquals(12, s.runs().size());
        Point p = s.runs().get(2);
        assertEquals(1, p.point());
        assertEquals(0, p.rep());
        assertEquals("1KiB", Point.text(p.values().get("hca.mtu")), "the axis is named after its last segment");
        assertEquals("100Gbps", Point.text(p.values().get("bw")));
        assertEquals("20ns", Point.text(p.values().get("lat")), "zipped axes advance together");
        assertTrue(p.scenarioJson().contains("\"hca.mtu\":\"1KiB\""), p.scenarioJson());
        assertTrue(p.scenarioJson().contains("\"latency\":\"20ns\""), p.scenarioJson());
        assertEquals("2KiB", Point.text(s.runs().get(6).values().get("hca.mtu")));
        Set<String> ids = new HashSet<>();
        Set<Long> seeds = new HashSet<>();
        for (Point r : s.runs()) {
            ids.add(r.id());
            seeds.add(r.seed());
            assertTrue(r.scenarioJson().contains("\"seed\":" + r.seed()));
        }
        assertEquals(12, ids.size(), "every run has its own directory");
        assertEquals(12, seeds.size(), "per-point seeds differ by point and repetition");
        Study again = parse("\"repetitions\": 2, \"axes\": ["
                + "{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\"]},"
                + "{\"zip\": [{\"name\": \"bw\", \"path\": \"/fabric/params/link.bandwidth\", \"values\":"
                + " [\"25Gbps\", \"100Gbps\", \"200Gbps\"]},"
                + "{\"name\": \"lat\", \"path\": \"/fabric/links/0/latency\", \"values\": [\"10ns\", \"20ns\","
                + " \"30ns\"]}]}]");
        assertEquals(s.runs(), again.runs(), "planning is deterministic");
    }

    @Test
    void commonSeedsAreSharedByThePointsRepetitionByRepetition() throws Exception {
        Study s = parse("\"seeds\": \"common\", \"seed\": 7, \"repetitions\": 2, \"axes\": [{\"path\":"
                + " \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\"]}]");
        assertEquals(s.runs().get(0).seed(), s.runs().get(2).seed());
        assertEquals(s.runs().get(1).seed(), s.runs().get(3).seed());
        assertNotEquals(s.runs().get(0).seed(), s.runs().get(1).seed());
        assertNotEquals(s.runs().get(0).id(), s.runs().get(2).id(), "the parameters differ");
        Study other = parse("\"seed\": 8, \"seeds\": \"common\", \"repetitions\": 2, \"axes\": [{\"path\":"
                + " \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\"]}]");
        assertNotEquals(s.runs().get(0).seed(), other.runs().get(0).seed(), "the study seed matters");
    }

    @Test
    void rangesAndFixedSettings() throws Exception {
        Study s = parse("\"set\": {\"/fabric/params/link.latency\": \"1us\", \"/vars/n\": 3}, \"axes\": [{\"name\":"
                + " \"size\", \"path\": \"/vars/size\", \"values\": {\"from\": 64, \"to\": \"4KiB\", \"times\": 4}},"
                + " {\"name\": \"k\", \"path\": \"/vars/k\", \"values\": {\"from\": 1, \"to\": 3, \"step\": 1}}]");
        assertEquals(12, s.points());
        assertEquals("64", Point.text(s.runs().get(0).values().get("size")));
        assertEquals("4096", Point.text(s.runs().get(9).values().get("size")));
        assertEquals("3", Point.text(s.runs().get(2).values().get("k")));
        String json = s.runs().get(0).scenarioJson();
        assertTrue(json.contains("\"link.latency\":\"1us\"") && json.contains("\"vars\":{\"k\":1,\"n\":3,\"size\":64}"),
                json);
    }

    @Test
    void studyProblemsNameTheirJsonPaths() {
        List<String> p = problems("\"bogus\": 1, \"repetitions\": 0, \"seeds\": \"random\", \"metrics\": [\"nope\","
                + " \"rdma_read.p99_us\", 3], \"plot\": {\"x\": \"zz\"}, \"axes\": ["
                + "{\"path\": \"fabric/params\", \"values\": [1]},"
                + "{\"name\": \"a\", \"path\": \"/vars/a\", \"values\": []},"
                + "{\"name\": \"a\", \"path\": \"/vars/b\", \"values\": [1]},"
                + "{\"name\": \"seed\", \"path\": \"/vars/c\", \"values\": [1]},"
                + "{\"path\": \"/seed\", \"values\": [1]},"
                + "{\"zip\": [{\"name\": \"x\", \"path\": \"/vars/x\", \"values\": [1, 2]},"
                + " {\"name\": \"y\", \"path\": \"/vars/y\", \"values\": [1]}]}]");
        assertTrue(has(p, "s.json: $.bogus: unknown field"), p.toString());
        assertTrue(has(p, "s.json: $.repetitions: expected a whole number from 1 to 10000"), p.toString());
        assertTrue(has(p, "s.json: $.seeds: expected \"per_point\""), p.toString());
        assertTrue(has(p, "s.json: $.metrics[0]: unknown metric \"nope\""), p.toString());
        assertTrue(has(p, "s.json: $.metrics[2]: expected a metric name"), p.toString());
        assertTrue(has(p, "s.json: $.plot.x: expected the name of an axis"), p.toString());
        assertTrue(has(p, "s.json: $.axes[0].path: expected a JSON Pointer (RFC 6901)"), p.toString());
        assertTrue(has(p, "s.json: $.axes[1].values: expected at least one value"), p.toString());
        assertTrue(has(p, "s.json: $.axes[2].name: another axis is named \"a\""), p.toString());
        assertTrue(has(p, "s.json: $.axes[3].name: \"seed\" is a column of the tables already"), p.toString());
        assertTrue(has(p, "s.json: $.axes[4].path: the seed is set by the study"), p.toString());
        assertTrue(has(p, "s.json: $.axes[5].zip[1].values: a zip's axes must have the same number of values"),
                p.toString());
        assertTrue(p.stream().noneMatch(m -> m.contains("Exception")), p.toString());
    }

    @Test
    void everyPointsScenarioIsValidatedAndItsProblemsNameThePoint() {
        List<String> p = problems("\"axes\": [{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"4KiB\","
                + " \"lots\"]}, {\"name\": \"l5\", \"path\": \"/fabric/links/5/bandwidth\", \"values\": [\"1Gbps\"]}]");
        assertTrue(has(p, "s.json point 0 (hca.mtu=4KiB, l5=1Gbps): axis \"l5\": /fabric/links is an array of 1"
                + " elements; \"5\" is not one of its indexes"), p.toString());
        List<String> q = problems("\"axes\": [{\"path\": \"/fabric/params/hca.mtu\", \"values\": [\"4KiB\","
                + " \"lots\"]}]");
        assertEquals(1, q.size(), q.toString());
        assertTrue(q.get(0).startsWith("s.json point 1 (hca.mtu=lots): $.fabric.params.hca.mtu: "), q.toString());
        List<String> r = problems("\"axes\": [{\"path\": \"/fabric/preset\", \"values\": [\"ib-edr\", \"ib-xdr\"]}]");
        assertEquals(1, r.size(), r.toString());
        assertTrue(r.get(0).startsWith("s.json point 1 (preset=ib-xdr): $.fabric.preset: expected one of "), r.toString());
    }

    @Test
    void aBaseScenarioPathIsRelativeToTheStudyAndItsProblemsComeFirst() throws Exception {
        Files.createDirectories(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/base.json"), ScenarioJson.base());
        Path study = dir.resolve("study.json");
        Files.writeString(study, "{\"study\": \"rel\", \"scenario\": \"sub/base.json\", \"axes\": [{\"path\":"
                + " \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\"]}]}");
        assertEquals(1, StudyLoader.load(study).runs().size());
        Files.writeString(dir.resolve("sub/base.json"), ScenarioJson.withParams("{\"hca.mtu\": 3}"));
        List<String> p = assertThrows(ScenarioException.class, () -> StudyLoader.load(study)).problems();
        assertTrue(p.get(0).startsWith(study + " (base scenario sub/base.json): $.fabric.params.hca.mtu"), p.toString());
        Files.writeString(study, "{\"study\": \"rel\", \"scenario\": \"missing.json\"}");
        p = assertThrows(ScenarioException.class, () -> StudyLoader.load(study)).problems();
        assertTrue(p.get(0).contains("$.scenario: ") && p.get(0).contains("missing.json: no such file"), p.toString());
    }
}
