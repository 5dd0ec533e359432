package org.datsim.scenario.trace;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/** The repository's root, whether the tests run with the module or the root as working directory. */
final class ScenarioTreeRoot {

    private ScenarioTreeRoot() {}

    static Path find() {
        Path dir = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        for (Path d = dir; d != null; d = d.getParent()) {
            if (Files.isDirectory(d.resolve("sim-core")) && Files.isDirectory(d.resolve("viz"))) {
                return d;
            }
        }
        throw new IllegalStateException("no repository root above " + dir);
    }
}
