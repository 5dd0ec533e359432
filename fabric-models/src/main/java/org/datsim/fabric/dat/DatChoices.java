package org.datsim.fabric.dat;

import java.util.ArrayDeque;
import org.datsim.core.choice.ChoicePoint;
import org.datsim.core.choice.ChoiceSource;

/**
 * The DAT provider's choice points (consulted only when the simulator explores).
 *
 * <p>{@link #EVD_ORDER} (rules 2, 3): the completion streams of different endpoints sharing one EVD have no relative
 * order, so a completion may come out before completions of other endpoints queued ahead of it, never before one
 * of its own endpoint's (rule 1). Every alternative changes what a dequeue returns, so the point is offered whenever
 * another endpoint's completion is queued behind which this one may go.
 */
public final class DatChoices {
    // WAIT_TIMEOUT is consulted by the scenario runner's dat_evd_wait (the provider's wait does not block).

    /** Rules 2, 3: where a DTO completion goes among the queued completions of other endpoints on its EVD. */
    public static final ChoicePoint EVD_ORDER = new ChoicePoint("evd.completion_order", "rules 2, 3",
            "a DTO completion queued on an EVD whose last k queued events are completions of other endpoints: 0 it"
                    + " goes last (the timing model's order), 1..k it goes before the last 1..k of them");

    /**
     * Rule 5: dat_evd_wait's timeout is given in microseconds, so an event that arrives less than a microsecond
     * before the deadline races the timer.
     */
    public static final ChoicePoint WAIT_TIMEOUT = new ChoicePoint("evd.wait_timeout_race", "rule 5",
            "a dat_evd_wait whose events arrive less than 1 us (the timeout's unit) before its deadline: 0 the"
                    + " wait takes them (the timing model's), 1 the timeout fires first (DAT_TIMEOUT_EXPIRED, the"
                    + " events stay queued)");

    private DatChoices() {
    }

    /** Queues a DTO completion at the place the choice source picks (see {@link #EVD_ORDER}). */
    static void enqueue(ChoiceSource choices, Evd evd, DatEvent e, String host) {
        ArrayDeque<DatEvent> q = evd.queue;
        int k = 0;
        for (java.util.Iterator<DatEvent> it = q.descendingIterator(); it.hasNext();) {
            DatEvent o = it.next();
            if (o.ep == null || o.ep == e.ep || o.number != Dat.DTO_COMPLETION_EVENT) {
                break;
            }
            k++;
        }
        int back = k == 0 ? 0 : choices.choose(EVD_ORDER, k + 1, host);
        ArrayDeque<DatEvent> held = new ArrayDeque<>();
        for (int i = 0; i < back; i++) {
            held.addFirst(q.pollLast());
        }
        q.addLast(e);
        q.addAll(held);
    }
}
