package org.datsim.fabric.dat;

import java.util.ArrayList;
import java.util.List;

/**
 * A consumer notification object: the EVDs associated with it notify it when an event arrives that would wake a
 * waiter (an enabled EVD with no consumer waiting on it directly), and dat_cno_wait returns the notifying EVD as a
 * hint. A notification with no one waiting stays pending for the next dat_cno_wait, and calls the OS wait proxy
 * agent if one is set.
 */
public final class Cno extends DatHandle {

    /** The OS wait proxy agent's name, or null for DAT_OS_WAIT_PROXY_AGENT_NULL. */
    String agent;
    /** The consumers blocked in dat_cno_wait, in arrival order. */
    final List<Runnable> waiters = new ArrayList<>();
    /** The EVD of a notification no waiter has taken yet, or null. */
    Evd pending;
    /** The EVDs associated with this CNO. */
    int users;
    /** How many times the proxy agent was called. */
    long agentCalls;

    Cno(String name, Ia ia, String agent) {
        super(TYPE_CNO, name, ia);
        this.agent = agent;
    }

    /** Returns the EVD of a pending notification, or null. */
    public Evd pending() {
        return pending;
    }

    /** Returns the number of EVDs associated with this CNO. */
    public int evdCount() {
        return users;
    }
}
