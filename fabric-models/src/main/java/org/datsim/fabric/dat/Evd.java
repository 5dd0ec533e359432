package org.datsim.fabric.dat;

import java.util.ArrayDeque;

/**
 * An event dispatcher: a bounded FIFO of events from the streams that feed it, with at most one waiter. Events of
 * one stream leave in the order they were queued.
 */
public final class Evd extends DatHandle {

    int qlen;
    final int flags;
    final ArrayDeque<DatEvent> queue = new ArrayDeque<>();
    Runnable waiter;
    boolean enabled = true;
    boolean waitable = true;
    int users;
    /** The endpoints whose DTO completions this EVD receives, in creation order. */
    final java.util.List<Ep> feeders = new java.util.ArrayList<>();
    long overflows;
    /** How many events were ever queued on it (explored runs: {@link ReapHold} watches it grow). */
    long queuedTotal;
    /** The CNO this EVD notifies, or null. */
    Cno cno;

    Evd(String name, Ia ia, int qlen, int flags) {
        super(TYPE_EVD, name, ia);
        this.qlen = qlen;
        this.flags = flags;
    }

    /** Returns the queue length the EVD was created with. */
    public int qlen() {
        return qlen;
    }

    /** Returns the DAT_EVD_FLAGS of the streams it accepts. */
    public int flags() {
        return flags;
    }

    /** Returns the number of events queued. */
    public int size() {
        return queue.size();
    }

    /** Returns true while a consumer is blocked in dat_evd_wait on this EVD. */
    public boolean hasWaiter() {
        return waiter != null;
    }

    /** Returns false after dat_evd_set_unwaitable (until dat_evd_clear_unwaitable). */
    public boolean isWaitable() {
        return waitable;
    }

    /** Returns false after dat_evd_disable (until dat_evd_enable). */
    public boolean isEnabled() {
        return enabled;
    }

    /** Returns the CNO this EVD notifies, or null. */
    public Cno cno() {
        return cno;
    }

    /** Returns how many events were lost to overflow. */
    public long overflows() {
        return overflows;
    }
}
