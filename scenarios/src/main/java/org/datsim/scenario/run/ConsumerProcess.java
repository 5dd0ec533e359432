package org.datsim.scenario.run;

import java.util.ArrayDeque;
import java.util.List;
import org.datsim.core.engine.SimProcess;
import org.datsim.core.param.Params;
import org.datsim.core.time.DataRate;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.scenario.consumer.BlockedWait;
import org.datsim.scenario.consumer.CpuCosts;
import org.datsim.scenario.load.ProcessDef;
import org.datsim.scenario.load.ConnectionCall;
import org.datsim.scenario.load.Step;

/**
 * One consumer process: the interpreter of its steps. It executes its calls in order on the DAT provider of its
 * host, spending simulated CPU time before and after each, runs its repeat blocks, and blocks where DAT blocks
 * ({@link Wait}). The calls themselves are executed by their families ({@link ObjectCalls}, {@link QueryCalls},
 * {@link ConnectionCalls}, {@link DtoCalls}, {@link EventCalls}, {@link CpuCalls}) against the process's named
 * values ({@link Args}). It is a state machine resumed by the engine; it owns no thread.
 */
final class ConsumerProcess extends SimProcess implements BlockedWait.Timers {

    /** Steps one resume may take without simulated time passing before the process is declared runaway. */
    static final long MAX_STEPS_WITHOUT_TIME = 10_000_000L;

    private final ScenarioRunner runner;
    private final ProcessDef def;
    private final Program program;
    private final DatHost host;
    private final DatProvider dat;
    private final Args args;
    private final Wait waits;
    /** What the current call observed, judged when its step ends. */
    private final CallResult result = new CallResult();
    /** Explored runs: the call of the current step is held at ep.disconnect_order until this is over, or null. */
    private org.datsim.fabric.dat.CallHold callHold;
    /** Explored runs: the current step's ep.disconnect_order has been decided. */
    private boolean callHoldDecided;
    /** The last result of each named step ({@code "name"}), for an {@code "if": {"step": NAME}} of a later call. */
    private final java.util.Map<String, CallResult> namedResults = new java.util.HashMap<>();
    /** What calls cost the CPU: the same rule as a bridged program's. */
    private final CpuCosts costs;
    /** Open repeat blocks, innermost first: {index of the block's begin step, iteration, count, iteration start}. */
    private final ArrayDeque<long[]> loops = new ArrayDeque<>();
    private int pc;
    private boolean charged;
    /** The named steps this process has finished at least once (membership only). */
    private final java.util.Set<String> reached = new java.util.HashSet<>();
    /** Processes waiting ({@code "after"}) for a step of this one to be reached, by step name (lookups only). */
    private final java.util.Map<String, List<ConsumerProcess>> waiters = new java.util.HashMap<>();
    /** The "PROCESS/STEP" this process waits for before its current call, or null. */
    private String waitingFor;
    /** The iteration of the repeat blocks the process is in ("i=2 j=0", outermost first), or null outside them. */
    private String iteration;
    /** The kinds of value that are DAT objects, which take the name their call's "out" gives them. */
    private static final java.util.Set<String> OBJECT_KINDS = java.util.Set.of("ia", "pz", "evd", "lmr", "rmr", "ep",
            "psp", "rsp", "srq", "cno");

    ConsumerProcess(ScenarioRunner runner, ProcessDef def, Program program, DatHost host, Params params) {
        super(runner.sim(), def.name());
        this.runner = runner;
        this.def = def;
        this.program = program;
        this.host = host;
        this.dat = runner.fabric().provider();
        this.args = new Args(runner, def);
        this.waits = new Wait(this);
        this.costs = new CpuCosts(params);
    }

    /** Returns the current call's description if the process is blocked, else null. */
    String blockedIn() {
        if (isFinished() || pc >= def.steps().size()) {
            return null;
        }
        Step s = def.steps().get(pc);
        if (waitingFor != null) {
            return "waiting at " + s.path() + " (" + s.spec().name() + ", after " + waitingFor + ") for process "
                    + waitingFor.substring(0, waitingFor.indexOf('/')) + " to reach step \""
                    + waitingFor.substring(waitingFor.indexOf('/') + 1) + "\"" + iterationSuffix();
        }
        return s.spec().name() + " at " + s.path() + iterationSuffix();
    }

    /** Returns the iteration of the repeat blocks the process is in ("i=2 j=0"), or null outside them. */
    String iteration() {
        return iteration;
    }

    /** Returns ", iteration i=2" inside repeat blocks, else "": for messages about the current step. */
    String iterationSuffix() {
        return iteration == null ? "" : ", iteration " + iteration;
    }

