package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.sweep.StudyLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reading a hand-written JSON file: every way the file itself can be wrong is one message naming it, the same for a
 * scenario and a study (both go through {@link JsonInput#readFile}).
 */
class JsonFileReadingTest {

    @TempDir
    Path tmp;

    private static List<String> scenarioProblems(Path p) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.load(p)).problems();
    }

    @Test
    void bytesThatAreNotUtf8AreOneMessageNotAnEncodingError() throws Exception {
        Path p = tmp.resolve("latin1.json");
        Files.write(p, new byte[] {'{', '"', 's', 'c', 'e', 'n', 'a', 'r', 'i', 'o', '"', ':', '"', (byte) 0xE9, '"',
            '}'});
        assertEquals(List.of(p + ": is not UTF-8 text, expected a scenario JSON file"), scenarioProblems(p));
        assertEquals(List.of(p + ": is not UTF-8 text, expected a study JSON file"),
                assertThrows(ScenarioException.class, () -> StudyLoader.load(p)).problems());
    }

    @Test
    void aMissingFileADirectoryAndAnEmptyFileAreOneMessageEach() throws Exception {
        assertEquals(List.of(tmp.resolve("none.json") + ": no such file"), scenarioProblems(tmp.resolve("none.json")));
        assertEquals(List.of(tmp + ": is a directory, expected a scenario JSON file"), scenarioProblems(tmp));
        Path empty = Files.writeString(tmp.resolve("empty.json"), " \n");
        assertEquals(List.of(empty + ": the file is empty, expected a scenario JSON object"), scenarioProblems(empty));
    }
}
