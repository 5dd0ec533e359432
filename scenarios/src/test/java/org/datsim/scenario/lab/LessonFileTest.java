package org.datsim.scenario.lab;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lesson.json holds exactly one JSON object and no key twice, as scenario and study files do: content after the
 * object or a repeated key is one problem naming the file, not silently ignored (before, the second object and the
 * first of two "title"s were dropped without a word).
 */
class LessonFileTest {

    @TempDir
    Path lab;

    /** Copies lesson 1 of the lab into a lab of its own and returns its lesson.json. */
    private Path lessonCopy() throws Exception {
        Path from;
        try (var s = Files.list(Lessons.defaultDir())) {
            from = s.filter(p -> p.getFileName().toString().startsWith("01-")).findFirst().orElseThrow();
        }
        Path d = Files.createDirectories(lab.resolve(from.getFileName()));
        for (String f : new String[] {"lesson.json", "hazard.json", "fix.json"}) {
            Files.copy(from.resolve(f), d.resolve(f));
        }
        return d.resolve("lesson.json");
    }

    @Test
    void theCopyIsAValidLesson() throws Exception {
        lessonCopy();
        assertEquals(1, Lessons.load(lab).size());
    }

    @Test
    void contentAfterTheLessonObjectIsAProblem() throws Exception {
        Path f = lessonCopy();
        String lesson = Files.readString(f);
        for (String tail : new String[] {"{\"title\": \"again\"}\n", "x\n", "]\n"}) {
            Files.writeString(f, lesson + tail);
            List<String> p = assertThrows(LabException.class, () -> Lessons.load(lab)).problems();
            // located at the content after the object: its line and column
            int line = (int) lesson.chars().filter(c -> c == '\n').count() + 1;
            assertEquals(List.of(f + ":" + line + ":1: invalid JSON: expected the end of the file after the lesson's"
                    + " JSON value, found more"), p, tail);
        }
    }

    @Test
    void aRepeatedKeyIsAProblem() throws Exception {
        Path f = lessonCopy();
        String text = Files.readString(f);
        Files.writeString(f, text.replaceFirst("\\{", "{\"title\": \"first\", "));
        List<String> p = assertThrows(LabException.class, () -> Lessons.load(lab)).problems();
        assertEquals(1, p.size(), p.toString());
        // located like a study's: the line and column of the second "title"
        assertTrue(p.get(0).matches(java.util.regex.Pattern.quote(f.toString()) + ":\\d+:\\d+: invalid JSON:"
                + " Duplicate field 'title'"), p.get(0));
    }
}
