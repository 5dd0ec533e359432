package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import org.datsim.scenario.sweep.Axis;
import org.datsim.scenario.sweep.Point;
import org.datsim.scenario.sweep.Study;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim sweep plan}: validates a study and lists its runs. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = "Validate a study (every point's scenario too) and list its runs: point, repetition, seed,"
                + " run id (the name of its directory) and axis values.")
final class SweepPlanCommand implements Callable<Integer> {

    @Parameters(paramLabel = "STUDY", description = "The study JSON file.")
    Path file;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Study s = SweepCommand.load(file, spec.commandLine().getErr());
        if (s == null) {
            return DatsimCli.EXIT_INVALID;
        }
        PrintWriter o = spec.commandLine().getOut();
        o.println("study " + s.name() + ": " + s.points() + " point(s) x " + s.repetitions() + " repetition(s) = "
                + s.runs().size() + " run(s)");
        for (Axis a : s.axes()) {
            o.println("  axis " + a.name() + " = " + a.pointer() + ": " + a.values().size() + " value(s)");
        }
        o.printf("%6s %4s %20s %-20s %s%n", "point", "rep", "seed", "id", "values");
        for (Point p : s.runs()) {
            StringBuilder b = new StringBuilder();
            for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> e : p.values().entrySet()) {
                b.append(b.length() == 0 ? "" : " ").append(e.getKey()).append('=').append(Point.text(e.getValue()));
            }
            o.printf("%6d %4d %20d %-20s %s%n", p.point(), p.rep(), p.seed(), p.id(), b);
        }
        return 0;
    }
}
