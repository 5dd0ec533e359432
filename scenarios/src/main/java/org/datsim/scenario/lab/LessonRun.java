package org.datsim.scenario.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import org.datsim.viz.RunViews;
import org.datsim.viz.explain.Explainer;
import org.datsim.viz.explain.Explanation;
import org.datsim.viz.explain.Times;

/**
 * Runs a lesson: its hazard scenario into {@code OUT/hazard} and its fix into {@code OUT/fix}, then reads both traces
 * for the lesson's signs and for the causal story ({@link Explainer}), and tells it.
 */
public final class LessonRun {

    /**
     * What one of the two runs showed.
     *
     * @param scenario the scenario's name
     * @param dir the run directory
     * @param exitCode the run's exit code (0: it finished and every expectation held)
     * @param summary the run's summary lines
     * @param hazardSeen the first event matching the hazard's sign, or null
     * @param fixSeen the first event matching the fix's sign, or null (also null when the lesson has none)
     * @param explanation the causal story of the run
     */
    public record Outcome(String scenario, Path dir, int exitCode, List<String> summary, TraceEvent hazardSeen,
            TraceEvent fixSeen, Explanation explanation, Explored explored) {
    }

    /**
     * What {@code datsim explore} finds for a lesson's scenario, within {@link #EXPLORE_BOUND} executions.
     *
     * @param outcomes the distinct outcomes found
     * @param forbidden how many of them the file forbids
     * @param executions the executions run
     * @param exhaustive whether they covered every order the rules leave open
     */
    public record Explored(int outcomes, long forbidden, long executions, boolean exhaustive) {

        /** Says it in a sentence. */
        public String describe() {
            return (exhaustive ? outcomes + " outcome(s) in " + executions + " execution(s), every order the"
                    + " rules leave open" : "at least " + outcomes + " outcome(s) in the first " + executions
                    + " executions (the tree is larger)") + (forbidden == 0 ? ", none forbidden by the file"
                    : ", " + forbidden + " forbidden by the file");
        }
    }

    /** The bound of the exploration a lesson's story reports. */
    static final int EXPLORE_BOUND = 200;

    private final Lesson lesson;
    private boolean force;

    /**
     * Creates the runner.
     *
     * @param lesson the lesson
     */
    public LessonRun(Lesson lesson) {
        this.lesson = lesson;
    }

    /**
     * Chooses whether the runs may write into existing non-empty directories that datsim did not create (see
     * {@link org.datsim.scenario.run.OutputDir}); off by default.
     *
     * @param on true to take such directories over (nothing datsim did not write there is deleted)
     * @return this lesson run
     */
    public LessonRun force(boolean on) {
        this.force = on;
        return this;
    }

    /**
     * Runs the hazard scenario into {@code out/hazard}.
     *
     * @param out the lesson's output directory
     * @return what it showed
     * @throws ScenarioException if the scenario is invalid
     * @throws IOException if the outputs cannot be written or read back
     */
    public Outcome runHazard(Path out) throws ScenarioException, IOException {
        return run(lesson.hazardScenario(), out.resolve("hazard"));
    }

    /**
     * Runs the fix scenario into {@code out/fix}.
     *
     * @param out the lesson's output directory
     * @return what it showed
     * @throws ScenarioException if the scenario is invalid
     * @throws IOException if the outputs cannot be written or read back
     */
    public Outcome runFix(Path out) throws ScenarioException, IOException {
        return run(lesson.fixScenario(), out.resolve("fix"));
    }

    private Outcome run(Path file, Path dir) throws ScenarioException, IOException {
        Scenario s = ScenarioLoader.load(file);
        RunResultSummary r = new ScenarioRunner(s).force(force).run(dir, List.of());
        Explainer x = new Explainer();
        TraceEvent[] hazard = new TraceEvent[1];
        TraceEvent[] fix = new TraceEvent[1];
        // one read of the trace: the views (timeline.html, latency plots) and the story from the same events
        RunViews.write(dir, e -> {
            x.accept(e);
            if (hazard[0] == null && lesson.hazardSign().matches(e)) {
                hazard[0] = e;
            }
            if (fix[0] == null && lesson.fixSign() != null && lesson.fixSign().matches(e)) {
                fix[0] = e;
            }
        });
        org.datsim.scenario.run.OutputDir.recordExisting(dir, RunViews.OUTPUTS);
        return new Outcome(s.name(), dir, r.exitCode(), r.lines(), hazard[0], fix[0], x.explain(), explore(s));
    }

