package org.datsim.fabric.dat;

import java.util.List;
import org.datsim.fabric.hca.WorkRequest;

/**
 * A wait held back at {@link DatChoices#REAP_ORDER}: the consumer is slower than the timing model, and takes nothing
 * from its EVD until another event is queued there or every operation that could have queued one has had its
 * completion reported (queued elsewhere, suppressed, or lost). Operations are pooled, so each is remembered with its
 * id: a slot reused by a later operation counts as reported.
 */
public final class ReapHold {

    private final Evd evd;
    private final long queued;
    private final WorkRequest[] ops;
    private final long[] ids;

    ReapHold(Evd evd, List<WorkRequest> pending) {
        this.evd = evd;
        this.queued = evd.queuedTotal;
        this.ops = pending.toArray(new WorkRequest[0]);
        this.ids = new long[ops.length];
        for (int i = 0; i < ops.length; i++) {
            ids[i] = ops[i].opId;
        }
    }

    /** Returns true once an event was queued on the EVD or every operation waited for was reported. */
    public boolean over() {
        if (evd.queuedTotal != queued || evd.freed) {
            return true;
        }
        for (int i = 0; i < ops.length; i++) {
            if (ops[i].opId == ids[i] && !ops[i].isReported()) {
                return false;
            }
        }
        return true;
    }
}
