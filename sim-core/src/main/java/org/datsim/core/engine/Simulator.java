package org.datsim.core.engine;

import java.util.function.BooleanSupplier;
import org.datsim.core.time.SimTime;

/**
 * A single-threaded discrete-event simulator: a clock in picoseconds, the scheduling API, and the run loop with its
 * guards, around an event list ({@link CalendarQueue}) that holds the pending events.
 *
 * <h2>Ordering contract</h2>
 *
 * Events run in increasing order of time; events with the same time run in the order in which they
 * were scheduled (first scheduled, first run), including events scheduled for the current time by
 * the event that is running, which run after every event already scheduled for that time. Given the
 * same sequence of calls, a simulator therefore executes exactly the same event sequence on every
 * run and every machine.
 *
 * <h2>Owners</h2>
 *
 * A simulator created with owners ({@link #Simulator(int)}) gives every event an owner, the logical process it runs
 * as ({@link #owner()}), and orders events of equal time by the key {@link EventKeys} describes: (the owner of the
 * event that scheduled it, that owner's count of events scheduled), set-up code outside any event counting as owner
 * 0. {@link #schedule(long, EventHandler, long)} gives the new event the owner of the event that executes; {@link
 * #send(int, long, EventHandler, long)} names its owner. The order then does not depend on which event list queued
 * an event, which is what lets {@link PartitionedSimulator} split the owners over partitions and threads and still
 * run every owner's events in exactly this simulator's order. When every event is owner 0's, the order is the one
 * above; otherwise an event scheduled for the current time runs before the pending events of that time whose
 * scheduling owner has a larger id.
 *
 * <h2>Event ids</h2>
 *
 * Every scheduling call returns an event id, a positive {@code long} that is never reused by the
 * same simulator and that increases with scheduling order (ids are not necessarily consecutive).
 * The id can be passed to {@link #cancel(long)} and {@link #isPending(long)}.
 *
 * <h2>Costs</h2>
 *
 * Those of the event list, a calendar queue with a far heap (see {@link CalendarQueue} for the structure and its
 * bounds): scheduling, dispatch, {@link #cancel(long)} and {@link #isPending(long)} are amortised O(1) for the usual
 * distributions of event times and allocate nothing in steady state; about 72 bytes per pending event; at most
 * 2^27 pending events. The {@link Runnable} conveniences allocate one small adapter object per call.
 * Events are dispatched in exactly the same order as by a binary heap ordered by (time, id). On the
 * 2-core development VM, the PHOLD benchmark ({@link org.datsim.core.bench.Phold}) runs markedly
 * faster on this engine than on a {@link java.util.PriorityQueue} of event objects.
 *
 * <h2>Runs and guards</h2>
 *
 * {@link #run()}, {@link #runUntil(long)} and {@link #runWhile(BooleanSupplier)} execute events and
 * return a {@link RunResult} saying why they stopped. The event limit ({@link #setMaxEvents(long)})
 * and the time limit ({@link #setMaxTimePs(long)}) end a run with {@link StopReason#EVENT_LIMIT} or
 * {@link StopReason#TIME_LIMIT} and an explanatory message instead of throwing. Runs may be resumed
 * by calling a run method again. Run methods are not reentrant. Exceptions thrown by handlers
 * propagate unchanged; the event that threw counts as executed and the simulator stays usable.
 *
 * <p>This class is not thread-safe.
 */
public final class Simulator {

    private long now;

    /*
     * The pending events. A final field of the final class, called directly: the run loop's calls into it are
     * monomorphic and inlined (the EventList interface is for readers and tests, not for dispatch).
     */
    private final CalendarQueue events;

    /** The key counters of a simulator with owners; null without (ties then go by scheduling order). */
    private final EventKeys keys;

    /** Whether the simulator has owners (keys != null): the one field the run loop checks per event. */
    private final boolean keyed;

    /** The owner of the executing event; 0 outside events (set-up code runs as owner 0). */
    private int owner;

    /** In a partition's window ({@link #runWindow}), the key of the executing event; 0 outside. */
    private long currentKey;

    /** Whether {@link #runWindow} keeps {@link #currentKey} (a trace reads it): a store per event otherwise saved. */
    private boolean keepKey;

