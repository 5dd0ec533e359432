package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.datsim.scenario.sweep.SweepMerger;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim sweep merge}: builds the tables and plots of a sweep's output directory. */
@Command(name = "merge", mixinStandardHelpOptions = true,
        description = "Build OUT/results.csv (one row per point and repetition), OUT/aggregate.csv (per point, each"
                + " metric's mean and confidence interval) and OUT/plots (each metric against one axis, one line"
                + " per value of another). Exit 1 if runs of the plan are missing (the tables hold the others).")
final class SweepMergeCommand implements Callable<Integer> {

    @Parameters(paramLabel = "OUT", description = "The output directory of `datsim sweep run`.")
    Path out;

    @Option(names = "--x", paramLabel = "AXIS", description = "The axis along x (default: the study's plot.x, else"
            + " the first axis).")
    String x;

    @Option(names = "--series", paramLabel = "AXIS", description = "The axis drawn as one line per value (default:"
            + " the study's plot.series, else the first other axis). Further axes give one plot file per"
            + " combination of their values.")
    String series;

    @Option(names = "--format", paramLabel = "svg|png", description = "Plot format (default: ${DEFAULT-VALUE}).")
    String format = "svg";

    @Option(names = "--confidence", paramLabel = "P", description = "Confidence level of the intervals (default:"
            + " ${DEFAULT-VALUE}).")
    double confidence = 0.95;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        if (!format.equals("svg") && !format.equals("png")) {
            err.println("datsim: --format: expected svg or png, found \"" + format + "\"");
            return DatsimCli.EXIT_INVALID;
        }
        if (!(confidence > 0 && confidence < 1)) {
            err.println("datsim: --confidence: expected a level between 0 and 1 such as 0.95, found " + confidence);
            return DatsimCli.EXIT_INVALID;
        }
        SweepMerger.Outcome r;
        try {
            r = SweepMerger.merge(out, new SweepMerger.Options(x, series, format, confidence));
        } catch (IllegalArgumentException e) {
            err.println("datsim: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        } catch (java.io.IOException e) {
            err.println("datsim: cannot merge " + out + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        PrintWriter o = spec.commandLine().getOut();
        o.println("merged " + r.rows() + " run(s) of " + r.points() + " point(s): " + out.resolve("results.csv") + ", "
                + out.resolve("aggregate.csv") + ", " + r.plots() + " plot(s) in " + out.resolve("plots"));
        if (r.missing() > 0) {
            err.println("datsim: " + r.missing() + " run(s) of the plan are not finished; run `datsim sweep run`"
                    + " again to finish them, then merge");
            return 1;
        }
        return 0;
    }
}
