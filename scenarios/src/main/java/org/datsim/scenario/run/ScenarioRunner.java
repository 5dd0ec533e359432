package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.RunResult;
import org.datsim.core.engine.Simulator;
import org.datsim.core.engine.StopReason;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.stats.LatencyRecorder;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.memory.MemoryLimitException;
import org.datsim.scenario.load.Operands;
import org.datsim.scenario.load.ProcessDef;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.Step;
import org.datsim.viz.PerfettoTraceWriter;
import org.datsim.viz.RunViews;

/**
 * Runs a validated scenario: builds the fabric, starts one consumer process per scenario process, runs the engine to
 * the end (or a guard), and writes {@code events.jsonl} (streamed while the run goes) and {@code summary.json}.
 * Everything that reaches the outputs is ordered deterministically, so the same scenario and seed give
 * byte-identical files.
 */
public final class ScenarioRunner {

    /** The most bytes one mem_read may return. */
    static final long MAX_MEM_READ = 64L << 20;
    private static final int MAX_FAILURES_KEPT = 1000;

    private final Scenario scenario;
    private final Simulator sim;
    private final TraceSource<TraceEvent> trace = new TraceSource<>("datsim");
    private final Fabric fabric;
    private final RandomStreams random;
    private final Map<String, ConsumerProcess> processes = new LinkedHashMap<>();
    private final List<String> failures = new ArrayList<>();
    /** What the steps with "observe" observed. */
    private final Observations observations = new Observations();
    /** Each process's position in the scenario, for the order of observations (lookups only). */
    private final Map<String, Integer> ordinals = new java.util.HashMap<>();
    private long failureCount;
    private final RepeatTimes repeatTimes = new RepeatTimes();
    private String overridePreset;
    private Map<String, String> overrideParams = Map.of();
    private long calls;
    private long datErrors;
    /** The calls that returned an error their step's expectation asked for. */
    private long expectedErrors;
    private boolean perfetto = true;
    private boolean eventsJsonl = true;
    private boolean force;
    private long maxOutputBytes = RunGuard.DEFAULT_MAX_OUTPUT;
    private long noProgressPs = RunGuard.DEFAULT_NO_PROGRESS_PS;
    /** The workload's flows, or null if the scenario has none. */
    private List<org.datsim.scenario.workload.Flow> flows;
    /** The workload's flows on the fabric, or null. */
    private org.datsim.scenario.workload.FlowRunner.Attached attachedFlows;
    /** Everything the consumers observe, recorded for {@code datsim explore}; null when not recorded. */
    private StepObservations stepObservations;
    /** The fct.csv rows after the run, or null. */
    private List<org.datsim.scenario.workload.FctFile.Row> fctRows;

    /**
     * Prepares a run on the sequential engine.
     *
     * @param scenario the validated scenario
     */
    public ScenarioRunner(Scenario scenario) {
        this(scenario, 1, 1);
    }

    /**
     * Prepares a run on the engine asked for: with {@code partitions} 1 the sequential engine (one simulator with the
     * fabric's owners); with more, the partitioned engine (the fabric split by pods, docs/parallel.md), which only a
     * scenario that {@link #whyNotPartitioned} accepts can run on. Events of equal time are ordered by owner keys on
     * both, and the partitions' trace is merged in that order, so every output is the same for every choice.
     *
     * @param scenario the validated scenario
     * @param partitions 1, or 2 to the hosts (at most 64)
     * @param threads 1 to {@code partitions}
     * @throws IllegalArgumentException if the scenario cannot run partitioned, with the reason
     */
    public ScenarioRunner(Scenario scenario, int partitions, int threads) {
        this.scenario = scenario;
        this.random = new RandomStreams(scenario.seed());
        if (partitions > 1) {
            String why = whyNotPartitioned(scenario);
            if (why != null) {
                throw new IllegalArgumentException("this scenario cannot run partitioned: " + why);
            }
            this.fabric = Fabric.onEngine(scenario.topology(), scenario.params(), scenario.hostParams(), random, trace,
                    partitions, threads);
            this.sim = fabric.sim();
        } else {
            // the fabric's owners: events of equal time in owner-key order, as on the partitioned engine
            this.sim = new Simulator(org.datsim.fabric.FabricPartition.owners(scenario.topology()));
            this.fabric = new Fabric(sim, scenario.topology(), scenario.params(), scenario.hostParams(), random, trace);
        }
        // One program per list of steps: the processes of a template share theirs (lookups only, by identity).
        Map<List<Step>, Program> programs = new java.util.IdentityHashMap<>();
        for (ProcessDef p : scenario.processes()) {
            Program program = programs.computeIfAbsent(p.steps(), Program::new);
            ordinals.put(p.name(), ordinals.size());
            processes.put(p.name(), new ConsumerProcess(this, p, program, fabric.provider().host(p.host()),
                    scenario.hostParams().getOrDefault(p.host(), scenario.params())));
        }
        if (scenario.workload() != null) {
            flows = scenario.workload().flows(scenario.topology(), scenario.params(), random);
            attachedFlows = org.datsim.scenario.workload.FlowRunner.attach(fabric, flows, scenario.workload().send());
        }
        if (fabric.engine() != null) {
            fabric.engine().setMaxEvents(scenario.maxEvents());
        } else {
            sim.setMaxEvents(scenario.maxEvents());
            if (scenario.maxTimePs() != Long.MAX_VALUE) {
                sim.setMaxTimePs(scenario.maxTimePs());
            }
        }
    }