    /** Recomputes {@link #iteration} after a repeat block began, looped or ended. */
    private void iterationChanged() {
        if (loops.isEmpty()) {
            iteration = null;
            return;
        }
        StringBuilder b = new StringBuilder();
        java.util.Iterator<long[]> it = loops.descendingIterator();
        while (it.hasNext()) {
            long[] f = it.next();
            String var = def.steps().get((int) f[0]).loopVar();
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(var != null ? var + "=" : "#").append(f[1]);
        }
        iteration = b.toString();
    }

    /** Returns the "PROCESS/STEP" this process is blocked waiting for ("after"), or null. */
    String waitingFor() {
        return isFinished() ? null : waitingFor;
    }

    /** Returns true if this process has finished the step of that name at least once. */
    boolean reached(String step) {
        return reached.contains(step);
    }

    /**
     * Returns true if every step the call's "after" names has been reached; otherwise registers this process to be
     * woken when the first missing one is, and returns false (the process then blocks, costing no simulated time
     * beyond the wait).
     */
    private boolean afterReached(Step s) {
        List<String> after = s.after();
        for (int i = 0; i < after.size(); i++) {
            String text = after.get(i);
            int slash = text.indexOf('/');
            ConsumerProcess target = runner.process(text.substring(0, slash));
            String step = text.substring(slash + 1);
            if (!target.reached(step)) {
                waitingFor = text;
                target.waiters.computeIfAbsent(step, k -> new java.util.ArrayList<>()).add(this);
                return false;
            }
        }
        waitingFor = null;
        return true;
    }

    /** Wakes the process after a delay; returns the wake's id for {@link #cancelTimer}. */
    @Override
    public long timer(long delayPs) {
        return wakeAfter(delayPs);
    }

    /** Cancels a wake set by {@link #timer}. */
    @Override
    public void cancelTimer(long id) {
        cancelWake(id);
    }

    /** Returns the CPU time of a poll, the cost of returning from a satisfied wait. */
    long pollOverhead() {
        return costs.poll();
    }

    /** Returns what calls cost the process's CPU. */
    CpuCosts costs() {
        return costs;
    }

    /** Returns the rate at which the CPU reads and writes memory. */
    DataRate memoryRate() {
        return costs.memoryRate();
    }

    /** Returns the runner the process belongs to. */
    ScenarioRunner runner() {
        return runner;
    }

    /** Returns the DAT provider the process calls. */
    DatProvider dat() {
        return dat;
    }

    /** Returns the process's named values and the reading of its arguments. */
    Args args() {
        return args;
    }

    /** Returns what the current call observed so far. */
    java.util.Map<String, CallResult> namedResults() {
        return namedResults;
    }

    CallResult result() {
        return result;
    }

    /** Returns the scenario's definition of the process. */
    ProcessDef def() {
        return def;
    }

    /** Returns the process's blocking calls. */
    Wait waits() {
        return waits;
    }

    /** Returns the provider state of the host the process runs on. */
    DatHost host() {
        return host;
    }

    /** Returns the name of the host the process runs on. */
    String hostName() {
        return host.name();
    }

    /** Returns when the process starts, in picoseconds. */
    long startPs() {
        return def.startPs();
    }

    /** Records a failed expectation of a step. */
    void fail(Step s, String message) {
        runner.failure(this, s, message);
    }

    @Override
    protected void resume() {
        List<Step> steps = def.steps();
        long budget = MAX_STEPS_WITHOUT_TIME;
        while (pc < steps.size()) {
            Step s = steps.get(pc);
            if (--budget < 0) {
                fail(s, "more than " + MAX_STEPS_WITHOUT_TIME + " steps ran without simulated time passing (a"
                        + " repeat block of calls that take no time?); the process was stopped");
                finish();
                return;
            }
            if (s.kind() != Step.CALL) {
                repeatStep(s);
                continue;
            }
            if (waits.active()) {
                boolean done;
                try {
                    done = waits.resume(s);
                } catch (Unbound e) {
                    fail(s, e.getMessage()); // the wait is over before the call reports, which may throw
                    done = true;
                }
                if (!done) {
                    return;
                }
                ended(s);
                pc++;
                wakeAfter(costs.poll());
                return;
            }
            if (!charged && waitingFor == null && !s.after().isEmpty() && !afterReached(s)) {
                return; // blocked until the other process reaches the step
            }
            if (waitingFor != null && !afterReached(s)) {
                return; // woken, but another step named by "after" is still to be reached
            }
            if (!charged) {
                charged = true;
                long before = costs.before(program.cost(pc));
                if (before > 0) {
                    wakeAfter(before);
                    return;
                }
            }
            if (runner.sim().exploring() && holdCall(s)) {
                return; // the consumer is slower: the call waits (ep.disconnect_order)
            }
            callHoldDecided = false;
            charged = false;
            long after;
            result.clear();
            try {
                after = execute(s);
            } catch (Unbound e) {
                fail(s, e.getMessage());
                after = 0;
            }
            if (after < 0) {
                return; // blocked in a wait
            }
            ended(s);
            pc++;
            if (after > 0) {
                wakeAfter(after);
                return;
            }
        }
        finish();
    }

