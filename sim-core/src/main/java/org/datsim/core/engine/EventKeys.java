package org.datsim.core.engine;

/**
 * The keys that order events of equal time in a simulation with owners: an event scheduled while an event of owner
 * X executes (or by set-up code, which runs as owner 0) gets the key (X, X's own count of events scheduled so far).
 * The key names the source and its sequence, never the thread, partition or event list that queues the event, so it
 * is the same however the owners are grouped into partitions; events of equal time run in increasing key order.
 *
 * <p>A key is packed in a {@code long}: the owner in the high {@value #OWNER_BITS} bits (below the sign bit), the
 * sequence in the low {@value #SEQ_BITS}. Sequences start at 1, so when every event is owner 0's the keys increase
 * with scheduling order, which is exactly the order of a {@link Simulator} without owners.
 *
 * <p>Owner X's counter is advanced only by code running as X: by one thread at a time in the partitioned engine
 * (X's partition's during a run, the caller's during set-up). The partitioned engine spaces the counters a cache line
 * apart so that partitions on different threads do not share a line.
 */
public final class EventKeys {

    /** Bits of the sequence within a key. */
    public static final int SEQ_BITS = 39;

    /** Bits of the owner within a key. */
    public static final int OWNER_BITS = 63 - SEQ_BITS;

    /** The most owners a simulation may have. */
    public static final int MAX_OWNERS = 1 << OWNER_BITS;

    private static final long MAX_SEQ = (1L << SEQ_BITS) - 1;

    private final long[] next;
    private final int owners;
    private final int strideShift;

    private EventKeys(int owners, int strideShift) {
        if (owners < 1 || owners > MAX_OWNERS) {
            throw new IllegalArgumentException("a simulation has 1 to " + MAX_OWNERS + " owners, found " + owners);
        }
        this.owners = owners;
        this.strideShift = strideShift;
        this.next = new long[owners << strideShift];
        for (int i = 0; i < owners; i++) {
            next[i << strideShift] = 1;
        }
    }

    /**
     * Creates the counters of owners 0 to {@code owners - 1}, packed (for a single thread).
     *
     * @param owners the number of owners, 1 to {@link #MAX_OWNERS}
     * @return the counters, each at its first sequence
     * @throws IllegalArgumentException if {@code owners} is out of range
     */
    public static EventKeys of(int owners) {
        return new EventKeys(owners, 0);
    }

    /** Counters a cache line (8 longs) apart, for owners advanced by different threads. */
    static EventKeys spaced(int owners) {
        return new EventKeys(owners, 3);
    }

    /**
     * Returns the number of owners.
     *
     * @return owners are 0 to {@code owners() - 1}
     */
    public int owners() {
        return owners;
    }

    /**
     * Returns the next key of an owner and advances its counter.
     *
     * @param owner the owner, {@code 0 <= owner < owners()} (unchecked here: the caller checks it)
     * @return the key
     * @throws IllegalStateException if the owner has scheduled 2^39 - 1 events
     */
    long next(int owner) {
        int i = owner << strideShift;
        long s = next[i];
        if (s > MAX_SEQ) {
            throw new IllegalStateException("owner " + owner + " has scheduled " + MAX_SEQ + " events, the most a key holds");
        }
        next[i] = s + 1;
        return ((long) owner << SEQ_BITS) | s;
    }

    /**
     * Returns the owner that scheduled the event with a key.
     *
     * @param key a key
     * @return its owner
     */
    public static int ownerOf(long key) {
        return (int) (key >>> SEQ_BITS);
    }

    /**
     * Returns the sequence of a key: its owner's count of events scheduled up to and including it.
     *
     * @param key a key
     * @return the sequence, from 1
     */
    public static long sequenceOf(long key) {
        return key & MAX_SEQ;
    }
}