    /*
     * In a partition of a PartitionedSimulator: the partition of each owner, this partition's index, and where events
     * owned by other partitions go. partitionOf is null otherwise.
     */
    private final int[] partitionOf;
    private final int partition;
    private final CrossPartition outbox;

    private long executed;
    private long maxEvents = Long.MAX_VALUE;
    private long maxTimePs = Long.MAX_VALUE;
    private boolean running;
    private boolean stopRequested;
    private boolean windowStopped;
    private long lastEventPs = -1;

    /** What models consult where the rules allow more than one order (the timing model's choice by default). */
    private org.datsim.core.choice.ChoiceSource choices = org.datsim.core.choice.ChoiceSource.TIMING;
    /** Whether {@link #choices} explores: the one field a model's choice point checks on its path. */
    private boolean exploring;

    /** Creates a simulator with the clock at 0 and no pending events. */
    public Simulator() {
        this(null, null, 0, null);
    }

    /**
     * Creates a simulator with owners 0 to {@code owners - 1} (see the class comment): events of equal time run in the
     * order of their keys. With every event owner 0's, the order is the one of {@link #Simulator()}.
     *
     * @param owners the number of owners, 1 to {@link EventKeys#MAX_OWNERS}
     * @throws IllegalArgumentException if {@code owners} is out of range
     */
    public Simulator(int owners) {
        this(EventKeys.of(owners), null, 0, null);
    }

    /** A partition of a {@link PartitionedSimulator} (keys and partitionOf shared with its other partitions). */
    Simulator(EventKeys keys, int[] partitionOf, int partition, CrossPartition outbox) {
        this.keys = keys;
        this.keyed = keys != null;
        this.events = keys == null ? new CalendarQueue(this::now) : CalendarQueue.keyed(this::now);
        this.partitionOf = partitionOf;
        this.partition = partition;
        this.outbox = outbox;
    }

    /** Returns the owner of the executing event (the logical process the running code acts as); 0 outside events. */
    public int owner() {
        return owner;
    }

    /** Returns the number of owners given at construction; 0 for a simulator without owners. */
    public int owners() {
        return keyed ? keys.owners() : 0;
    }

    /**
     * Schedules {@code h.handle(arg)} to run {@code delayPs} after the current time as {@code dst}: the event is
     * {@code dst}'s, keyed as scheduled by the executing event's owner. In a partition of a {@link
     * PartitionedSimulator}, an event for an owner of another partition is held until the window boundary and
     * delivered there; its delay must then be at least the lookahead. Allocation-free in steady state.
     *
     * @param dst the owner of the new event; 0 in a simulator without owners
     * @param delayPs the delay in picoseconds, {@code >= 0}
     * @param h the handler to call
     * @param arg the argument passed to the handler
     * @return the event id, {@code > 0}; 0 for an event sent to another partition (it cannot be cancelled)
     * @throws IllegalArgumentException if {@code delayPs < 0}, if {@code dst} is not an owner, or if the event
     *     crosses partitions with a delay below the lookahead
     */
    public long send(int dst, long delayPs, EventHandler h, long arg) {
        if (delayPs < 0) {
            throw new IllegalArgumentException("cannot schedule an event with a negative delay (" + delayPs + " ps)");
        }
        return sendAt(dst, Math.addExact(now, delayPs), h, arg);
    }

    /**
     * Schedules {@code h.handle(arg)} to run at absolute time {@code timePs} as {@code dst}; see {@link
     * #send(int, long, EventHandler, long)}.
     *
     * @param dst the owner of the new event; 0 in a simulator without owners
     * @param timePs the time in picoseconds, {@code >= now()}
     * @param h the handler to call
     * @param arg the argument passed to the handler
     * @return the event id, {@code > 0}; 0 for an event sent to another partition
     * @throws IllegalArgumentException as {@link #send(int, long, EventHandler, long)}, or if {@code timePs < now()}
     */
    public long sendAt(int dst, long timePs, EventHandler h, long arg) {
        if (!keyed) {
            checkUnowned(dst);
            return scheduleAt(timePs, h, arg);
        }
        checkOwner(dst);
        if (timePs < now) {
            throw new IllegalArgumentException(pastMessage(timePs));
        }
        return insertOwned(dst, timePs, h, arg);
    }

