package org.datsim.scenario.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import org.datsim.viz.explain.Explainer;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim explain RUN_DIR}: the causal story of a finished run, operation by operation. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = "Tell the story of a finished run: for each operation in posting order, when it was posted,"
                + " what held it back and why (fence, bind, read credits, send engine or link busy, receiver not"
                + " ready), when it completed and whether its completion waited for an earlier one.")
final class ExplainCommand implements Callable<Integer> {

    @Parameters(paramLabel = "RUN_DIR", description = "A directory written by `datsim run` (or `datsim lab`).")
    Path dir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Path events = dir.resolve("events.jsonl");
        try {
            if (!org.datsim.viz.RunFiles.exists(events)) {
                spec.commandLine().getErr().println("datsim: " + events + ": no such file (is " + dir
                        + " the output directory of `datsim run`?)");
                return DatsimCli.EXIT_INVALID;
            }
            Explainer.explainRun(dir).print(spec.commandLine().getOut());
        } catch (IOException e) {
            spec.commandLine().getErr().println("datsim: " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        return 0;
    }
}
