package org.datsim.scenario.bridge;

import java.io.IOException;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Out;
import org.datsim.scenario.consumer.BlockedWait;
import org.datsim.scenario.consumer.CpuCosts;

/**
 * The blocking calls of one connection of a bridged program, dat_evd_wait and dat_cno_wait: the wait it may be
 * blocked in is the consumer core's {@link BlockedWait}, decided by the same rules as a scenario process's (without
 * the explored runs' holds); this class replies. A wait that can end at once replies at once; otherwise the process
 * sleeps until the object or the timeout's timer wakes it, and looks again ({@link #over}).
 */
final class BridgeWait {

    private final BridgeProcess p;
    private final DatProvider dat;
    private final CpuCosts costs;
    /** The wait blocked in, with its rules: the consumer core's, as a scenario process's. */
    private final BlockedWait blocked;

    BridgeWait(BridgeProcess p, DatProvider dat, CpuCosts costs) {
        this.p = p;
        this.dat = dat;
        this.costs = costs;
        this.blocked = new BlockedWait(dat, p.sim(), p::wake, p);
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
        blocked.blockEvd(e, n, timeoutUs);
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
        BlockedWait.End at = BlockedWait.cnoAtOnce(c, timeoutUs);
        if (at != BlockedWait.End.NOT_YET) {
            p.owe(costs.poll()); // returning at once costs a poll, as a scenario's dat_cno_wait
            if (at == BlockedWait.End.NOTIFIED) {
                cnoReply(ret, dat.cnoTake(c));
            } else {
                cnoReply(at.ret(), null);
            }
            return 0;
        }
        blocked.blockCno(c, timeoutUs);
        return -1;
    }

    /** Ends a wait that nothing can end any more (the server found every process blocked and no event left). */
    void breakDeadlock() {
        blocked.expireNow();
    }

    /**
     * Looks again at the blocked wait with the consumer core's rules ({@link BlockedWait#check}); replies when it
     * is over.
     *
     * @return true if the wait ended (and replied)
     */
    boolean over() throws IOException {
        Evd e = blocked.evd();
        Cno c = blocked.cno();
        BlockedWait.End end = blocked.check();
        switch (end) {
            case NOT_YET -> {
                return false;
            }
            case ABORTED -> {
                blocked.end();
                reply(end.ret(), null, null);
            }
            case UNWAITABLE, TIMED_OUT -> {
                blocked.end();
                reply(end.ret(), e, null);
            }
            case EVENTS -> {
                blocked.end();
                take(e);
            }
            case NOTIFIED -> {
                blocked.end();
                cnoReply(end.ret(), dat.cnoTake(c));
            }
            case RELEASED, EMPTY -> {
                blocked.end();
                cnoReply(end.ret(), null);
            }
        }
        return true;
    }

    /** Ends the wait (the program left): takes the wake-up back, cancels the timer. */
    void end() {
        blocked.end();
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
