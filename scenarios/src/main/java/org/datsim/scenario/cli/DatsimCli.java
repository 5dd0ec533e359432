package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.datsim.core.param.ParamSpec;
import org.datsim.fabric.FabricParams;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.datsim.scenario.run.RunResultSummary;
import org.datsim.scenario.run.ScenarioRunner;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * The {@code datsim} command. Exit codes: 0 the run finished and every expectation held; 1 an expectation failed or
 * the run did not finish; 2 the input (a scenario or the command line) is invalid; 3 datsim itself failed.
 */
@Command(name = "datsim", mixinStandardHelpOptions = true, version = "datsim 0.1.0",
        description = "Discrete-event simulator of RDMA fabrics that speaks the DAT/uDAPL API.")
public final class DatsimCli implements Runnable {

    /**
     * The subcommands, in the order the usage lists them. They are registered in {@link #execute} rather than in the
     * annotation so that a command line naming one builds the picocli model of that one only: building all of them
     * (reflection over every option of every command) took about 0.15 s of every run's start-up.
     */
    static final List<Class<?>> SUBCOMMANDS = List.of(Run.class, Validate.class, Ops.class, Params.class,
            Schema.class, Bench.class, ExplainCommand.class, LabCommand.class, SweepCommand.class,
            PresetsCommand.class, CalibrateCommand.class, ViewCommand.class, FctCommand.class,
            PerftestCommand.class, ExploreCommand.class, ServeCommand.class,
            ExecCommand.class, CommandLine.HelpCommand.class);

    /** The subcommands of the commands that have some, registered the same way, in the order the usage lists them. */
    static final Map<Class<?>, List<Class<?>>> NESTED = Map.of(
            Bench.class, List.of(PholdBenchCommand.class, StreamBenchCommand.class, FatTreeBenchCommand.class,
                    HpccBenchCommand.class),
            SweepCommand.class, List.of(SweepPlanCommand.class, SweepRunCommand.class, SweepMergeCommand.class,
                    SweepSlurmCommand.class));

