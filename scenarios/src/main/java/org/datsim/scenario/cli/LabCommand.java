package org.datsim.scenario.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.Callable;
import org.datsim.scenario.lab.LabException;
import org.datsim.scenario.lab.Lesson;
import org.datsim.scenario.lab.LessonRun;
import org.datsim.scenario.lab.Lessons;
import org.datsim.scenario.load.ScenarioException;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code datsim lab [N]}: lists the fencing lab's lessons, or runs lesson N (its hazard and its fix) and tells what
 * happened. Exit codes: 0 the lesson behaved as written; 1 it did not (a run failed an expectation, or the hazard
 * showed in the fix or not in the hazard); 2 bad input (no such lesson, an invalid lesson or scenario, outputs that
 * cannot be written); 3 datsim failed.
 */
@Command(name = "lab", mixinStandardHelpOptions = true,
        description = "The fencing lab. Without N: list the lessons. With N: run lesson N, the hazard and its fix,"
                + " and tell from their traces what went wrong and why the fix is right.")
final class LabCommand implements Callable<Integer> {

    @Parameters(paramLabel = "N", arity = "0..1", description = "The lesson to run.")
    Integer number;

    @Option(names = "--out", paramLabel = "DIR",
            description = "Where the two runs go: DIR/hazard and DIR/fix (default: runs/lab/<lesson>).")
    Path out;

    @Option(names = "--force",
            description = "Write into DIR/hazard and DIR/fix even if they are not empty and datsim did not create them"
                    + " (datsim deletes nothing there that it did not write).")
    boolean force;

    @Option(names = "--lessons", paramLabel = "DIR", description = "The lab directory (default: scenarios/lab).")
    Path lessonsDir;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter o = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<Lesson> lessons;
        try {
            lessons = Lessons.load(lessonsDir != null ? lessonsDir : Lessons.defaultDir());
        } catch (LabException e) {
            e.problems().forEach(m -> err.println(org.datsim.core.util.Text.clean(m, InputFiles.MAX_LINE)));
            return DatsimCli.EXIT_INVALID;
        }
        if (number == null) {
            o.println("The fencing lab: each lesson runs a hazard and its fix. Run one with `datsim lab N`.");
            for (Lesson l : lessons) {
                o.printf("%3d  %s%n", l.number(), l.title());
            }
            o.flush();
            return 0;
        }
        Lesson lesson = null;
        for (Lesson l : lessons) {
            if (l.number() == number) {
                lesson = l;
            }
        }
        if (lesson == null) {
            err.println("datsim: no lesson " + number + " (`datsim lab` lists them: 1 to "
                    + (lessons.isEmpty() ? 0 : lessons.get(lessons.size() - 1).number()) + ")");
            return DatsimCli.EXIT_INVALID;
        }
        Path dir = out != null ? out : Paths.get("runs", "lab", lesson.name());
        LessonRun run = new LessonRun(lesson).force(force);
        LessonRun.Outcome hazard;
        LessonRun.Outcome fix;
        try {
            hazard = run.runHazard(dir);
            fix = run.runFix(dir);
        } catch (ScenarioException e) {
            e.problems().forEach(m -> err.println(org.datsim.core.util.Text.clean(m, InputFiles.MAX_LINE)));
            return DatsimCli.EXIT_INVALID;
        } catch (IOException e) {
            err.println("datsim: cannot write or read the runs in " + dir + ": " + e.getMessage());
            return DatsimCli.EXIT_INVALID;
        }
        run.narrate(hazard, fix, o);
        List<String> problems = run.problems(hazard, fix);
        if (!problems.isEmpty()) {
            err.println("datsim: lesson " + number + " did not behave as written:");
            problems.forEach(p -> err.println("  " + p));
            return 1;
        }
        return 0;
    }
}
