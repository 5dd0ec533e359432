package org.datsim.scenario.consumer;

import org.datsim.core.engine.Simulator;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;

/**
 * The wait a consumer is blocked in, dat_evd_wait or dat_cno_wait, and the rules that end it, for scenario processes
 * and bridged programs alike: the object waited on, the consumer's wake-up registered with it, the timeout's
 * deadline and timer. A consumer asks {@link #evdState} and {@link #check} each time it is woken and reports the
 * {@link End} its own way (a scenario's trace and expectations, a bridged program's reply); the explored runs'
 * holds of a scenario's wait are layered on top ({@code scenario.run.Wait}) and use {@link #disarm}.
 */
public final class BlockedWait {

    /** How a consumer arms and cancels the wake-ups of its timeouts (its process's timers). */
    public interface Timers {
        /**
         * Wakes the consumer after a delay.
         *
         * @param delayPs the delay
         * @return the wake-up's id, for {@link #cancelTimer}
         */
        long timer(long delayPs);

        /**
         * Cancels a wake-up of {@link #timer}.
         *
         * @param id its id
         */
        void cancelTimer(long id);
    }

    /** How a wait ends (or not yet), and what the call returns then. */
    public enum End {
        /** Not over: the consumer stays blocked. */
        NOT_YET(DatReturn.SUCCESS),
        /** dat_evd_wait: the EVD was freed under it (its IA closed): DAT_ABORT. */
        ABORTED(DatReturn.error(DatReturn.ABORT, 0)),
        /** dat_evd_wait: the EVD was made unwaitable: DAT_INVALID_STATE. */
        UNWAITABLE(DatReturn.error(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_UNWAITABLE)),
        /** dat_evd_wait: the timeout passed first: DAT_TIMEOUT_EXPIRED, nothing dequeued. */
        TIMED_OUT(DatReturn.error(DatReturn.TIMEOUT_EXPIRED, 0)),
        /** dat_evd_wait: enough events are queued: the consumer dequeues one (its return is the dequeue's). */
        EVENTS(DatReturn.SUCCESS),
        /** dat_cno_wait: an EVD notified it: DAT_SUCCESS with that EVD ({@code dat.cnoTake}). */
        NOTIFIED(DatReturn.SUCCESS),
        /** dat_cno_wait: the CNO was freed or its last EVD went: DAT_SUCCESS with no EVD. */
        RELEASED(DatReturn.SUCCESS),
        /** dat_cno_wait: the timeout passed, or nothing can notify an infinite wait any more: DAT_QUEUE_EMPTY. */
        EMPTY(DatReturn.error(DatReturn.QUEUE_EMPTY, 0));

        private final int ret;

        End(int ret) {
            this.ret = ret;
        }

        /**
         * Returns what the call returns when it ends so.
         *
         * @return the DAT_RETURN
         */
        public int ret() {
            return ret;
        }
    }

    private final DatProvider dat;
    private final Simulator sim;
    private final Runnable wake;
    private final Timers timers;
    /** The EVD of a blocked dat_evd_wait, or null. */
    private Evd evd;
    private int threshold;
    /** The CNO of a blocked dat_cno_wait, or null. */
    private Cno cno;
    /** The CNO's {@link Cno#releases()} when the dat_cno_wait blocked. */
    private long cnoReleases;
    private long deadline;
    private long timer;

    /**
     * @param dat the provider
     * @param sim the simulator (its clock)
     * @param wake the consumer's wake-up, registered with the object waited on (one instance, so it can be removed)
     * @param timers the consumer's timers
     */
    public BlockedWait(DatProvider dat, Simulator sim, Runnable wake, Timers timers) {
        this.dat = dat;
        this.sim = sim;
        this.wake = wake;
        this.timers = timers;
    }

    /**
     * How a dat_cno_wait whose checks passed ends at once: {@link End#NOTIFIED} when an EVD notification is pending,
     * {@link End#EMPTY} when the CNO has no EVD and the wait is infinite (nothing could ever notify it), else
     * {@link End#NOT_YET} (it blocks).
     *
     * @param c the CNO
     * @param timeoutUs the timeout
     * @return how it ends
     */
    public static End cnoAtOnce(Cno c, long timeoutUs) {
        if (c.pending() != null) {
            return End.NOTIFIED;
        }
        return c.evdCount() == 0 && timeoutUs == Dat.TIMEOUT_INFINITE ? End.EMPTY : End.NOT_YET;
    }

    /** Returns true while the consumer is blocked in a wait. */
    public boolean active() {
        return evd != null || cno != null;
    }

