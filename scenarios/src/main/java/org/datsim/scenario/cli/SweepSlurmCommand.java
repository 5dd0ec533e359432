package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.datsim.scenario.sweep.SlurmScripts;
import org.datsim.scenario.sweep.Study;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim sweep slurm}: writes the Slurm job-array scripts of a study. */
@Command(name = "slurm", mixinStandardHelpOptions = true,
        description = "Validate a study and write OUT/slurm/sweep.sbatch (a job array, task K running"
                + " `sweep run --shard K/N`), OUT/slurm/merge.sbatch and OUT/slurm/submit.sh (submits both, the"
                + " merge with --dependency=afterok on the array). OUT must be on a file system every node sees.")
final class SweepSlurmCommand implements Callable<Integer> {

    @Parameters(paramLabel = "STUDY", description = "The study JSON file.")
    Path file;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: sweeps/<study name>).")
    Path out;

    @Option(names = "--shards", paramLabel = "N", description = "Array tasks (default: the number of runs, at most"
            + " 16).")
    Integer shards;

    @Option(names = "--cpus-per-task", paramLabel = "C", description = "Cores per array task (default:"
            + " ${DEFAULT-VALUE}).")
    int cpus = 2;

    @Option(names = "--time", paramLabel = "T", description = "Time limit of each task, e.g. 01:00:00.")
    String time;

    @Option(names = "--partition", paramLabel = "P", description = "Slurm partition.")
    String partition;

    @Option(names = "--datsim", paramLabel = "CMD", description = "The command that runs datsim on the nodes"
            + " (default: this JVM and jar).")
    String datsim;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        Study s = SweepCommand.load(file, err);
        if (s == null) {
            return DatsimCli.EXIT_INVALID;
        }
        int n = shards != null ? shards : Math.min(16, s.runs().size());
        if (n < 1 || cpus < 1) {
            err.println("datsim: --shards and --cpus-per-task must be positive");
            return DatsimCli.EXIT_INVALID;
        }
        for (String v : new String[] {time, partition}) {
            if (v != null && !v.matches("[A-Za-z0-9_:.,-]+")) {
                err.println("datsim: --time/--partition: unexpected characters in \"" + v + "\"");
                return DatsimCli.EXIT_INVALID;
            }
        }
        Path dir = out != null ? out : SweepCommand.defaultOut(s);
        List<Path> written;
        try {
            written = SlurmScripts.write(s.name(), new SlurmScripts.Options(file.toAbsolutePath(),
                    dir.toAbsolutePath(), n, cpus, time, partition,
                    datsim != null ? datsim : SlurmScripts.defaultCommand()));
        } catch (java.io.IOException e) {
            err.println("datsim: cannot write the Slurm scripts in " + dir + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        PrintWriter o = spec.commandLine().getOut();
        o.println("study " + s.name() + ": " + s.runs().size() + " run(s) in " + n + " array task(s)");
        for (Path p : written) {
            o.println("wrote " + p);
        }
        o.println("submit: bash " + written.get(2));
        return 0;
    }
}