    /** Queues an event of owner dst keyed by the executing owner, here or in dst's partition. */
    private long insertOwned(int dst, long time, EventHandler h, long arg) {
        if (h == null) {
            throw new NullPointerException("the EventHandler to schedule is null");
        }
        return queueKeyed(dst, time, h, arg, keys.next(owner), null);
    }

    /**
     * Queues a checked, keyed event of owner dst: in this partition's list (its carried object, if any, given to its
     * carrier first), or in the mailbox to dst's partition.
     */
    private long queueKeyed(int dst, long time, EventHandler h, long arg, long key, Object ref) {
        int[] po = partitionOf;
        if (po != null && po[dst] != partition) {
            outbox.post(partition, owner, dst, time, time - now, key, h, arg, ref);
            return 0;
        }
        if (ref != null) {
            ((Carrier) h).carry(arg, ref);
        }
        return events.insertKeyed(time, h, arg, key, dst);
    }

    /**
     * Takes the executing owner's next key now, for an event that will be sent later with {@link #sendKeyed} or {@link
     * #sendCarried}: the event then stands, among events of equal time, where an event scheduled at this instant
     * would. A model uses it when an event it decides on now can only be sent later, such as a packet's arrival at a
     * node of another partition, handed over once the packet can no longer be taken back. Without owners, returns 0.
     *
     * @return the key
     */
    public long takeKey() {
        return keyed ? keys.next(owner) : 0;
    }

    /**
     * Schedules {@code h.handle(arg)} at {@code timePs} as {@code dst} with a key taken earlier by {@link #takeKey} in
     * this partition (by the executing owner or another of the partition's owners). Otherwise as {@link #sendAt}.
     * Without owners, the same as {@link #scheduleAt} (the key is ignored).
     *
     * @param dst the owner of the new event
     * @param timePs the time in picoseconds, {@code >= now()}
     * @param h the handler
     * @param arg the argument
     * @param key a key from {@link #takeKey}, used once
     * @return the event id; 0 for an event sent to another partition
     * @throws IllegalArgumentException as {@link #sendAt}, or if the key's owner is not of this partition
     */
    public long sendKeyed(int dst, long timePs, EventHandler h, long arg, long key) {
        if (!keyed) {
            checkUnowned(dst);
            return scheduleAt(timePs, h, arg);
        }
        checkKeyed(dst, timePs, h, key);
        return queueKeyed(dst, timePs, h, arg, key, null);
    }

    /**
     * Schedules {@code h.handle(arg)} at {@code timePs} as {@code dst}, carrying {@code ref} to it: {@link
     * Carrier#carry} receives it in {@code dst}'s partition before the event can run (at once in this partition, at
     * the start of the next window in another). The sender must not touch {@code ref} after. With {@code key} from
     * {@link #takeKey}, or -1 for the executing owner's next key. Without owners, carries at once and schedules as
     * {@link #scheduleAt}.
     *
     * @param dst the owner of the new event
     * @param timePs the time in picoseconds, {@code >= now()}
     * @param h the carrier, which is also the event's handler
     * @param arg the argument
     * @param ref the object carried, not null
     * @param key a key from {@link #takeKey}, or -1
     * @return the event id; 0 for an event sent to another partition
     * @throws IllegalArgumentException as {@link #sendKeyed}
     */
    public long sendCarried(int dst, long timePs, Carrier h, long arg, Object ref, long key) {
        java.util.Objects.requireNonNull(ref, "ref");
        if (!keyed) {
            checkUnowned(dst);
            if (timePs < now) {
                throw new IllegalArgumentException(pastMessage(timePs));
            }
            h.carry(arg, ref);
            return events.insert(timePs, h, arg);
        }
        long k = key == -1 ? keys.next(owner) : key;
        checkKeyed(dst, timePs, h, k);
        return queueKeyed(dst, timePs, h, arg, k, ref);
    }

    private void checkUnowned(int dst) {
        if (dst != 0) {
            throw new IllegalArgumentException("owner " + dst + " does not exist: this simulator has no owners"
                    + " (create it with new Simulator(owners))");
        }
    }

    /** Checks that a simulator with owners has owner {@code o}. */
    private void checkOwner(int o) {
        if (o < 0 || o >= keys.owners()) {
            throw new IllegalArgumentException("owner " + o + " does not exist: the owners are 0 to "
                    + (keys.owners() - 1));
        }
    }

