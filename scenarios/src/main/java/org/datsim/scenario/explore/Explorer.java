package org.datsim.scenario.explore;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.choice.VectorChoices;
import org.datsim.core.random.RandomStreams;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.run.Observations;
import org.datsim.scenario.run.StepObservations;
import org.datsim.scenario.run.ScenarioRunner;

/**
 * Runs a scenario under every combination of the alternatives its choice points open (see
 * {@link org.datsim.fabric.ChoicePoints}), in memory, and groups the executions by outcome: what the consumers
 * observed (the scenario's {@code "observe"} names, {@link Observations}, if it has any; else every return, event and
 * mem_read, {@link StepObservations}) and whether the run held every expectation and allowed outcome
 * ({@link org.datsim.scenario.run.OutcomeCheck}).
 *
 * <p>The search is a stateless depth-first search over choice vectors: an execution follows a prefix and takes
 * alternative 0 (the timing model's) past it, recording each point's branching factor; the next prefix increments
 * the deepest point that has an untried alternative. Executions are deterministic for a given vector, so this
 * visits every leaf of the tree once. Past {@code maxExecutions}, a seeded random search draws every alternative
 * with a bias of its own (swarm-style: the chance of leaving the timing model's alternative is drawn per
 * execution), and Knuth's estimator (the mean over the random paths of the product of 1 / each draw's chance) says
 * how big the tree is.
 *
 * <p>The reduction is done by the models: they open a point only where its alternatives can change a byte, an
 * event or a return that a consumer observes (the alternatives are dependent); independent alternatives commute,
 * so every outcome of a pruned branch is the outcome of the branch kept. {@code reduce false} makes them open
 * every point that exists, to measure what the reduction saves.
 */
public final class Explorer {

    /** The most choice points one execution may reach; later ones take the timing model's alternative. */
    public static final int MAX_POINTS = 100_000;

    /**
     * How to explore.
     *
     * @param maxExecutions the bound of the systematic search
     * @param randomExecutions how many random executions follow when the bound is reached
     * @param seed the random search's seed
     * @param reduce whether models skip independent points
     */
    public record Settings(int maxExecutions, int randomExecutions, long seed, boolean reduce, long maxWallNanos,
            int maxOutcomes) {
        /** The default bound of distinct outcomes kept in memory. */
        public static final int MAX_OUTCOMES = 10_000;

        /**
         * The bounds of the search without a wall-clock bound, and with the default bound of outcomes.
         *
         * @param maxExecutions the systematic search's bound
         * @param randomExecutions the random executions after it
         * @param seed the random search's seed
         * @param reduce whether to reduce
         */
        public Settings(int maxExecutions, int randomExecutions, long seed, boolean reduce) {
            this(maxExecutions, randomExecutions, seed, reduce, 0, MAX_OUTCOMES);
        }
    }

    /** One distinct outcome: its observations, verdict, how many executions reached it, and its first witness. */
    public static final class Outcome {
        private final String key;
        private final List<StepObservations.Entry> observed;
        private final Observations named;
        private final List<String> problems;
        private final int[] witness;
        private final boolean foundByRandom;
        private long executions;

        Outcome(String key, List<StepObservations.Entry> observed, Observations named, List<String> problems,
                int[] witness, boolean foundByRandom) {
            this.key = key;
            this.observed = observed;
            this.named = named;
            this.problems = problems;
            this.witness = witness;
            this.foundByRandom = foundByRandom;
        }

        /** Returns the observed values. */
        public List<StepObservations.Entry> observed() {
            return observed;
        }

        /** Returns what the steps with {@code "observe"} observed (empty if none has). */
        public Observations named() {
            return named;
        }

        /** Returns why the outcome is forbidden (failed expectations, unfinished processes), empty if allowed. */
        public List<String> problems() {
            return problems;
        }

        /** Returns whether the outcome is forbidden. */
        public boolean forbidden() {
            return !problems.isEmpty();
        }

        /** Returns a choice vector that reaches the outcome, trailing timing choices (0) dropped. */
        public int[] witness() {
            return witness.clone();
        }

        /** Returns how many executions reached it. */
        public long executions() {
            return executions;
        }

        /** Returns whether only the random search found it. */
        public boolean foundByRandom() {
            return foundByRandom;
        }

