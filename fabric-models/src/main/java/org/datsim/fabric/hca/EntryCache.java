package org.datsim.fabric.hca;

import org.apache.commons.math3.random.RandomGenerator;

/**
 * A fixed-capacity cache of {@code long} keys, as the on-chip caches of an HCA hold QP contexts or memory translation
 * entries: it only records which keys are present and counts hits and misses; the caller charges the miss penalty.
 *
 * <p>The entries live in primitive arrays, threaded on an intrusive doubly linked list (most recently used or most
 * recently inserted first) and indexed by an open-addressing hash table with linear probing and backward-shift
 * deletion. {@link #access} costs O(1) expected time. The arrays start with room for {@value #INITIAL} entries and
 * double as entries are inserted, up to the capacity, then never allocate again: an HCA's MTT cache of 4,096 entries
 * that holds a few dozen (a host with little registered memory) costs about 1 KB, not 128 KB, which on a fabric of
 * 8,192 hosts is a gigabyte. Growing rebuilds the hash table; it changes no entry, order or count.
 *
 * <p>Replacement: {@link #LRU} evicts the least recently used entry, {@link #FIFO} the oldest inserted one,
 * {@link #RANDOM} an entry drawn uniformly from a seeded stream. A capacity of 0 means unlimited: every access hits
 * and nothing is stored.
 *
 * <p>Entries may be fetched ahead of use ({@link #fill}, a prefetch or the rest of a block read): each has the time it
 * becomes usable, which {@link #lookup} compares with the time of the lookup. {@link #access} and {@link #preload}
 * make entries usable at once.
 */
public final class EntryCache {

    /** Least recently used replacement. */
    public static final int LRU = 0;
    /** First in, first out replacement. */
    public static final int FIFO = 1;
    /** Random replacement from a seeded stream. */
    public static final int RANDOM = 2;

    private final int capacity;
    private final int policy;
    /** The room the arrays start with (or the capacity, if smaller). */
    static final int INITIAL = 16;

    private long[] keys;
    /** Per slot: when its entry becomes usable (its fetch returns), ps; Long.MIN_VALUE for at once. */
    private long[] ready;
    private int[] prev;
    private int[] next;
    private int[] table;
    private int mask;
    private int size;
    private int head = -1;
    private int tail = -1;
    private long hits;
    private long misses;
    private long evictions;
    private RandomGenerator random;

    /**
     * Creates a cache.
     *
     * @param capacity the number of entries; 0 for unlimited (never misses)
     * @param policy {@link #LRU}, {@link #FIFO} or {@link #RANDOM}
     */
    public EntryCache(int capacity, int policy) {
        if (capacity < 0 || policy < LRU || policy > RANDOM) {
            throw new IllegalArgumentException("capacity " + capacity + ", policy " + policy);
        }
        this.capacity = capacity;
        this.policy = policy;
        int room = Math.min(capacity, INITIAL);
        this.keys = new long[room];
        this.ready = new long[room];
        this.prev = new int[room];
        this.next = new int[room];
        int tableSize = tableSizeFor(room);
        this.table = new int[capacity == 0 ? 0 : tableSize];
        this.mask = tableSize - 1;
    }

    /** A hash table for {@code room} entries: a power of two at least twice as large (load factor at most 1/2). */
    private static int tableSizeFor(int room) {
        return Integer.highestOneBit(Math.max(2, room * 2 - 1)) << 1;
    }

    /** Doubles the room (up to the capacity) and indexes every entry again. */
    private void grow() {
        int room = Math.min(capacity, 2 * keys.length);
        keys = java.util.Arrays.copyOf(keys, room);
        ready = java.util.Arrays.copyOf(ready, room);
        prev = java.util.Arrays.copyOf(prev, room);
        next = java.util.Arrays.copyOf(next, room);
        int tableSize = tableSizeFor(room);
        table = new int[tableSize];
        mask = tableSize - 1;
        for (int s = 0; s < size; s++) {
            addToTable(s);
        }
    }

    /**
     * Sets the stream the {@link #RANDOM} policy draws victims from.
     *
     * @param random a stream derived from the run's seed
     */
    public void setRandom(RandomGenerator random) {
        this.random = random;
    }

    /**
     * Looks a key up, counting a hit or a miss; a missing key is inserted, evicting an entry if the cache is full.
     *
     * @param key the key
     * @return true on a hit
     */
    public boolean access(long key) {
        if (capacity == 0) {
            hits++;
            return true;
        }
        if (head >= 0 && keys[head] == key) {
            hits++; // the most recently used (LRU) or inserted (FIFO, random) entry: a hit changes no order
            return true;
        }
        int pos = find(key);
        if (pos >= 0) {
            hits++;
            if (policy == LRU) {
                toFront(table[pos] - 1);
            }
            return true;
        }
        misses++;
        insert(key, Long.MIN_VALUE);
        return false;
    }

