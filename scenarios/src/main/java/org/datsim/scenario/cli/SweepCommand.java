package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import org.datsim.scenario.sweep.Study;
import org.datsim.scenario.sweep.StudyLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code datsim sweep}: what-if studies (plan, run, merge, slurm; registered by {@link DatsimCli#NESTED}). */
@Command(name = "sweep", mixinStandardHelpOptions = true,
        description = "What-if studies: run a scenario over axes of parameter values, locally or as a Slurm job"
                + " array, and merge the results into tables and plots.")
public final class SweepCommand implements Runnable {

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** Loads a study, printing its problems; returns null if it is invalid. */
    static Study load(Path file, PrintWriter err) {
        return InputFiles.load(file, err, StudyLoader::load);
    }

    /** The default output directory of a study. */
    static Path defaultOut(Study s) {
        return Path.of("sweeps", s.name());
    }
}