        /** Returns the value of the first observation of a step's key, or null. */
        public String value(String process, int step, String key) {
            for (StepObservations.Entry e : observed) {
                if (e.process().equals(process) && e.step() == step && e.key().equals(key)) {
                    return e.value();
                }
            }
            return null;
        }
    }

    /**
     * What the exploration found.
     *
     * @param outcomes the distinct outcomes, in the order they were first reached
     * @param executions every execution run
     * @param systematic the executions of the depth-first search
     * @param exhaustive whether the depth-first search covered the whole tree
     * @param randomVectors the distinct choice vectors of the random search
     * @param estimatedExecutions Knuth's estimate of the tree's leaves from the random search, or -1
     * @param points how many times each choice point was reached, by name
     * @param maxDepth the most points one execution reached
     * @param stopped what stopped the search before its bounds of executions (the wall-clock bound, the bound of
     *     outcomes kept in memory), or null: then the outcomes are a sample, never the whole tree
     */
    public record Report(List<Outcome> outcomes, long executions, long systematic, boolean exhaustive,
            long randomVectors, double estimatedExecutions, Map<String, Long> points, int maxDepth, String stopped) {

        /** Returns how many outcomes are forbidden. */
        public long forbidden() {
            return outcomes.stream().filter(Outcome::forbidden).count();
        }
    }

    private final Scenario scenario;
    private final Settings settings;
    private final Map<String, Outcome> outcomes = new LinkedHashMap<>();
    private final Map<String, Long> points = new LinkedHashMap<>();
    private int maxDepth;

    /**
     * Prepares an exploration.
     *
     * @param scenario the validated scenario
     * @param settings how to explore
     */
    public Explorer(Scenario scenario, Settings settings) {
        this.scenario = scenario;
        this.settings = settings;
    }

    /**
     * One execution in memory.
     *
     * @param scenario the scenario
     * @param prefix the choice vector's first alternatives
     * @param random draws the alternatives past the prefix, or null for the timing model's
     * @param reduce whether models skip independent points
     * @return the execution's observations, verdict and the choices it made
     */
    public static Execution execute(Scenario scenario, int[] prefix, RandomGenerator random, boolean reduce) {
        return execute(scenario, prefix, random, reduce, -1);
    }

    private static Execution execute(Scenario scenario, int[] prefix, RandomGenerator random, boolean reduce,
            double bias) {
        VectorChoices choices = new VectorChoices(prefix, random, reduce, MAX_POINTS);
        if (bias > 0) {
            choices.bias(bias);
        }
        ScenarioRunner runner = new ScenarioRunner(scenario).observeSteps().choices(choices);
        ScenarioRunner.Quiet q = runner.runQuiet();
        List<String> problems = new ArrayList<>(q.failures());
        if (q.failureCount() > q.failures().size()) {
            problems.add("... and " + (q.failureCount() - q.failures().size()) + " more failed expectations");
        }
        problems.addAll(q.unfinished());
        if (q.stopMessage() != null) {
            problems.add("run stopped early: " + q.stopMessage());
        }
        return new Execution(runner.stepObservations().entries(), runner.observations(), problems, choices);
    }

    /**
     * One execution's result.
     *
     * @param observed what the consumers observed, step by step
     * @param named what the steps with {@code "observe"} observed (empty if none has)
     * @param problems why it is forbidden, empty if allowed
     * @param choices the choices it made
     */
    public record Execution(List<StepObservations.Entry> observed, Observations named, List<String> problems,
            VectorChoices choices) {

        /**
         * Returns the outcome's identity, without times: the named observations if the scenario names some (its
         * {@code "observe"} steps), else every value the consumers observed; and the problems.
         */
        public String key() {
            StringBuilder b = new StringBuilder();
            if (!named.isEmpty()) {
                b.append(named).append('\n');
            } else {
                for (StepObservations.Entry e : observed) {
                    b.append(e).append('\n');
                }
            }
            for (String p : problems) {
                b.append("! ").append(p.replaceAll(" at [0-9.]+ ?[a-zµ]*s:", ":")).append('\n');
            }
            return b.toString();
        }
    }

