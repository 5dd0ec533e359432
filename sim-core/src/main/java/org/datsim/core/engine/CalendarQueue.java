package org.datsim.core.engine;

import java.util.Arrays;
import java.util.function.LongSupplier;

/**
 * The engine's event list: a calendar queue (R. Brown, CACM 1988) with a far heap, ordered by (time, insertion
 * order), or in a {@linkplain #keyed keyed} list by (time, key) whatever the insertion order. {@link Simulator} holds one in a final field and calls it directly, so the run loop's calls stay
 * monomorphic and inline; the {@link EventList} interface states the contract for readers and tests.
 *
 * <h2>Structure</h2>
 *
 * A circular array of buckets, each covering a power-of-two span of time, threaded through the slot table that also
 * holds each event's id, argument and handler; the events of the bucket being consumed are kept sorted by
 * (time, id) in a small array (the "bottom") from which they are taken. The bucket count follows the number
 * of queued events (doubled when they exceed twice the bucket count, halved when they fall below
 * half of it) and the bucket width is re-estimated at each such resize from the gaps between the
 * earliest event times, and again whenever the work per event drifts high. With {@code n} queued
 * events:
 *
 * <ul>
 *   <li>{@link #insert}: amortised O(1) (a push onto a bucket list, or a binary-search insertion into the
 *       small sorted array when the event falls in the bucket being consumed); O(log f) for one of
 *       f far events, more than a calendar year ahead, which wait in a binary heap until their year
 *       comes within reach (so that passes over the buckets do not skip them again and again); no
 *       allocation in steady state (arrays grow by doubling and never shrink).
 *   <li>{@link #peek} and {@link #pollMin}: amortised O(1) for the usual, smooth distributions of event times:
 *       the calendar visits a few buckets per event and sorts a few events per bucket. No
 *       allocation.
 *   <li>Resizing: a rebuild collects and redistributes the queued events other than the far ones
 *       (which stay in their heap), O(n) plus the bucket count. It happens after the population has doubled or
 *       halved (amortised O(1) per event);
 *       when a whole year of buckets holds no event of that year (only cancelled ones: when only far
 *       events remain, the calendar jumps to the earliest instead); and when the calendar has wasted more work on
 *       empty buckets, events of later years or large batches than a rebuild costs, so that re-estimating the
 *       width at most doubles the cost of an ill-suited one. Distributions that no single width
 *       suits (very skewed or multi-modal ones) therefore degrade gracefully rather than to O(n)
 *       per event; the order in which events are taken never depends on the width.
 *   <li>{@link #cancel(long)} and {@link #isPending(long)}: O(1). Cancellation is lazy: a cancelled
 *       event stays queued until the calendar reaches it, where it is discarded in O(1). When
 *       cancelled events make up more than half of a large queue, the calendar is rebuilt in O(n)
 *       without them, so memory stays bounded by twice the live events.
 *   <li>Memory: 40 bytes per slot of the slot table (32 bytes of data, a handler reference and a free-stack
 *       entry), with the table kept at most half full, hence at least 80 bytes per pending event; 2 to 8
 *       bytes of buckets per event; 16 bytes per far event in its heap; scratch arrays of 16 bytes
 *       per event for rebuilds and sorts.
 *       At most 2^25 events can be pending, and a list takes at most 2^37 - 1 insertions in all.
 * </ul>
 *
 * Events are taken in exactly the same order as from a binary heap ordered by (time, id), whatever the
 * insertion times (the calendar is a general priority queue for non-negative times; the test FarHeapFuzzTest
 * checks it against a sorted set).
 *
 * <p>This class is not thread-safe.
 */
public final class CalendarQueue implements EventList {

    private static final int INITIAL_SLOTS = 512; // power of two
    private static final int PURGE_MIN_CANCELLED = 1024;

    /**
     * An event's id is (sequence number << SLOT_BITS) | slot: ids increase with insertion order (the tie-break among
     * events of equal time) and name the event's slot in the table. At most 2^SLOT_BITS slots, at most MAX_SEQ
     * insertions per list (1.4 x 10^11: some 12 hours at 3 million events per second).
     */
    private static final int SLOT_BITS = 26;

    private static final int SLOT_MASK = (1 << SLOT_BITS) - 1;
    private static final long MAX_SEQ = (1L << (63 - SLOT_BITS)) - 1;

    /** Fewest buckets in the calendar (a power of two); the calendar never shrinks below it. */
    private static final int MIN_BUCKETS = 16;

    /**
     * Target number of queued events per bucket of the calendar year. The bucket count is the power
     * of two that keeps {@code size / buckets} between {@code LOAD / 2} and {@code 2 * LOAD}.
     */
    private static final int LOAD = 1;

    /**
     * Bucket width, in multiples of the estimated gap between consecutive distinct event times near
     * the head of the queue (Brown suggests 3; 6 measured faster on PHOLD here, as it halves the
     * buckets visited per event for a few more events to sort per bucket).
     */
    private static final double WIDTH_GAPS = 6.0;

    /** How many of the earliest distinct event times a width estimate samples. */
    private static final int WIDTH_SAMPLE = 64;

    /**
     * An insertion into the sorted bottom steps back over at most this many later entries one by one; beyond, it
     * binary-searches and shifts with System.arraycopy (whose call costs more than a few moves).
     */
    private static final int SHORT_SHIFT = 8;

    /** Batches of at most this many events are sorted by insertion sort, larger ones by merge sort. */
    private static final int INSERTION_SORT_MAX = 24;

    /**
     * The owner's clock: the earliest time a later insertion may have. Read only when the calendar is rebuilt with
     * no event queued, to restart its year there (any value is correct, since the order never depends on where the
     * calendar stands; starting at the clock keeps the next insertions within the first year).
     */
    private final LongSupplier clock;