    private void checkKeyed(int dst, long timePs, EventHandler h, long key) {
        if (h == null) {
            throw new NullPointerException("the EventHandler to schedule is null");
        }
        checkOwner(dst);
        if (timePs < now) {
            throw new IllegalArgumentException(pastMessage(timePs));
        }
        int from = EventKeys.ownerOf(key);
        if (key < 0 || from >= keys.owners() || partitionOf != null && partitionOf[from] != partition) {
            throw new IllegalArgumentException("key " + key + " was not taken in this partition (its owner is " + from
                    + "): take it with takeKey() in the partition that sends");
        }
    }

    /**
     * Makes set-up code (outside any run) act as {@code owner}: the events it schedules are {@code owner}'s, keyed by
     * {@code owner}'s counter, as if one of its events had scheduled them. A fabric builds each node's initial events
     * this way, so that they do not depend on how owners are grouped into partitions. Runs reset it to 0 at their end.
     *
     * @param owner the owner, 0 to {@link #owners()} - 1 (0 only without owners)
     * @throws IllegalStateException during a run
     * @throws IllegalArgumentException if {@code owner} is not an owner
     */
    public void setUpAs(int owner) {
        if (running) {
            throw new IllegalStateException("setUpAs is for set-up code; during a run the executing event's owner acts");
        }
        if (!keyed) {
            checkUnowned(owner);
            return;
        }
        checkOwner(owner);
        this.owner = owner;
    }

    /** Queues an event delivered from another partition, with the key and owner it was sent with. */
    void deliver(long time, long key, int dst, EventHandler h, long arg) {
        events.insertKeyed(time, h, arg, key, dst);
    }

    /**
     * Sets what the models consult at their choice points; {@link org.datsim.core.choice.ChoiceSource#TIMING} (the
     * default) keeps every run exactly as the timing model makes it.
     *
     * @param choices the choice source
     */
    public void setChoices(org.datsim.core.choice.ChoiceSource choices) {
        this.choices = java.util.Objects.requireNonNull(choices, "choices");
        this.exploring = choices.exploring();
    }

    /** Returns the choice source the models consult. */
    public org.datsim.core.choice.ChoiceSource choices() {
        return choices;
    }

    /**
     * Returns whether the choice source explores (models check this before describing a choice point).
     *
     * @return true unless the choices are the timing model's
     */
    public boolean exploring() {
        return exploring;
    }


    /**
     * Returns the current simulated time: the time of the event being executed, or after a run the
     * time at which it ended. Costs a field read.
     *
     * @return the current time in picoseconds
     */
    public long now() {
        return now;
    }

    /**
     * Schedules {@code h.handle(arg)} to run {@code delayPs} after the current time. Allocation-free
     * in steady state; amortised O(1).
     *
     * @param delayPs the delay in picoseconds, {@code >= 0} (0 runs the event at the current time,
     *     after the events already scheduled for it)
     * @param h the handler to call
     * @param arg the argument passed to the handler
     * @return the event id, {@code > 0}
     * @throws IllegalArgumentException if {@code delayPs < 0}
     * @throws ArithmeticException if {@code now() + delayPs} overflows
     * @throws NullPointerException if {@code h} is null
     */
    public long schedule(long delayPs, EventHandler h, long arg) {
        if (delayPs < 0) {
            throw new IllegalArgumentException(
                    "cannot schedule an event with a negative delay (" + delayPs + " ps)");
        }
        return insert(Math.addExact(now, delayPs), h, arg);
    }

    /**
     * Schedules {@code h.handle(arg)} to run at absolute time {@code timePs}. Allocation-free in
     * steady state; amortised O(1).
     *
     * @param timePs the time in picoseconds, {@code >= now()}
     * @param h the handler to call
     * @param arg the argument passed to the handler
     * @return the event id, {@code > 0}
     * @throws IllegalArgumentException if {@code timePs < now()}
     * @throws NullPointerException if {@code h} is null
     */
    public long scheduleAt(long timePs, EventHandler h, long arg) {
        if (timePs < now) {
            throw new IllegalArgumentException(pastMessage(timePs));
        }
        return insert(timePs, h, arg);
    }

    private String pastMessage(long timePs) {
        return "cannot schedule an event in the past: time " + timePs + " ps (" + SimTime.format(timePs)
                + ") is before now " + now + " ps (" + SimTime.format(now) + ")";
    }

