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
    /** How many times the CNO lost its last EVD to dat_evd_free, which releases its waiters with no EVD. */
    long releases;

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

    /**
     * Returns how many times the CNO lost its last associated EVD to dat_evd_free. A waiter that sees this change
     * was released with no EVD (the man page: all waiters are unblocked with a null handle when all the EVDs the CNO
     * is associated with are freed); dat_evd_modify_cno taking an EVD away is not freeing it and releases no one.
     */
    public long releases() {
        return releases;
    }
}
