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
 * {@code datsim view RUN_DIR [OTHER_DIR]}: writes the run's timeline page, its latency histogram and CDF, and its
 * {@code trace.json} if the run did not write one (for both runs when two are given, and then the two timelines on
 * one time axis in {@code RUN_DIR/side-by-side.html}); prints the paths, one per line. Exit 2 when the directory holds
 * no readable trace.
 */
@Command(name = "view", mixinStandardHelpOptions = true,
        description = "Write RUN_DIR/timeline.html (open it in a browser), latency-histogram.svg, latency-cdf.svg"
                + " and, if missing, trace.json (for ui.perfetto.dev) from RUN_DIR/events.jsonl. With a second"
                + " directory (a lesson's hazard and fix), also RUN_DIR/side-by-side.html: both timelines on one"
                + " time axis.")
final class ViewCommand implements Callable<Integer> {

    @Parameters(index = "0", paramLabel = "RUN_DIR", description = "A directory written by `datsim run`.")
    Path dir;

    @Parameters(index = "1", arity = "0..1", paramLabel = "OTHER_DIR",
            description = "Another run to show under RUN_DIR's on the same time axis, in RUN_DIR/side-by-side.html.")
    Path other;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        List<Path> written;
        try {
            written = new java.util.ArrayList<>(RunViews.write(dir));
            if (other != null) {
                written.addAll(RunViews.write(other));
                written.add(org.datsim.viz.Timeline.writeSideBySide(dir, other));
                org.datsim.scenario.run.OutputDir.recordExisting(other, org.datsim.viz.RunViews.OUTPUTS);
            }
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
