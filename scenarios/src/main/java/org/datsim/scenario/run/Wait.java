package org.datsim.scenario.run;

import org.datsim.core.time.SimTime;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatChoices;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.ReapHold;
import org.datsim.scenario.load.CnoWaitCall;
import org.datsim.scenario.load.EvdWaitCall;
import org.datsim.scenario.load.Step;

/**
 * The blocking calls of a process, dat_evd_wait and dat_cno_wait, and the state of the one it may be blocked in: the
 * object waited on, the process's wake-up registered with it, and the timeout's deadline and timer. A wait that can
 * end at once ends at once; otherwise the process sleeps until the object wakes it or the timer does, and looks
 * again ({@link #resume}) each time.
 */
final class Wait {

    private final ConsumerProcess p;
    private final DatProvider dat;
    private final Runnable wake;
    /** The EVD of a blocked dat_evd_wait, or null. */
    private Evd evd;
    private int threshold;
    /** The CNO of a blocked dat_cno_wait, or null. */
    private Cno cno;
    /** The CNO's {@link Cno#releases()} when the dat_cno_wait blocked. */
    private long cnoReleases;
    private long deadline;
    private long timer;
    /** Explored runs: the wait is held back at evd.reap_order until this is over, or null. */
    private ReapHold hold;
    /** Explored runs: the hold is evd.arrival_before_timeout's (the wait had timed out). */
    private boolean late;

    Wait(ConsumerProcess p) {
        this.p = p;
        this.dat = p.dat();
        this.wake = p::wake;
    }

    /** Returns true while the process is blocked in a wait. */
    boolean active() {
        return evd != null || cno != null;
    }

    /**
     * dat_evd_wait: returns an event at once when {@code threshold} are queued, else blocks.
     *
     * @return the CPU time after the call, or -1 if the process blocked
     */
    long evdWait(Step s, EvdWaitCall c) {
        Args a = p.args();
        Evd e = a.handle(c.evd(), Evd.class);
        long timeout = a.timeoutUs(c.timeout());
        int n = Args.count(a.number(c.threshold(), 1));
        int ret = dat.evdWaitCheck(e, timeout, n);
        if (!DatReturn.isSuccess(ret)) {
            EventCalls.report(p, s, ret, null, e);
            return 0;
        }
        if (e.size() >= n) {
            if (!p.sim().exploring() || !holdReap(e)) {
                EventCalls.take(p, s, e);
                return p.pollOverhead();
            }
            evd = e;
            threshold = n;
            return block(Dat.TIMEOUT_INFINITE);
        }
        evd = e;
        threshold = n;
        return block(timeout);
    }

    /**
     * dat_cno_wait: returns the notifying EVD at once when one is pending, else blocks. A CNO with no EVD associated
     * can be notified only once one is associated: a wait with a timeout waits for that or the timeout
     * (DAT_QUEUE_EMPTY, "the operation timed out without a notification"); an infinite one, which would never end,
     * returns DAT_QUEUE_EMPTY at once.
     *
     * @return the CPU time after the call, or -1 if the process blocked
     */
    long cnoWait(Step s, CnoWaitCall call) {
        Args a = p.args();
        Cno c = a.handle(call.cno(), Cno.class);
        long timeout = a.timeoutUs(call.timeout());
        int ret = dat.cnoWaitCheck(c, timeout);
        if (!DatReturn.isSuccess(ret)) {
            EventCalls.reportCno(p, s, ret, null);
            return 0;
        }
        if (c.pending() != null) {
            EventCalls.reportCno(p, s, ret, dat.cnoTake(c));
            return p.pollOverhead();
        }
        if (c.evdCount() == 0 && timeout == Dat.TIMEOUT_INFINITE) {
            EventCalls.reportCno(p, s, DatReturn.error(DatReturn.QUEUE_EMPTY, 0), null);
            return p.pollOverhead();
        }
        cno = c;
        cnoReleases = c.releases();
        return block(timeout);
    }

