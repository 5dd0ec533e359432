package org.datsim.fabric.cc;

import java.util.Arrays;

/** Test timers: remembers when each timer id is due and fires them in time order when the test advances time. */
final class ManualTimers implements CcTimers {

    private final long[] due = new long[8];
    private long now;
    private RateController owner;
    int scheduled;

    ManualTimers() {
        Arrays.fill(due, -1);
    }

    void attach(RateController c) {
        owner = c;
    }

    long now() {
        return now;
    }

    boolean pending(int id) {
        return due[id] >= 0;
    }

    long due(int id) {
        return due[id];
    }

    @Override
    public void schedule(int timerId, long delayPs) {
        due[timerId] = now + delayPs;
        scheduled++;
    }

    @Override
    public void cancel(int timerId) {
        due[timerId] = -1;
    }

    /** Fires every timer due at or before t, in time order, then sets the time to t. */
    void advanceTo(long t) {
        while (true) {
            int next = -1;
            for (int i = 0; i < due.length; i++) {
                if (due[i] >= 0 && due[i] <= t && (next < 0 || due[i] < due[next])) {
                    next = i;
                }
            }
            if (next < 0) {
                break;
            }
            now = due[next];
            due[next] = -1;
            owner.onTimer(now, next);
        }
        now = t;
    }
}