    /**
     * Looks a key up at a time: a present entry usable by then is a hit; a present one whose fetch has not returned
     * yet (a prefetch) costs the wait and counts as a miss; a missing key counts as a miss and is inserted (evicting
     * an entry if the cache is full), usable at {@code readyIfMissing}. LRU order and hit counts as {@link #access}.
     *
     * @param key the key
     * @param at the time of the lookup, ps
     * @param readyIfMissing when a missing key's entry, fetched now, becomes usable, ps
     * @return -1 if the key was missing; otherwise the wait until its entry is usable, 0 on a hit
     */
    public long lookup(long key, long at, long readyIfMissing) {
        if (capacity == 0) {
            hits++;
            return 0;
        }
        int slot;
        if (head >= 0 && keys[head] == key) {
            slot = head;
        } else {
            int pos = find(key);
            if (pos < 0) {
                misses++;
                insert(key, readyIfMissing);
                return -1;
            }
            slot = table[pos] - 1;
            if (policy == LRU) {
                toFront(slot);
            }
        }
        if (ready[slot] > at) { // compared, not subtracted: Long.MIN_VALUE - at would overflow
            misses++;
            return ready[slot] - at;
        }
        hits++;
        return 0;
    }

    /**
     * Loads a key fetched without a lookup of its own (the other entries of a block read, or a prefetch): a missing
     * key is inserted, usable at {@code readyAt}, evicting an entry if the cache is full; a present key is left as it
     * is (its place in the replacement order too). Counts no access.
     *
     * @param key the key
     * @param readyAt when its entry becomes usable, ps
     * @return true if the key was inserted
     */
    public boolean fill(long key, long readyAt) {
        if (capacity == 0 || find(key) >= 0) {
            return false;
        }
        insert(key, readyAt);
        return true;
    }

    /**
     * Loads a key without counting an access (as the driver's create-QP or register-memory command leaves the new
     * entry in the cache). A present key counts as used.
     *
     * @param key the key
     */
    public void preload(long key) {
        if (capacity == 0) {
            return;
        }
        int pos = find(key);
        if (pos >= 0) {
            int slot = table[pos] - 1;
            ready[slot] = Long.MIN_VALUE;
            if (policy == LRU) {
                toFront(slot);
            }
        } else {
            insert(key, Long.MIN_VALUE);
        }
    }

    /** Returns true if the key is cached now (always true for an unlimited cache); counts nothing. */
    public boolean contains(long key) {
        return capacity == 0 || find(key) >= 0;
    }

    /** Returns the capacity in entries (0 = unlimited). */
    public int capacity() {
        return capacity;
    }

    /** Returns the number of entries held. */
    public int size() {
        return size;
    }

    /** Returns the number of accesses that hit. */
    public long hits() {
        return hits;
    }

    /** Returns the number of accesses that missed. */
    public long misses() {
        return misses;
    }

    /** Returns the number of entries evicted to make room. */
    public long evictions() {
        return evictions;
    }

    private static int hash(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32));
    }

    /** Returns the table position holding the key, or -1. */
    private int find(long key) {
        int i = hash(key) & mask;
        while (true) {
            int s = table[i];
            if (s == 0) {
                return -1;
            }
            if (keys[s - 1] == key) {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    private void insert(long key, long readyAt) {
        int slot;
        if (size < capacity) {
            if (size == keys.length) {
                grow();
            }
            slot = size++;
        } else {
            slot = policy == RANDOM && random != null ? random.nextInt(capacity) : tail;
            removeFromTable(keys[slot]);
            unlink(slot);
            evictions++;
        }
        keys[slot] = key;
        ready[slot] = readyAt;
        linkFront(slot);
        addToTable(slot);
    }

    /** Indexes a slot's key in the hash table (linear probing to the first free position). */
    private void addToTable(int slot) {
        int i = hash(keys[slot]) & mask;
        while (table[i] != 0) {
            i = (i + 1) & mask;
        }
        table[i] = slot + 1;
    }

    private void removeFromTable(long key) {
        int i = find(key);
        int j = i;
        while (true) {
            j = (j + 1) & mask;
            int s = table[j];
            if (s == 0) {
                break;
            }
            int home = hash(keys[s - 1]) & mask;
            // Move the entry at j back into the hole at i unless its home lies cyclically in (i, j].
            boolean stays = i <= j ? (home > i && home <= j) : (home > i || home <= j);
            if (!stays) {
                table[i] = s;
                i = j;
            }
        }
        table[i] = 0;
    }

    private void toFront(int slot) {
        if (slot != head) {
            unlink(slot);
            linkFront(slot);
        }
    }

    private void unlink(int slot) {
        int p = prev[slot];
        int n = next[slot];
        if (p >= 0) {
            next[p] = n;
        } else {
            head = n;
        }
        if (n >= 0) {
            prev[n] = p;
        } else {
            tail = p;
        }
    }

    private void linkFront(int slot) {
        prev[slot] = -1;
        next[slot] = head;
        if (head >= 0) {
            prev[head] = slot;
        }
        head = slot;
        if (tail < 0) {
            tail = slot;
        }
    }
}
