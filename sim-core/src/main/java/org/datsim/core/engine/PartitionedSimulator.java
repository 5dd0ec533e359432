package org.datsim.core.engine;

import java.util.Arrays;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import org.datsim.core.time.SimTime;

/**
 * A conservative parallel simulator: the owners (logical processes) of a simulation split over P partitions, each a
 * {@link Simulator} with its own event list and clock, run by T worker threads in windows, with the same answer
 * whatever P and T, and the same as one {@link Simulator#Simulator(int) Simulator with owners}.
 *
 * <h2>Windows and lookahead</h2>
 *
 * The lookahead L, declared at construction, is the smallest delay of an event sent from one partition to another
 * (a send below it throws). A window starts at T0, the earliest pending event over all partitions and mailboxes, and
 * covers [T0, T0 + L - 1]: an event executed in it can reach another partition no earlier than T0 + L, so each
 * partition runs its window alone, in its own key order, and never receives an event in its past. Events for another
 * partition wait in the mailbox of their (source, destination) pair and are queued in the destination at the window
 * boundary; the mailboxes alternate between even and odd windows, so a destination empties the last window's while
 * its sources fill the current one's. One barrier per window: each thread publishes the earliest time of its
 * partitions and of their outgoing mailboxes, the last to arrive computes the next window.
 *
 * <h2>Why the answer does not depend on P or T</h2>
 *
 * Events of equal time run in the order of their {@linkplain EventKeys keys}, which name the source owner and its
 * count, never the partition; a keyed event list takes them in that order whatever order they were queued in
 * (mailboxes included). A partition never receives an event in its past, so it runs its owners' events in exactly
 * the order a single {@code Simulator(owners)} runs them; each owner's key counter, random streams and state advance
 * identically, and so does every owner's output. What the models must do for this to hold: keep each owner's state
 * (and random streams) its own, touched only by its events; schedule with {@link Simulator#send} on the {@link
 * #simulatorOf(int) Simulator of the owner} that executes. The trace, statistics and counters shared across owners
 * must be split per partition and merged in a fixed order (a later stage for the fabric models).
 *
 * <h2>Set-up, runs and limits</h2>
 *
 * Between runs, set-up code (owner 0) schedules on any partition's simulator or with {@link #sendAt}; events for
 * other partitions are queued there at once. {@link #run()} and {@link #runUntil(long)} end when no event remains or
 * the next is past the bound; a handler's {@link Simulator#stop()} ends the run at the end of the window (the windows
 * are the same whatever P and T: each starts at the earliest pending event). Event and time limits of the partitions' simulators do not apply. An exception thrown by a
 * handler ends the run at the end of the window and is rethrown by the run method (that of the lowest-numbered
 * thread if several threw). Not reentrant; call the run methods from one thread.
 */
public final class PartitionedSimulator {

    private final Simulator[] parts;
    private final int[] partitionOf;
    private final long lookaheadPs;
    private final int threads;
    /** The partitions each thread runs: partition q by thread q % threads. */
    private final int[][] partitionsOfThread;
    /** Mailboxes [parity][from * P + to]: parity w & 1 is filled in window w and emptied in window w + 1. */
    private final Mailbox[][] boxes;
    /** Per partition, told at the start of each window in the partition's thread (null: none). */
    private final WindowListener[] listeners;
    /** Run once at the end of every window, by one thread, after every partition has run it (null: none). */
    private Runnable windowEndAction;
    /** Set by the window-end action ({@link #stopAfterWindow}): the run ends at the end of this window. */
    private boolean actionStopped;

    // Written by the thread that calls a run method, or by the barrier action; read by the workers after the barrier.
    private boolean inRun;
    private long window;
    private long bound;
    private long stopAt;
    private boolean done;

    // One slot per thread (or partition), written by its thread during the window, read by the barrier action.
    private final long[] threadMin;
    private final long[] threadEvents;
    private final long[] threadWait;
    private final Throwable[] threadFailure;
    private final boolean[] threadStopped;
    private final long[] crossSent; // per partition, spaced 8 apart

    /** A deliberately wrong delivery for tests (see {@link Mailbox#drainForTest}); 0 in every real run. */
    int deliveryFaultForTest;