    /**
     * Tells why a scenario cannot run on the partitioned engine, or null if it can. What it runs must stay within its
     * hosts' and switches' partitions: a workload's RDMA Writes do; consumer processes (their connection management,
     * provider and statistics reach across hosts), Sends (a flow's receive is posted on its destination from its
     * source), and the port sampler (one event reads every switch) do not yet.
     *
     * @param scenario the scenario
     * @return the reason, or null
     */
    public static String whyNotPartitioned(Scenario scenario) {
        if (!scenario.processes().isEmpty()) {
            return "its consumer processes run on one thread (docs/parallel.md)";
        }
        if (scenario.workload() == null) {
            return "it has neither processes nor a workload";
        }
        if (scenario.workload().send()) {
            return "its workload's flows are Sends, whose receives are posted from the source's thread";
        }
        if (scenario.params().get(org.datsim.fabric.FabricParams.TRACE_PORT_SAMPLE_INTERVAL) > 0) {
            return "trace.port_sample_interval samples every switch in one event";
        }
        return null;
    }

    /** Runs the engine to the end or a limit: the one simulator, or the partitions in windows. */
    private RunResult runEngine() {
        org.datsim.core.engine.PartitionedSimulator engine = fabric.engine();
        if (engine == null) {
            return sim.run();
        }
        fabric.startTrace();
        RunResult r = scenario.maxTimePs() == Long.MAX_VALUE ? engine.run() : engine.runUntil(scenario.maxTimePs());
        StopReason reason = r.reason();
        String message = r.message();
        if (reason == StopReason.UNTIL_TIME) {
            reason = StopReason.TIME_LIMIT;
            message = "stopped at the time limit of " + SimTime.format(scenario.maxTimePs())
                    + "; raise it with --max-time if the run is not runaway";
        }
        return new RunResult(reason, fabric.lastEventPs(), fabric.eventsExecuted(), message);
    }

    /** The simulated time reached: the last event's (the one simulator's present). */
    private long nowPs() {
        return fabric.lastEventPs();
    }

    /** The events executed so far (a partitioned run's without its handovers, as a sequential run counts them). */
    private long eventsSoFar() {
        return fabric.eventsExecuted();
    }

    /**
     * Chooses whether the run also writes {@code trace.json} (the Chrome Trace Event format, for ui.perfetto.dev);
     * on by default.
     *
     * @param on true to write it
     * @return this runner
     */
    public ScenarioRunner perfetto(boolean on) {
        this.perfetto = on;
        return this;
    }

    /**
     * Chooses whether the run writes {@code events.jsonl}; on by default. Off, the trace still feeds the statistics
     * of {@code summary.json} (sweeps that keep no traces save the writing).
     *
     * @param on true to write it
     * @return this runner
     */
    public ScenarioRunner eventsJsonl(boolean on) {
        this.eventsJsonl = on;
        return this;
    }

    /**
     * Chooses whether the run may write into an existing non-empty directory that datsim did not create (see
     * {@link OutputDir}); off by default.
     *
     * @param on true to take such a directory over (nothing datsim did not write there is deleted)
     * @return this runner
     */
    public ScenarioRunner force(boolean on) {
        this.force = on;
        return this;
    }

    /**
     * Sets the output guard: the run stops (exit 1) when its trace files together pass this many bytes.
     *
     * @param bytes the limit, positive (default {@link RunGuard#DEFAULT_MAX_OUTPUT})
     * @return this runner
     */
    public ScenarioRunner maxOutput(long bytes) {
        this.maxOutputBytes = bytes;
        return this;
    }

    /**
     * Sets the no-progress guard: the run stops (exit 1) when for this much simulated time its only activity was
     * receiver-not-ready retries.
     *
     * @param ps the simulated time in picoseconds, 0 to turn the guard off (default 100 ms)
     * @return this runner
     */
    public ScenarioRunner noProgress(long ps) {
        this.noProgressPs = ps;
        return this;
    }

