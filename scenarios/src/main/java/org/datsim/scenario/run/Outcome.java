package org.datsim.scenario.run;

import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.scenario.load.Step;

/**
 * What every call leaves behind: its {@code call} trace event (the DAT_RETURN, process and step), and its results
 * recorded in the process's {@link CallResult} for {@link Expectations} to judge when the step ends.
 */
final class Outcome {

    private Outcome() {
    }

    /** Returns the call's trace event (not yet fired) and counts the call. */
    static TraceEvent call(ConsumerProcess p, Step s, int ret, Ep ep) {
        TraceEvent e = TraceEvent.of(p.sim().now(), TraceEvent.CALL, p.hostName()).call(s.spec().name())
                .ret(DatReturn.typeName(ret));
        if (ep != null) {
            e.ep(ep.name());
        }
        String sub = DatReturn.subtypeName(ret);
        if (sub != null) {
            e.attr(TraceKey.SUBTYPE, sub);
        }
        e.attr(TraceKey.PROCESS, p.name()).attr(TraceKey.STEP, s.path());
        if (p.iteration() != null) {
            e.attr(TraceKey.ITERATION, p.iteration());
        }
        p.runner().countCall(ret);
        p.runner().observeStep(p, s, "ret", DatReturn.describe(ret));
        return e;
    }

    /** Traces a call that returns nothing but its DAT_RETURN, and records it for the step's checks; returns 0. */
    static long finish(ConsumerProcess p, Step s, int ret, String epName) {
        TraceEvent e = call(p, s, ret, null);
        if (epName != null) {
            e.ep(epName);
        }
        p.runner().trace(e);
        p.result().ret(ret);
        return 0;
    }

    /** Traces a query call, binds its result, and records it for the step's checks of expect.attrs; returns 0. */
    static long finishQuery(ConsumerProcess p, Step s, int ret, Map<String, Long> attrs) {
        p.args().bind(s, attrs);
        p.runner().trace(call(p, s, ret, null));
        p.result().ret(ret);
        p.result().attrs = attrs;
        return 0;
    }
}
