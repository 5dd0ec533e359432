package org.datsim.scenario.cli;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import org.datsim.viz.RunViews;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim view RUN_DIR}: writes the run's timeline page, its latency histogram and CDF, and its
 * {@code trace.json} if the run did not write one; prints the paths, one per line. Exit 2 when the directory holds
 * no readable trace.
 */
@Command(name = "view", mixinStandardHelpOptions = true,
        description = "Write RUN_DIR/timeline.html (open it in a browser), latency-histogram.svg, latency-cdf.svg"
                + " and, if missing, trace.json (for ui.perfetto.dev) from RUN_DIR/events.jsonl.")
final class ViewCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RUN_DIR", description = "A directory written by `datsim run`.")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<Path> written;
        try {
            written = RunViews.write(dir);
            org.datsim.scenario.run.OutputDir.recordExisting(dir, org.datsim.viz.RunViews.OUTPUTS);
        } catch (IOException e) {
            spec.commandLine().getErr().println("datsim: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        for (Path p : written) {
            spec.commandLine().getOut().println(p);
        }
        spec.commandLine().getOut().flush();
        return 0;
    }
}
