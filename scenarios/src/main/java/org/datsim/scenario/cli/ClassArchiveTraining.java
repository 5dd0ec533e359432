package org.datsim.scenario.cli;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * The run the {@code ./datsim} launcher makes once per build of the jar, under
 * {@code -XX:ArchiveClassesAtExit}, to write the class-data-sharing archive every later start maps instead of
 * reading, parsing and verifying the classes it needs (about 60 ms of each start: a third of a short command).
 *
 * <p>It runs the common commands on the repository's own files, so that the classes they load go into the archive:
 * {@code run} and {@code validate} on an example scenario, {@code explain} and {@code view} on that run, a short
 * {@code bench stream}, and the usage help. Their output is discarded. The archive holds classes only (no compiled
 * code and no profile), so what this run does cannot change any result or any figure a later run measures other
 * than its start-up time. Commands whose input files are missing (the jar run outside the repository) are skipped.
 */
public final class ClassArchiveTraining {

    private ClassArchiveTraining() {
    }

    /**
     * Runs the training commands.
     *
     * @param args the repository root, then a scratch directory for the commands' outputs (the launcher removes it)
     * @throws IOException if the scratch directory cannot be made
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: ClassArchiveTraining REPOSITORY_ROOT SCRATCH_DIR");
            System.exit(DatsimCli.EXIT_INVALID);
        }
        // A command that fails still loaded classes, and the archive stays valid; the tests see to it that none does.
        run(Paths.get(args[0]), Files.createDirectories(Paths.get(args[1])));
    }

    /**
     * Runs the training commands with their output discarded.
     *
     * @param root the repository root
     * @param scratch a directory for the commands' outputs
     * @return the command lines that did not exit 0, each as one string
     */
    static List<String> run(Path root, Path scratch) {
        PrintWriter sink = new PrintWriter(OutputStream.nullOutputStream(), true);
        List<String> failed = new ArrayList<>();
        for (String[] line : commands(root, scratch)) {
            if (DatsimCli.execute(line, sink, sink) != 0) {
                failed.add(String.join(" ", line));
            }
        }
        return failed;
    }

    /** The command lines, in order; those needing a missing file are left out. */
    static List<String[]> commands(Path root, Path scratch) {
        List<String[]> lines = new ArrayList<>();
        lines.add(new String[] {"--help"});
        Path example = root.resolve("scenarios/examples/write-then-send.json");
        if (Files.isRegularFile(example)) {
            String run = scratch.resolve("run").toString();
            lines.add(new String[] {"validate", example.toString()});
            lines.add(new String[] {"run", example.toString(), "--out", run});
            lines.add(new String[] {"explain", run});
            lines.add(new String[] {"view", run});
        }
        lines.add(new String[] {"bench", "stream", "--writes", "200"});
        return lines;
    }
}
