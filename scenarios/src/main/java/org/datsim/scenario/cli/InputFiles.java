package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.datsim.scenario.load.ScenarioException;

/** Reading the input files the commands take (scenarios, studies), with one way of reporting their problems. */
final class InputFiles {

    /** Reads and validates one kind of input file. */
    @FunctionalInterface
    interface Loader<T> {
        T load(Path file) throws ScenarioException;
    }

    /** The most characters of one problem's line (longer ones quote a long input and are cut, saying the length). */
    static final int MAX_LINE = 2000;

    private InputFiles() {
    }

    /**
     * Loads a file, printing its problems, one a line, and their count; returns null if it is invalid.
     *
     * @param file the file
     * @param err where the problems go
     * @param loader reads and validates the file
     * @return what the file holds, or null if it has problems
     */
    static <T> T load(Path file, PrintWriter err, Loader<T> loader) {
        try {
            return loader.load(file);
        } catch (ScenarioException e) {
            for (String p : e.problems()) {
                err.println(org.datsim.core.util.Text.clean(p, MAX_LINE));
            }
            err.println(e.problems().size() + " problem(s) in " + file + "; nothing was run");
            return null;
        }
    }
}
