package org.datsim.fabric.hca;

import org.datsim.core.engine.EventHandler;
import org.datsim.core.engine.Simulator;
import org.datsim.fabric.cc.CcTimers;
import org.datsim.fabric.cc.RateController;

/**
 * The timers of one queue pair's {@link RateController}, as simulator events: at most one pending event per timer
 * id ({@link #schedule} replaces it), each firing {@link RateController#onTimer} and then telling the send engine,
 * whose packet arbiter looks again (the rate may have risen). Its handlers are made once, with the controller.
 */
final class CcTimerSet implements CcTimers {

    private final Simulator sim;
    private final SendEngine engine;
    private final QueuePair qp;
    private final long[] events;
    private final EventHandler[] handlers;

    CcTimerSet(Simulator sim, SendEngine engine, QueuePair qp, int count) {
        this.sim = sim;
        this.engine = engine;
        this.qp = qp;
        this.events = new long[count];
        this.handlers = new EventHandler[count];
        for (int i = 0; i < count; i++) {
            int id = i;
            handlers[i] = a -> fire(id);
        }
    }

    @Override
    public void schedule(int timerId, long delayPs) {
        if (events[timerId] != 0) {
            sim.cancel(events[timerId]);
        }
        events[timerId] = sim.schedule(delayPs, handlers[timerId], 0);
    }

    @Override
    public void cancel(int timerId) {
        if (events[timerId] != 0) {
            sim.cancel(events[timerId]);
            events[timerId] = 0;
        }
    }

    private void fire(int id) {
        events[id] = 0;
        RateController rc = qp.send.rc;
        if (rc != null && qp.send.ccTimers == this) {
            rc.onTimer(sim.now(), id);
            engine.ccTimerFired(qp);
        }
    }
}