    /** Exit code: the input is invalid. */
    public static final int EXIT_INVALID = 2;
    /** Exit code: datsim itself failed. */
    public static final int EXIT_INTERNAL = 3;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /**
     * The write that failed under a run's exception, if that is what it is: the trace writers report a refused write
     * (a file-size limit, a quota, a full disk) as an {@link java.io.UncheckedIOException}, which the run passes on.
     *
     * @param e what the run threw
     * @return the write's exception, or null if {@code e} does not come from one
     */
    static java.io.IOException writeFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof java.io.UncheckedIOException u) {
                return u.getCause();
            }
        }
        return null;
    }

    /**
     * Runs the command line.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        System.exit(execute(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true)));
    }

    /**
     * Runs the command line with given output streams (for tests).
     *
     * @param args the arguments
     * @param out standard output
     * @param err standard error
     * @return the exit code
     */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        // The words for running out of memory, made before anything runs: once the heap is gone, loading their class
        // (or joining two strings) can itself fail.
        String outOfMemory = org.datsim.scenario.run.OutOfMemory.MESSAGE + " (what was written so far is kept)";
        try {
            return configure(commandLine(new DatsimCli(), SUBCOMMANDS, args, 0), out, err).execute(args);
        } catch (OutOfMemoryError e) {
            out.flush();
            err.println(outOfMemory);
            err.flush();
            return 1;
        }
    }

    /**
     * The command line of one command with its subcommands: only the one that {@code args[at]} names (and, below it,
     * only the one {@code args[at + 1]} names), or all of them when it names none (for the usage and picocli's
     * suggestions).
     */
    private static CommandLine commandLine(Object command, List<Class<?>> subcommands, String[] args, int at) {
        CommandLine cl = new CommandLine(command);
        Class<?> named = at < args.length ? subcommand(subcommands, args[at]) : null;
        if (named == CommandLine.HelpCommand.class) {
            named = null; // `datsim help COMMAND` needs the command it names registered, so all of them
        }
        for (Class<?> c : subcommands) {
            if (named == null || c == named) {
                List<Class<?>> nested = NESTED.get(c);
                cl.addSubcommand(nested == null ? c : commandLine(c, nested, args, named == null ? args.length : at + 1));
            }
        }
        return cl;
    }

    /**
     * Sets a command line's streams and how it ends on errors: a wrong command line exits 2 with the message and the
     * help to read; an exception no command handled is a bug in datsim, never the user's input, and exits 3 saying
     * so, with its stack trace.
     */
    static CommandLine configure(CommandLine cl, PrintWriter out, PrintWriter err) {
        cl.setOut(out);
        cl.setErr(err);
        cl.setExecutionExceptionHandler((ex, line, parsed) -> {
            line.getErr().println("datsim: internal error in '" + line.getCommandSpec().qualifiedName() + "' (a bug"
                    + " in datsim, not in your input; please report it with this trace):");
            ex.printStackTrace(line.getErr());
            line.getErr().flush();
            return EXIT_INTERNAL;
        });
        cl.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("datsim: " + optionMessage(ex.getMessage()) + didYouMean(ex));
            ex.getCommandLine().getErr().println("(see: " + ex.getCommandLine().getCommandSpec().qualifiedName()
                    + " --help)");
            return EXIT_INVALID;
        });
        return cl;
    }

    /**
     * "; did you mean X?" for a misspelt subcommand or option (the first unmatched word, against the names of the
     * command's subcommands and options), or the empty string.
     */
    static String didYouMean(CommandLine.ParameterException ex) {
        if (!(ex instanceof CommandLine.UnmatchedArgumentException u) || u.getUnmatched().isEmpty()) {
            return "";
        }
        String word = u.getUnmatched().get(0);
        List<String> names = new java.util.ArrayList<>(u.getCommandLine().getSubcommands().keySet());
        if (word.startsWith("-")) {
            for (CommandLine.Model.OptionSpec o : u.getCommandLine().getCommandSpec().options()) {
                names.addAll(List.of(o.names()));
            }
        }
        return org.datsim.core.param.Suggestions.hint(word, names);
    }

    /**
     * A command-line problem in datsim's words: picocli's "'abc' is not a long" says what was expected instead,
     * and the value quoted is escaped and cut.
     */
    static String optionMessage(String m) {
        java.util.regex.Matcher x = java.util.regex.Pattern.compile(": '(.*)' is not an? (long|int|integer|short|byte)",
                java.util.regex.Pattern.DOTALL).matcher(String.valueOf(m));
        if (x.find()) {
            m = m.substring(0, x.start()) + ": expected a whole number, found '" + x.group(1) + "'" + m.substring(x.end());
        }
        x = java.util.regex.Pattern.compile(": '(.*)' is not a (float|double)", java.util.regex.Pattern.DOTALL)
                .matcher(String.valueOf(m));
        if (x.find()) {
            m = m.substring(0, x.start()) + ": expected a number, found '" + x.group(1) + "'" + m.substring(x.end());
        }
        return org.datsim.core.util.Text.clean(m, 500);
    }

    /** The subcommand class whose name is {@code word}, or null: then all are registered (usage, suggestions). */
    private static Class<?> subcommand(List<Class<?>> subcommands, String word) {
        for (Class<?> c : subcommands) {
            if (c.getAnnotation(Command.class).name().equals(word)) {
                return c;
            }
        }
        return null;
    }

    /** Loads a scenario, printing its problems; returns null if it is invalid. */
    private static Scenario load(Path file, PrintWriter err) {
        return InputFiles.load(file, err, ScenarioLoader::load);
    }

    /** {@code datsim run}. */
    @Command(name = "run", mixinStandardHelpOptions = true,
            description = "Run a scenario; write events.jsonl, summary.json and trace.json to the output directory.",
            exitCodeListHeading = "Exit codes:%n",
            exitCodeList = {"0:the run finished and every expectation held",
                "1:an expectation failed, a process never finished or a guard stopped the run",
                "2:the input is invalid (one message per problem, naming the file and the JSON path) or the outputs"
                        + " cannot be written",
                "3:datsim itself failed (a bug: the message says so, with the trace written so far)"})
    static final class Run implements Callable<Integer> {

        @Parameters(paramLabel = "FILE", description = "The scenario JSON file.")
        Path file;

        @Option(names = "--out", paramLabel = "DIR",
                description = "Output directory (default: runs/<scenario name>).")
        Path out;

        @Option(names = "--seed", paramLabel = "N", description = "Override the scenario's seed.")
        Long seed;

        @Option(names = "--max-events", paramLabel = "N",
                description = "Stop after this many events (overrides limits.max_events).")
        Long maxEvents;

        @Option(names = "--max-time", paramLabel = "TIME",
                description = "Stop at this simulated time, e.g. 10ms (overrides limits.max_time).")
        String maxTime;

        @Option(names = "--max-output", paramLabel = "SIZE",
                description = "Stop the run (exit 1) when its trace files together pass this size (default: 4GiB).")
        String maxOutput;

        @Option(names = {"--max-stall", "--no-progress"}, paramLabel = "TIME",
                description = "The livelock guard: stop the run (exit 1) when for this much simulated time its only"
                        + " activity was receiver-not-ready retries (default: 100ms; 0 turns the guard off)."
                        + " --no-progress is its old name, still accepted.")
        String noProgress;

        @Option(names = "--force",
                description = "Write into DIR even if it is not empty and datsim did not create it (datsim deletes"
                        + " nothing there that it did not write).")
        boolean force;

        @Option(names = "--no-perfetto",
                description = "Do not write trace.json (the Chrome Trace Event format, for ui.perfetto.dev).")
        boolean noPerfetto;

        @Option(names = {"-q", "--quiet"}, description = "No progress line (otherwise, when standard error is a"
                + " terminal, a line there says every second the simulated time reached, the events per second and"
                + " a workload's flows done; it never reaches a file or a pipe).")
        boolean quiet;

        @Option(names = "--choices", paramLabel = "VECTOR",
                description = "Take these alternatives at the models' choice points, in the order they are reached"
                        + " (a witness of 'datsim explore', such as 0.2.1; 0 past its end), each traced as a"
                        + " 'choice' event.")
        String choices;

        @Option(names = "--preset", paramLabel = "NAME",
                description = "Run on this fabric preset instead of the scenario's fabric.preset (the scenario's"
                        + " params and host_params still override it; see `datsim presets`).")
        String preset;

        @Option(names = "--param", paramLabel = "NAME=VALUE",
                description = "A fabric parameter for a what-if (repeatable): it wins over the scenario's params and"
                        + " every host's host_params (a link's own bandwidth or latency still wins for that link);"
                        + " recorded in summary.json's overrides.")
        List<String> params = new java.util.ArrayList<>();

        @Option(names = "--threads", paramLabel = "T", description = "Run the fabric on T threads (default 1): a"
                + " scenario whose only traffic is a workload of RDMA Writes splits its fabric by pods into T"
                + " partitions (docs/parallel.md); a scenario with consumer processes runs on one thread and says so."
                + " Every output is the same for every T; only the speed differs, and it gains only when the"
                + " partitions run many events per window (links of a microsecond, a busy fabric of 256 hosts or"
                + " more): the run prints its events per window. A fabric with fewer than "
                + EngineOptions.MIN_HOSTS_PER_THREAD + " hosts per thread runs on one thread unless --partitions is"
                + " given.")
        Integer threads;

        @Option(names = "--partitions", paramLabel = "P", description = "Partitions of the fabric (default: the"
                + " threads; from the threads to the number of hosts, at most 64).")
        Integer partitions;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() throws Exception {
            PrintWriter err = spec.commandLine().getErr();
            PrintWriter o = spec.commandLine().getOut();
            List<String> problems = new java.util.ArrayList<>();
            FabricOverrides overrides = FabricOverrides.of(preset, params, problems);
            if (overrides == null) {
                problems.forEach(p -> err.println("datsim: " + org.datsim.core.util.Text.clean(p)));
                return EXIT_INVALID;
            }
            Scenario s = overrides.isEmpty() ? load(file, err) : InputFiles.load(file, err, overrides::load);
            if (s == null) {
                return EXIT_INVALID;
            }
            if (seed != null) {
                s = s.withSeed(seed);
            }
            long events = s.maxEvents();
            long time = s.maxTimePs();
            try {
                if (maxEvents != null) {
                    if (maxEvents < 1) {
                        throw new IllegalArgumentException("expected a positive number of events, found " + maxEvents);
                    }
                    events = maxEvents;
                }
                if (maxTime != null) {
                    time = org.datsim.core.time.SimTime.parse(maxTime);
                }
            } catch (IllegalArgumentException e) {
                err.println("datsim: " + (maxTime != null ? "--max-time/--max-events: " : "")
                        + org.datsim.core.util.Text.clean(e.getMessage()));
                return EXIT_INVALID;
            }
            long outputLimit;
            long stall;
            try {
                outputLimit = maxOutput == null ? -1 : org.datsim.core.time.ByteSize.parse(maxOutput);
                if (maxOutput != null && outputLimit < 1) {
                    throw new IllegalArgumentException("expected a positive size such as 10GiB, found " + maxOutput);
                }
                stall = noProgress == null ? -1 : "0".equals(noProgress.trim()) ? 0
                        : org.datsim.core.time.SimTime.parse(noProgress);
            } catch (IllegalArgumentException e) {
                err.println("datsim: --max-output/--max-stall: " + org.datsim.core.util.Text.clean(e.getMessage()));
                return EXIT_INVALID;
            }
            s = s.withLimits(events, time);
            org.datsim.core.choice.VectorChoices vector = null;
            if (choices != null) {
                try {
                    String v = choices.trim();
                    boolean all = v.startsWith("all:");
                    int[] alternatives = org.datsim.core.choice.VectorChoices.parse(all ? v.substring(4) : v);
                    vector = new org.datsim.core.choice.VectorChoices(alternatives, null, !all, Integer.MAX_VALUE);
                } catch (IllegalArgumentException e) {
                    err.println("datsim: --choices: " + org.datsim.core.util.Text.clean(e.getMessage()));
                    return EXIT_INVALID;
                }
            }
            // runs keep each other: runs/NAME holding another file's run of the same scenario name is left alone
            Path dir = out;
            if (dir == null) {
                Path first = Paths.get("runs", org.datsim.scenario.run.OutputDir.safeName(s.name()));
                dir = org.datsim.scenario.run.OutputDir.forSource(Paths.get("runs"),
                        org.datsim.scenario.run.OutputDir.safeName(s.name()), file);
                if (!dir.equals(first)) {
                    o.println("note: " + first + " holds the run of " + org.datsim.scenario.run.OutputDir.source(first)
                            + ", another file with scenario name \"" + s.name() + "\": this run goes to " + dir
                            + " (--out DIR chooses)");
                }
            }
            // one thread unless asked: a scenario's fabric gains from more only with many events per window
            EngineOptions engine = new EngineOptions();
            engine.threads = this.threads != null ? this.threads : 1;
            engine.partitions = this.partitions;
            String sequential = vector != null ? "--choices replays one order of choices"
                    : ScenarioRunner.whyNotPartitioned(s);
            EngineOptions.Choice ec = sequential != null ? engine.sequential(sequential, err)
                    : engine.resolve(s.topology().hosts().size(), Runtime.getRuntime().availableProcessors(), err);
            if (ec == null) {
                return EXIT_INVALID;
            }
            int partitions = ec.partitions();
            int threads = ec.threads();
            if (ec.note() != null) {
                err.println("datsim: note: " + ec.note());
            }
            long t0 = System.nanoTime();
            RunResultSummary r;
            ScenarioRunner runner;
            try {
                runner = new ScenarioRunner(s, partitions, threads);
            } catch (IllegalArgumentException e) { // a fabric the partitioned engine cannot split (a 1 ps link)
                err.println("datsim: --threads " + threads + " --partitions " + partitions + ": "
                        + org.datsim.core.util.Text.clean(e.getMessage()));
                return EXIT_INVALID;
            }
            try {
                runner.perfetto(!noPerfetto).force(force);
                if (!overrides.isEmpty()) {
                    runner.overrides(overrides.preset(), overrides.params());
                }
                if (outputLimit > 0) {
                    runner.maxOutput(outputLimit);
                }
                if (stall >= 0) {
                    runner.noProgress(stall);
                }
                if (vector != null) {
                    runner.choices(vector);
                }
                try (TerminalProgress shown = TerminalProgress.start(quiet, err, TerminalProgress.simulation(
                        runner::progressSimulatedPs, runner::progressEvents, runner::progressFlows),
                        runner::progressFlowShare)) {
                    r = runner.run(dir, List.of());
                }
            } catch (java.io.IOException e) {
                err.println("datsim: cannot write the outputs in " + dir + ": " + e.getMessage());
                return EXIT_INVALID;
            } catch (RuntimeException e) {
                java.io.IOException io = writeFailure(e);
                if (io != null) { // a write refused: a file-size limit (EFBIG), a quota (EDQUOT), a full disk (ENOSPC)
                    err.println("datsim: cannot write the outputs in " + dir + ": "
                            + org.datsim.core.util.Text.clean(io.getMessage()) + " (a file-size limit, a quota or"
                            + " a full disk?); the run stopped there, and what was written so far is kept");
                    return EXIT_INVALID;
                }
                err.println("datsim: internal error while running " + file + " (a bug in datsim, not in the"
                        + " scenario; the trace written so far is in " + dir + "):");
                e.printStackTrace(err);
                return EXIT_INTERNAL;
            }
            if (out == null) {
                try {
                    org.datsim.scenario.run.OutputDir.recordSource(dir, file);
                } catch (java.io.IOException e) {
                    err.println("datsim: cannot write " + dir.resolve(org.datsim.scenario.run.OutputDir.SOURCE) + ": "
                            + e.getMessage());
                    return EXIT_INVALID;
                }
            }
            long wallMs = (System.nanoTime() - t0) / 1_000_000;
            for (String line : r.lines()) {
                o.println(line);
            }
            if (vector != null) {
                o.println("choices: " + vector.taken().size() + " point(s) reached, vector "
                        + org.datsim.core.choice.VectorChoices.format(vector.vector()));
                ExploreCommand.printChoices(o, vector, runner.observations());
                if (vector.mismatch() >= 0) {
                    err.println("datsim: --choices: entry " + (vector.mismatch() + 1) + " is not an alternative of"
                            + " the point it reached (" + vector.taken().get(vector.mismatch()).point().name()
                            + " has " + vector.taken().get(vector.mismatch()).alternatives() + "): the vector was"
                            + " made for another scenario; the run took 0 there");
                    return EXIT_INVALID;
                }
            }
            if (partitions > 1) {
                org.datsim.core.engine.WindowStats w = runner.windowStats();
                o.println("engine: " + threads + " thread(s), " + partitions + " partitions, " + w.windows()
                        + " windows of " + String.format(java.util.Locale.ROOT, "%.0f", w.eventsPerWindow())
                        + " events; the outputs are the same on one thread"
                        + (w.eventsPerWindow() < 1000 * partitions ? " (under a thousand events per partition and"
                                + " window, the barrier costs more than a thread gains: --threads 1 is likely"
                                + " faster, docs/parallel.md)" : ""));
            }
            o.println("wall time " + wallMs + " ms");
            return r.exitCode();
        }
    }

    /** {@code datsim validate}. */
    @Command(name = "validate", mixinStandardHelpOptions = true,
            description = "Check scenario files without running them; print one line per problem.")
    static final class Validate implements Callable<Integer> {

        @Parameters(paramLabel = "FILE", arity = "1..*", description = "Scenario JSON files.")
        List<Path> files;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            int code = 0;
            for (Path f : files) {
                if (load(f, spec.commandLine().getErr()) == null) {
                    code = EXIT_INVALID;
                } else {
                    spec.commandLine().getOut().println(f + ": valid");
                    sizeNotes(f, spec.commandLine().getOut());
                }
            }
            return code;
        }
    }

    /** Prints a note for each size in SI units of a valid file (its tree read again: it is small and valid). */
    static void sizeNotes(Path f, PrintWriter out) {
        try {
            com.fasterxml.jackson.databind.JsonNode root = new com.fasterxml.jackson.databind.ObjectMapper()
                    .readTree(f.toFile());
            org.datsim.scenario.load.SizeNotes.of(f.toString(), root).forEach(out::println);
        } catch (java.io.IOException e) {
            // it was just read and found valid; if it cannot be read again, there is nothing to note
        }
    }

    /** {@code datsim ops}. */
    @Command(name = "ops", mixinStandardHelpOptions = true,
            description = "Print the life of every operation of a finished run: post, start, wire, placement,"
                    + " completion and dequeue times, latency and status.")
    static final class Ops implements Callable<Integer> {

        @Parameters(paramLabel = "RUN_DIR", description = "A directory written by `datsim run`.")
        Path dir;

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            Path events = dir.resolve("events.jsonl");
            org.datsim.viz.OperationTable table = new org.datsim.viz.OperationTable();
            try {
                if (!org.datsim.viz.RunFiles.exists(events)) {
                    spec.commandLine().getErr().println("datsim: " + events + ": no such file (is " + dir
                            + " the output directory of `datsim run`?)");
                    return EXIT_INVALID;
                }
                org.datsim.viz.TraceReader.read(events, table::accept);
            } catch (java.io.IOException e) {
                spec.commandLine().getErr().println("datsim: " + e.getMessage());
                return EXIT_INVALID;
            }
            table.print(spec.commandLine().getOut());
            return 0;
        }
    }

    /** {@code datsim params}. */
    @Command(name = "params", mixinStandardHelpOptions = true,
            description = "List every fabric parameter with its default, unit and meaning.")
    static final class Params implements Callable<Integer> {

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter o = spec.commandLine().getOut();
            for (ParamSpec p : FabricParams.ALL) {
                o.printf("%-24s %-10s %s%n", p.name(), p.format(p.defaultValue()), p.description());
            }
            return 0;
        }
    }

    /** {@code datsim schema}. */
    @Command(name = "schema", mixinStandardHelpOptions = true,
            description = "Print the JSON Schema of scenario files (also in scenarios/scenario.schema.json).")
    static final class Schema implements Callable<Integer> {

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            spec.commandLine().getOut().print(org.datsim.scenario.load.SchemaGenerator.render());
            spec.commandLine().getOut().flush();
            return 0;
        }
    }

    /** {@code datsim bench}. */
    @Command(name = "bench", mixinStandardHelpOptions = true, description = "Benchmarks of the engine and the fabric models.")
    static final class Bench implements Runnable {

        @Spec
        CommandLine.Model.CommandSpec spec;

        @Override
        public void run() {
            spec.commandLine().usage(spec.commandLine().getOut());
        }
    }
}
