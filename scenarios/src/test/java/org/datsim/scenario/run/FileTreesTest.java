package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Deleting a directory tree: everything below it, deepest first; a missing path is no error. */
class FileTreesTest {

    @TempDir
    Path tmp;

    @Test
    void deletesATreeAndLeavesItsNeighbours() throws Exception {
        Path run = tmp.resolve("run");
        Files.createDirectories(run.resolve("a/b"));
        Files.writeString(run.resolve("summary.json"), "{}");
        Files.writeString(run.resolve("a/b/events.jsonl"), "{}\n");
        Path neighbour = Files.writeString(tmp.resolve("other.txt"), "x");
        FileTrees.delete(run);
        assertFalse(Files.exists(run));
        assertTrue(Files.exists(neighbour));
        FileTrees.delete(run); // gone already: nothing to do
        FileTrees.delete(neighbour); // a plain file
        assertFalse(Files.exists(neighbour));
    }
}
