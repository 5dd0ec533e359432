package org.datsim.core.engine;

import java.util.Arrays;

/**
 * The events one partition of a {@link PartitionedSimulator} sent to another during one window, held until the
 * window boundary: parallel arrays of (time, key, owner, handler, argument), grown by doubling, never shrunk, so a
 * send allocates nothing in steady state. Written by the sending partition's thread during the window, drained by the
 * receiving partition's thread in the next (the barrier between them orders the two).
 */
final class Mailbox {

    private long[] time = new long[16];
    private long[] key = new long[16];
    private long[] arg = new long[16];
    private int[] owner = new int[16];
    private EventHandler[] handler = new EventHandler[16];
    /** The carried objects ({@link Carrier}), null where an event carries none. */
    private Object[] ref = new Object[16];
    private int count;
    private long minTime = Long.MAX_VALUE;

    /** Holds one event. */
    void add(long t, long k, int o, EventHandler h, long a, Object r) {
        int n = count;
        if (n == time.length) {
            int cap = n << 1;
            time = Arrays.copyOf(time, cap);
            key = Arrays.copyOf(key, cap);
            arg = Arrays.copyOf(arg, cap);
            owner = Arrays.copyOf(owner, cap);
            handler = Arrays.copyOf(handler, cap);
            ref = Arrays.copyOf(ref, cap);
        }
        time[n] = t;
        key[n] = k;
        arg[n] = a;
        owner[n] = o;
        handler[n] = h;
        ref[n] = r;
        count = n + 1;
        if (t < minTime) {
            minTime = t;
        }
    }

    /** The earliest time held, {@code Long.MAX_VALUE} when empty. */
    long minTime() {
        return minTime;
    }

    /** The number of events held. */
    int size() {
        return count;
    }

    /**
     * Queues every held event in the receiving partition, with the key and owner it was sent with, and empties the
     * box. The order of these insertions does not matter: a keyed list takes events of equal time in key order.
     */
    void drainInto(Simulator dst) {
        int n = count;
        for (int i = 0; i < n; i++) {
            deliver(dst, i, key[i]);
        }
        count = 0;
        minTime = Long.MAX_VALUE;
    }

    /** Hands entry i to dst with key k: its object to its carrier first, if it carries one. */
    private void deliver(Simulator dst, int i, long k) {
        Object r = ref[i];
        if (r != null) {
            ref[i] = null;
            ((Carrier) handler[i]).carry(arg[i], r);
        }
        dst.deliver(time[i], k, owner[i], handler[i], arg[i]);
        handler[i] = null;
    }

    /**
     * For the tests that show what the keys protect: drains as {@link #drainInto} but in reverse order ({@code fault}
     * 1, which must change nothing), or with each event re-keyed in arrival order after the destination's own events
     * of equal time ({@code fault} 2, the tie-break of an engine without source keys, which must be detected).
     */
    void drainForTest(Simulator dst, int fault, long arrivalBase) {
        int n = count;
        for (int j = 0; j < n; j++) {
            int i = fault == 1 ? n - 1 - j : j;
            long k = fault == 2 ? arrivalBase + arrivals++ : key[i];
            deliver(dst, i, k);
        }
        count = 0;
        minTime = Long.MAX_VALUE;
    }

    private long arrivals;
}
