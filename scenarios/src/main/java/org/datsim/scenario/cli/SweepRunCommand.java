package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.datsim.scenario.sweep.Progress;
import org.datsim.scenario.sweep.Study;
import org.datsim.scenario.sweep.SweepRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim sweep run}: runs a study's unfinished runs (or one shard of them) in parallel. */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = "Run the study's runs that are not finished yet, each into OUT/points/ID (ID: the hash of its"
                + " scenario and seed). A killed sweep resumes where it stopped when run again. Exit 0 when every"
                + " run is recorded (a run whose expectations failed is recorded with exit 1 in the tables), 2 for"
                + " an invalid study or unwritable output, 3 if datsim failed on a run.")
final class SweepRunCommand implements Callable<Integer> {

    @Parameters(paramLabel = "STUDY", description = "The study JSON file.")
    Path file;

    @Option(names = "--jobs", paramLabel = "N", description = "Runs at once (default: every core, ${DEFAULT-VALUE}).")
    int jobs = Runtime.getRuntime().availableProcessors();

    @Option(names = "--threads", paramLabel = "T", description = "Threads of each run (default 1: the runs at once"
            + " share the cores). A run whose scenario is a workload without consumer processes splits its fabric"
            + " into T partitions (docs/parallel.md); the others run on one thread. The outputs are the same for"
            + " every T.")
    int threads = 1;

    @Option(names = "--shard", paramLabel = "K/N", description = "Run only shard K of N (run i belongs to shard"
            + " i mod N + 1), for job arrays.")
    String shard = "1/1";

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default: sweeps/<study name>).")
    Path out;

    @Spec
    CommandLine.Model.CommandSpec spec;

    /**
     * Returns true if standard output is a terminal: a console exists (Java 17) and, on Java 22 and later where a
     * console may exist without one, {@code Console.isTerminal()} says so.
     */
    static boolean terminal() {
        java.io.Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException e) {
            return true;
        }
    }

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        int k;
        int n;
        try {
            String[] kn = shard.split("/", -1);
            k = Integer.parseInt(kn[0].trim());
            n = Integer.parseInt(kn[1].trim());
            if (kn.length != 2 || n < 1 || k < 1 || k > n) {
                throw new IllegalArgumentException();
            }
        } catch (RuntimeException e) {
            err.println("datsim: --shard: expected K/N with 1 <= K <= N, such as 3/8, found \"" + shard + "\"");
            return DatsimCli.EXIT_INVALID;
        }
        if (jobs < 1) {
            err.println("datsim: --jobs: expected a positive number, found " + jobs);
            return DatsimCli.EXIT_INVALID;
        }
        if (threads < 1) {
            err.println("datsim: --threads must be at least 1, found " + threads);
            return DatsimCli.EXIT_INVALID;
        }
        Study s = SweepCommand.load(file, err);
        if (s == null) {
            return DatsimCli.EXIT_INVALID;
        }
        Path dir = out != null ? out : SweepCommand.defaultOut(s);
        SweepRunner.Outcome r;
        try {
            r = SweepRunner.run(s, dir, jobs, threads, k, n, new Progress(err, terminal()));
        } catch (java.io.IOException e) {
            err.println("datsim: cannot write the sweep's outputs in " + dir + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            err.println("datsim: interrupted; finished runs are kept, run the same command again to resume");
            return DatsimCli.EXIT_INTERNAL;
        }
        for (String e : r.errors()) {
            err.println("datsim: " + e);
        }
        PrintWriter o = spec.commandLine().getOut();
        o.println("sweep " + s.name() + (n > 1 ? " shard " + k + "/" + n : "") + ": " + r.planned() + " run(s), "
                + r.ran() + " ran now, " + r.skipped() + " finished before, " + r.failedExpectations()
                + " with failed expectations, " + r.errors().size() + " not recorded; results in " + dir);
        if (!r.errors().isEmpty()) {
            return DatsimCli.EXIT_INTERNAL;
        }
        o.println("next: datsim sweep merge " + dir);
        return 0;
    }
}
