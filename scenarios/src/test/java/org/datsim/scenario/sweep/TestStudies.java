package org.datsim.scenario.sweep;

import java.nio.file.Files;
import java.nio.file.Path;
import org.datsim.scenario.ScenarioJson;

/** Studies the sweep tests write on the fly over one of the repository's study scenarios. */
final class TestStudies {

    private TestStudies() {
    }

    /**
     * Writes {@code dir/study.json}, a study named {@code name} over {@code studies/scenarios/SCENARIO}, with the
     * rest of its members given as JSON, and loads it.
     *
     * @param dir where to write it
     * @param name the study's name
     * @param scenario the file name under studies/scenarios
     * @param members the other members, such as {@code "repetitions": 1, "axes": [...]}
     * @return the loaded study
     * @throws Exception if it cannot be written or does not load
     */
    static Study write(Path dir, String name, String scenario, String members) throws Exception {
        Path base = ScenarioJson.examplesDir().resolve("../../studies/scenarios/" + scenario).normalize();
        Files.writeString(dir.resolve("study.json"), "{\"study\": \"" + name + "\", \"scenario\": \""
                + base.toString().replace("\\", "\\\\") + "\", " + members + "}");
        return StudyLoader.load(dir.resolve("study.json"));
    }
}
