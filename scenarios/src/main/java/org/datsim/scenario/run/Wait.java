package org.datsim.scenario.run;

import org.datsim.core.time.SimTime;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatChoices;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.ReapHold;
import org.datsim.scenario.consumer.BlockedWait;
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
    /** The wait blocked in, with its plain rules: the consumer core's, as a bridged program's. */
    private final BlockedWait blocked;
    /** Explored runs: the wait is held back at evd.reap_order until this is over, or null. */
    private ReapHold hold;
    /** Explored runs: the hold is evd.arrival_before_timeout's (the wait had timed out). */
    private boolean late;

    Wait(ConsumerProcess p) {
        this.p = p;
        this.dat = p.dat();
        this.wake = p::wake;
        this.blocked = new BlockedWait(dat, p.sim(), wake, p);
    }

    /** Returns true while the process is blocked in a wait. */
    boolean active() {
        return blocked.active();
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
            blocked.blockEvd(e, n, Dat.TIMEOUT_INFINITE);
            return -1;
        }
        blocked.blockEvd(e, n, timeout);
        return -1;
    }

    /**
     * dat_cno_wait: returns the notifying EVD at once when one is pending, else blocks. A CNO with no EVD associated
     * can be notified only once one is associated: a wait with a timeout waits for that or the timeout
     * (DAT_QUEUE_EMPTY, "the operation timed out without a notification"); an infinite one, which would never end,
     * returns DAT_QUEUE_EMPTY at once ({@link BlockedWait#cnoAtOnce}).
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
        BlockedWait.End at = BlockedWait.cnoAtOnce(c, timeout);
        if (at != BlockedWait.End.NOT_YET) {
            if (at == BlockedWait.End.NOTIFIED) {
                EventCalls.reportCno(p, s, ret, dat.cnoTake(c));
            } else {
                EventCalls.reportCno(p, s, at.ret(), null);
            }
            return p.pollOverhead();
        }
        blocked.blockCno(c, timeout);
        return -1;
    }

    /**
     * Looks again at the blocked wait: the consumer core's rules ({@link BlockedWait#check}), with the explored
     * runs' holds on a dat_evd_wait. The wait is over before the call reports (which may throw {@link Unbound}).
     *
     * @return true if the wait ended
     */
    boolean resume(Step s) {
        Evd e = blocked.evd();
        if (e == null) {
            Cno c = blocked.cno();
            BlockedWait.End end = blocked.check();
            switch (end) {
                case NOT_YET -> {
                    return false;
                }
                case NOTIFIED -> {
                    end();
                    EventCalls.reportCno(p, s, end.ret(), dat.cnoTake(c));
                }
                case RELEASED, EMPTY -> {
                    end();
                    EventCalls.reportCno(p, s, end.ret(), null);
                }
                case ABORTED, UNWAITABLE, TIMED_OUT, EVENTS -> throw new IllegalStateException(end + " of a CNO");
            }
            return true;
        }
        if (!p.sim().exploring() && hold == null) {
            BlockedWait.End end = blocked.check();
            switch (end) {
                case NOT_YET -> {
                    return false;
                }
                case ABORTED -> {
                    end();
                    EventCalls.report(p, s, end.ret(), null, null);
                }
                case UNWAITABLE, TIMED_OUT -> {
                    end();
                    EventCalls.report(p, s, end.ret(), null, e);
                }
                case EVENTS -> {
                    end();
                    EventCalls.take(p, s, e);
                }
                case NOTIFIED, RELEASED, EMPTY -> throw new IllegalStateException(end + " of an EVD");
            }
            return true;
        }
        return resumeExplored(s, e);
    }

    /**
     * An explored run's dat_evd_wait: the plain rules of {@link BlockedWait}, where evd.reap_order and
     * evd.arrival_before_timeout may hold the wait, and a wait about to time out may be told it did.
     */
    private boolean resumeExplored(Step s, Evd e) {
        boolean timedOut = blocked.timedOut();
        int threshold = blocked.threshold();
        long deadline = blocked.deadline();
        BlockedWait.End state = blocked.evdState();
        if (state == BlockedWait.End.ABORTED) {
            end();
            EventCalls.report(p, s, state.ret(), null, null);
        } else if (state == BlockedWait.End.UNWAITABLE) {
            end();
            EventCalls.report(p, s, state.ret(), null, e);
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
                EventCalls.report(p, s, BlockedWait.End.TIMED_OUT.ret(), null, e);
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
            EventCalls.report(p, s, BlockedWait.End.TIMED_OUT.ret(), null, e);
        } else if (e.size() >= threshold) {
            if (p.sim().exploring() && holdReap(e)) {
                blocked.disarm();
                return false;
            }
            end();
            EventCalls.take(p, s, e);
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
        blocked.disarm(); // the timer fired, or is due now: no stray wake later
        dat.watchReports(wake, true);
        return true;
    }

    /** Ends the wait: lets go of an explored hold, then the consumer core's wait ends (timer, wake-up). */
    private void end() {
        if (hold != null) {
            dat.watchReports(wake, false);
            hold = null;
        }
        late = false;
        blocked.end();
    }
}