    /** Returns the EVD of a blocked dat_evd_wait, or null. */
    public Evd evd() {
        return evd;
    }

    /** Returns the CNO of a blocked dat_cno_wait, or null. */
    public Cno cno() {
        return cno;
    }

    /** Returns how many events end the blocked dat_evd_wait. */
    public int threshold() {
        return threshold;
    }

    /** Returns the simulated time the wait times out at ({@code Long.MAX_VALUE}: never). */
    public long deadline() {
        return deadline;
    }

    /** Returns whether the wait's timeout has passed. */
    public boolean timedOut() {
        return sim.now() >= deadline;
    }

    /**
     * Blocks in dat_evd_wait: registers the wake-up with the EVD and arms the timeout.
     *
     * @param e the EVD
     * @param n how many events end the wait
     * @param timeoutUs the timeout, or DAT_TIMEOUT_INFINITE
     */
    public void blockEvd(Evd e, int n, long timeoutUs) {
        evd = e;
        threshold = n;
        block(timeoutUs);
    }

    /**
     * Blocks in dat_cno_wait: registers the wake-up with the CNO and arms the timeout.
     *
     * @param c the CNO
     * @param timeoutUs the timeout, or DAT_TIMEOUT_INFINITE
     */
    public void blockCno(Cno c, long timeoutUs) {
        cno = c;
        cnoReleases = c.releases();
        block(timeoutUs);
    }

    private void block(long timeoutUs) {
        watch(true);
        if (timeoutUs != Dat.TIMEOUT_INFINITE) {
            long delay = timeoutUs * SimTime.US;
            deadline = sim.now() + delay;
            timer = timers.timer(delay);
        } else {
            deadline = Long.MAX_VALUE;
            timer = 0;
        }
    }

    /** The timeout no longer matters (an explored hold took over): cancels the timer, the deadline is never. */
    public void disarm() {
        if (timer != 0) {
            timers.cancelTimer(timer);
            timer = 0;
        }
        deadline = Long.MAX_VALUE;
    }

    /** Makes the wait time out now (nothing can end it any more: every consumer is blocked and no event left). */
    public void expireNow() {
        deadline = sim.now();
    }

    /**
     * The blocked dat_evd_wait's object: {@link End#ABORTED} when the EVD was freed (its IA closed under the wait),
     * {@link End#UNWAITABLE} when it was made unwaitable, else {@link End#NOT_YET}.
     *
     * @return how it ends because of its object
     */
    public End evdState() {
        return evd.isFreed() ? End.ABORTED : !evd.isWaitable() ? End.UNWAITABLE : End.NOT_YET;
    }

    /**
     * Looks at the blocked wait with the plain rules (no explored holds). A dat_evd_wait ends when its object ends it
     * ({@link #evdState}), at the timeout, or when enough events are queued. A dat_cno_wait ends with the notifying
     * EVD, with no EVD when the CNO was freed (its IA closed) or lost its last EVD to a free, or with
     * DAT_QUEUE_EMPTY at the timeout or at once when an infinite wait's CNO lost its last EVD to
     * dat_evd_modify_cno (taking an EVD away is not freeing it).
     *
     * @return how it ends, or {@link End#NOT_YET}
     */
    public End check() {
        boolean timedOut = timedOut();
        if (evd != null) {
            End s = evdState();
            if (s != End.NOT_YET) {
                return s;
            }
            return timedOut ? End.TIMED_OUT : evd.size() >= threshold ? End.EVENTS : End.NOT_YET;
        }
        if (cno.pending() != null) {
            return End.NOTIFIED;
        }
        if (cno.isFreed() || cno.releases() != cnoReleases) {
            return End.RELEASED;
        }
        return timedOut || (cno.evdCount() == 0 && deadline == Long.MAX_VALUE) ? End.EMPTY : End.NOT_YET;
    }

    /**
     * Ends the wait: cancels the timer and takes the wake-up back from the object (a freed EVD has none). Nothing
     * when no wait is blocked (ended already).
     */
    public void end() {
        if (!active()) {
            return;
        }
        if (timer != 0) {
            timers.cancelTimer(timer);
            timer = 0;
        }
        watch(false);
        evd = null;
        cno = null;
    }

    private void watch(boolean on) {
        if (evd != null) {
            if (on || !evd.isFreed()) {
                dat.evdSetWaiter(evd, on ? wake : null);
            }
        } else {
            dat.cnoWaiter(cno, wake, on);
        }
    }
}