    /**
     * Explores.
     *
     * @return what it found
     */
    public Report explore() {
        long executions = 0;
        progressExecutions = 0;
        boolean exhaustive = false;
        int[] prefix = new int[0];
        long deadline = settings.maxWallNanos() > 0 ? System.nanoTime() + settings.maxWallNanos() : Long.MAX_VALUE;
        String stopped = null;
        while (executions < settings.maxExecutions()) {
            if ((stopped = stop(deadline)) != null) {
                break;
            }
            Execution e = execute(scenario, prefix, null, settings.reduce());
            executions++;
            add(e, false);
            progressExecutions = executions;
            List<VectorChoices.Taken> taken = e.choices().taken();
            int i = taken.size() - 1;
            while (i >= 0 && taken.get(i).value() + 1 >= taken.get(i).alternatives()) {
                i--;
            }
            if (i < 0) {
                exhaustive = true;
                break;
            }
            prefix = new int[i + 1];
            for (int k = 0; k < i; k++) {
                prefix[k] = taken.get(k).value();
            }
            prefix[i] = taken.get(i).value() + 1;
        }
        long systematic = executions;
        long distinct = 0;
        double estimate = -1;
        if (!exhaustive && stopped == null && settings.randomExecutions() > 0) {
            RandomGenerator random = new RandomStreams(settings.seed()).stream("explore");
            Set<String> vectors = new HashSet<>();
            double sum = 0;
            for (int r = 0; r < settings.randomExecutions(); r++) {
                if ((stopped = stop(deadline)) != null) {
                    break;
                }
                // Each random execution draws its own bias (swarm-style), so that vectors far from the timing
                // model's, and those near it, are both reached; the weights keep the size estimate unbiased.
                double bias = 0.02 + 0.96 * random.nextDouble();
                Execution e = execute(scenario, new int[0], random, settings.reduce(), bias);
                executions++;
                add(e, true);
                progressExecutions = executions;
                progressRandom = true;
                vectors.add(VectorChoices.format(e.choices().vector()));
                sum += e.choices().weight();
            }
            distinct = vectors.size();
            estimate = sum / settings.randomExecutions();
        }
        return new Report(List.copyOf(outcomes.values()), executions, systematic, exhaustive, distinct, estimate,
                points, maxDepth, stopped);
    }

    /** The executions run so far, for a progress display on another thread. */
    private volatile long progressExecutions;
    /** Whether the random executions after the systematic bound have begun, for the progress display. */
    private volatile boolean progressRandom;
    /** The distinct outcomes so far, for the progress display. */
    private volatile int progressOutcomes;

    /**
     * What the search has done so far, read from another thread while {@link #explore()} runs: "N executions
     * (systematic|random), M distinct outcomes".
     *
     * @return the progress words
     */
    public String progress() {
        return progressExecutions + " executions (" + (progressRandom ? "random" : "depth-first") + "), "
                + progressOutcomes + " distinct outcomes";
    }

    /**
     * The share of the search's bound of executions run so far (the search may end sooner, when the tree is
     * smaller than its bound or a bound of time or outcomes stops it): an upper bound of the time left follows.
     *
     * @return 0 to 1
     */
    public double progressShare() {
        long bound = (long) settings.maxExecutions() + settings.randomExecutions();
        return bound <= 0 ? 0 : Math.min(1.0, progressExecutions / (double) bound);
    }

    /** What stops the search now, or null: the wall clock past its bound, or the outcomes kept at theirs. */
    private String stop(long deadline) {
        if (System.nanoTime() > deadline) {
            return "the wall-clock bound (--max-time)";
        }
        if (outcomes.size() >= settings.maxOutcomes()) {
            return "the bound of " + settings.maxOutcomes() + " distinct outcomes kept in memory (--max-outcomes)";
        }
        return null;
    }

    private void add(Execution e, boolean random) {
        for (VectorChoices.Taken t : e.choices().taken()) {
            points.merge(t.point().name() + " (" + t.point().rule() + ")", 1L, Long::sum);
        }
        maxDepth = Math.max(maxDepth, e.choices().taken().size());
        String key = e.key();
        Outcome o = outcomes.get(key);
        if (o == null) {
            o = new Outcome(key, e.observed(), e.named(), e.problems(), trim(e.choices().vector()), random);
            outcomes.put(key, o);
            progressOutcomes = outcomes.size();
        }
        o.executions++;
    }

    /** Drops the trailing timing choices (0), which a replay takes anyway. */
    static int[] trim(int[] v) {
        int n = v.length;
        while (n > 0 && v[n - 1] == 0) {
            n--;
        }
        return java.util.Arrays.copyOf(v, n);
    }
}
