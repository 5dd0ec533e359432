package org.datsim.fabric.dat;

import org.datsim.core.engine.Simulator;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;

/** The common base of the provider's parts: the shared core, and short names for what every call uses. */
abstract class ProviderPart {

    final ProviderCore core;
    final Simulator sim;
    final TraceSource<TraceEvent> trace;

    ProviderPart(ProviderCore core) {
        this.core = core;
        this.sim = core.sim;
        this.trace = core.trace;
    }

    static int err(int type, int subtype) {
        return DatReturn.error(type, subtype);
    }

    static boolean bad(DatHandle h, Class<?> type) {
        return h == null || h.freed || !type.isInstance(h);
    }
}
