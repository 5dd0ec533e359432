package org.datsim.scenario.run;

import java.util.Map;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.Evd;

/**
 * What one call observed, for its expectations and its {@code "observe"}: the DAT_RETURN, the event a wait or
 * dequeue took, the EVD a dat_cno_wait returned, the bytes a mem_read read, a query's attributes and the other
 * named results. The calls fill it in as they report; {@link Expectations} judges it when the step ends. One per
 * process, cleared before each call.
 */
final class CallResult {

    /** True once the call returned (a call whose arguments could not be read never does). */
    boolean returned;
    /** The DAT_RETURN. */
    int ret;
    /** The event taken, or null. */
    DatEvent event;
    /** True for a dat_cno_wait, whose {@link #cnoEvd} is its result. */
    boolean cnoWait;
    /** The EVD a dat_cno_wait returned, or null. */
    Evd cnoEvd;
    /** The bytes a mem_read read, or null. */
    byte[] data;
    /** Whether those bytes were stale. */
    boolean stale;
    /** A query's attributes, or null. */
    Map<String, Long> attrs;
    /** An endpoint's state (dat_ep_get_status), or null. */
    Integer state;
    /** Whether an endpoint's receive queue is idle, or null. */
    Boolean recvIdle;
    /** Whether an endpoint's request queue is idle, or null. */
    Boolean requestIdle;
    /** A handle's consumer context, or null. */
    Long context;
    /** A handle's type, or null. */
    Integer handleType;
    /** dat_strerror's message, or null. */
    String message;

    /** Records the DAT_RETURN. */
    void ret(int value) {
        returned = true;
        ret = value;
    }

    /** Returns a copy, kept after the next call clears this one (a named step's, for an "if" on it). */
    CallResult copy() {
        CallResult c = new CallResult();
        c.returned = returned;
        c.ret = ret;
        c.event = event;
        c.cnoWait = cnoWait;
        c.cnoEvd = cnoEvd;
        c.data = data;
        c.stale = stale;
        c.attrs = attrs;
        c.state = state;
        c.recvIdle = recvIdle;
        c.requestIdle = requestIdle;
        c.context = context;
        c.handleType = handleType;
        c.message = message;
        return c;
    }

    /** Forgets the previous call. */
    void clear() {
        returned = false;
        ret = 0;
        event = null;
        cnoWait = false;
        cnoEvd = null;
        data = null;
        stale = false;
        attrs = null;
        state = null;
        recvIdle = null;
        requestIdle = null;
        context = null;
        handleType = null;
        message = null;
    }
}