    /** The event limit ({@link #setMaxEvents}), checked at window ends; whether the last run reached it. */
    private long maxEvents = Long.MAX_VALUE;
    private boolean eventLimitHit;

    // Totals, written by the barrier action.
    private long windows;
    private long events;
    private long maxWindowEvents;

    /**
     * Creates the partitions, all with the clock at 0 and no event.
     *
     * @param partitionOf the partition of each owner (its length is the number of owners), each in 0 to partitions - 1
     * @param partitions the number of partitions P, {@code >= 1}
     * @param lookaheadPs the lookahead L in picoseconds, {@code >= 1}: every event sent across partitions during a run
     *     has at least this delay
     * @param threads the number of worker threads T, 1 to P (the caller's thread is one of them)
     * @throws IllegalArgumentException if an argument is out of range
     */
    public PartitionedSimulator(int[] partitionOf, int partitions, long lookaheadPs, int threads) {
        if (partitions < 1) {
            throw new IllegalArgumentException("a partitioned simulator needs at least one partition, found " + partitions);
        }
        if (threads < 1 || threads > partitions) {
            throw new IllegalArgumentException("the threads must be 1 to the number of partitions (" + partitions
                    + "), found " + threads);
        }
        if (lookaheadPs < 1) {
            throw new IllegalArgumentException("the lookahead must be at least 1 ps, found " + lookaheadPs + " ps");
        }
        this.partitionOf = partitionOf.clone();
        for (int o = 0; o < this.partitionOf.length; o++) {
            int p = this.partitionOf[o];
            if (p < 0 || p >= partitions) {
                throw new IllegalArgumentException("owner " + o + " is mapped to partition " + p
                        + ", not one of 0 to " + (partitions - 1));
            }
        }
        this.lookaheadPs = lookaheadPs;
        this.threads = threads;
        EventKeys keys = EventKeys.spaced(this.partitionOf.length);
        CrossPartition outbox = this::post;
        parts = new Simulator[partitions];
        for (int p = 0; p < partitions; p++) {
            parts[p] = new Simulator(keys, this.partitionOf, p, outbox);
        }
        partitionsOfThread = new int[threads][];
        for (int w = 0; w < threads; w++) {
            partitionsOfThread[w] = new int[(partitions - w + threads - 1) / threads];
            for (int i = 0; i < partitionsOfThread[w].length; i++) {
                partitionsOfThread[w][i] = w + i * threads;
            }
        }
        boxes = new Mailbox[2][partitions * partitions];
        for (Mailbox[] side : boxes) {
            for (int i = 0; i < side.length; i++) {
                side[i] = new Mailbox();
            }
        }
        listeners = new WindowListener[partitions];
        threadMin = new long[threads];
        threadEvents = new long[threads];
        threadWait = new long[threads];
        threadFailure = new Throwable[threads];
        threadStopped = new boolean[threads];
        crossSent = new long[partitions << 3];
    }

    /**
     * Maps owners to partitions in contiguous blocks of (nearly) equal size: owner o to partition o * P / owners.
     *
     * @param owners the number of owners, {@code >= 1}
     * @param partitions the number of partitions, 1 to owners
     * @return the partition of each owner
     * @throws IllegalArgumentException if there are fewer owners than partitions
     */
    public static int[] blocks(int owners, int partitions) {
        if (owners < 1 || partitions < 1 || partitions > owners) {
            throw new IllegalArgumentException("cannot split " + owners + " owners into " + partitions + " partitions");
        }
        int[] map = new int[owners];
        for (int o = 0; o < owners; o++) {
            map[o] = (int) ((long) o * partitions / owners);
        }
        return map;
    }

    /** Returns the number of partitions. */
    public int partitions() {
        return parts.length;
    }

    /** Returns the number of worker threads. */
    public int threads() {
        return threads;
    }

    /** Returns the number of owners. */
    public int owners() {
        return partitionOf.length;
    }

    /** Returns the lookahead in picoseconds. */
    public long lookaheadPs() {
        return lookaheadPs;
    }

    /**
     * Returns the partition of an owner.
     *
     * @param owner an owner
     * @return its partition
     */
    public int partitionOf(int owner) {
        return partitionOf[owner];
    }

