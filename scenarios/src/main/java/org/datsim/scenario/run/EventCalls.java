package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Out;
import org.datsim.scenario.consumer.DequeueLine;
import org.datsim.scenario.load.CnoWaitCall;
import org.datsim.scenario.load.DequeueCall;
import org.datsim.scenario.load.EvdWaitCall;
import org.datsim.scenario.load.EventCall;
import org.datsim.scenario.load.Step;

/**
 * The calls that take events: dat_evd_dequeue, and dat_evd_wait and dat_cno_wait (which block in {@link Wait}).
 * Here too is how each reports: the call, the {@code dequeue} trace event of the event taken, and the checks of the
 * event against the step's expectations. Every call here is typed by the loader ({@link EventCall}).
 */
final class EventCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = Set.of("dat_evd_wait", "dat_cno_wait", "dat_evd_dequeue");

    private EventCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call, or -1 if it blocked
     */
    static long execute(ConsumerProcess p, Step s) {
        EventCall c = s.event();
        if (c == null) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        return switch (c.form()) {
            case EVD_WAIT -> p.waits().evdWait(s, (EvdWaitCall) c);
            case CNO_WAIT -> p.waits().cnoWait(s, (CnoWaitCall) c);
            case DEQUEUE -> {
                Evd evd = p.args().handle(((DequeueCall) c).evd(), Evd.class);
                Out<DatEvent> ev = new Out<>();
                int ret = p.dat().evdDequeue(evd, ev);
                report(p, s, ret, ev.value, evd);
                yield DatReturn.isSuccess(ret) ? p.pollOverhead() : 0;
            }
        };
    }

    /** Dequeues the event that ends a dat_evd_wait, and reports it. */
    static void take(ConsumerProcess p, Step s, Evd evd) {
        Out<DatEvent> ev = new Out<>();
        int ret = p.dat().evdDequeue(evd, ev);
        report(p, s, ret, ev.value, evd);
    }

    /** Reports a dat_evd_wait or dat_evd_dequeue: the call, and the event it took (or null) with its checks. */
    static void report(ConsumerProcess p, Step s, int ret, DatEvent ev, Evd evd) {
        TraceEvent c = Outcome.call(p, s, ret, null);
        if (evd != null) {
            c.attr(TraceKey.EVD, evd.name());
            if (ev != null || DatReturn.type(ret) == DatReturn.TIMEOUT_EXPIRED) {
                c.attr(TraceKey.NMORE, (long) evd.size());
            }
        }
        p.runner().trace(c);
        p.result().ret(ret);
        if (ev == null) {
            return;
        }
        p.args().bind(s, ev);
        if (p.runner().observingSteps()) {
            p.runner().observeStep(p, s, "event", ev.numberName() + (ev.status >= 0 ? " " + ev.statusName() + " "
                    + Dat.DTO_OPS.name(ev.operation) + " cookie " + ev.cookie + " length " + ev.transferredLength
                    : "") + (ev.ep != null ? " ep " + ev.ep.name() : ""));
        }
        p.runner().trace(DequeueLine.of(p.sim().now(), p.hostName(), p.name(), ev));
        p.result().event = ev;
    }

    /** Reports a dat_cno_wait: the call, the EVD it returns (a hint, or null), and the check of expect.evd. */
    static void reportCno(ConsumerProcess p, Step s, int ret, Evd evd) {
        TraceEvent e = Outcome.call(p, s, ret, null);
        if (evd != null) {
            e.attr(TraceKey.EVD, evd.name());
        }
        p.runner().trace(e);
        p.args().bind(s, evd);
        CallResult r = p.result();
        r.ret(ret);
        r.cnoWait = true;
        r.cnoEvd = evd;
    }
}
