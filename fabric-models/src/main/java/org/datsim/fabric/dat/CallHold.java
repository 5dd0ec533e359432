package org.datsim.fabric.dat;

import java.util.List;
import org.datsim.fabric.hca.WorkRequest;

/**
 * A consumer call held back at {@link DatChoices#DISCONNECT_ORDER}: the consumer is slower than the timing model and
 * makes the call only once the operations it waits for have had their completions reported. Operations are pooled,
 * so each is remembered with its id: a slot reused by a later operation counts as reported.
 */
public final class CallHold {

    private final WorkRequest[] ops;
    private final long[] ids;

    CallHold(List<WorkRequest> ops) {
        this.ops = ops.toArray(new WorkRequest[0]);
        this.ids = new long[this.ops.length];
        for (int i = 0; i < this.ops.length; i++) {
            ids[i] = this.ops[i].opId;
        }
    }

    /** Returns true once every operation waited for has been reported. */
    public boolean over() {
        for (int i = 0; i < ops.length; i++) {
            if (ops[i].opId == ids[i] && !ops[i].isReported()) {
                return false;
            }
        }
        return true;
    }
}