    /*
     * Keyed mode (see {@link #keyed(LongSupplier)}): the key that orders each slot's event among events of equal time,
     * and the owner it runs as; both null in the default mode, where the id orders ties (insertion order).
     */
    private long[] slotKey;

    private int[] slotOwner;
    /*
     * Slot table, indexed by s = (id & SLOT_MASK). slotData holds four longs per slot: [4s] the id of the
     * event in the slot (0 when free), [4s + 1] its argument, [4s + 2] its time and [4s + 3] the link
     * of the calendar bucket list the event is in (the next slot + 1, 0 at the end of the list).
     * Keeping the four together puts everything the calendar and the dispatch read about an event in
     * one 32-byte block. An id is its event's sequence number above its slot, so ids increase with insertion
     * order and each id finds its slot directly; slots are reused last freed first (freeSlots).
     */
    private long[] slotData = new long[4 * INITIAL_SLOTS];

    /** Handler of the event in the slot; null with a non-zero id means cancelled. */
    private EventHandler[] slotHandler = new EventHandler[INITIAL_SLOTS];

    /**
     * Free slots, a stack: an insertion takes the slot freed last, whose block the dispatch of the event before has
     * just read, so the slots in use stay as few and as warm in the cache as the pending events allow (handing slots
     * out in id order instead cycled through the whole table, a cache miss per insertion on a large fabric).
     */
    private int[] freeSlots = initialFreeSlots(INITIAL_SLOTS);

    private int freeTop = INITIAL_SLOTS;

    /** Events physically held by the queue (pending plus cancelled but not yet discarded). */
    private int size;

    /** Cancelled events still physically held by the queue. */
    private int cancelled;

    /** The sequence number of the next insertion (the high bits of its id). */
    private long nextSeq = 1;

    /**
     * The id of the event {@link #pollMin} took last, whose slot stays taken (its handler cleared, so it is neither
     * pending nor cancellable) until the next {@link #pollMin}, so that {@link #reinsertTaken} can queue it again
     * under the same id; 0 if none (or already queued again).
     */
    private long taken;

    /*
     * The event list: a calendar queue (R. Brown, "Calendar queues: a fast O(1) priority queue
     * implementation for the simulation event set problem", CACM 31(10), 1988) whose bucket width is
     * a power of two, 2^shift ps, so an event of time t lies in "virtual bucket" v = t >>> shift
     * (no overflow for any non-negative long) and in physical bucket v & bucketMask. Buckets are
     * unsorted singly linked lists threaded through the slot table, so an insertion is a push.
     *
     * The calendar has been consumed up to virtual bucket curV: every queued event with
     * v <= curV sits in the "bottom", a small array sorted by (time, id) from which events are
     * dispatched, and every event with v > curV sits in a bucket list. When the bottom runs empty,
     * curV advances bucket by bucket; the first bucket holding events of the current year is emptied
     * of them (events of later years stay) and they are sorted into the bottom. An event inserted
     * with v <= curV (for instance one scheduled for the current bucket by a running handler) goes
     * straight into the bottom by binary search. Since ids grow with scheduling order, sorting by
     * (time, id) gives exactly the (time, scheduling order) contract.
     */
    private int[] bucketHead = new int[MIN_BUCKETS]; // slot + 1 of the first event, 0 when empty

    private int bucketMask = MIN_BUCKETS - 1;
    private int shift = 20;
    private long curV = -1;

    private long[] botTime = new long[64];
    private long[] botId = new long[64];
    private int botHead;
    private int botEnd;

    /*
     * Far events: those more than a year of buckets ahead (v - curV >= bucket count) wait in a binary
     * min-heap of (time, id) instead of a bucket, where every pass of the calendar over their bucket
     * would skip them again (a timer far beyond the events around it, such as a transport's ACK
     * timeout, cost a node visit per year per timer). advance() moves them into their buckets as
     * their year comes within reach; they keep their slot, so cancel and isPending work unchanged.
     */
    private long[] farTime = new long[16];
    private long[] farId = new long[16];
    private int farCount;

    /** Cancelled events still in the far heap (counted in {@link #cancelled} too). */
    private int farCancelled;

    /**
     * The bucket-list link of a slot whose event waits in the far heap: tells {@link #cancel} to count it in
     * {@link #farCancelled}. Links are otherwise slot + 1 or 0, never negative.
     */
    private static final long IN_FAR_HEAP = -1;

    /** Insertions rebuild the calendar when size reaches this (bucket growth or slot growth). */
    private int rebuildAt;

    /** Dispatches rebuild the calendar with half the buckets when size falls below this. */
    private int shrinkBelow;

    /*
     * Work counters over a window of about 2n extracted events, used to re-estimate the bucket width
     * when the distribution of event times drifts while the population stays constant.
     */
    private long winExtracted;
    private long winBuckets;
    private long winNodes;
    private long winBatchSq;

    /*
     * Entries shifted by insertions into the middle of the sorted bottom, in the same units as winBatchSq: sorting
     * a batch of m moves about m * m / 4 entries, so one shifted entry counts 4. A width much wider than the gap
     * between events sends most insertions into the bottom (an event scheduled a short delay ahead lands in the
     * bucket being consumed) and each shifts the later entries; this is sort work like a large batch's.
     */
    private long winShifted;
    private long winLength = 4096;

    /** Scratch space for rebuilds and merge sorts; grows by doubling, never shrinks. */
    private long[] scratchA = new long[64];

    private long[] scratchB = new long[64];
    private final long[] sample = new long[WIDTH_SAMPLE];
    /** How many of the events sampled by a width estimate have each sampled time. */
    private final int[] sampleCount = new int[WIDTH_SAMPLE];