    /**
     * Schedules {@code r.run()} to run {@code delayPs} after the current time. Allocates one small
     * adapter; prefer {@link #schedule(long, EventHandler, long)} on hot paths.
     *
     * @param delayPs the delay in picoseconds, {@code >= 0}
     * @param r the action to run
     * @return the event id, {@code > 0}
     * @throws IllegalArgumentException if {@code delayPs < 0}
     * @throws NullPointerException if {@code r} is null
     */
    public long schedule(long delayPs, Runnable r) {
        return schedule(delayPs, adapt(r), 0L);
    }

    /**
     * Schedules {@code r.run()} to run at absolute time {@code timePs}. Allocates one small adapter;
     * prefer {@link #scheduleAt(long, EventHandler, long)} on hot paths.
     *
     * @param timePs the time in picoseconds, {@code >= now()}
     * @param r the action to run
     * @return the event id, {@code > 0}
     * @throws IllegalArgumentException if {@code timePs < now()}
     * @throws NullPointerException if {@code r} is null
     */
    public long scheduleAt(long timePs, Runnable r) {
        return scheduleAt(timePs, adapt(r), 0L);
    }

    /**
     * Schedules the event now being executed again, at {@code timePs}, keeping its place among events of equal
     * time: it runs after the events scheduled before it was first scheduled and before those scheduled after. So a
     * chain of occurrences, each scheduling the next this way, runs exactly as if all had been scheduled at once
     * when the first was, while only one is queued at a time (a model that knows a series of future instants up
     * front uses this to hold one event instead of one per instant). Call it from the event's own handler, at most
     * once per execution. Allocation-free in steady state; amortised O(1).
     *
     * @param timePs the time in picoseconds, {@code >= now()}
     * @param h the handler to call (usually the event's own)
     * @param arg the argument passed to the handler
     * @return the event id (the executing event's)
     * @throws IllegalArgumentException if {@code timePs < now()}
     * @throws IllegalStateException outside a handler, or if the executing event was already scheduled again
     */
    public long scheduleAgainAt(long timePs, EventHandler h, long arg) {
        if (timePs < now) {
            throw new IllegalArgumentException("cannot schedule an event in the past: time " + timePs
                    + " ps is before now " + now + " ps");
        }
        if (!running) {
            throw new IllegalStateException("scheduleAgainAt is for the handler of an executing event");
        }
        return events.reinsertTaken(timePs, h, arg);
    }

    private static EventHandler adapt(Runnable r) {
        if (r == null) {
            throw new NullPointerException("the Runnable to schedule is null");
        }
        return arg -> r.run();
    }
    private long insert(long time, EventHandler h, long arg) {
        if (keyed) {
            return insertOwned(owner, time, h, arg);
        }
        return events.insert(time, h, arg);
    }

    /**
     * Cancels a pending event. Costs O(1): the event is only marked; it is discarded when the
     * calendar reaches it (or when a rebuild runs, O(n), once cancelled events outnumber live ones
     * in a large queue).
     *
     * @param eventId an id returned by a scheduling method
     * @return true if the event was pending and is now cancelled; false if it already ran, was
     *     already cancelled, is the event currently running, or the id is unknown
     */
    public boolean cancel(long eventId) {
        return events.cancel(eventId);
    }

    /**
     * Tells whether an event is still waiting to run. Costs O(1).
     *
     * @param eventId an id returned by a scheduling method
     * @return true if the event has been scheduled, has not run and has not been cancelled (the event
     *     currently running is not pending)
     */
    public boolean isPending(long eventId) {
        return events.isPending(eventId);
    }

    /** The event list (for tests of its memory bounds). */
    CalendarQueue eventList() {
        return events;
    }

    /**
     * Returns the time of the earliest pending event, or {@link Long#MAX_VALUE} if none is pending.
     * Costs amortised O(1) (it may advance the calendar and discard cancelled events).
     *
     * @return the time of the next event in picoseconds, or {@code Long.MAX_VALUE}
     */
    public long nextEventTimePs() {
        return events.peekTime();
    }


    /**
     * Runs events until none remain (or {@link #stop()} is called, or a limit is reached). The clock
     * is left at the time of the last executed event.
     *
     * @return why and when the run ended
     * @throws IllegalStateException if called while a run method is already running
     */
    public RunResult run() {
        return loop(Long.MAX_VALUE, false, null);
    }

