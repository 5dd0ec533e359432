package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs keep each other: the default directory of a file whose scenario name another file's run already holds is
 * NAME-2 (then NAME-3, ...); a rerun of the same file goes back to its own directory; a directory that records no
 * source (an older run) is taken as before.
 */
class OutputDirSourceTest {

    @TempDir
    Path tmp;

    @Test
    void anotherFilesRunIsKeptAndTheSameFilesIsReplaced() throws Exception {
        Path runs = tmp.resolve("runs");
        Path a = Files.writeString(tmp.resolve("a.json"), "{}");
        Path b = Files.writeString(tmp.resolve("b.json"), "{}");
        Path c = Files.writeString(tmp.resolve("c.json"), "{}");
        Path first = OutputDir.forSource(runs, "demo", a);
        assertEquals(runs.resolve("demo"), first, "nothing there yet");
        OutputDir.claim(first, false);
        OutputDir.recordSource(first, a);
        assertEquals(runs.resolve("demo"), OutputDir.forSource(runs, "demo", a), "a rerun replaces its own run");
        Path second = OutputDir.forSource(runs, "demo", b);
        assertEquals(runs.resolve("demo-2"), second, "another file with the same name keeps the first run");
        OutputDir.claim(second, false);
        OutputDir.recordSource(second, b);
        assertEquals(runs.resolve("demo-2"), OutputDir.forSource(runs, "demo", tmp.resolve("x/../b.json")));
        assertEquals(runs.resolve("demo-3"), OutputDir.forSource(runs, "demo", c));
        assertEquals(a.toAbsolutePath().normalize().toString(), OutputDir.source(first));

        Path old = runs.resolve("old");
        OutputDir.claim(old, false);
        assertEquals(old, OutputDir.forSource(runs, "old", c), "a run without a recorded source is taken as before");
    }
}
