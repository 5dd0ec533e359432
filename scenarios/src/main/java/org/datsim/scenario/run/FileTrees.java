package org.datsim.scenario.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/** Deleting a run's directory tree (a sweep's temporary run, a calibration point's scratch directory). */
public final class FileTrees {

    private FileTrees() {
    }

    /**
     * Deletes a file or a directory with everything below it, deepest first; nothing if it does not exist.
     *
     * @param p the file or directory
     * @throws IOException if something cannot be deleted (what came before it is gone)
     */
    public static void delete(Path p) throws IOException {
        if (!Files.exists(p)) {
            return;
        }
        try (Stream<Path> s = Files.walk(p)) {
            List<Path> all = s.sorted(Comparator.reverseOrder()).toList();
            for (Path x : all) {
                Files.deleteIfExists(x);
            }
        }
    }
}
