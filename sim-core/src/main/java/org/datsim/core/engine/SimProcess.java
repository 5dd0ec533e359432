package org.datsim.core.engine;

/**
 * A consumer that blocks in simulated time without an operating-system thread: a state machine
 * whose {@link #resume()} method the engine calls whenever the process should make progress.
 *
 * <p>A subclass keeps its own state in fields. Each call of {@code resume()} runs until the process
 * must wait, arranges a wake-up (a timer with {@link #wakeAfter(long)}, or registration with some
 * model object that will call {@link #wake()} later), and returns; or it calls {@link #finish()}.
 *
 * <p><b>Resumes are hints, not promises.</b> A resume may happen for more than one reason: a timer
 * may fire after the awaited condition was met by an event, and several events may each call
 * {@code wake()}. Implementations must therefore re-check the condition they are waiting for each
 * time {@code resume()} is called, and cancel timers they no longer need ({@link
 * #cancelWake(long)}), typically:
 *
 * <pre>{@code
 * protected void resume() {
 *   while (queue.isEmpty()) {
 *     if (deadline <= sim().now()) { timedOut(); return; }
 *     if (timer == 0) timer = wakeAfter(deadline - sim().now());
 *     return; // queue.put(...) calls wake()
 *   }
 *   ...
 * }
 * }</pre>
 *
 * <p>Costs: every wake-up is one simulator event, allocation-free (each process owns a single
 * handler object created in its constructor).
 */
public abstract class SimProcess {

    private static final long KIND_TIMER = 0;
    private static final long KIND_WAKE = 1;

    private final Simulator sim;
    private final String name;
    private final EventHandler dispatcher = this::dispatch;
    private boolean started;
    private boolean finished;
    /** Id of the pending wake() event, 0 if none. */
    private long wakeId;

    /**
     * Creates a process; it does nothing until {@link #start(long)} or {@link #wake()} is called.
     *
     * @param sim the simulator that runs the process
     * @param name a name for messages and traces
     * @throws NullPointerException if {@code sim} or {@code name} is null
     */
    protected SimProcess(Simulator sim, String name) {
        if (sim == null || name == null) {
            throw new NullPointerException("a SimProcess needs a simulator and a name");
        }
        this.sim = sim;
        this.name = name;
    }

    /**
     * Returns the name given at construction.
     *
     * @return the name
     */
    public final String name() {
        return name;
    }

    /**
     * Returns the simulator that runs this process.
     *
     * @return the simulator
     */
    public final Simulator sim() {
        return sim;
    }

    /**
     * Schedules the first {@link #resume()} at absolute time {@code atPs}. Costs one scheduled event.
     *
     * @param atPs the start time in picoseconds, {@code >= sim().now()}
     * @throws IllegalStateException if the process was already started or has finished
     * @throws IllegalArgumentException if {@code atPs} is in the past
     */
    public final void start(long atPs) {
        if (started || finished) {
            throw new IllegalStateException(
                    "process " + name + " was already " + (finished ? "finished" : "started"));
        }
        sim.scheduleAt(atPs, dispatcher, KIND_TIMER);
        started = true;
    }

    /**
     * Runs the process until it blocks or finishes. Called by the engine only: at the start time, when
     * a timer from {@link #wakeAfter(long)} fires and after {@link #wake()}. Never called after
     * {@link #finish()}. A call does not say why it happened; re-check the awaited condition.
     */
    protected abstract void resume();

    /**
     * Schedules {@link #resume()} at the current time, after the events already scheduled for it.
     * Idempotent: if a wake-up requested by this method is already pending, nothing happens, so any
     * number of {@code wake()} calls at one instant cause at most one resume. Does nothing for a
     * finished process. It may be called before {@link #start(long)} (for example by a producer
     * that fills a queue before the consumer starts); the process then simply resumes earlier, and
     * {@code start} may still be called once. Costs O(1) plus, at most once per instant, one
     * scheduled event.
     */
    public final void wake() {
        if (finished) {
            return;
        }
        if (wakeId != 0 && sim.isPending(wakeId)) {
            return;
        }
        wakeId = sim.schedule(0, dispatcher, KIND_WAKE);
    }

    /**
     * Schedules {@link #resume()} after a delay, typically to sleep or to time out. Costs one
     * scheduled event.
     *
     * @param delayPs the delay in picoseconds, {@code >= 0}
     * @return the event id, to be passed to {@link #cancelWake(long)} if the timer becomes unneeded
     * @throws IllegalArgumentException if {@code delayPs < 0}
     */
    protected final long wakeAfter(long delayPs) {
        return sim.schedule(delayPs, dispatcher, KIND_TIMER);
    }

    /**
     * Cancels a timer created by {@link #wakeAfter(long)}. Costs O(1).
     *
     * @param id the id returned by {@code wakeAfter}
     * @return true if the timer was pending and is now cancelled
     */
    protected final boolean cancelWake(long id) {
        return sim.cancel(id);
    }

    /**
     * Marks the process finished: {@link #resume()} will never be called again, even by timers still
     * pending, and {@link #wake()} becomes a no-op. Cancels a pending {@code wake()} event. Costs
     * O(1).
     */
    protected final void finish() {
        finished = true;
        if (wakeId != 0) {
            sim.cancel(wakeId);
            wakeId = 0;
        }
    }

    /**
     * Tells whether {@link #finish()} has been called.
     *
     * @return true if the process has finished
     */
    public final boolean isFinished() {
        return finished;
    }

    private void dispatch(long kind) {
        if (kind == KIND_WAKE) {
            wakeId = 0;
        }
        if (finished) {
            return;
        }
        resume();
    }

    /**
     * Returns a short description for debugging.
     *
     * @return the class name and the process name
     */
    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + name + (finished ? ", finished" : "") + "]";
    }
}