    /**
     * Creates an empty event list.
     *
     * @param clock the owner's clock, a lower bound for the times of later insertions (see {@link #clock})
     */
    public CalendarQueue(LongSupplier clock) {
        if (clock == null) {
            throw new NullPointerException("the event list's clock is null");
        }
        this.clock = clock;
        setThresholds();
    }

    /**
     * Creates an empty keyed event list: events of equal time are taken in the order of a key given at each insertion
     * ({@link #insertKeyed}), whatever the insertion order, and each event carries the owner it runs as. The
     * partitioned engine needs this, since the order in which its partitions' events reach a list depends on the
     * partitioning; keys that increase with insertion order give exactly the default order. Costs 12 bytes more per
     * slot, and a read of two keys where two events have the same time.
     *
     * @param clock the owner's clock, a lower bound for the times of later insertions
     * @return the list
     */
    public static CalendarQueue keyed(LongSupplier clock) {
        CalendarQueue q = new CalendarQueue(clock);
        q.slotKey = new long[INITIAL_SLOTS];
        q.slotOwner = new int[INITIAL_SLOTS];
        return q;
    }

    /**
     * Tells whether the list orders ties by key ({@link #keyed}) rather than by insertion order.
     *
     * @return true for a keyed list
     */
    public boolean isKeyed() {
        return slotKey != null;
    }

    /**
     * Whether the event with id {@code a} is taken before the event with id {@code b} when both have the same time:
     * by id (insertion order), or in a keyed list by key.
     */
    private boolean tieBefore(long a, long b) {
        long[] k = slotKey;
        return k == null ? a < b : k[(int) a & SLOT_MASK] < k[(int) b & SLOT_MASK];
    }

    /**
     * Adds an event to a keyed list. Amortised O(1), as {@link #insert}; allocation-free in steady state.
     *
     * @param time the event's time in picoseconds, {@code >= 0}
     * @param h the handler to call, not null
     * @param arg the argument for the handler
     * @param key the key ordering the event among events of equal time: unique among the queued events
     * @param owner the owner the event runs as ({@link #headOwner()})
     * @return the event's id: positive, never reused by this list (ids do not give the order in a keyed list)
     * @throws IllegalStateException if the list is not keyed or cannot hold more events
     */
    public long insertKeyed(long time, EventHandler h, long arg, long key, int owner) {
        if (h == null) {
            throw new NullPointerException("the EventHandler to schedule is null");
        }
        if (slotKey == null) {
            throw new IllegalStateException("insertKeyed is for a keyed event list (CalendarQueue.keyed)");
        }
        if (size >= rebuildAt) {
            grow();
        }
        long seq = nextSeq;
        if (seq > MAX_SEQ) {
            throw new IllegalStateException("an event list takes at most " + MAX_SEQ + " insertions");
        }
        nextSeq = seq + 1;
        int s = freeSlots[--freeTop];
        long id = (seq << SLOT_BITS) | s;
        long[] sd = slotData;
        int o = s << 2;
        sd[o] = id;
        sd[o + 1] = arg;
        sd[o + 2] = time;
        slotHandler[s] = h;
        slotKey[s] = key;
        slotOwner[s] = owner;
        size++;
        placeOrdered(time, id, o);
        return id;
    }

    /**
     * Puts a slot's event where its time belongs: into the sorted bottom at its (time, tie order) place, the far heap
     * or its bucket. For insertions whose id may not be the latest (keyed lists, events queued again).
     */
    private void placeOrdered(long time, long id, int o) {
        long[] sd = slotData;
        long v = time >>> shift;
        if (v <= curV) {
            sd[o + 3] = 0;
            bottomInsertOrdered(time, id);
        } else if (v - curV > bucketMask) {
            farPush(time, id);
        } else {
            int[] heads = bucketHead;
            int b = (int) v & bucketMask;
            sd[o + 3] = heads[b];
            heads[b] = (o >> 2) + 1;
        }
    }

    /**
     * {@inheritDoc} Amortised O(1); O(log f) for an event more than a calendar year ahead (one of f in the far
     * heap). Allocation-free in steady state.
     */
    @Override
    public long insert(long time, EventHandler h, long arg) {
        if (h == null) {
            throw new NullPointerException("the EventHandler to schedule is null");
        }
        if (slotKey != null) {
            throw new IllegalStateException("a keyed event list takes insertKeyed");
        }
        if (size >= rebuildAt) {
            grow();
        }
        long[] sd = slotData;
        long seq = nextSeq;
        if (seq > MAX_SEQ) {
            throw new IllegalStateException("an event list takes at most " + MAX_SEQ + " insertions");
        }
        nextSeq = seq + 1;
        int s = freeSlots[--freeTop];
        long id = (seq << SLOT_BITS) | s;
        int o = s << 2;
        sd[o] = id;
        sd[o + 1] = arg;
        sd[o + 2] = time;
        slotHandler[s] = h;
        size++;
        long v = time >>> shift;
        if (v <= curV) {
            sd[o + 3] = 0;
            bottomInsert(time, id);
        } else if (v - curV > bucketMask) {
            farPush(time, id);
        } else {
            int[] heads = bucketHead;
            int b = (int) v & bucketMask;
            sd[o + 3] = heads[b];
            heads[b] = s + 1;
        }
        return id;
    }