    /** Explores a lesson's scenario within {@link #EXPLORE_BOUND} executions, depth first, no random search. */
    static Explored explore(Scenario s) {
        org.datsim.scenario.explore.Explorer.Report r = new org.datsim.scenario.explore.Explorer(s,
                new org.datsim.scenario.explore.Explorer.Settings(EXPLORE_BOUND, 0, 1, true)).explore();
        return new Explored(r.outcomes().size(), r.forbidden(), r.executions(), r.exhaustive());
    }

    /**
     * Tells whether the lesson behaved as written: the hazard's sign in the hazard run and not in the fix run, the
     * fix's sign (if any) in the fix run, and both runs finishing with every expectation holding.
     *
     * @param hazard the hazard run
     * @param fix the fix run
     * @return the problems, empty if it behaved
     */
    public List<String> problems(Outcome hazard, Outcome fix) {
        List<String> p = new ArrayList<>();
        if (hazard.exitCode() != 0) {
            p.add(lesson.hazardScenario() + ": the run did not finish with every expectation holding (exit "
                    + hazard.exitCode() + ")");
        }
        if (fix.exitCode() != 0) {
            p.add(lesson.fixScenario() + ": the run did not finish with every expectation holding (exit "
                    + fix.exitCode() + ")");
        }
        for (Outcome o : List.of(hazard, fix)) {
            if (o.explored().forbidden() > 0) {
                p.add((o == hazard ? lesson.hazardScenario() : lesson.fixScenario()) + ": datsim explore reaches "
                        + o.explored().forbidden() + " outcome(s) the file forbids, though the rules allow them:"
                        + " state its expectations as the rules do");
            }
        }
        if (hazard.hazardSeen() == null) {
            p.add(lesson.hazardScenario() + ": the hazard's sign " + lesson.hazardSign() + " is not in the trace");
        }
        if (fix.hazardSeen() != null) {
            p.add(lesson.fixScenario() + ": the hazard's sign " + lesson.hazardSign() + " is in the trace at "
                    + Times.human(fix.hazardSeen().tPs()));
        }
        if (lesson.fixSign() != null && fix.fixSeen() == null) {
            p.add(lesson.fixScenario() + ": the fix's sign " + lesson.fixSign() + " is not in the trace");
        }
        return p;
    }

    /**
     * Prints the lesson's narrative from the two runs.
     *
     * @param hazard the hazard run
     * @param fix the fix run
     * @param out where to print
     */
    public void narrate(Outcome hazard, Outcome fix, PrintWriter out) {
        out.println("Lesson " + lesson.number() + ": " + lesson.title() + " (" + rules() + ")");
        out.println();
        wrap(out, "", lesson.summary());
        out.println();
        out.println("1. The hazard: scenario " + hazard.scenario() + " (" + lesson.hazardScenario() + ")");
        story(out, hazard);
        out.println("   Every order the rules allow (datsim explore): " + hazard.explored().describe() + ".");
        if (hazard.hazardSeen() != null) {
            out.println("   The hazard, in the trace: " + describe(hazard.hazardSeen()) + ".");
        } else {
            out.println("   The hazard's sign " + lesson.hazardSign() + " did not show in this run.");
        }
        wrap(out, "   What went wrong: ", lesson.hazardExplains());
        out.println();
        out.println("2. The fix: scenario " + fix.scenario() + " (" + lesson.fixScenario() + ")");
        story(out, fix);
        out.println("   Every order the rules allow (datsim explore): " + fix.explored().describe() + ".");
        if (fix.fixSeen() != null) {
            out.println("   The fix at work, in the trace: " + describe(fix.fixSeen()) + ".");
        }
        out.println("   " + (fix.hazardSeen() == null ? "The hazard's sign does not occur in this run."
                : "The hazard's sign DOES occur in this run, at " + Times.human(fix.hazardSeen().tPs()) + "."));
        wrap(out, "   Why it is right: ", lesson.fixExplains());
        out.println();
        out.println("Runs: " + hazard.dir() + " and " + fix.dir() + ". For every operation's story:");
        out.println("  datsim explain " + hazard.dir());
        out.println("  datsim explain " + fix.dir());
        for (Outcome o : List.of(hazard, fix)) {
            Path timeline = o.dir().resolve("timeline.html");
            if (Files.isRegularFile(timeline)) {
                out.println("Timeline: " + timeline.toAbsolutePath().toUri());
            }
        }
        out.flush();
    }

    private String rules() {
        StringBuilder sb = new StringBuilder(lesson.rules().size() == 1 ? "rule " : "rules ");
        for (int i = 0; i < lesson.rules().size(); i++) {
            if (i > 0) {
                sb.append(i == lesson.rules().size() - 1 ? " and " : ", ");
            }
            sb.append(lesson.rules().get(i));
        }
        return sb.append(" in docs/rules.md").toString();
    }