    /**
     * Looks again at the blocked wait. A dat_evd_wait ends when the IA was closed under it (DAT_ABORT), the EVD was
     * made unwaitable (DAT_INVALID_STATE), enough events are queued, or at the timeout (DAT_TIMEOUT_EXPIRED). A
     * dat_cno_wait ends with the notifying EVD, with no EVD when the IA was closed or the CNO's last EVD freed, or
     * with DAT_QUEUE_EMPTY at the timeout, or at once when an infinite wait's CNO lost its last EVD to
     * dat_evd_modify_cno (taking an EVD away is not freeing it: no EVD, but no DAT_SUCCESS either). The wait is over before the call reports (which may throw
     * {@link Unbound}).
     *
     * @return true if the wait ended
     */
    boolean resume(Step s) {
        boolean timedOut = p.sim().now() >= deadline;
        if (evd != null) {
            Evd e = evd;
            if (e.isFreed()) {
                end();
                EventCalls.report(p, s, DatReturn.error(DatReturn.ABORT, 0), null, null);
            } else if (!e.isWaitable()) {
                end();
                EventCalls.report(p, s, DatReturn.error(DatReturn.INVALID_STATE,
                        DatReturn.SUB_INVALID_STATE_EVD_UNWAITABLE), null, e);
            } else if (hold != null) {
                // Held at evd.reap_order: the events it would take were queued before the deadline, so the timer
                // no longer matters; it takes them once the completion it waits for is queued or reported.
                if (!hold.over()) {
                    return false;
                }
                dat.watchReports(wake, false);
                hold = null;
                if (late && e.size() < threshold) {
                    // evd.arrival_before_timeout: what came was not enough (suppressed, lost, elsewhere): it times
                    // out after all.
                    late = false;
                    end();
                    EventCalls.report(p, s, DatReturn.error(DatReturn.TIMEOUT_EXPIRED, 0), null, e);
                    return true;
                }
                late = false;
                if (e.size() >= threshold && holdReap(e)) {
                    return false;
                }
                end();
                EventCalls.take(p, s, e);
            } else if (timedOut || (e.size() >= threshold && deadline != Long.MAX_VALUE
                    && deadline - p.sim().now() < SimTime.US && p.sim().exploring()
                    && p.sim().choices().choose(DatChoices.WAIT_TIMEOUT, 2, p.hostName()) == 1)) {
                // Rules 5 and 13: no notification woke the waiter in time. Unsignalled completions may have queued
                // threshold events meanwhile, but they wake no one: the wait still times out, dequeuing nothing.
                if (timedOut && e.size() < threshold && p.sim().exploring() && holdLate(e)) {
                    return false;
                }
                end();
                EventCalls.report(p, s, DatReturn.error(DatReturn.TIMEOUT_EXPIRED, 0), null, e);
            } else if (e.size() >= threshold) {
                if (p.sim().exploring() && holdReap(e)) {
                    if (timer != 0) {
                        p.cancelTimer(timer);
                        timer = 0;
                    }
                    deadline = Long.MAX_VALUE;
                    return false;
                }
                end();
                EventCalls.take(p, s, e);
            } else {
                return false;
            }
            return true;
        }
        Cno c = cno;
        if (c.pending() != null) {
            end();
            EventCalls.reportCno(p, s, DatReturn.SUCCESS, dat.cnoTake(c));
        } else if (c.isFreed() || c.releases() != cnoReleases) {
            end();
            EventCalls.reportCno(p, s, DatReturn.SUCCESS, null);
        } else if (timedOut || (c.evdCount() == 0 && deadline == Long.MAX_VALUE)) {
            end();
            EventCalls.reportCno(p, s, DatReturn.error(DatReturn.QUEUE_EMPTY, 0), null);
        } else {
            return false;
        }
        return true;
    }

    /**
     * Explored runs: offers evd.reap_order when another endpoint's completion still to come could be queued before
     * the event this wait would take, and on alternative 1 holds the wait until it is (see {@link ReapHold}).
     *
     * @return true if the wait is held
     */
    private boolean holdReap(Evd e) {
        ReapHold h = dat.reapHold(e);
        if (h == null || p.sim().choices().choose(DatChoices.REAP_ORDER, 2, p.hostName()) == 0) {
            return false;
        }
        hold = h;
        dat.watchReports(wake, true);
        return true;
    }

    /**
     * Explored runs: offers evd.arrival_before_timeout when a wait times out while a completion for its EVD is in
     * flight, and on alternative 1 holds the wait until it is queued (the timer is spent).
     *
     * @return true if the wait is held
     */
    private boolean holdLate(Evd e) {
        ReapHold h = dat.arrivalHold(e);
        if (h == null || p.sim().choices().choose(DatChoices.LATE_ARRIVAL, 2, p.hostName()) == 0) {
            return false;
        }
        hold = h;
        late = true;
        if (timer != 0) {
            p.cancelTimer(timer); // it fired, or is due now: no stray wake later
            timer = 0;
        }
        deadline = Long.MAX_VALUE;
        dat.watchReports(wake, true);
        return true;
    }

    /** Blocks on the object set: registers the process's wake-up with it and arms the timeout. Returns -1. */
    private long block(long timeoutUs) {
        watch(true);
        if (timeoutUs != Dat.TIMEOUT_INFINITE) {
            long delay = timeoutUs * SimTime.US;
            deadline = p.sim().now() + delay;
            timer = p.timer(delay);
        } else {
            deadline = Long.MAX_VALUE;
            timer = 0;
        }
        return -1;
    }

    /** Ends the wait: cancels the timer and takes the wake-up back from the object (a freed EVD has none). */
    private void end() {
        if (hold != null) {
            dat.watchReports(wake, false);
            hold = null;
        }
        late = false;
        if (timer != 0) {
            p.cancelTimer(timer);
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