    /**
     * Makes the models take the alternatives of a choice vector at their choice points (see
     * {@link org.datsim.fabric.ChoicePoints}); each point reached is traced as a {@code choice} event.
     *
     * @param vector the choice source
     * @return this runner
     */
    public ScenarioRunner choices(org.datsim.core.choice.VectorChoices vector) {
        if (fabric.engine() != null) {
            throw new IllegalStateException("exploration runs on the sequential engine");
        }
        fabric.setChoices(vector);
        vector.onChoice(t -> {
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceKind.CHOICE, t.host()).attr(TraceKey.POINT, t.point().name())
                        .attr(TraceKey.RULE, t.point().rule()).attr(TraceKey.ALTERNATIVES, (long) t.alternatives())
                        .attr(TraceKey.VALUE, (long) t.value())
                        .attr(TraceKey.INDEX, (long) (vector.taken().size() - 1)));
            }
        });
        return this;
    }

    /**
     * Records everything the consumers observe ({@link StepObservations}: every call's return, every event taken,
     * every mem_read's bytes) during the run, for {@code datsim explore}.
     *
     * @return this runner
     */
    public ScenarioRunner observeSteps() {
        List<String> names = new ArrayList<>(processes.keySet());
        this.stepObservations = new StepObservations(names);
        return this;
    }

    /** Returns the step observations recorded so far, or null if {@link #observeSteps()} was not called. */
    public StepObservations stepObservations() {
        return stepObservations;
    }

    boolean observingSteps() {
        return stepObservations != null;
    }

    void observeStep(ConsumerProcess p, Step s, String key, String value) {
        if (stepObservations != null) {
            stepObservations.record(p.name(), s.index(), s.path(), s.spec().name(), key, value);
        }
    }

    /**
     * What one run without outputs ended with: its failed expectations (kept up to a thousand), the processes that
     * did not finish, and how the engine stopped.
     *
     * @param failures the failed expectations' messages
     * @param failureCount how many expectations failed
     * @param unfinished one line per process that did not finish
     * @param stop why the engine stopped
     * @param stopMessage why it stopped early, or null
     */
    public record Quiet(List<String> failures, long failureCount, List<String> unfinished, StopReason stop,
            String stopMessage) {

        /** Returns whether {@code datsim run} would exit 0 after this run. */
        public boolean ok() {
            return failureCount == 0 && unfinished.isEmpty() && stop == StopReason.NO_EVENTS;
        }
    }

    /**
     * Runs the scenario in memory: no file is written and the trace goes nowhere (the explorer runs many
     * executions). The scenario's event and time limits still hold.
     *
     * @return how the run ended
     */
    public Quiet runQuiet() {
        for (ConsumerProcess p : processes.values()) {
            p.start(p.startPs());
        }
        RunResult result;
        String abort = null;
        try {
            result = runEngine();
            if (scenario.outcomes().any()) {
                for (String problem : OutcomeCheck.check(observations, scenario.outcomes())) {
                    failureCount++;
                    if (failures.size() < MAX_FAILURES_KEPT) {
                        failures.add(problem);
                    }
                }
            }
        } catch (MemoryLimitException e) {
            abort = e.getMessage();
            result = new RunResult(StopReason.STOPPED, nowPs(), eventsSoFar(), abort);
        } catch (ArithmeticException e) {
            abort = "simulated time or a duration overflowed (" + e.getMessage() + ")";
            result = new RunResult(StopReason.STOPPED, nowPs(), eventsSoFar(), abort);
        }
        List<String> blocked = new ArrayList<>();
        for (ConsumerProcess p : processes.values()) {
            String in = p.blockedIn();
            if (in != null) {
                blocked.add("process " + p.name() + " did not finish: it was still in " + in);
            }
        }
        return new Quiet(List.copyOf(failures), failureCount, blocked, result.reason(),
                result.reason() == StopReason.NO_EVENTS ? null : abort != null ? abort : result.message());
    }

    Simulator sim() {
        return sim;
    }

    Map<String, Long> vars() {
        return scenario.vars();
    }

    Operands operands() {
        return scenario.operands();
    }

    Fabric fabric() {
        return fabric;
    }

    /**
     * Returns the partitioned engine's window statistics after a run, or null on the sequential engine.
     *
     * @return the statistics, or null
     */
    public org.datsim.core.engine.WindowStats windowStats() {
        return fabric.engine() != null ? fabric.engine().stats() : null;
    }

    ConsumerProcess process(String name) {
        return processes.get(name);
    }

    void trace(TraceEvent e) {
        trace.fire(e);
    }

    /** Returns how many expectations have failed so far. */
    long failuresSoFar() {
        return failureCount;
    }

    /** Counts a call that returned an error its step's expectation asked for. */
    void countExpectedError() {
        expectedErrors++;
    }

    void countCall(int ret) {
        calls++;
        if (!DatReturn.isSuccess(ret)) {
            datErrors++;
        }
    }

    /**
     * Says why a process blocked in "after" was never released: the process it waits for finished without reaching
     * the step, or the waits form a cycle (a waits for b, b for a), which can never be released.
     */
    private String afterChain(ConsumerProcess p) {
        List<ConsumerProcess> seen = new ArrayList<>();
        ConsumerProcess q = p;
        while (q.waitingFor() != null) {
            seen.add(q);
            String w = q.waitingFor();
            ConsumerProcess target = processes.get(w.substring(0, w.indexOf('/')));
            if (target.isFinished()) {
                return "; process " + target.name() + " finished without reaching it";
            }
            int at = seen.indexOf(target);
            if (at >= 0) {
                StringBuilder b = new StringBuilder("; the waits form a cycle that can never be released:");
                for (int i = at; i < seen.size(); i++) {
                    b.append(i > at ? "," : "").append(' ').append(seen.get(i).name()).append(" waits for ")
                            .append(seen.get(i).waitingFor());
                }
                return b.toString();
            }
            q = target;
        }
        return "";
    }

    /**
     * Returns what the run's steps observed ({@code "observe"}); complete once {@link #run} has returned. The explore
     * command compares it with the scenario's outcomes ({@link OutcomeCheck}) per execution.
     */
    public Observations observations() {
        return observations;
    }

    /** Records a step's observation under its name (PROCESS/NAME in a process template). */
    void observe(ConsumerProcess p, Step s, CallResult r) {
        org.datsim.scenario.load.Observe spec = s.observe();
        if (spec.name() == null) {
            for (org.datsim.scenario.load.Observe.Field f : spec.fields()) {
                observeField(p, s, r, p.args().indexedName(f.name(), s.path() + ".observe." + f.name()), f.field());
            }
            return;
        }
        String name = p.args().indexedName(spec.name(), s.path() + ".observe");
        int open = name.indexOf('[');
        long index = open < 0 ? 0 : Long.parseLong(name.substring(open + 1, name.length() - 1));
        String key = p.def().template() ? p.name() + "/" + name : name;
        org.datsim.scenario.load.ObserveKind kind = org.datsim.scenario.load.ObserveKind.of(s.spec().name());
        Observations.Observation o;
        if (kind == org.datsim.scenario.load.ObserveKind.DATA) {
            if (r.data == null) {
                return;
            }
            o = new Observations.Observation(key, kind, Observations.dataNode(r.data), r.data.clone(), 0, false);
        } else if (kind == org.datsim.scenario.load.ObserveKind.STATUS && r.event != null) {
            String v = r.event.status >= 0 ? r.event.statusName() : r.event.numberName();
            o = new Observations.Observation(key, kind, com.fasterxml.jackson.databind.node.TextNode.valueOf(v), null,
                    0, false);
        } else if (r.returned) {
            o = new Observations.Observation(key, kind,
                    com.fasterxml.jackson.databind.node.TextNode.valueOf(DatReturn.typeName(r.ret)), null, r.ret, true);
        } else {
            return;
        }
        observations.put(ordinals.get(p.name()), s.index(), index, o);
    }

    /**
     * Records one field of the event a wait or dequeue took ({@code "observe": {"NAME": "FIELD"}}): a number for
     * cookie, length and immediate_data, a name for status, event, operation and ep (the endpoint's trace name);
     * the call's DAT_RETURN when it took no event.
     */
    private void observeField(ConsumerProcess p, Step s, CallResult r, String name, String field) {
        int open = name.indexOf('[');
        long index = open < 0 ? 0 : Long.parseLong(name.substring(open + 1, name.length() - 1));
        String key = p.def().template() ? p.name() + "/" + name : name;
        org.datsim.scenario.load.ObserveKind kind = org.datsim.scenario.load.ObserveKind.FIELD;
        com.fasterxml.jackson.databind.JsonNode v;
        if (r.event == null) {
            if (!r.returned) {
                return;
            }
            observations.put(ordinals.get(p.name()), s.index(), index, new Observations.Observation(key, kind,
                    com.fasterxml.jackson.databind.node.TextNode.valueOf(DatReturn.typeName(r.ret)), null, r.ret,
                    true));
            return;
        }
        org.datsim.fabric.dat.DatEvent e = r.event;
        switch (field) {
            case "status":
                v = text(e.status >= 0 ? e.statusName() : "none");
                break;
            case "event":
                v = text(e.numberName());
                break;
            case "operation":
                v = text(e.status >= 0 ? org.datsim.fabric.dat.Dat.DTO_OPS.name(e.operation) : "none");
                break;
            case "ep":
                v = text(e.ep == null ? "none" : e.ep.name());
                break;
            case "cookie":
                v = com.fasterxml.jackson.databind.node.LongNode.valueOf(e.cookie);
                break;
            case "length":
                v = com.fasterxml.jackson.databind.node.LongNode.valueOf(e.transferredLength);
                break;
            default: // immediate_data, validated at load
                v = com.fasterxml.jackson.databind.node.LongNode.valueOf((long) e.immediateData() & 0xffffffffL);
                break;
        }
        observations.put(ordinals.get(p.name()), s.index(), index, new Observations.Observation(key, kind, v, null,
                0, false));
    }

    private static com.fasterxml.jackson.databind.JsonNode text(String t) {
        return com.fasterxml.jackson.databind.node.TextNode.valueOf(t);
    }

    /**
     * Records the command line's what-if overrides ({@code run --preset}, {@code --param}) already applied to the
     * scenario, for summary.json's {@code overrides}.
     *
     * @param preset the preset given, or null
     * @param params the parameters given, in order
     * @return this runner
     */
    public ScenarioRunner overrides(String preset, Map<String, String> params) {
        this.overridePreset = preset;
        this.overrideParams = new java.util.LinkedHashMap<>(params);
        return this;
    }

    /** Records the simulated time of one iteration of a repeat block of a process. */
    void repeatIteration(String process, Step begin, java.util.List<Step> steps, long ps) {
        repeatTimes.iteration(process, begin, steps, ps);
    }

    void failure(ConsumerProcess p, Step s, String message) {
        failureCount++;
        String text = "process " + p.name() + ", " + s.path() + " (" + s.spec().name() + ") at "
                + SimTime.format(sim.now()) + p.iterationSuffix() + ": " + message;
        if (failures.size() < MAX_FAILURES_KEPT) {
            failures.add(text);
        }
        TraceEvent e = TraceEvent.of(sim.now(), TraceKind.EXPECT_FAILED, p.hostName()).call(s.spec().name())
                .attr(TraceKey.PROCESS, p.name()).attr(TraceKey.STEP, s.path());
        if (p.iteration() != null) {
            e.attr(TraceKey.ITERATION, p.iteration());
        }
        trace.fire(e.attr(TraceKey.MESSAGE, message));
    }

    /**
     * Returns the simulated time reached so far, for a progress display on another thread (a glimpse: the
     * simulation is not stopped for it).
     *
     * @return picoseconds
     */
    public long progressSimulatedPs() {
        return nowPs();
    }

    /**
     * Returns the events executed so far, for a progress display on another thread.
     *
     * @return the count
     */
    public long progressEvents() {
        return eventsSoFar();
    }

    /**
     * Returns how many of the workload's flows have completed, "" without a workload, for a progress display on
     * another thread.
     *
     * @return the words
     */
    public String progressFlows() {
        if (attachedFlows == null) {
            return "";
        }
        long done = flowsDone();
        String phase = progressPhase;
        return done + " of " + flows.size() + " flows done" + (phase.isEmpty() ? "" : ", " + phase);
    }

    /**
     * The share of the workload's flows done, for the progress display's estimate of the time left (NaN without
     * flows).
     *
     * @return 0 to 1, or NaN
     */
    public double progressFlowShare() {
        if (attachedFlows == null || flows.isEmpty()) {
            return Double.NaN;
        }
        return progressPhase.isEmpty() ? flowsDone() / (double) flows.size() : Double.NaN;
    }

    /** The workload's flows completed so far (for the progress display). */
    private long flowsDone() {
        long done = 0;
        for (long f : attachedFlows.fct()) {
            done += f >= 0 ? 1 : 0;
        }
        return done;
    }

    /** What the run does after its simulation, for the progress display ("" while it simulates). */
    private volatile String progressPhase = "";

    /**
     * Returns the sink as the outputs see the trace: without the cache_miss lines that {@code trace.cache_misses}
     * leaves out (by default those of a workload's flows, whose queue pairs are named {@code flowN} and
     * {@code flowN_r}, without a host prefix), else the sink itself.
     */
    private org.datsim.core.trace.TraceSink<TraceEvent> traced(org.datsim.core.trace.TraceSink<TraceEvent> sink) {
        String mode = scenario.params().choice(org.datsim.fabric.FabricParams.TRACE_CACHE_MISSES);
        if ("all".equals(mode) || "auto".equals(mode) && attachedFlows == null) {
            return sink;
        }
        boolean none = "none".equals(mode);
        return e -> {
            if (org.datsim.fabric.hca.Hca.CACHE_MISS.equals(e.kind())
                    && (none || e.ep() != null && e.ep().startsWith("flow") && e.ep().indexOf('/') < 0)) {
                return;
            }
            sink.accept(e);
        };
    }

    /**
     * Runs the scenario and writes its outputs into a directory (created if needed). The trace is flushed even if
     * the run stops early.
     *
     * @param outDir the output directory
     * @param subscribers extra trace subscribers (tests), may be empty
     * @return the exit code and a human summary
     * @throws IOException if an output cannot be written
     */
    public RunResultSummary run(Path outDir, List<org.datsim.core.trace.TraceSink<TraceEvent>> subscribers)
            throws IOException {
        OutputDir.claim(outDir, force);
        OperationStats stats = new OperationStats();
        RunResult result;
        String abort = null;
        List<String> stale = new ArrayList<>(RunViews.OUTPUTS);
        stale.add("events.jsonl");
        stale.add(org.datsim.scenario.workload.FctFile.FILE);
        OutputDir.deleteOurs(outDir, stale);
        List<String> written = new ArrayList<>();
        if (eventsJsonl) {
            written.add("events.jsonl");
        }
        if (perfetto) {
            written.add(PerfettoTraceWriter.FILE);
        }
        written.add("summary.json");
        if (attachedFlows != null) {
            written.add(org.datsim.scenario.workload.FctFile.FILE);
        }
        OutputDir.record(outDir, written);
        try (JsonLinesTraceWriter writer = eventsJsonl ? new JsonLinesTraceWriter(outDir.resolve("events.jsonl")) : null;
                PerfettoTraceWriter chrome = perfetto
                        ? new PerfettoTraceWriter(outDir.resolve(PerfettoTraceWriter.FILE)) : null) {
            if (writer != null) {
                trace.subscribe(traced(writer));
            }
            if (chrome != null) {
                trace.subscribe(traced(chrome));
            }
            trace.subscribe(traced(stats));
            List<Path> traceFiles = new ArrayList<>();
            if (writer != null) {
                traceFiles.add(outDir.resolve("events.jsonl"));
            }
            if (chrome != null) {
                traceFiles.add(outDir.resolve(PerfettoTraceWriter.FILE));
            }
            RunGuard guard = new RunGuard(fabric.engine() != null ? fabric.engine()::stopAfterWindow : sim::stop,
                    traceFiles, maxOutputBytes, noProgressPs);
            trace.subscribe(guard);
            for (org.datsim.core.trace.TraceSink<TraceEvent> s : subscribers) {
                trace.subscribe(s);
            }
            for (ConsumerProcess p : processes.values()) {
                p.start(p.startPs());
            }
            try {
                result = runEngine();
                if (scenario.outcomes().any()) {
                    for (String problem : OutcomeCheck.check(observations, scenario.outcomes())) {
                        failureCount++;
                        if (failures.size() < MAX_FAILURES_KEPT) {
                            failures.add(problem);
                        }
                    }
                }
                if (guard.tripped() != null) {
                    abort = guard.tripped();
                    result = new RunResult(StopReason.STOPPED, result.endTimePs(), result.events(), abort);
                }
                // Settle the ports now, while the trace is open: a run stopped early (--max-events) can leave a
                // deferred departure whose settlement traces a port_queue line, which the summary's reading of
                // the port counters after the writers closed would otherwise fire into a closed writer.
                for (Port port : fabric.ports()) {
                    port.counters();
                }
            } catch (OutOfMemoryError e) {
                abort = OutOfMemory.MESSAGE;
                result = new RunResult(StopReason.STOPPED, nowPs(), eventsSoFar(), abort);
            } catch (MemoryLimitException e) {
                abort = e.getMessage();
                result = new RunResult(StopReason.STOPPED, nowPs(), eventsSoFar(), e.getMessage());
            } catch (ArithmeticException e) {
                abort = "simulated time or a duration overflowed (" + e.getMessage() + "): a rate, size or time in"
                        + " the scenario is too extreme to simulate";
                result = new RunResult(StopReason.STOPPED, nowPs(), eventsSoFar(), abort);
            }
            // the flows' FCTs while trace.json is open: each flow is a slice in it
            if (attachedFlows != null) {
                long[] ideal = new long[flows.size()];
                java.util.Arrays.fill(ideal, -1);
                if (scenario.workload().ideal()) {
                    progressPhase = "now each flow alone on an idle fabric (the ideal FCTs)";
                    ideal = org.datsim.scenario.workload.FlowRunner.ideal(scenario.topology(), scenario.params(),
                            scenario.hostParams(), flows, scenario.workload().send(), scenario.seed());
                }
                long[] fct = attachedFlows.fct();
                long[] standalone = org.datsim.scenario.workload.StandaloneFct.of(scenario.topology(), scenario.params(),
                        flows);
                fctRows = new ArrayList<>(flows.size());
                for (int i = 0; i < fct.length; i++) {
                    org.datsim.scenario.workload.Flow f = flows.get(i);
                    fctRows.add(new org.datsim.scenario.workload.FctFile.Row(scenario.topology().hosts().get(f.src()),
                            scenario.topology().hosts().get(f.dst()), f.sizeBytes(), f.startPs(), fct[i], ideal[i],
                            standalone[i]));
                }
                org.datsim.scenario.workload.FlowOutputs.writeCsv(outDir, fctRows);
            }
            if (chrome != null && fctRows != null) {
                List<org.datsim.viz.FlowRecords.Flow> fs = new ArrayList<>(fctRows.size());
                for (org.datsim.scenario.workload.FctFile.Row r : fctRows) {
                    fs.add(new org.datsim.viz.FlowRecords.Flow(fs.size(), r.src(), r.dst(), r.sizeBytes(),
                            r.startPs(), r.fctPs(), r.idealPs(), r.standalonePs()));
                }
                chrome.flows(fs);
            }
        }
        List<String> blocked = new ArrayList<>();
        for (ConsumerProcess p : processes.values()) {
            String in = p.blockedIn();
            if (in != null) {
                blocked.add("process " + p.name() + " did not finish: it was still "
                        + (p.waitingFor() != null ? in + afterChain(p) : "in " + in));
            }
        }
        boolean ok = failureCount == 0 && blocked.isEmpty() && result.reason() == StopReason.NO_EVENTS;
        writeSummary(outDir.resolve("summary.json"), result, stats, blocked, abort);
        List<String> lines = new ArrayList<>();
        lines.add("scenario " + scenario.name() + " (seed " + scenario.seed() + "): simulated "
                + SimTime.format(result.endTimePs()) + ", " + result.events() + " events, " + calls + " calls ("
                + errorsText() + ")");
        lines.addAll(resolvedLines());
        for (Map.Entry<String, LatencyRecorder> e : stats.latency().entrySet()) {
            LatencyRecorder r = e.getValue();
            lines.add(String.format("  %-28s n=%-6d p50=%-10s p99=%-10s max=%s%s", e.getKey(), r.count(),
                    SimTime.formatExact(r.percentile(50)), SimTime.formatExact(r.percentile(99)),
                    SimTime.formatExact(r.max()),
                    r.percentilesExact() ? "" : " (p50, p99 " + r.percentilePrecision() + ")"));
        }
        lines.addAll(repeatTimes.lines());
        if (fctRows != null) {
            long done = fctRows.stream().filter(r -> r.fctPs() >= 0).count();
            lines.add("  workload: " + fctRows.size() + " flows, " + done + " completed; FCTs in "
                    + outDir.resolve(org.datsim.scenario.workload.FctFile.FILE) + " (datsim fct " + outDir + ")");
        }
        if (result.reason() != StopReason.NO_EVENTS) {
            lines.add("run stopped early: " + (abort != null ? abort : result.message()));
        }
        lines.addAll(failureReport(failures, failureCount, blocked));
        String why = failureCount + " failed expectation(s)";
        if (!blocked.isEmpty()) {
            why += ", " + blocked.size() + " unfinished process(es)";
        }
        if (result.reason() != StopReason.NO_EVENTS) {
            why += ", stopped early (" + result.reason().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ')
                    + ")";
        }
        lines.add((ok ? "OK" : "FAILED") + ": " + why + "; trace and summary in " + outDir);
        return new RunResultSummary(ok ? 0 : 1, lines);
    }

    private ObjectNode resolved(ObjectMapper mapper) {
        return ResolvedValues.of(mapper, scenario.params(), fabric);
    }

    private List<String> resolvedLines() {
        return ResolvedValues.lines(resolved(new ObjectMapper()));
    }

    /** The summary line's count of calls that returned errors: those the scenario expected apart. */
    private String errorsText() {
        if (datErrors == 0) {
            return "no call returned an error";
        }
        long unexpected = datErrors - expectedErrors;
        return datErrors + " returned errors: " + (unexpected == 0 ? "all expected"
                : expectedErrors == 0 ? "none expected" : expectedErrors + " expected, " + unexpected + " not");
    }

    /** A failure that follows from an earlier one: a name the failed call should have bound is not bound. */
    static boolean knockOn(String failure) {
        return failure.contains("is not bound: the call that binds it failed or has not run yet");
    }

    /**
     * Orders what went wrong so that the cause leads: the first failed expectation (in simulated time) and its
     * message; then the other failures of their own; then the knock-on ones (names an earlier failed call did not
     * bind), grouped; then the processes that did not finish, which a failure usually explains (when nothing failed,
     * they are the cause and come first).
     */
    static List<String> failureReport(List<String> failures, long failureCount, List<String> blocked) {
        List<String> out = new ArrayList<>();
        if (failures.isEmpty()) {
            out.addAll(blocked);
            if (failureCount > 0) {
                out.add("... and " + failureCount + " failed expectations");
            }
            return out;
        }
        out.add("FAILED " + failures.get(0));
        List<String> own = new ArrayList<>();
        List<String> knock = new ArrayList<>();
        for (String f : failures.subList(1, failures.size())) {
            (knockOn(f) ? knock : own).add(f);
        }
        if (!own.isEmpty() || !knock.isEmpty() || !blocked.isEmpty()) {
            out.add("  (the first failure, in simulated time: start there; what follows may be its consequences)");
        }
        for (String f : own) {
            out.add("FAILED " + f);
        }
        if (!knock.isEmpty()) {
            out.add("knock-on failures (" + knock.size() + "): names that a failed call above did not bind");
            for (String f : knock) {
                out.add("FAILED " + f);
            }
        }
        if (failureCount > failures.size()) {
            out.add("... and " + (failureCount - failures.size()) + " more failed expectations");
        }
        if (!blocked.isEmpty()) {
            out.add("unfinished (" + blocked.size() + "), likely after the failures above:");
            out.addAll(blocked);
        }
        return out;
    }

    private void writeSummary(Path file, RunResult result, OperationStats stats, List<String> blocked, String abort)
            throws IOException {
        ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
        ObjectNode root = mapper.createObjectNode();
        root.put("scenario", scenario.name());
        root.put("seed", scenario.seed());
        root.put("end_time_ps", result.endTimePs());
        root.put("end_time", SimTime.format(result.endTimePs()));
        root.put("events_executed", result.events());
        root.put("stop_reason", result.reason().name());
        if (result.reason() != StopReason.NO_EVENTS) {
            root.put("stop_message", abort != null ? abort : result.message());
        }
        if (overridePreset != null || !overrideParams.isEmpty()) {
            ObjectNode ov = root.putObject("overrides"); // from the command line: run --preset, --param
            if (overridePreset != null) {
                ov.put("preset", overridePreset);
            }
            ObjectNode op = ov.putObject("params");
            overrideParams.forEach(op::put);
        }
        ObjectNode resolved = resolved(mapper);
        if (resolved.size() > 0) {
            root.set("resolved", resolved);
        }
        root.put("calls", calls);
        root.put("calls_returning_errors", datErrors);
        root.put("calls_returning_expected_errors", expectedErrors);
        ObjectNode ops = root.putObject("operations");
        for (Map.Entry<String, LatencyRecorder> e : stats.latency().entrySet()) {
            LatencyRecorder r = e.getValue();
            ObjectNode o = ops.putObject(e.getKey());
            o.put("count", r.count());
            // min, max and mean exact; the percentiles exact up to LatencyRecorder.EXACT_LIMIT values, and the
            // precision named either way
            o.put("min_ps", r.min());
            o.put("mean_ps", r.meanRounded());
            o.put("p50_ps", r.percentile(50));
            o.put("p90_ps", r.percentile(90));
            o.put("p99_ps", r.percentile(99));
            o.put("max_ps", r.max());
            o.put("percentiles_precision", r.percentilePrecision());
            o.put("bytes", stats.bytes(e.getKey()));
            o.put("first_post_ps", stats.firstPost(e.getKey()));
            o.put("last_complete_ps", stats.lastComplete(e.getKey()));
        }
        if (!repeatTimes.isEmpty()) {
            repeatTimes.write(root.putObject("repeats"));
        }
        long packets = 0;
        long wire = 0;
        for (Port p : fabric.ports()) {
            packets += p.packetsSent();
            wire += p.bytesSent();
        }
        ObjectNode tp = root.putObject("throughput");
        long window = stats.windowPs();
        tp.put("operations_completed", stats.completions());
        tp.put("bytes_completed", stats.bytesCompleted());
        tp.put("window_ps", window);
        tp.put("operations_per_s", window == 0 ? 0 : Math.round(stats.completions() * 1e12 / window));
        tp.put("bytes_per_s", window == 0 ? 0 : Math.round(stats.bytesCompleted() * 1e12 / window));
        root.put("fence_waits", stats.count(TraceEvent.FENCE_WAIT));
        root.put("credit_waits", stats.count("credit_wait"));
        root.put("stale_reads", stats.staleReads());
        ObjectNode errs = root.putObject("errors");
        errs.put("error_events", stats.count(TraceEvent.ERROR));
        errs.put("error_completions", stats.errorCompletions());
        errs.put("calls_returning_errors", datErrors);
        errs.put("failed_expectations", failureCount);
        root.put("packets", packets);
        root.put("wire_bytes", wire);
        if (fctRows != null) {
            ObjectNode flowsNode = root.putObject("flows");
            org.datsim.scenario.workload.FlowOutputs.summarize(flowsNode, fctRows);
            org.datsim.scenario.workload.Workload w = scenario.workload();
            ObjectNode wn = flowsNode.putObject("workload");
            if (w.imported() != null) {
                wn.put("hpcc_flows", true);
            } else {
                wn.put("distribution", w.cdf().name());
                wn.put("load", w.load());
                wn.put("pattern", w.pattern().name().toLowerCase(java.util.Locale.ROOT));
            }
            wn.put("operation", w.send() ? "send" : "rdma_write");
        }
        // Per-port counters (the fabric's statistics), for the ports that sent anything.
        org.datsim.core.stats.StatsRegistry registry = new org.datsim.core.stats.StatsRegistry();
        fabric.registerStats(registry);
        ObjectNode portsNode = root.putObject("ports");
        // With a congestion feature on (ECN, shared buffer, telemetry, port sampling), each port also says its ECN
        // marks, the time PFC held it paused and its utilisation over the run (wire bytes / what the link could carry).
        Map<String, org.datsim.fabric.link.Port> byName = new java.util.HashMap<>();
        boolean congestion = fabric.congestionFeatures();
        if (congestion) {
            fabric.ports().forEach(port -> byName.put("port." + port.name(), port));
        }
        long endPs = result.endTimePs();
        registry.stats().forEach((name, stat) -> {
            if (stat instanceof org.datsim.fabric.link.PortCounters c && c.packets() > 0) {
                ObjectNode o = portsNode.putObject(name.substring("port.".length()));
                o.put("packets", c.packets());
                o.put("bytes", c.bytes());
                o.put("max_queue_packets", c.maxQueuePackets());
                o.put("max_queue_bytes", c.maxQueueBytes());
                o.put("stall_ps", c.stallPs());
                o.put("drops", c.drops());
                org.datsim.fabric.link.Port port = byName.get(name);
                if (port != null) {
                    o.put("ecn_marks", c.ecnMarks());
                    o.put("paused_ps", port.pausedPs());
                    double capacity = port.rate().bitsPerSecond() * (endPs / 1e12) / 8;
                    o.put("utilisation", endPs == 0 ? 0.0 : Math.round(c.bytes() / capacity * 1e6) / 1e6);
                }
            }
        });
        ObjectNode caches = root.putObject("hca_caches");
        for (String name : new String[] {"qpc", "mtt"}) {
            long hits = 0;
            long misses = 0;
            long evictions = 0;
            for (org.datsim.fabric.dat.DatHost h : fabric.hosts()) {
                org.datsim.fabric.hca.EntryCache c = name.equals("qpc") ? h.hca().qpcCache() : h.hca().mttCache();
                hits += c.hits();
                misses += c.misses();
                evictions += c.evictions();
            }
            caches.putObject(name).put("hits", hits).put("misses", misses).put("evictions", evictions);
        }
        ObjectNode kinds = root.putObject("trace_events");
        stats.kindCounts().forEach(kinds::put);
        ObjectNode exp = root.putObject("expectations");
        exp.put("failed", failureCount);
        ArrayNode f = exp.putArray("failures");
        failures.forEach(f::add);
        if (!observations.isEmpty() || scenario.outcomes().any()) {
            root.set("observations", observations.toJson());
        }
        ArrayNode b = root.putArray("unfinished_processes");
        blocked.forEach(b::add);
        ObjectNode params = root.putObject("params");
        Map<String, String> base = scenario.params().asText();
        base.forEach(params::put);
        if (!scenario.hostParams().isEmpty()) {
            ObjectNode hp = root.putObject("host_params");
            scenario.hostParams().forEach((host, p) -> {
                ObjectNode h = hp.putObject(host);
                p.asText().forEach((k, v) -> {
                    if (!v.equals(base.get(k))) {
                        h.put(k, v);
                    }
                });
            });
        }
        try (OutputStream out = Files.newOutputStream(file)) {
            mapper.writeValue(out, root);
        }
        Files.writeString(file, Files.readString(file).replace("\r\n", "\n") + "\n");
    }
}