    private static void story(PrintWriter out, Outcome o) {
        out.println("   What happened (from " + o.dir().resolve("events.jsonl") + "):");
        List<String> lines = steps(o.explanation());
        for (String l : lines) {
            out.println("   - " + l);
        }
    }

    /**
     * Every step of every operation and the other happenings, as sentences in time order; dequeues left out unless
     * notable (an unsignalled completion found only after a wait timed out).
     */
    static List<String> steps(Explanation x) {
        List<long[]> keys = new ArrayList<>();
        List<String> texts = new ArrayList<>();
        for (Explanation.Story s : x.stories()) {
            for (Explanation.Line l : s.lines()) {
                if ((l.text().startsWith("was dequeued") && !l.notable()) || l.text().startsWith("put its")
                        || l.text().startsWith("had its response sent")) {
                    continue;
                }
                keys.add(new long[] {l.tPs(), keys.size()});
                texts.add((l.notable() ? "(!) " : "") + "at " + Times.human(l.tPs()) + " " + s.title() + " "
                        + l.text());
            }
        }
        for (Explanation.Line l : x.others()) {
            keys.add(new long[] {l.tPs(), keys.size()});
            texts.add((l.notable() ? "(!) " : "") + "at " + Times.human(l.tPs()) + " " + l.text());
        }
        keys.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        List<String> out = new ArrayList<>();
        for (long[] k : keys) {
            out.add(texts.get((int) k[1]));
        }
        return out;
    }

    /**
     * Describes one trace event in words.
     *
     * @param e the event
     * @return the description, starting with "at TIME"
     */
    static String describe(TraceEvent e) {
        String at = "at " + Times.human(e.tPs()) + " ";
        String op = e.op() >= 0 ? "op " + e.op() + " (" + TraceSign.value(e, "opcode") + ") on " + e.ep() : "";
        switch (e.kind()) {
            case TraceEvent.MEM_READ: {
                String hex = TraceSign.value(e, "data_hex");
                return at + "process " + TraceSign.value(e, "process") + " on " + e.host() + " read "
                        + TraceSign.value(e, "bytes") + " bytes of " + TraceSign.value(e, "lmr") + " and got "
                        + (hex == null ? "?" : hex.length() > 16 ? hex.substring(0, 16) + "..." : hex)
                        + ("true".equals(TraceSign.value(e, "stale")) ? ", stale bytes from its CPU cache" : "");
            }
            case TraceEvent.COMPLETE:
                return at + op + " completed with " + e.status()
                        + (e.hasAttr(TraceKey.HELD_BEHIND) ? ", held behind op "
                                + TraceSign.value(e, "held_behind") + " since its transport finished at "
                                + Times.human(Long.parseLong(TraceSign.value(e, "finished_ps"))) : "")
                        + ("true".equals(TraceSign.value(e, "suppressed")) ? " (suppressed: no event)" : "");
            case TraceEvent.FENCE_WAIT:
            case TraceKind.CREDIT_WAIT:
                return at + op + " was held (" + TraceSign.value(e, "reason") + "), waiting for op(s) "
                        + TraceSign.value(e, "waiting_for");
            case TraceEvent.CALL:
                return at + "process " + TraceSign.value(e, "process") + " called " + e.call() + " on " + e.host()
                        + ", which returned " + e.ret() + (e.hasAttr(TraceKey.SUBTYPE) ? " ("
                                + TraceSign.value(e, "subtype") + ")" : "");
            case TraceEvent.ERROR:
                return at + "on " + (e.ep() != null ? e.ep() : e.host()) + ": " + TraceSign.value(e, "error")
                        + (e.status() != null ? " (" + e.status() + ")" : "");
            case TraceKind.RNR_NAK:
                return at + e.ep() + " refused op " + e.op() + " with an RNR NAK (" + TraceSign.value(e, "reason")
                        + ")";
            default:
                return at + e.kind() + " on " + e.host() + (op.isEmpty() ? "" : ": " + op);
        }
    }

    private static void wrap(PrintWriter out, String first, String text) {
        String indent = first.isEmpty() ? "" : "   ";
        StringBuilder line = new StringBuilder(first);
        for (String w : text.split("\\s+")) {
            if (line.length() + w.length() + 1 > 110 && line.length() > indent.length()) {
                out.println(line.toString().stripTrailing());
                line = new StringBuilder(indent);
            }
            line.append(w).append(' ');
        }
        out.println(line.toString().stripTrailing());
    }
}
