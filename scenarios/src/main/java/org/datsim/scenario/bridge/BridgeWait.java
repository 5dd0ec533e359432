package org.datsim.scenario.bridge;

import java.io.IOException;
import org.datsim.core.time.SimTime;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Out;
import org.datsim.scenario.consumer.CpuCosts;

/**
 * The blocking calls of one connection of a bridged program, dat_evd_wait and dat_cno_wait, and the state of the
 * one it may be blocked in, decided as a scenario process's wait decides them ({@code scenario.run.Wait}, without
 * the explored runs' holds): a wait that can end at once replies at once; otherwise the process sleeps until the
 * object or the timeout's timer wakes it, and looks again ({@link #over}).
 */
final class BridgeWait {

    private final BridgeProcess p;
    private final DatProvider dat;
    private final CpuCosts costs;
    private final Runnable wake;
    private Evd evd;
    private int threshold;
    private Cno cno;
    /** The CNO's {@link Cno#releases()} when the dat_cno_wait blocked. */
    private long cnoReleases;
    private long deadline;
    private long timer;

    BridgeWait(BridgeProcess p, DatProvider dat, CpuCosts costs) {
        this.p = p;
        this.dat = dat;
        this.costs = costs;
        this.wake = p::wake;
    }

    /**
     * dat_evd_wait: replies with an event at once when {@code n} are queued, else blocks.
     *
     * @return 0 when it replied, -1 when it blocked
     */
    long evdWait(Evd e, long timeoutUs, int n) throws IOException {
        int ret = dat.evdWaitCheck(e, timeoutUs, n);
        if (!DatReturn.isSuccess(ret)) {
            reply(ret, e, null);
            return 0;
        }
        if (e.size() >= n) {
            take(e);
            return 0;
        }
        evd = e;
        threshold = n;
        block(timeoutUs);
        return -1;
    }

    /**
     * dat_cno_wait: replies with the notifying EVD at once when one is pending (or DAT_QUEUE_EMPTY when nothing
     * could ever notify an infinite wait), else blocks.
     *
     * @return 0 when it replied, -1 when it blocked
     */
    long cnoWait(Cno c, long timeoutUs) throws IOException {
        int ret = dat.cnoWaitCheck(c, timeoutUs);
        if (!DatReturn.isSuccess(ret)) {
            cnoReply(ret, null);
            return 0;
        }
        if (c.pending() != null) {
            p.owe(costs.poll()); // returning at once costs a poll, as a scenario's dat_cno_wait
            cnoReply(ret, dat.cnoTake(c));
            return 0;
        }
        if (c.evdCount() == 0 && timeoutUs == Dat.TIMEOUT_INFINITE) {
            p.owe(costs.poll());
            cnoReply(DatReturn.error(DatReturn.QUEUE_EMPTY, 0), null); // nothing could ever notify it
            return 0;
        }
        cno = c;
        cnoReleases = c.releases();
        block(timeoutUs);
        return -1;
    }

    private void block(long timeoutUs) {
        if (evd != null) {
            dat.evdSetWaiter(evd, wake);
        } else {
            dat.cnoWaiter(cno, wake, true);
        }
        long now = p.sim().now();
        deadline = timeoutUs != Dat.TIMEOUT_INFINITE ? now + timeoutUs * SimTime.US : Long.MAX_VALUE;
        timer = deadline != Long.MAX_VALUE ? p.timer(deadline - now) : 0;
    }

    /** Ends a wait that nothing can end any more (the server found every process blocked and no event left). */
    void breakDeadlock() {
        deadline = p.sim().now();
    }

    /**
     * Looks again at the blocked wait, as a scenario process's wait does; replies when it is over.
     *
     * @return true if the wait ended (and replied)
     */
    boolean over() throws IOException {
        boolean timedOut = p.sim().now() >= deadline;
        if (evd != null) {
            Evd e = evd;
            if (e.isFreed()) {
                end();
                reply(DatReturn.error(DatReturn.ABORT, 0), null, null);
            } else if (!e.isWaitable()) {
                end();
                reply(DatReturn.error(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_UNWAITABLE), e, null);
            } else if (timedOut) {
                end();
                reply(DatReturn.error(DatReturn.TIMEOUT_EXPIRED, 0), e, null);
            } else if (e.size() >= threshold) {
                end();
                take(e);
            } else {
                return false;
            }
            return true;
        }
        Cno c = cno;
        if (c.pending() != null) {
            end();
            cnoReply(DatReturn.SUCCESS, dat.cnoTake(c));
        } else if (c.isFreed() || c.releases() != cnoReleases) {
            end();
            cnoReply(DatReturn.SUCCESS, null);
        } else if (timedOut || (c.evdCount() == 0 && deadline == Long.MAX_VALUE)) {
            end();
            cnoReply(DatReturn.error(DatReturn.QUEUE_EMPTY, 0), null);
        } else {
            return false;
        }
        return true;
    }

    /** Ends the wait: cancels the timer and takes the wake-up back from the object (a freed EVD has none). */
    void end() {
        if (evd == null && cno == null) {
            return; // ended already (its reply failed to go: the program left)
        }
        if (timer != 0) {
            p.cancelTimer(timer);
            timer = 0;
        }
        if (evd != null) {
            if (!evd.isFreed()) {
                dat.evdSetWaiter(evd, null);
            }
        } else {
            dat.cnoWaiter(cno, wake, false);
        }
        evd = null;
        cno = null;
    }

    private void take(Evd e) throws IOException {
        Out<DatEvent> ev = new Out<>();
        int ret = dat.evdDequeue(e, ev);
        reply(ret, e, ev.value);
    }

    private void reply(int ret, Evd e, DatEvent ev) throws IOException {
        p.start(ret);
        p.room(4).putInt(e == null ? 0 : e.size());
        if (ev != null && DatReturn.isSuccess(ret)) {
            p.putEvent(ev);
        }
        p.finishReply(ret);
    }

    private void cnoReply(int ret, Evd e) throws IOException {
        p.start(ret);
        if (DatReturn.isSuccess(ret)) {
            p.room(4).putInt(p.handles().id(e));
        }
        p.finishReply(ret);
    }
}