    /** Adds an event to the far heap, ordered by (time, id). */
    private void farPush(long t, long id) {
        slotData[(((int) id & SLOT_MASK) << 2) + 3] = IN_FAR_HEAP;
        if (farCount == farTime.length) {
            farTime = Arrays.copyOf(farTime, 2 * farCount);
            farId = Arrays.copyOf(farId, 2 * farCount);
        }
        long[] ft = farTime;
        long[] fi = farId;
        int i = farCount++;
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            if (ft[parent] < t || (ft[parent] == t && tieBefore(fi[parent], id))) {
                break;
            }
            ft[i] = ft[parent];
            fi[i] = fi[parent];
            i = parent;
        }
        ft[i] = t;
        fi[i] = id;
    }

    /** Removes the earliest event of the far heap. */
    private void farPop() {
        int n = --farCount;
        farTime[0] = farTime[n];
        farId[0] = farId[n];
        siftDown(0);
    }

    /** Moves the far heap's entry at {@code i} down to its place among the first farCount entries. */
    private void siftDown(int i) {
        long[] ft = farTime;
        long[] fi = farId;
        int n = farCount;
        long t = ft[i];
        long id = fi[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= n) {
                break;
            }
            if (c + 1 < n && (ft[c + 1] < ft[c] || (ft[c + 1] == ft[c] && tieBefore(fi[c + 1], fi[c])))) {
                c++;
            }
            if (t < ft[c] || (t == ft[c] && tieBefore(id, fi[c]))) {
                break;
            }
            ft[i] = ft[c];
            fi[i] = fi[c];
            i = c;
        }
        ft[i] = t;
        fi[i] = id;
    }

    /**
     * Moves the far events whose virtual bucket is less than a year after {@code v} into their
     * buckets (cancelled ones are discarded).
     */
    private void farMigrate(long v) {
        int sh = shift;
        int bm = bucketMask;
        long[] sd = slotData;
        EventHandler[] hs = slotHandler;
        int[] heads = bucketHead;
        int m = SLOT_MASK;
        while (farCount > 0 && (farTime[0] >>> sh) - v <= bm) {
            int s = (int) farId[0] & m;
            farPop();
            int o = s << 2;
            if (hs[s] == null) {
                freeSlot(s);
                size--;
                cancelled--;
                farCancelled--;
                continue;
            }
            int b = (int) (sd[o + 2] >>> sh) & bm;
            sd[o + 3] = heads[b];
            heads[b] = s + 1;
        }
    }

    /** Makes room for one more entry at the end of the sorted bottom: restarts it empty, shifts it down, or grows it. */
    private void bottomRoom() {
        int h = botHead;
        int e = botEnd;
        if (h == e) {
            botHead = 0;
            botEnd = 0;
        } else if (e == botTime.length) {
            if (h > 0) {
                System.arraycopy(botTime, h, botTime, 0, e - h);
                System.arraycopy(botId, h, botId, 0, e - h);
                botHead = 0;
                botEnd = e - h;
            } else {
                growBottom();
            }
        }
    }

    /**
     * Inserts (t, id) into the sorted bottom. The id is larger than every queued id, so the event
     * goes after every event of the same time. O(1) when it belongs at the end, otherwise a shift of the later
     * entries (found by stepping back over up to SHORT_SHIFT of them, then by binary search).
     */
    private void bottomInsert(long t, long id) {
        bottomRoom();
        int h = botHead;
        int e = botEnd;
        long[] bt = botTime;
        long[] bi = botId;
        int pos = e;
        if (e > h && bt[e - 1] > t) {
            // Usually a few entries from the end: step back over them, shifting each (no call, no search).
            int stop = Math.max(h, e - SHORT_SHIFT);
            while (pos > stop && bt[pos - 1] > t) {
                bt[pos] = bt[pos - 1];
                bi[pos] = bi[pos - 1];
                pos--;
            }
            if (pos == stop && pos > h && bt[pos - 1] > t) { // further back: search, then shift the rest at once
                int lo = h;
                int hi = pos - 1;
                while (lo < hi) { // first position whose time is > t
                    int mid = (lo + hi) >>> 1;
                    if (bt[mid] <= t) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                System.arraycopy(bt, lo, bt, lo + 1, pos - lo);
                System.arraycopy(bi, lo, bi, lo + 1, pos - lo);
                pos = lo;
            }
            winShifted += 4L * (e - pos);
        }
        bt[pos] = t;
        bi[pos] = id;
        botHead = h;
        botEnd = e + 1;
    }

    /**
     * Inserts (t, id) into the sorted bottom at its (time, id) place; the id may be older than queued ones. O(1) when
     * it belongs at the end, or before the head with room there (the taken event's entry is free), otherwise a shift
     * of the later entries, found as in {@link #bottomInsert} by stepping back over up to SHORT_SHIFT of them, then by
     * binary search.
     */
    private void bottomInsertOrdered(long t, long id) {
        bottomRoom();
        int h = botHead;
        int e = botEnd;
        long[] bt = botTime;
        long[] bi = botId;
        if (h > 0 && e > h && (t < bt[h] || (t == bt[h] && tieBefore(id, bi[h])))) {
            // Before every entry (the usual case of a chain's next occurrence in bench stream): the slot the event just
            // taken left free at the head holds it.
            bt[h - 1] = t;
            bi[h - 1] = id;
            botHead = h - 1;
            botEnd = e;
            return;
        }
        int pos = e;
        if (e > h && (bt[e - 1] > t || (bt[e - 1] == t && tieBefore(id, bi[e - 1])))) {
            int stop = Math.max(h, e - SHORT_SHIFT);
            while (pos > stop && (bt[pos - 1] > t || (bt[pos - 1] == t && tieBefore(id, bi[pos - 1])))) {
                bt[pos] = bt[pos - 1];
                bi[pos] = bi[pos - 1];
                pos--;
            }
            if (pos == stop && pos > h && (bt[pos - 1] > t || (bt[pos - 1] == t && tieBefore(id, bi[pos - 1])))) {
                int lo = h;
                int hi = pos - 1; // the entry at pos - 1 is ordered after (t, id)
                while (lo < hi) { // first position ordered after (t, id)
                    int mid = (lo + hi) >>> 1;
                    if (bt[mid] < t || (bt[mid] == t && tieBefore(bi[mid], id))) {
                        lo = mid + 1;
                    } else {
                        hi = mid;
                    }
                }
                System.arraycopy(bt, lo, bt, lo + 1, pos - lo);
                System.arraycopy(bi, lo, bi, lo + 1, pos - lo);
                pos = lo;
            }
            winShifted += 4L * (e - pos);
        }
        bt[pos] = t;
        bi[pos] = id;
        botHead = h;
        botEnd = e + 1;
    }

    private void growBottom() {
        int cap = botTime.length << 1;
        botTime = Arrays.copyOf(botTime, cap);
        botId = Arrays.copyOf(botId, cap);
    }

    /**
     * Refills the empty bottom: advances the calendar to the next bucket holding events of the
     * current year, moves them (minus cancelled ones, which are discarded) into the bottom and sorts
     * it; far events move into their buckets as each step brings their year within reach. When only
     * far events remain, it first jumps to the year of the earliest. After a whole year of buckets
     * without an event of that year (they held only cancelled ones), rebuilds the calendar, O(n):
     * that re-estimates the width from the events now at the head and restarts at the earliest one.
     * Leaves the bottom empty only if the queue has become empty.
     * Precondition: the bottom is empty and size > 0.
     */
    private void advance() {
        retuneIfCostly();
        botHead = 0;
        botEnd = 0;
        if (farCount != 0 && farCount == size) {
            curV = (farTime[0] >>> shift) - 1; // nothing nearer: jump to the year of the earliest
        }
        long[] sd = slotData;
        EventHandler[] hs = slotHandler;
        int[] heads = bucketHead;
        int bm = bucketMask;
        int sh = shift;
        long[] bt = botTime;
        long[] bi = botId;
        int n = 0;
        long v = curV;
        int scanned = 0;
        long buckets = 0;
        long nodes = 0;
        while (true) {
            v++;
            buckets++;
            if (farCount > 0 && (farTime[0] >>> sh) - v <= bm) {
                farMigrate(v);
            }
            int b = (int) v & bm;
            int e = heads[b];
            if (e != 0) {
                int keep = 0;
                do {
                    int s = e - 1;
                    int o = s << 2;
                    e = (int) sd[o + 3];
                    nodes++;
                    long t = sd[o + 2];
                    if ((t >>> sh) == v) {
                        if (hs[s] == null) { // cancelled: discard
                            freeSlot(s);
                            size--;
                            cancelled--;
                        } else {
                            if (n == bt.length) {
                                growBottom();
                                bt = botTime;
                                bi = botId;
                            }
                            bt[n] = t;
                            bi[n++] = sd[o];
                        }
                    } else { // a later year: stays in the bucket
                        sd[o + 3] = keep;
                        keep = s + 1;
                    }
                } while (e != 0);
                heads[b] = keep;
                if (n > 0 || size == 0) {
                    break;
                }
            }
            if (++scanned > bm) {
                // a whole year without an event of the current year: the width no longer fits the
                // events; re-estimate it and restart at the earliest event (O(n), as a direct search is)
                curV = v;
                rebuild(bm + 1, false, 0, 62);
                if (size > 0) {
                    advance();
                }
                return;
            }
        }
        curV = v;
        botEnd = n;
        int m = n;
        if (m > 1) {
            sortBottom(m);
        }
        winBuckets += buckets;
        winNodes += nodes;
        if (m > 1 && bt[0] != bt[m - 1]) {
            // Sort work a narrower width would save; a batch of one instant's events is as large under any width, so
            // counting it would only make the retune narrow the buckets for nothing (and widen them again).
            winBatchSq += (long) m * m;
        }
        winExtracted += m;
    }

    /** Sorts bottom entries 0..m-1 by (time, id). */
    private void sortBottom(int m) {
        long[] bt = botTime;
        long[] bi = botId;
        if (m <= INSERTION_SORT_MAX) {
            insertionSort(bt, bi, 0, m);
            return;
        }
        if (scratchA.length < m) {
            int cap = Integer.highestOneBit(m) << 1;
            scratchA = new long[cap];
            scratchB = new long[cap];
        }
        // bottom-up merge sort over runs of INSERTION_SORT_MAX, ping-ponging with the scratch arrays
        for (int lo = 0; lo < m; lo += INSERTION_SORT_MAX) {
            insertionSort(bt, bi, lo, Math.min(m, lo + INSERTION_SORT_MAX));
        }
        long[] st = bt;
        long[] si = bi;
        long[] dt = scratchA;
        long[] di = scratchB;
        for (int run = INSERTION_SORT_MAX; run < m; run <<= 1) {
            for (int lo = 0; lo < m; lo += run << 1) {
                int mid = Math.min(m, lo + run);
                int hi = Math.min(m, lo + (run << 1));
                int i = lo;
                int j = mid;
                int k = lo;
                while (i < mid && j < hi) {
                    if (st[j] < st[i] || (st[j] == st[i] && tieBefore(si[j], si[i]))) {
                        dt[k] = st[j];
                        di[k++] = si[j++];
                    } else {
                        dt[k] = st[i];
                        di[k++] = si[i++];
                    }
                }
                while (i < mid) {
                    dt[k] = st[i];
                    di[k++] = si[i++];
                }
                while (j < hi) {
                    dt[k] = st[j];
                    di[k++] = si[j++];
                }
            }
            long[] x = st;
            st = dt;
            dt = x;
            x = si;
            si = di;
            di = x;
        }
        if (st != bt) {
            System.arraycopy(st, 0, bt, 0, m);
            System.arraycopy(si, 0, bi, 0, m);
        }
    }

    private void insertionSort(long[] tt, long[] ii, int from, int to) {
        for (int i = from + 1; i < to; i++) {
            long t = tt[i];
            long id = ii[i];
            int j = i - 1;
            while (j >= from && (tt[j] > t || (tt[j] == t && tieBefore(id, ii[j])))) {
                tt[j + 1] = tt[j];
                ii[j + 1] = ii[j];
                j--;
            }
            tt[j + 1] = t;
            ii[j + 1] = id;
        }
    }

    /** Called by an insertion that reaches rebuildAt: doubles the buckets and/or the slot table. */
    private void grow() {
        int nb = bucketMask + 1;
        if ((long) size >= 2L * LOAD * nb) {
            nb <<= 1;
        }
        rebuild(nb, size >= slotHandler.length >> 1, 0, 62);
    }

    /**
     * Re-estimates the bucket width when the calendar has wasted, over the current window of
     * extracted events, more work than a rebuild costs: visits of empty buckets and of events of
     * later years beyond about two per event mean the width (hence the year) is too small, and
     * large batches to sort, or insertions shifting many entries of the sorted bottom, mean it is too large. The rebuild takes the head-sampled estimate, moved
     * by at least a factor of two in the right direction. Since each O(n) rebuild is paid for by at
     * least as much wasted work, re-estimation at most doubles the cost of a badly suited width.
     * Windows last about 2n extracted events.
     */
    private void retuneIfCostly() {
        long x = winExtracted;
        long budget = 2L * size + 4096;
        long scanWaste = winBuckets + winNodes - 2 * x;
        long sortWaste = winBatchSq + winShifted - 32 * x;
        if (scanWaste > budget) {
            rebuild(bucketMask + 1, false, Math.min(62, shift + 1), 62);
        } else if (sortWaste > budget) {
            rebuild(bucketMask + 1, false, 0, Math.max(0, shift - 1));
        } else if (x >= winLength) {
            resetWindow();
        }
    }

    private void resetWindow() {
        winExtracted = 0;
        winBuckets = 0;
        winNodes = 0;
        winBatchSq = 0;
        winShifted = 0;
        winLength = 2L * size + 4096;
    }

    /**
     * Rebuilds the calendar with nb buckets (a power of two): collects every queued event but the
     * far ones, discards cancelled ones, optionally doubles the slot table, re-estimates the bucket width from the
     * earliest distinct event times (Brown's sampling of the head of the queue: the mean gap,
     * recomputed without gaps above twice the mean, divided by the mean number of events per sampled time, times
     * WIDTH_GAPS, rounded to a power of two and
     * clamped to 2^minShift .. 2^maxShift) and redistributes the events. O(n + nb + slot capacity when the slot table grows); no allocation
     * unless an array must grow.
     */
    private void rebuild(int nb, boolean growSlotTable, int minShift, int maxShift) {
        if (scratchA.length < size) {
            int cap = Integer.highestOneBit(size) << 1;
            scratchA = new long[cap];
            scratchB = new long[cap];
        }
        long[] ids = scratchA;
        long[] sd = slotData;
        EventHandler[] hs = slotHandler;
        int m = SLOT_MASK;
        int n = 0;
        for (int i = botHead; i < botEnd; i++) {
            long id = botId[i];
            int s = (int) id & m;
            if (hs[s] == null) {
                freeSlot(s);
            } else {
                ids[n++] = id;
            }
        }
        int[] heads = bucketHead;
        for (int b = 0; b < heads.length; b++) {
            for (int e = heads[b]; e != 0; ) {
                int s = e - 1;
                int o = s << 2;
                e = (int) sd[o + 3];
                if (hs[s] == null) {
                    freeSlot(s);
                } else {
                    ids[n++] = sd[o];
                }
            }
        }
        // The far heap stays as it is: advance() moves each of its events into its bucket when its year comes,
        // under whatever width is set now, and the calendar restarts no later than its earliest (below). The width
        // is estimated from the other events, which are usually the earliest. (Collecting and re-pushing the far
        // events made each rebuild O(f log f): with an ACK timer per queue pair, most of a large fabric's rebuild
        // time.)
        size = n + farCount;
        cancelled = farCancelled;
        if (growSlotTable) {
            growSlots();
            sd = slotData;
        }
        long minTime = estimateWidth(ids, n);
        if (farCount > 0 && (n == 0 || farTime[0] < minTime)) {
            // The far heap's earliest may come first: far events wider buckets bring within the year wait for
            // advance() to move them, so the calendar must not start past one.
            minTime = farTime[0];
        }
        shift = Math.max(minShift, Math.min(maxShift, shift));
        if (heads.length == nb) {
            Arrays.fill(heads, 0);
        } else {
            heads = bucketHead = new int[nb];
        }
        int bm = nb - 1;
        bucketMask = bm;
        int sh = shift;
        long v0 = (n == 0 && farCount == 0 ? clock.getAsLong() >>> sh : minTime >>> sh) - 1;
        for (int i = 0; i < n; i++) {
            int s = (int) ids[i] & m;
            int o = s << 2;
            long t = sd[o + 2];
            if ((t >>> sh) - v0 > bm) {
                farPush(t, ids[i]);
                continue;
            }
            int b = (int) (t >>> sh) & bm;
            sd[o + 3] = heads[b];
            heads[b] = s + 1;
        }
        botHead = 0;
        botEnd = 0;
        curV = v0;
        setThresholds();
        resetWindow();
    }

    /**
     * Sets shift from the earliest WIDTH_SAMPLE distinct times of the given events (keeps it when
     * they hold fewer than two distinct times) and returns the earliest time ({@code Long.MAX_VALUE} when
     * {@code n == 0}). O(n).
     */
    private long estimateWidth(long[] ids, int n) {
        long[] sd = slotData;
        int m = SLOT_MASK;
        long[] smp = sample;
        int[] cnt = sampleCount;
        int k = 0;
        for (int i = 0; i < n; i++) {
            long t = sd[(((int) ids[i] & m) << 2) + 2];
            if (k == WIDTH_SAMPLE && t > smp[k - 1]) {
                continue;
            }
            int j = k - 1;
            while (j >= 0 && smp[j] > t) {
                j--;
            }
            if (j >= 0 && smp[j] == t) {
                cnt[j]++;
                continue;
            }
            int last = Math.min(k, WIDTH_SAMPLE - 1);
            System.arraycopy(smp, j + 1, smp, j + 2, last - j - 1);
            System.arraycopy(cnt, j + 1, cnt, j + 2, last - j - 1);
            smp[j + 1] = t;
            cnt[j + 1] = 1;
            if (k < WIDTH_SAMPLE) {
                k++;
            }
        }
        if (k >= 2) {
            double mean = (double) (smp[k - 1] - smp[0]) / (k - 1);
            double sum = 0;
            int count = 0;
            long events = 0;
            for (int i = 1; i < k; i++) {
                long g = smp[i] - smp[i - 1];
                if (g <= 2 * mean) {
                    sum += g;
                    count++;
                }
                events += cnt[i - 1];
            }
            // Many events at each distinct time (a symmetric fabric: every host doing the same at the same instant)
            // make a bucket of WIDTH_GAPS distinct times a batch of thousands, into the middle of which the events
            // they schedule are inserted one by one (each shifting the later entries of the sorted bottom). The
            // width is WIDTH_GAPS gaps per event, not per distinct time: with m events per distinct time, a bucket
            // then spans a fraction of a gap and holds the events of one instant, and those scheduled for later
            // instants go to buckets. The last sampled time's count is left out (it may be partial).
            double perTime = (double) events / (k - 1);
            double width = WIDTH_GAPS * sum / count / Math.max(1.0, perTime);
            int sh = (int) Math.round(Math.log(width) / Math.log(2));
            shift = Math.max(0, Math.min(62, sh));
        }
        return k == 0 ? Long.MAX_VALUE : smp[0]; // with no event, rebuild() starts the calendar at the clock
    }

    private void setThresholds() {
        int nb = bucketMask + 1;
        rebuildAt = (int) Math.min(2L * LOAD * nb, slotHandler.length >> 1);
        shrinkBelow = nb > MIN_BUCKETS ? LOAD * nb / 2 : 0;
    }

    /**
     * Doubles the slot table. Slots keep their index (an id names its slot), so this copies the table and adds the new
     * slots under the free ones: the slots in use stay at the front. O(capacity).
     */
    private void growSlots() {
        int cap = slotHandler.length;
        int newCap = cap << 1;
        if (newCap <= 0 || newCap > (1 << SLOT_BITS)) {
            throw new IllegalStateException("too many pending events");
        }
        slotData = Arrays.copyOf(slotData, newCap << 2);
        slotHandler = Arrays.copyOf(slotHandler, newCap);
        if (slotKey != null) {
            slotKey = Arrays.copyOf(slotKey, newCap);
            slotOwner = Arrays.copyOf(slotOwner, newCap);
        }
        int[] free = new int[newCap];
        int added = newCap - cap;
        for (int k = 0; k < added; k++) {
            free[k] = newCap - 1 - k;
        }
        System.arraycopy(freeSlots, 0, free, added, freeTop);
        freeSlots = free;
        freeTop += added;
    }

    /** Frees a slot whose event was taken or discarded: the next insertion takes it. */
    private void freeSlot(int s) {
        slotData[s << 2] = 0;
        freeSlots[freeTop++] = s;
    }

    /** The free-slot stack of a new table: every slot, slot 0 on top. */
    private static int[] initialFreeSlots(int cap) {
        int[] free = new int[cap];
        for (int k = 0; k < cap; k++) {
            free[k] = cap - 1 - k;
        }
        return free;
    }

    /**
     * Cancels a pending event. Costs O(1): the event is only marked; it is discarded when the
     * calendar reaches it (or when a rebuild runs, O(n), once cancelled events outnumber live ones
     * in a large queue).
     *
     * @param eventId an id returned by {@link #insert}
     * @return true if the event was pending and is now cancelled; false if it was already taken or
     *     cancelled, or the id is unknown
     */
    @Override
    public boolean cancel(long eventId) {
        if (eventId <= 0) {
            return false;
        }
        int s = (int) eventId & SLOT_MASK;
        if (s >= slotHandler.length || slotData[s << 2] != eventId || slotHandler[s] == null) {
            return false;
        }
        slotHandler[s] = null;
        slotData[(s << 2) + 1] = 0;
        cancelled++;
        if (slotData[(s << 2) + 3] == IN_FAR_HEAP) {
            farCancelled++;
        }
        if (cancelled >= PURGE_MIN_CANCELLED && cancelled > (size >>> 1)) {
            purgeCancelled();
        }
        return true;
    }

    /**
     * Tells whether an event is still pending. Costs O(1).
     *
     * @param eventId an id returned by {@link #insert}
     * @return true if the event has been inserted and has been neither taken nor cancelled
     */
    @Override
    public boolean isPending(long eventId) {
        if (eventId <= 0) {
            return false;
        }
        int s = (int) eventId & SLOT_MASK;
        return s < slotHandler.length && slotData[s << 2] == eventId && slotHandler[s] != null;
    }

    /** Drops all cancelled events and rebuilds the calendar for the live ones. O(n). */
    private void purgeCancelled() {
        compactFarHeap();
        int live = size - cancelled;
        int nb = bucketMask + 1;
        while (nb > MIN_BUCKETS && (long) live < (long) LOAD * nb / 2) {
            nb >>= 1;
        }
        rebuild(nb, false, 0, 62);
    }

    /** Events physically held: pending, plus cancelled ones not yet discarded (for tests of the memory bound). */
    int heldEvents() {
        return size;
    }

    /** Far events physically held, cancelled ones included (for tests). */
    int farEvents() {
        return farCount;
    }

    /** The bucket width in picoseconds (for tests of the width estimate). */
    long bucketWidthPs() {
        return 1L << shift;
    }

    /** Discards the cancelled events of the far heap and restores the heap order. O(f). */
    private void compactFarHeap() {
        if (farCancelled == 0) {
            return;
        }
        long[] sd = slotData;
        EventHandler[] hs = slotHandler;
        long[] ft = farTime;
        long[] fi = farId;
        int m = SLOT_MASK;
        int kept = 0;
        for (int i = 0; i < farCount; i++) {
            int s = (int) fi[i] & m;
            if (hs[s] == null) {
                freeSlot(s);
            } else {
                ft[kept] = ft[i];
                fi[kept++] = fi[i];
            }
        }
        size -= farCount - kept;
        cancelled -= farCount - kept;
        farCancelled = 0;
        farCount = kept;
        for (int i = (kept >>> 1) - 1; i >= 0; i--) {
            siftDown(i);
        }
    }

    /** Called by a dispatch that took size below shrinkBelow: halves the buckets. O(n). */
    private void shrink() {
        rebuild((bucketMask + 1) >> 1, false, 0, 62);
    }

    /**
     * Makes the earliest live event the first entry of the bottom, discarding cancelled events
     * ahead of it; leaves the bottom empty only if no event is queued.
     */
    private void settleTop() {
        while (true) {
            if (botHead == botEnd) {
                if (size == 0) {
                    return;
                }
                advance();
                continue;
            }
            int s = (int) botId[botHead] & SLOT_MASK;
            if (slotHandler[s] != null) {
                return;
            }
            freeSlot(s);
            size--;
            cancelled--;
            botHead++;
        }
    }

    /**
     * {@inheritDoc} Amortised O(1): it may advance the calendar and discard cancelled events ahead of the head.
     */
    @Override
    public long peekTime() {
        settleTop();
        return botHead == botEnd ? Long.MAX_VALUE : botTime[botHead];
    }

    /**
     * {@inheritDoc} Amortised O(1): when the head of the bottom is pending (the usual case) it costs a few array
     * reads; otherwise it discards cancelled events and advances the calendar.
     */
    @Override
    public EventHandler peek() {
        int i = botHead;
        if (i != botEnd) {
            EventHandler h = slotHandler[(int) botId[i] & SLOT_MASK];
            if (h != null) {
                return h;
            }
        }
        settleTop();
        return botHead == botEnd ? null : slotHandler[(int) botId[botHead] & SLOT_MASK];
    }

    @Override
    public long headTime() {
        return botTime[botHead];
    }

    @Override
    public long headArg() {
        return slotData[(((int) botId[botHead] & SLOT_MASK) << 2) + 1];
    }

    @Override
    public long headId() {
        return botId[botHead];
    }

    /**
     * Returns the owner of the head in a keyed list (0 in a default one). Precondition as for {@link #headTime()}.
     *
     * @return the owner given to {@link #insertKeyed}
     */
    public int headOwner() {
        int[] o = slotOwner;
        return o == null ? 0 : o[(int) botId[botHead] & SLOT_MASK];
    }

    /**
     * Returns the key of the head in a keyed list, or its id in a default one. Precondition as for
     * {@link #headTime()}.
     *
     * @return the key that orders the head among events of its time
     */
    public long headKey() {
        long[] k = slotKey;
        long id = botId[botHead];
        return k == null ? id : k[(int) id & SLOT_MASK];
    }

    /**
     * {@inheritDoc} O(1), or O(n) when the removal takes the population below the shrink threshold (the calendar is
     * rebuilt with half the buckets; amortised O(1)).
     */
    @Override
    public void pollMin() {
        int i = botHead;
        long id = botId[i];
        int m = SLOT_MASK;
        botHead = i + 1;
        if (taken != 0) {
            freeSlot((int) taken & m); // the previous event was not queued again: its slot is free
        }
        taken = id; // its slot stays taken (id kept, handler cleared) until the next pollMin
        slotHandler[(int) id & m] = null;
        if (--size < shrinkBelow) {
            shrink();
        }
    }

    /**
     * Queues the event taken by the last {@link #pollMin} again, under its id, at a time no earlier than its own:
     * among events of equal time it keeps the place its id gives it (after those inserted before it first was,
     * before those inserted after). Amortised O(1), as {@link #insert}; at most once per {@link #pollMin}.
     *
     * @param time the new time, not before the clock
     * @param h the handler
     * @param arg the argument
     * @return the event's id (the same as before)
     * @throws IllegalStateException if no event was taken since the last such call
     */
    public long reinsertTaken(long time, EventHandler h, long arg) {
        if (h == null) {
            throw new NullPointerException("the EventHandler to schedule is null");
        }
        long id = taken;
        if (id == 0) {
            throw new IllegalStateException("no event taken to queue again");
        }
        if (size >= rebuildAt) {
            grow(); // a slot table growth keeps the taken slot (it holds its id)
        }
        taken = 0;
        long[] sd = slotData;
        int s = (int) id & SLOT_MASK;
        int o = s << 2;
        sd[o + 1] = arg;
        sd[o + 2] = time;
        slotHandler[s] = h;
        size++;
        placeOrdered(time, id, o);
        return id;
    }

    /** {@inheritDoc} O(1). */
    @Override
    public int size() {
        return size - cancelled;
    }
}
