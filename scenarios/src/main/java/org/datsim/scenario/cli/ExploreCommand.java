package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import org.datsim.core.choice.VectorChoices;
import org.datsim.scenario.explore.Explorer;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.run.StepObservations;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code datsim explore}: every outcome the rules allow, each with a witness that {@code run --choices} replays. */
@Command(name = "explore", mixinStandardHelpOptions = true,
        description = {"Run a scenario under every order the DAT rules leave open (the models' choice points),"
                + " in memory, and report each distinct outcome (what the consumers observed), how many executions"
                + " reach it, and a witness that 'datsim run FILE --choices VECTOR' replays with the usual outputs.",
            "Exit 0 if every outcome reached is allowed (every expectation held, every process finished), 1 if"
                + " one is forbidden, 2 for invalid input. The last lines are executions=, outcomes=, forbidden=,"
                + " exhaustive=."})
final class ExploreCommand implements Callable<Integer> {

    @Parameters(paramLabel = "FILE", description = "The scenario JSON file.")
    Path file;

    @Option(names = "--max-executions", paramLabel = "N", defaultValue = "1000",
            description = "Bound of the systematic (depth-first) search (default: ${DEFAULT-VALUE}).")
    int maxExecutions;

    @Option(names = "--random", paramLabel = "N",
            description = "Random executions after the bound when the tree is larger (default: as many as"
                    + " --max-executions).")
    Integer random;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1",
            description = "Seed of the random search (default: ${DEFAULT-VALUE}); the scenario's own seed is kept.")
    long seed;

    @Option(names = "--no-reduction",
            description = "Open every choice point, also where the alternatives cannot change what a consumer"
                    + " observes (to measure what the reduction saves).")
    boolean noReduction;

    @Option(names = "--max-time", paramLabel = "TIME",
            description = "Stop searching after this much wall-clock time, e.g. 60s (default: none). The outcomes are"
                    + " then a sample, which depends on the machine's speed: the output says so.")
    String maxTime;

    @Option(names = "--max-outcomes", paramLabel = "N", defaultValue = "10000",
            description = "Stop searching once this many distinct outcomes are kept in memory (default:"
                    + " ${DEFAULT-VALUE}); the outcomes are then a sample.")
    int maxOutcomes;

    @Option(names = "--show", paramLabel = "N", defaultValue = "20",
            description = "Outcomes printed in full (default: ${DEFAULT-VALUE}); forbidden ones first.")
    int show;

    @Option(names = {"-q", "--quiet"}, description = "No progress line (otherwise, when standard error is a"
            + " terminal, a line says the executions run and the outcomes found, every second).")
    boolean quiet;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter o = spec.commandLine().getOut();
        if (maxExecutions < 1 || maxExecutions > 10_000_000 || (random != null && (random < 0 || random > 10_000_000))
                || show < 0) {
            err.println("datsim: --max-executions must be 1 to 10000000, --random 0 to 10000000, --show 0 or more");
            return DatsimCli.EXIT_INVALID;
        }
        if (maxOutcomes < 1) {
            err.println("datsim: --max-outcomes must be 1 or more, found " + maxOutcomes);
            return DatsimCli.EXIT_INVALID;
        }
        long wallNanos = 0;
        if (maxTime != null) {
            try {
                wallNanos = Math.max(1, org.datsim.core.time.SimTime.parse(maxTime) / 1000);
            } catch (IllegalArgumentException e) {
                err.println("datsim: --max-time: " + org.datsim.core.util.Text.clean(e.getMessage()));
                return DatsimCli.EXIT_INVALID;
            }
        }
        Scenario s = InputFiles.load(file, err, org.datsim.scenario.load.ScenarioLoader::load);
        if (s == null) {
            return DatsimCli.EXIT_INVALID;
        }
        long t0 = System.nanoTime();
        Explorer.Report r;
        try {
            Explorer explorer = new Explorer(s, new Explorer.Settings(maxExecutions,
                    random == null ? maxExecutions : random, seed, !noReduction, wallNanos, maxOutcomes));
            try (TerminalProgress shown = TerminalProgress.start(quiet, err, explorer::progress,
                    new TerminalProgress.Share() {
                        @Override
                        public double done() {
                            return explorer.progressShare();
                        }

                        @Override
                        public boolean upperBound() {
                            return true;
                        }
                    })) {
                r = explorer.explore();
            }
        } catch (RuntimeException e) {
            err.println("datsim: internal error while exploring " + file + " (a bug in datsim, not in the"
                    + " scenario):");
            e.printStackTrace(err);
            return DatsimCli.EXIT_INTERNAL;
        }
        long wallMs = (System.nanoTime() - t0) / 1_000_000;
        print(o, s, r, wallMs);
        return r.forbidden() == 0 ? 0 : 1;
    }

    private void print(PrintWriter o, Scenario s, Explorer.Report r, long wallMs) {
        o.println("explore " + file + " (scenario " + s.name() + ", seed " + s.seed() + ")"
                + (noReduction ? ", reduction off" : ""));
        if (r.points().isEmpty()) {
            o.println("  no choice point reached: the rules leave this scenario one order");
        } else {
            o.println("  choice points reached (times, over all executions; at most " + r.maxDepth()
                    + " in one execution):");
            r.points().forEach((k, v) -> o.println("    " + k + ": " + v));
        }
        if (r.stopped() != null) {
            o.println("  stopped by " + r.stopped() + " after " + r.executions() + " executions: the outcomes below are"
                    + " a sample, not the whole tree");
        } else if (r.exhaustive()) {
            o.println("  systematic search: " + r.systematic() + " executions, the whole tree");
        } else {
            o.println("  systematic search: stopped at the bound of " + r.systematic() + " executions");
            if (r.executions() > r.systematic()) {
                o.println(String.format("  random search (seed %d): %d executions, %d distinct choice vectors; the"
                        + " tree has about %.3g executions (Knuth's estimate), so about %.2g%% of it was run",
                        seed, r.executions() - r.systematic(), r.randomVectors(), r.estimatedExecutions(),
                        Math.min(100.0, 100.0 * (r.systematic() + r.randomVectors())
                                / Math.max(1.0, r.estimatedExecutions()))));
            }
        }
        List<Explorer.Outcome> list = new ArrayList<>(r.outcomes());
        list.sort((a, b) -> Boolean.compare(b.forbidden(), a.forbidden()));
        Set<String> varying = varying(r.outcomes());
        int n = 0;
        for (Explorer.Outcome out : list) {
            if (n++ >= show) {
                o.println("  ... and " + (list.size() - show) + " more outcome(s) (--show)");
                break;
            }
            o.println("outcome " + n + ": " + (out.forbidden() ? "FORBIDDEN" : "allowed") + ", " + out.executions()
                    + " execution(s)" + (out.foundByRandom() ? ", found by the random search" : ""));
            if (!out.named().isEmpty()) {
                o.println("  observed " + describe(out.named()));
            }
            Map<String, String> values = labelled(out);
            int shown = out.named().isEmpty() ? 0 : 1;
            for (Map.Entry<String, String> e : values.entrySet()) {
                boolean data = e.getKey().endsWith(" data");
                if (out.named().isEmpty() && (varying.contains(e.getKey()) || (data && r.outcomes().size() == 1))) {
                    o.println("  " + e.getKey() + " = " + e.getValue());
                    shown++;
                }
            }
            for (String v : varying) {
                if (out.named().isEmpty() && !values.containsKey(v)) {
                    o.println("  " + v + " = (not reached)");
                    shown++;
                }
            }
            if (shown == 0) {
                o.println("  (" + values.size() + " observed values, the same in every outcome)");
            }
            for (String p : out.problems()) {
                o.println("  " + p);
            }
            String vector = VectorChoices.format(out.witness());
            o.println("  witness: datsim run " + file + " --choices " + (noReduction ? "all:" : "") + vector);
        }
        o.println("wall time " + wallMs + " ms");
        if (r.stopped() != null) {
            o.println("stopped=" + (r.stopped().startsWith("the wall-clock") ? "max_time" : "max_outcomes"));
        }
        o.println("executions=" + r.executions());
        o.println("outcomes=" + r.outcomes().size());
        o.println("forbidden=" + r.forbidden());
        o.println("exhaustive=" + r.exhaustive());
    }

    /** The most choices {@link #printChoices} lists one by one. */
    static final int MAX_CHOICES_LISTED = 50;

    /**
     * Prints, after a {@code run --choices}, each choice taken (its point, rule, host, the alternative taken out of
     * how many; 0 is the timing model's) and what the steps with {@code "observe"} observed.
     */
    static void printChoices(PrintWriter o, VectorChoices vector, org.datsim.scenario.run.Observations named) {
        List<VectorChoices.Taken> taken = vector.taken();
        for (int i = 0; i < taken.size() && i < MAX_CHOICES_LISTED; i++) {
            VectorChoices.Taken t = taken.get(i);
            o.println("  choice " + (i + 1) + ": " + t.point().name() + " (" + t.point().rule() + ") on " + t.host()
                    + ": alternative " + t.value() + " of 0.." + (t.alternatives() - 1)
                    + (t.value() == 0 ? " (the timing model's)" : ""));
        }
        if (taken.size() > MAX_CHOICES_LISTED) {
            o.println("  ... and " + (taken.size() - MAX_CHOICES_LISTED) + " more (the trace's choice events)");
        }
        if (!named.isEmpty()) {
            o.println("observed " + describe(named));
        }
    }

    /**
     * The named observations as {@code name = value}, bytes in the notation of the step observations (hexadecimal
     * runs such as {@code 0x22*64}, as the lessons write them), other values as recorded.
     */
    static String describe(org.datsim.scenario.run.Observations named) {
        java.util.StringJoiner j = new java.util.StringJoiner(", ");
        for (org.datsim.scenario.run.Observations.Observation ob : named.list()) {
            String v = ob.bytes() != null ? StepObservations.describe(ob.bytes())
                    : ob.value().isTextual() ? ob.value().asText() : ob.value().toString();
            j.add(ob.key() + " = " + v);
        }
        return j.toString();
    }

    /** An outcome's observations by label (process, step path, call, key, and the occurrence if repeated). */
    private static Map<String, String> labelled(Explorer.Outcome out) {
        Map<String, String> m = new LinkedHashMap<>();
        Map<String, Integer> seen = new LinkedHashMap<>();
        for (StepObservations.Entry e : out.observed()) {
            String base = e.process() + " " + e.path() + " " + e.call() + " " + e.key();
            int k = seen.merge(base, 1, Integer::sum);
            m.put(k == 1 ? base : base + " #" + k, e.value());
        }
        return m;
    }

    /** The labels whose value is not the same in every outcome. */
    private static Set<String> varying(List<Explorer.Outcome> outcomes) {
        Set<String> all = new LinkedHashSet<>();
        List<Map<String, String>> maps = new ArrayList<>();
        for (Explorer.Outcome o : outcomes) {
            Map<String, String> m = labelled(o);
            maps.add(m);
            all.addAll(m.keySet());
        }
        Set<String> varying = new LinkedHashSet<>();
        for (String label : all) {
            String first = maps.get(0).get(label);
            for (Map<String, String> m : maps) {
                if (!java.util.Objects.equals(first, m.get(label))) {
                    varying.add(label);
                    break;
                }
            }
        }
        return varying;
    }
}