    /**
     * Returns the simulator of a partition: its clock, its scheduling methods.
     *
     * @param partition a partition, 0 to partitions() - 1
     * @return its simulator
     */
    public Simulator partition(int partition) {
        return parts[partition];
    }

    /**
     * Returns the simulator of an owner's partition: the one an owner's events run on, and the one the model code of
     * that owner schedules with.
     *
     * @param owner an owner
     * @return its partition's simulator
     */
    public Simulator simulatorOf(int owner) {
        return parts[partitionOf[owner]];
    }

    /**
     * Set-up: schedules an event of {@code owner} at {@code timePs}, keyed as owner 0's (the set-up owner), in the
     * owner's partition.
     *
     * @param owner the owner of the event
     * @param timePs its time, not before the clock
     * @param h its handler
     * @param arg its argument
     * @return the event id in the owner's partition
     * @throws IllegalStateException during a run
     */
    public long sendAt(int owner, long timePs, EventHandler h, long arg) {
        if (inRun) {
            throw new IllegalStateException("sendAt is for set-up; during a run, send from the executing owner's simulator");
        }
        return simulatorOf(owner).sendAt(owner, timePs, h, arg);
    }

    /**
     * Sets what is told when a window starts in a partition ({@link WindowListener}), in that partition's thread,
     * before the partition takes the events sent to it. Set-up only.
     *
     * @param partition the partition, 0 to {@link #partitions()} - 1
     * @param listener the listener, or null for none
     * @throws IllegalStateException during a run
     */
    public void setWindowListener(int partition, WindowListener listener) {
        if (inRun) {
            throw new IllegalStateException("window listeners are set before a run");
        }
        listeners[partition] = listener;
    }

    /**
     * Sets what runs at the end of every window (the barrier action, or the one thread's step between windows): by
     * one thread at a time, after every partition has run the window and before any runs the next, so it may read
     * what the partitions wrote in the window. It may call {@link #stopAfterWindow}. Set-up only.
     *
     * @param action the action, or null for none
     * @throws IllegalStateException during a run
     */
    public void setWindowEndAction(Runnable action) {
        if (inRun) {
            throw new IllegalStateException("the window-end action is set before a run");
        }
        windowEndAction = action;
    }

    /**
     * From the window-end action: ends the run at the end of the window that just ran, with {@link
     * StopReason#STOPPED} (a guard that watches the run's output, for one).
     */
    public void stopAfterWindow() {
        actionStopped = true;
    }

    /** Whether a run is in progress: set-up code runs outside it. */
    public boolean inRun() {
        return inRun;
    }

