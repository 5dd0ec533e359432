package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;

/** Every study in {@code studies/} is valid: its base scenario and the scenario of every point. */
class ExampleStudiesTest {

    @Test
    void everyExampleStudyPlans() throws Exception {
        Path dir = ScenarioJson.examplesDir().resolve("../../studies").normalize();
        List<Path> studies;
        try (Stream<Path> s = Files.list(dir)) {
            studies = s.filter(p -> p.toString().endsWith(".json")).sorted().toList();
        }
        assertEquals(List.of("fct-vs-load.json", "fence-vs-read-latency.json", "latency-vs-size.json",
                "link-speed-by-mtu.json", "throughput-vs-qps.json"), studies.stream().map(p -> p.getFileName().toString()).toList());
        for (Path p : studies) {
            Study s = StudyLoader.load(p);
            assertTrue(s.runs().size() >= 7, p + " plans " + s.runs().size());
            assertEquals(p.getFileName().toString(), s.name() + ".json");
        }
    }
}
