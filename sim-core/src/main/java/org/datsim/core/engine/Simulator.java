package org.datsim.core.engine;

import java.util.Arrays;
import java.util.function.BooleanSupplier;
import org.datsim.core.time.SimTime;

/**
 * A single-threaded discrete-event simulator: a clock in picoseconds and a queue of pending events.
 *
 * <h2>Ordering contract</h2>
 *
 * Events run in increasing order of time; events with the same time run in the order in which they
 * were scheduled (first scheduled, first run), including events scheduled for the current time by
 * the event that is running, which run after every event already scheduled for that time. Given the
 * same sequence of calls, a simulator therefore executes exactly the same event sequence on every
 * run and every machine.
 *
 * <h2>Event ids</h2>
 *
 * Every scheduling call returns an event id, a positive {@code long} that is never reused by the
 * same simulator and that increases with scheduling order (ids are not necessarily consecutive).
 * The id can be passed to {@link #cancel(long)} and {@link #isPending(long)}.
 *
 * <h2>Costs</h2>
 *
 * The queue is a 4-ary min-heap of (time, id) pairs held in two parallel {@code long[]} arrays; the
 * handler and argument of each event live in a slot table indexed by the low bits of the id. With
 * {@code n} pending events:
 *
 * <ul>
 *   <li>{@link #schedule(long, EventHandler, long)} and {@link #scheduleAt(long, EventHandler,
 *       long)}: O(log n) worst case, O(1) expected for a push of a random time from outside a
 *       handler; no allocation (arrays grow by doubling, amortised O(1), and never shrink).
 *   <li>Dispatch of an event: O(log n) and no allocation. When a handler schedules an event while
 *       it runs, the first such event replaces the finished event at the top of the heap, so the
 *       common "one event in, one event out" pattern costs a single sift-down.
 *   <li>{@link #cancel(long)} and {@link #isPending(long)}: O(1). Cancellation is lazy: a cancelled
 *       event stays in the heap until it reaches the top, where it is discarded in O(log n). When
 *       cancelled events make up more than half of a large heap, the heap is compacted in O(n), so
 *       memory stays bounded by twice the live events.
 *   <li>The {@link Runnable} conveniences allocate one small adapter object per call.
 *   <li>Memory: about 16 bytes of heap plus at most 40 bytes of slot table per pending event (the
 *       slot table is kept at most half full).
 * </ul>
 *
 * On the 2-core development VM, the PHOLD benchmark ({@link org.datsim.core.bench.Phold}) runs
 * about 2 to 3 times faster on this engine than on a {@link java.util.PriorityQueue} of event
 * objects.
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

  private static final int INITIAL_HEAP_ENTRIES = 256;
  private static final int INITIAL_SLOTS = 512; // power of two
  private static final int PURGE_MIN_CANCELLED = 1024;

  private long now;

  /*
   * The heap: a 4-ary min-heap ordered by (time, id), stored in two parallel arrays at positions
   * 1..size (index 0 is unused). The children of position p are 4p-2 .. 4p+1 and the parent of q is
   * (q+2)/4. Starting at 1 puts each group of four child times in one 32-byte-aligned block of the
   * time array when the array base is cache-line aligned (as large arrays are), so a level of the
   * sift-down touches a single cache line of times. Keeping times apart from ids makes the hot
   * comparisons read only the time array; ids are consulted on equal times only.
   */
  private long[] heapTime = new long[INITIAL_HEAP_ENTRIES + 1];

  private long[] heapId = new long[INITIAL_HEAP_ENTRIES + 1];
  private int size;

  /**
   * True while a handler runs and the root of the heap still holds its (already executed) event;
   * the first event scheduled by the handler overwrites it.
   */
  private boolean topDead;

  /**
   * Slot table indexed by s = (id & mask): slotData[2s] is the id of the event in the slot (0 when
   * free) and slotData[2s + 1] its argument. Ids are handed out in increasing order, skipping ids
   * whose slot is taken, so each id finds its slot directly and the table is written sequentially.
   */
  private long[] slotData = new long[2 * INITIAL_SLOTS];

  /** Handler of the event in the slot; null with a non-zero id means cancelled. */
  private EventHandler[] slotHandler = new EventHandler[INITIAL_SLOTS];

  private int mask = INITIAL_SLOTS - 1;
  private int occupied;
  private int cancelled;
  private long nextId = 1;

  private long executed;
  private long maxEvents = Long.MAX_VALUE;
  private long maxTimePs = Long.MAX_VALUE;
  private boolean running;
  private boolean stopRequested;

  /** Creates a simulator with the clock at 0 and no pending events. */
  public Simulator() {}

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
   * Schedules {@code h.handle(arg)} to run {@code delayPs} after the current time. Allocation-free;
   * O(log n) worst case.
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
   * Schedules {@code h.handle(arg)} to run at absolute time {@code timePs}. Allocation-free;
   * O(log n) worst case.
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
      throw new IllegalArgumentException(
          "cannot schedule an event in the past: time "
              + timePs
              + " ps ("
              + SimTime.format(timePs)
              + ") is before now "
              + now
              + " ps ("
              + SimTime.format(now)
              + ")");
    }
    return insert(timePs, h, arg);
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

  private static EventHandler adapt(Runnable r) {
    if (r == null) {
      throw new NullPointerException("the Runnable to schedule is null");
    }
    return arg -> r.run();
  }

  private long insert(long time, EventHandler h, long arg) {
    if (h == null) {
      throw new NullPointerException("the EventHandler to schedule is null");
    }
    if ((occupied + 1) << 1 > slotHandler.length) {
      growSlots();
    }
    long[] sd = slotData;
    int m = mask;
    long id = nextId;
    int s;
    while (sd[(s = (int) id & m) << 1] != 0) {
      id++;
    }
    nextId = id + 1;
    sd[s << 1] = id;
    sd[(s << 1) + 1] = arg;
    slotHandler[s] = h;
    occupied++;
    if (topDead) {
      topDead = false;
      siftDown(1, time, id);
    } else {
      push(time, id);
    }
    return id;
  }

  /** Doubles the slot table, re-homing each live slot at (id & newMask). O(capacity). */
  private void growSlots() {
    int newCap = slotHandler.length << 1;
    if (newCap <= 0) {
      throw new IllegalStateException("too many pending events");
    }
    long[] sd = new long[newCap << 1];
    EventHandler[] hs = new EventHandler[newCap];
    int m = newCap - 1;
    long[] old = slotData;
    for (int i = 0; i < slotHandler.length; i++) {
      long id = old[i << 1];
      if (id != 0) {
        int s = (int) id & m;
        sd[s << 1] = id;
        sd[(s << 1) + 1] = old[(i << 1) + 1];
        hs[s] = slotHandler[i];
      }
    }
    slotData = sd;
    slotHandler = hs;
    mask = m;
  }

  /** Appends (t, id) and sifts it up. The id is larger than every id in the heap. */
  private void push(long t, long id) {
    int q = ++size;
    if (q >= heapTime.length) {
      heapTime = Arrays.copyOf(heapTime, heapTime.length << 1);
      heapId = Arrays.copyOf(heapId, heapId.length << 1);
    }
    long[] tt = heapTime;
    long[] ii = heapId;
    while (q > 1) {
      int p = (q + 2) >>> 2;
      long pt = tt[p];
      if (pt <= t) { // equal time: the parent was scheduled earlier (smaller id), so it stays
        break;
      }
      tt[q] = pt;
      ii[q] = ii[p];
      q = p;
    }
    tt[q] = t;
    ii[q] = id;
  }

  /**
   * Places (t, id) at position p and sifts it down.
   *
   * <p>The minimum of four children is found without data-dependent branches: times are never
   * negative, so differences cannot overflow and their sign bits select the smaller time. Equal
   * times, which need the id as tie-breaker, take a separate, rarely used path.
   */
  private void siftDown(int p, long t, long id) {
    long[] tt = heapTime;
    long[] ii = heapId;
    int n = size;
    while (true) {
      int c = (p << 2) - 2;
      int k;
      long kt;
      if (c + 3 <= n) {
        long t0 = tt[c];
        long t1 = tt[c + 1];
        long t2 = tt[c + 2];
        long t3 = tt[c + 3];
        long d10 = t1 - t0;
        long d32 = t3 - t2;
        long m10 = d10 >> 63;
        long m32 = d32 >> 63;
        long ta = t0 + (d10 & m10);
        long tb = t2 + (d32 & m32);
        long dba = tb - ta;
        long mba = dba >> 63;
        int ka = c + (int) (m10 & 1);
        int kb = c + 2 + (int) (m32 & 1);
        k = ka ^ ((ka ^ kb) & (int) mba);
        kt = ta + (dba & mba);
        if ((d10 == 0) | (d32 == 0) | (dba == 0)) {
          k = minChild(c, c + 3);
        }
      } else if (c <= n) {
        k = minChild(c, n);
        kt = tt[k];
      } else {
        break;
      }
      if (t < kt || (t == kt && id < ii[k])) {
        break;
      }
      tt[p] = kt;
      ii[p] = ii[k];
      p = k;
    }
    tt[p] = t;
    ii[p] = id;
  }

  /** Returns the position of the smallest (time, id) among positions from..to (inclusive). */
  private int minChild(int from, int to) {
    long[] tt = heapTime;
    long[] ii = heapId;
    int m = from;
    long mt = tt[from];
    long mi = ii[from];
    for (int j = from + 1; j <= to; j++) {
      long jt = tt[j];
      if (jt < mt || (jt == mt && ii[j] < mi)) {
        m = j;
        mt = jt;
        mi = ii[j];
      }
    }
    return m;
  }

  /** Removes the root of the heap. */
  private void removeTop() {
    int n = size--;
    if (n > 1) {
      siftDown(1, heapTime[n], heapId[n]);
    }
  }

  /**
   * Cancels a pending event. Costs O(1): the event is only marked; its heap entry is discarded when
   * it reaches the top (or when a compaction runs, O(n), once cancelled entries outnumber live
   * ones in a large heap).
   *
   * @param eventId an id returned by a scheduling method
   * @return true if the event was pending and is now cancelled; false if it already ran, was
   *     already cancelled, is the event currently running, or the id is unknown
   */
  public boolean cancel(long eventId) {
    if (eventId <= 0 || eventId >= nextId) {
      return false;
    }
    int s = (int) eventId & mask;
    if (slotData[s << 1] != eventId || slotHandler[s] == null) {
      return false;
    }
    slotHandler[s] = null;
    slotData[(s << 1) + 1] = 0;
    cancelled++;
    if (cancelled >= PURGE_MIN_CANCELLED && cancelled > (size >>> 1)) {
      purgeCancelled();
    }
    return true;
  }

  /**
   * Tells whether an event is still waiting to run. Costs O(1).
   *
   * @param eventId an id returned by a scheduling method
   * @return true if the event has been scheduled, has not run and has not been cancelled (the event
   *     currently running is not pending)
   */
  public boolean isPending(long eventId) {
    if (eventId <= 0 || eventId >= nextId) {
      return false;
    }
    int s = (int) eventId & mask;
    return slotData[s << 1] == eventId && slotHandler[s] != null;
  }

  /** Drops all cancelled entries from the heap and rebuilds it. O(n). */
  private void purgeCancelled() {
    if (topDead) {
      topDead = false;
      removeTop();
    }
    long[] tt = heapTime;
    long[] ii = heapId;
    int n = size;
    int w = 0;
    for (int r = 1; r <= n; r++) {
      long id = ii[r];
      int s = (int) id & mask;
      if (slotHandler[s] == null) {
        slotData[s << 1] = 0;
        occupied--;
      } else {
        w++;
        tt[w] = tt[r];
        ii[w] = id;
      }
    }
    size = w;
    cancelled = 0;
    for (int p = (w + 2) >>> 2; p >= 1; p--) {
      siftDown(p, tt[p], ii[p]);
    }
  }

  /** Resolves a dead top and discards cancelled events at the top of the heap. */
  private void settleTop() {
    if (topDead) {
      topDead = false;
      removeTop();
    }
    while (size > 0) {
      int s = (int) heapId[1] & mask;
      if (slotHandler[s] != null) {
        return;
      }
      slotData[s << 1] = 0;
      occupied--;
      cancelled--;
      removeTop();
    }
  }

  /**
   * Returns the time of the earliest pending event, or {@link Long#MAX_VALUE} if none is pending.
   * Costs O(1) unless cancelled events must first be discarded from the top of the queue.
   *
   * @return the time of the next event in picoseconds, or {@code Long.MAX_VALUE}
   */
  public long nextEventTimePs() {
    settleTop();
    return size == 0 ? Long.MAX_VALUE : heapTime[1];
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
          "cannot run until "
              + SimTime.format(timePs)
              + ": it is before now ("
              + SimTime.format(now)
              + ")");
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
    return size - cancelled - (topDead ? 1 : 0);
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
      settleTop();
      while (true) {
        if (size == 0) {
          if (bounded) {
            now = until;
          }
          return result(StopReason.NO_EVENTS, startCount, noEventsMessage(bounded));
        }
        long t = heapTime[1];
        int s = (int) heapId[1] & mask;
        EventHandler handler = slotHandler[s];
        if (handler == null) { // cancelled: discard
          slotData[s << 1] = 0;
          occupied--;
          cancelled--;
          removeTop();
          continue;
        }
        if (t > until) {
          now = until;
          return result(
              StopReason.UNTIL_TIME,
              startCount,
              "reached the time bound "
                  + SimTime.format(until)
                  + " with "
                  + pendingCount()
                  + " events pending (next at "
                  + SimTime.format(t)
                  + ")");
        }
        if (t > maxTimePs) {
          return result(
              StopReason.TIME_LIMIT,
              startCount,
              "stopped at simulated time "
                  + SimTime.format(now)
                  + " because the next event, at "
                  + SimTime.format(t)
                  + ", is beyond the time limit of "
                  + SimTime.format(maxTimePs)
                  + "; raise it with --max-time if the run is not runaway");
        }
        if (executed >= maxEvents) {
          return result(
              StopReason.EVENT_LIMIT,
              startCount,
              "stopped after "
                  + executed
                  + " events (the event limit); raise it with --max-events if the run is not"
                  + " runaway");
        }
        if (cond != null && !cond.getAsBoolean()) {
          return result(
              StopReason.STOPPED,
              startCount,
              "stopped at simulated time "
                  + SimTime.format(now)
                  + " because the runWhile condition became false");
        }
        long arg = slotData[(s << 1) + 1];
        slotData[s << 1] = 0;
        slotHandler[s] = null;
        occupied--;
        now = t;
        executed++;
        topDead = true;
        try {
          handler.handle(arg);
        } finally {
          if (topDead) {
            topDead = false;
            removeTop();
          }
        }
        if (stopRequested) {
          return result(
              StopReason.STOPPED,
              startCount,
              "stopped by Simulator.stop() at simulated time " + SimTime.format(now));
        }
      }
    } finally {
      running = false;
      stopRequested = false;
    }
  }

  private String noEventsMessage(boolean bounded) {
    return (bounded ? "no events remain; the clock advanced to " : "no events remain at ")
        + SimTime.format(now);
  }

  private RunResult result(StopReason reason, long startCount, String message) {
    return new RunResult(reason, now, executed - startCount, message);
  }
}