    /**
     * Runs every event whose time is {@code <= timePs} (unless stopped earlier), then advances the
     * clock to {@code timePs}. The reason is {@link StopReason#UNTIL_TIME} if events remain after the
     * bound and {@link StopReason#NO_EVENTS} if none remain; in both cases {@code now() == timePs}
     * afterwards. If the run ends early because of {@link #stop()} or a limit, the clock stays at the
     * last executed event.
     *
     * @param timePs the bound in picoseconds, {@code >= now()}
     * @return why and when the run ended
     * @throws IllegalArgumentException if {@code timePs < now()}
     * @throws IllegalStateException if called while a run method is already running
     */
    public RunResult runUntil(long timePs) {
        if (timePs < now) {
            throw new IllegalArgumentException(
                    "cannot run until " + SimTime.format(timePs) + ": it is before now (" + SimTime.format(now) + ")");
        }
        return loop(timePs, true, null);
    }

    /**
     * Runs events while {@code cond} is true: the condition is evaluated before each event, and the
     * run ends with {@link StopReason#STOPPED} as soon as it returns false (the event is not
     * executed). Ends with {@link StopReason#NO_EVENTS} if the queue empties first.
     *
     * @param cond the condition, evaluated once per event (its cost adds to every event)
     * @return why and when the run ended
     * @throws IllegalStateException if called while a run method is already running
     */
    public RunResult runWhile(BooleanSupplier cond) {
        if (cond == null) {
            throw new NullPointerException("the runWhile condition is null");
        }
        return loop(Long.MAX_VALUE, false, cond);
    }

    /**
     * Asks the current run to end after the event that is executing: the run method returns {@link
     * StopReason#STOPPED}. Meant to be called from inside a handler; a call made while no run is in
     * progress has no effect (each run clears the request when it starts). Costs a field write.
     */
    public void stop() {
        if (running) {
            stopRequested = true;
        }
    }