    /**
     * Sets an event limit: the run ends at the end of the first window after which at least {@code n} events have
     * run in all (since the engine was made), with {@link StopReason#EVENT_LIMIT}. Windows do not depend on the
     * partitions or threads, so neither does where the run stops.
     *
     * @param n the limit, at least 1
     * @throws IllegalArgumentException if {@code n < 1}
     */
    public void setMaxEvents(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("the event limit must be at least 1, found " + n);
        }
        maxEvents = n;
    }

    /**
     * Returns the number of pending events over every partition.
     *
     * @return the events waiting to run
     */
    public long pendingCount() {
        long n = 0;
        for (Simulator s : parts) {
            n += s.pendingCount();
        }
        return n;
    }

    /**
     * Returns the number of events executed over every partition, across runs.
     *
     * @return the events executed
     */
    public long eventsExecuted() {
        long n = 0;
        for (Simulator s : parts) {
            n += s.eventsExecuted();
        }
        return n;
    }

    /**
     * Returns the time of the last event executed in any partition, -1 if none.
     *
     * @return the latest executed event's time in picoseconds
     */
    public long lastEventPs() {
        long t = -1;
        for (Simulator s : parts) {
            t = Math.max(t, s.lastEventPs());
        }
        return t;
    }

    /**
     * Returns the window statistics over every run so far.
     *
     * @return the statistics
     */
    public WindowStats stats() {
        long cross = 0;
        for (int p = 0; p < parts.length; p++) {
            cross += crossSent[p << 3];
        }
        long[] byPartition = new long[parts.length];
        for (int p = 0; p < parts.length; p++) {
            byPartition[p] = parts[p].eventsExecuted();
        }
        return new WindowStats(parts.length, threads, windows, events, maxWindowEvents, cross, byPartition,
                threadWait.clone());
    }

    /**
     * Runs until no event remains (or a handler stops the run).
     *
     * @return why and when the run ended; the time is that of the last executed event
     */
    public RunResult run() {
        return runBounded(Long.MAX_VALUE);
    }

    /**
     * Runs every event whose time is {@code <= timePs} (unless a handler stops the run), then advances every
     * partition's clock to {@code timePs}.
     *
     * @param timePs the bound in picoseconds, not before the partitions' clocks
     * @return why and when the run ended
     */
    public RunResult runUntil(long timePs) {
        if (timePs < parts[0].now()) {
            throw new IllegalArgumentException("cannot run until " + SimTime.format(timePs) + ": it is before now ("
                    + SimTime.format(parts[0].now()) + ")");
        }
        return runBounded(timePs);
    }

    private RunResult runBounded(long until) {
        if (inRun) {
            throw new IllegalStateException("the partitioned simulator is already running");
        }
        long before = eventsExecuted();
        stopAt = until;
        done = false;
        Arrays.fill(threadFailure, null);
        Arrays.fill(threadStopped, false);
        eventLimitHit = false;
        actionStopped = false;
        long first = earliest();
        if (first != Long.MAX_VALUE && first <= until) {
            bound = windowEnd(first);
            inRun = true;
            try {
                runWorkers();
            } finally {
                inRun = false;
                for (int i = 0; i < boxes[0].length; i++) { // the last window's sends, past the bound
                    boxes[(int) window & 1][i].drainInto(parts[i % parts.length]);
                }
                window++;
            }
        }
        for (int w = 0; w < threads; w++) {
            Throwable t = threadFailure[w];
            if (t instanceof RuntimeException re) {
                throw re;
            } else if (t instanceof Error e) {
                throw e;
            } else if (t != null) {
                throw new IllegalStateException("a partition's worker failed", t);
            }
        }
        long ran = eventsExecuted() - before;
        if (eventLimitHit) {
            return new RunResult(StopReason.EVENT_LIMIT, lastEventPs(), ran, "stopped after " + events
                    + " events, at the end of the window that reached the event limit of " + maxEvents
                    + "; raise it with --max-events if the run is not runaway");
        }
        if (actionStopped) {
            return new RunResult(StopReason.STOPPED, lastEventPs(), ran,
                    "stopped by the window-end action at the end of the window ending at " + SimTime.format(bound));
        }
        for (boolean s : threadStopped) {
            if (s) {
                return new RunResult(StopReason.STOPPED, lastEventPs(), ran,
                        "stopped by Simulator.stop() at the end of the window ending at " + SimTime.format(bound));
            }
        }
        long next = earliest();
        if (until != Long.MAX_VALUE) {
            for (Simulator s : parts) {
                s.runWindow(until); // executes nothing: advances the clock to the bound
            }
        }
        if (next == Long.MAX_VALUE) {
            return new RunResult(StopReason.NO_EVENTS, until == Long.MAX_VALUE ? lastEventPs() : until, ran,
                    "no events remain");
        }
        return new RunResult(StopReason.UNTIL_TIME, until, ran, "reached the time bound " + SimTime.format(until)
                + " with " + pendingCount() + " events pending (next at " + SimTime.format(next) + ")");
    }

    /** The earliest pending time over every partition (the mailboxes are empty between runs). */
    private long earliest() {
        long t = Long.MAX_VALUE;
        for (Simulator s : parts) {
            t = Math.min(t, s.nextEventTimePs());
        }
        return t;
    }

    private long windowEnd(long start) {
        long end = start > Long.MAX_VALUE - lookaheadPs ? Long.MAX_VALUE : start + lookaheadPs - 1;
        return Math.min(end, stopAt);
    }

    private void runWorkers() {
        if (threads == 1) {
            while (!done) {
                work(0);
                nextWindow();
            }
            return;
        }
        CyclicBarrier barrier = new CyclicBarrier(threads, this::nextWindow);
        Thread[] ts = new Thread[threads - 1];
        for (int w = 1; w < threads; w++) {
            int id = w;
            ts[w - 1] = new Thread(() -> workLoop(id, barrier), "datsim-partition-worker-" + w);
            ts[w - 1].setDaemon(true);
            ts[w - 1].start();
        }
        workLoop(0, barrier);
        for (Thread t : ts) {
            boolean interrupted = false;
            while (true) {
                try {
                    t.join();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void workLoop(int w, CyclicBarrier barrier) {
        while (!done) {
            work(w);
            long t0 = System.nanoTime();
            try {
                barrier.await();
            } catch (InterruptedException | BrokenBarrierException e) {
                if (threadFailure[w] == null) {
                    threadFailure[w] = e;
                }
                done = true; // the barrier is broken: no further window can be agreed
                barrier.reset();
                return;
            } finally {
                threadWait[w] += System.nanoTime() - t0;
            }
        }
    }

    /**
     * One window of one thread: queues the events its partitions received in the last window, runs them to the
     * bound, and publishes the earliest time left in them and in the mailboxes they filled.
     */
    private void work(int w) {
        int prev = (int) (window & 1) ^ 1;
        int cur = prev ^ 1;
        int np = parts.length;
        Mailbox[] in = boxes[prev];
        Mailbox[] out = boxes[cur];
        long ran = 0;
        long min = Long.MAX_VALUE;
        try {
            for (int q : partitionsOfThread[w]) {
                Simulator s = parts[q];
                WindowListener l = listeners[q];
                if (l != null) {
                    l.windowStarting(window);
                }
                for (int p = 0; p < np; p++) {
                    if (deliveryFaultForTest == 0) {
                        in[p * np + q].drainInto(s);
                    } else {
                        in[p * np + q].drainForTest(s, deliveryFaultForTest, (1L << 62) | ((long) p << 40));
                    }
                }
                ran += s.runWindow(bound);
                if (s.stoppedInWindow()) {
                    threadStopped[w] = true;
                }
                min = Math.min(min, s.nextEventTimePs());
                for (int d = 0; d < np; d++) {
                    min = Math.min(min, out[q * np + d].minTime());
                }
            }
        } catch (Throwable t) {
            threadFailure[w] = t;
        }
        threadMin[w] = min;
        threadEvents[w] = ran;
    }

    /** The barrier action: totals the window and sets the next one, or ends the run. */
    private void nextWindow() {
        long min = Long.MAX_VALUE;
        long ran = 0;
        boolean stop = false;
        if (windowEndAction != null) {
            try {
                windowEndAction.run();
            } catch (Throwable t) {
                if (threadFailure[0] == null) {
                    threadFailure[0] = t;
                }
            }
            stop = actionStopped;
        }
        for (int w = 0; w < threads; w++) {
            min = Math.min(min, threadMin[w]);
            ran += threadEvents[w];
            stop |= threadFailure[w] != null || threadStopped[w];
        }
        windows++;
        events += ran;
        maxWindowEvents = Math.max(maxWindowEvents, ran);
        if (events >= maxEvents) {
            eventLimitHit = true;
            done = true;
            return;
        }
        if (stop || min == Long.MAX_VALUE || min > stopAt) {
            done = true;
            return;
        }
        window++;
        bound = windowEnd(min);
    }

    /** Takes an event for another partition: queued there at once during set-up, held in a mailbox during a run. */
    private void post(int from, int fromOwner, int dst, long timePs, long delayPs, long key, EventHandler h, long arg,
            Object ref) {
        int to = partitionOf[dst];
        if (!inRun) {
            if (ref != null) {
                ((Carrier) h).carry(arg, ref);
            }
            parts[to].deliver(timePs, key, dst, h, arg);
            return;
        }
        if (delayPs < lookaheadPs) {
            throw new IllegalArgumentException("owner " + fromOwner + " (partition " + from + ") sent an event to owner "
                    + dst + " (partition " + to + ") with a delay of " + delayPs + " ps, below the lookahead of "
                    + lookaheadPs + " ps declared to the PartitionedSimulator: declare the smallest delay of any event"
                    + " sent across partitions, or put both owners in one partition");
        }
        boxes[(int) window & 1][from * parts.length + to].add(timePs, key, dst, h, arg, ref);
        crossSent[from << 3]++;
    }
}
