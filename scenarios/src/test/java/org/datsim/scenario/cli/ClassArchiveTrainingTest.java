package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run that writes the launcher's class archive: every command in it succeeds on the repository's files (a
 * command that failed early would leave its classes out of the archive, silently), and outside the repository it
 * still runs what needs no file.
 */
class ClassArchiveTrainingTest {

    @TempDir
    Path tmp;

    private static List<String> names(List<String[]> lines) {
        List<String> names = new ArrayList<>();
        for (String[] line : lines) {
            names.add(line[0]);
        }
        return names;
    }

    @Test
    void everyTrainingCommandSucceedsOnTheRepository() throws Exception {
        Path root = ScenarioJson.examplesDir().getParent().getParent();
        List<String[]> lines = ClassArchiveTraining.commands(root, tmp);
        assertEquals(List.of("--help", "validate", "run", "explain", "view", "bench"), names(lines));
        assertEquals(List.of(), ClassArchiveTraining.run(root, tmp));
        assertTrue(Files.isRegularFile(tmp.resolve("run").resolve("summary.json")), "the run wrote its outputs");
        assertTrue(Files.isRegularFile(tmp.resolve("run").resolve("timeline.html")), "view wrote the timeline");
    }

    @Test
    void outsideTheRepositoryOnlyTheCommandsThatNeedNoFileRun() {
        List<String[]> lines = ClassArchiveTraining.commands(tmp.resolve("elsewhere"), tmp);
        assertEquals(List.of("--help", "bench"), names(lines));
        assertEquals(List.of(), ClassArchiveTraining.run(tmp.resolve("elsewhere"), tmp));
    }
}