    /**
     * Sets the event limit: a run ends with {@link StopReason#EVENT_LIMIT} instead of executing an
     * event that would make {@link #eventsExecuted()} exceed {@code n}. The limit counts every event
     * executed by this simulator, across runs. The default is {@link Long#MAX_VALUE} (unlimited).
     *
     * @param n the maximum total number of events, {@code >= 0}
     * @throws IllegalArgumentException if {@code n < 0}
     */
    public void setMaxEvents(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("the event limit must not be negative, found " + n);
        }
        maxEvents = n;
    }

    /**
     * Sets the time limit: a run ends with {@link StopReason#TIME_LIMIT} instead of executing an event
     * whose time is greater than {@code t}; the clock stays at the last executed event. The default
     * is {@link Long#MAX_VALUE} (unlimited).
     *
     * @param t the latest time at which events may execute, in picoseconds, {@code >= 0}
     * @throws IllegalArgumentException if {@code t < 0}
     */
    public void setMaxTimePs(long t) {
        if (t < 0) {
            throw new IllegalArgumentException("the time limit must not be negative, found " + t);
        }
        maxTimePs = t;
    }

    /**
     * Returns the event limit set by {@link #setMaxEvents(long)}.
     *
     * @return the limit, {@code Long.MAX_VALUE} when unlimited
     */
    public long maxEvents() {
        return maxEvents;
    }

    /**
     * Returns the time limit set by {@link #setMaxTimePs(long)}.
     *
     * @return the limit in picoseconds, {@code Long.MAX_VALUE} when unlimited
     */
    public long maxTimePs() {
        return maxTimePs;
    }

    /**
     * Returns the number of events executed by this simulator since it was created, across all
     * runs. Cancelled events are not counted. Costs a field read.
     *
     * @return the total number of executed events
     */
    public long eventsExecuted() {
        return executed;
    }

    /**
     * Returns the number of pending events. The count is exact: it excludes cancelled events (even
     * those still physically in the queue) and the event currently executing. Costs O(1).
     *
     * @return the number of events waiting to run
     */
    public int pendingCount() {
        return events.size();
    }

    /**
     * Tells whether a run method is executing (that is, whether the caller is inside a handler).
     *
     * @return true during a run
     */
    public boolean isRunning() {
        return running;
    }

    private RunResult loop(long until, boolean bounded, BooleanSupplier cond) {
        if (running) {
            throw new IllegalStateException("the simulator is already running; run methods are not reentrant");
        }
        running = true;
        stopRequested = false;
        final long startCount = executed;
        try {
            final CalendarQueue q = events;
            final boolean k = keyed;
            while (true) {
                EventHandler handler = q.peek();
                if (handler == null) {
                    if (bounded) {
                        now = until;
                    }
                    return result(StopReason.NO_EVENTS, startCount, noEventsMessage(bounded));
                }
                long t = q.headTime();
                if (t > until) {
                    now = until;
                    return result(StopReason.UNTIL_TIME, startCount, "reached the time bound "
                            + SimTime.format(until) + " with " + pendingCount() + " events pending (next at "
                            + SimTime.format(t) + ")");
                }
                if (t > maxTimePs) {
                    return result(StopReason.TIME_LIMIT, startCount, "stopped at simulated time "
                            + SimTime.format(now) + " because the next event, at " + SimTime.format(t)
                            + ", is beyond the time limit of " + SimTime.format(maxTimePs)
                            + "; raise it with --max-time if the run is not runaway");
                }
                if (executed >= maxEvents) {
                    return result(StopReason.EVENT_LIMIT, startCount, "stopped after " + executed
                            + " events (the event limit); raise it with --max-events if the run is not" + " runaway");
                }
                if (cond != null && !cond.getAsBoolean()) {
                    return result(StopReason.STOPPED, startCount, "stopped at simulated time "
                            + SimTime.format(now) + " because the runWhile condition became false");
                }
                long arg = q.headArg();
                now = t; // before pollMin(): a rebuild of an emptied calendar restarts it at the clock
                executed++;
                if (k) {
                    owner = q.headOwner();
                }
                q.pollMin();
                handler.handle(arg);
                if (stopRequested) {
                    return result(StopReason.STOPPED, startCount,
                            "stopped by Simulator.stop() at simulated time " + SimTime.format(now));
                }
            }
        } finally {
            running = false;
            stopRequested = false;
            owner = 0;
        }
    }

    /**
     * Runs one window of a {@link PartitionedSimulator}: every event whose time is {@code <= until}, then advances the
     * clock to {@code until}. A handler's {@link #stop()} does not end the window (the run ends at its end, where
     * every partition stands at the same bound, so the run can be resumed): {@link #stoppedInWindow()} tells. No
     * limit applies and nothing is allocated.
     *
     * @return the number of events executed
     */
    long runWindow(long until) {
        if (running) {
            throw new IllegalStateException("the simulator is already running; run methods are not reentrant");
        }
        running = true;
        stopRequested = false;
        windowStopped = false;
        final long start = executed;
        try {
            final CalendarQueue q = events;
            while (true) {
                EventHandler handler = q.peek();
                if (handler == null) {
                    break;
                }
                long t = q.headTime();
                if (t > until) {
                    break;
                }
                long arg = q.headArg();
                now = t;
                lastEventPs = t;
                executed++;
                owner = q.headOwner();
                if (keepKey) {
                    currentKey = q.headKey();
                }
                q.pollMin();
                handler.handle(arg);
            }
            now = until;
            windowStopped = stopRequested;
            return executed - start;
        } finally {
            running = false;
            stopRequested = false;
            owner = 0;
            currentKey = 0;
        }
    }

    /**
     * In a partition of a {@link PartitionedSimulator}, during a window: the key of the executing event, which orders
     * it among the events of its time in every partition (the order a sequential run executes them in); 0 outside
     * events. {@link PartitionedTrace} orders the records of a window by it.
     */
    long currentKey() {
        return currentKey;
    }

    /** Makes {@link #runWindow} keep the executing event's key for {@link #currentKey} (set-up only). */
    void keepCurrentKey() {
        keepKey = true;
    }

    /** Whether the last {@link #runWindow} ended because a handler called {@link #stop()}. */
    boolean stoppedInWindow() {
        return windowStopped;
    }

    /** The time of the last event {@link #runWindow} executed, -1 if none. */
    long lastEventPs() {
        return lastEventPs;
    }

    private String noEventsMessage(boolean bounded) {
        return (bounded ? "no events remain; the clock advanced to " : "no events remain at ")
                + SimTime.format(now);
    }

    private RunResult result(StopReason reason, long startCount, String message) {
        return new RunResult(reason, now, executed - startCount, message);
    }
}