    /**
     * Explored runs: decides once per step whether an abrupt dat_ep_disconnect waits for some of its endpoint's
     * unfinished operations to complete (ep.disconnect_order), and while it does, whether they have.
     *
     * @return true while the call is held
     */
    private boolean holdCall(Step s) {
        if (callHold != null) {
            if (!callHold.over()) {
                return true;
            }
            dat().watchReports(this::wake, false);
            callHold = null;
            return false;
        }
        if (callHoldDecided || !(s.typed() instanceof ConnectionCall.HandleFlags d)
                || d.kind() != ConnectionCall.Kind.EP_DISCONNECT) {
            return false;
        }
        callHoldDecided = true;
        Object ep;
        int flags;
        try {
            ep = args().handle(d.handle());
            flags = args().flags(d.flags(), org.datsim.fabric.dat.Dat.CLOSE_FLAGS);
        } catch (Unbound e) {
            return false;
        }
        int n = flags == org.datsim.fabric.dat.Dat.CLOSE_ABRUPT_FLAG ? dat().unfinishedRequests(ep) : 0;
        if (n == 0) {
            return false;
        }
        int j = runner.sim().choices().choose(org.datsim.fabric.dat.DatChoices.DISCONNECT_ORDER, n + 1, hostName());
        if (j == 0) {
            return false;
        }
        callHold = dat().untilReported((org.datsim.fabric.dat.Ep) ep, j);
        dat().watchReports(this::wake, true);
        return !callHold.over() || releaseNow();
    }

    /** A hold over as soon as it was made: nothing to wait for. */
    private boolean releaseNow() {
        dat().watchReports(this::wake, false);
        callHold = null;
        return false;
    }

    /**
     * A call step has ended: its expectations are judged against what it observed, and if it has a "name", the
     * processes waiting for it ("after") are woken.
     */
    private void ended(Step s) {
        try {
            Expectations.check(this, s, result);
        } catch (Unbound e) {
            fail(s, e.getMessage());
        }
        String name = s.name();
        if (name != null && reached.add(name)) {
            List<ConsumerProcess> w = waiters.remove(name);
            if (w != null) {
                w.forEach(ConsumerProcess::wake);
            }
        }
    }

    /** Executes the begin or end of a repeat block; takes no simulated time. */
    private void repeatStep(Step s) {
        if (s.kind() == Step.REPEAT_BEGIN) {
            long n = Long.MAX_VALUE; // a block with only a time bound has no count
            if (s.repeat().node() != null) {
                try {
                    n = args.number(s.repeat().node(), s.repeat().path());
                } catch (Unbound | ArithmeticException e) {
                    fail(s, e.getMessage());
                    n = 0;
                }
            }
            if (n <= 0 || s.forPs() == 0) {
                pc = s.partner() + 1;
                return;
            }
            long now = sim().now();
            // frame: first step, iterations done, count, end of the last iteration, time bound (or none)
            loops.push(new long[] {pc, 0, n, now, s.forPs() < 0 ? Long.MAX_VALUE : now + s.forPs()});
            if (s.loopVar() != null) {
                args.loopVar(s.loopVar(), 0L);
            }
            iterationChanged();
            pc++;
            return;
        }
        long[] frame = loops.peek();
        frame[1]++;
        long now = sim().now();
        runner.repeatIteration(name(), def.steps().get((int) frame[0]), def.steps(), now - frame[3]);
        frame[3] = now;
        if (frame[1] < frame[2] && now < frame[4]) { // an iteration begins only before the time bound
            if (s.loopVar() != null) {
                args.loopVar(s.loopVar(), frame[1]);
            }
            pc = (int) frame[0] + 1;
        } else {
            loops.pop();
            if (s.loopVar() != null) {
                args.endLoop(s.loopVar());
            }
            pc++;
        }
        iterationChanged();
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call, or -1 if it blocked
     */
    private long execute(Step s) {
        Program.Family family = program.family(pc);
        if (family == null) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        String kind = s.spec().outKind();
        if (kind != null && OBJECT_KINDS.contains(kind) && s.out() != null) {
            host.nameNextObject(args.outName(s)); // the object created is named as the scenario binds it
            try {
                return executeFamily(family, s);
            } finally {
                host.nameNextObject(null);
            }
        }
        return executeFamily(family, s);
    }

    private long executeFamily(Program.Family family, Step s) {
        switch (family) {
            case OBJECTS:
                return ObjectCalls.execute(this, s);
            case QUERIES:
                return QueryCalls.execute(this, s);
            case CONNECTIONS:
                return ConnectionCalls.execute(this, s);
            case DTO:
                return DtoCalls.execute(this, s);
            case EVENTS:
                return EventCalls.execute(this, s);
            default:
                return CpuCalls.execute(this, s);
        }
    }
}
