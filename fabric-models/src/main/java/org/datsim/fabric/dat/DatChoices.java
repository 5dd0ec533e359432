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
     * Rules 2, 3: a wait about to take a DTO completion from an EVD to which an operation of another endpoint, still
     * in flight, will queue a completion. Nothing orders the two: the consumer may be slower than the timing model,
     * and the other completion queued before it reaps, where {@link #EVD_ORDER} may put it first. See
     * {@link ReapHold}.
     */
    public static final ChoicePoint REAP_ORDER = new ChoicePoint("evd.reap_order", "rules 2, 3",
            "a dat_evd_wait about to take a DTO completion from an EVD to which another endpoint's operation, still in"
                    + " flight, will queue a completion: 0 it takes it now (the timing model's), 1 the consumer is"
                    + " slower: it takes nothing until that completion is queued (evd.completion_order may then put"
                    + " it first) or reported elsewhere");

    /**
     * Rule 36: an SRQ's receives are taken in posting order by whichever endpoint's message arrives first; nothing
     * orders the messages of different connections, so another endpoint's message still in flight may be the one
     * that takes the oldest receive.
     */
    public static final ChoicePoint SRQ_ORDER = new ChoicePoint("srq.arrival_order", "rule 36",
            "a message taking a receive of an SRQ while another endpoint of the SRQ has a message in flight to it:"
                    + " 0 it takes the oldest receive (the timing model's order), 1 the other message came first:"
                    + " that receive is left for it and this one takes the next");

    /**
     * Rules 2, 5: a dat_evd_wait whose timeout fired while an operation that will queue a completion on its EVD was
     * still in flight. Nothing bounds how fast the fabric is: that completion may as well have come in time.
     */
    public static final ChoicePoint LATE_ARRIVAL = new ChoicePoint("evd.arrival_before_timeout", "rules 2, 5",
            "a dat_evd_wait timing out while an operation feeding its EVD is in flight (an RDMA Read or Write, a Send"
                    + " whose message took its receive, a message to one of the EVD's endpoints with a receive"
                    + " posted): 0 it times out (the timing model's), 1 that completion came in time: the wait"
                    + " takes it when it is queued");

    /**
     * Rule 43: an abrupt dat_ep_disconnect flushes what has not started; how far the endpoint's operations got by then
     * is timing, and the consumer may as well have made the call later.
     */
    public static final ChoicePoint DISCONNECT_ORDER = new ChoicePoint("ep.disconnect_order", "rule 43",
            "an abrupt dat_ep_disconnect while k request operations of its endpoint are unfinished: 0 it is made now"
                    + " (the timing model's), 1..k the consumer is slower and makes it once the first 1..k of them"
                    + " have completed");

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

    /**
     * Returns what a wait about to take from the EVD would wait for if the consumer were slower (see
     * {@link #REAP_ORDER}), or null when nothing could come that might be queued before the event it would take:
     * its first event is not a DTO completion, or no other endpoint feeding it has an operation in flight whose
     * completion (or, for a receive stream, whose message's receive completion) is sure to be queued there.
     * Suppressed operations are left out: they queue an event only if they fail.
     */
    static ReapHold reapHold(Evd evd) {
        DatEvent head = evd.queue.peekFirst();
        if (head == null || head.ep == null || head.number != Dat.DTO_COMPLETION_EVENT) {
            return null;
        }
        java.util.List<org.datsim.fabric.hca.WorkRequest> pending = new java.util.ArrayList<>();
        for (Ep ep : evd.feeders) {
            if (ep == head.ep || ep.freed) {
                continue;
            }
            int from = pending.size();
            if (ep.requestEvd == evd) {
                ep.qp.unreportedRequests(false, pending);
                for (int i = pending.size() - 1; i >= from; i--) {
                    if ((pending.get(i).flags & Dat.COMPLETION_SUPPRESS_FLAG) != 0) {
                        pending.remove(i);
                    }
                }
            }
            if (ep.recvEvd == evd && ep.qp.peer() != null) {
                ep.qp.peer().unreportedRequests(true, pending);
            }
        }
        return pending.isEmpty() ? null : new ReapHold(evd, pending);
    }

    /**
     * Takes the receive of an SRQ for an endpoint's arriving message in an explored run (see {@link #SRQ_ORDER}):
     * the oldest receive it may take (not one it left for another endpoint's message), unless it leaves that one
     * too, for another endpoint's message still in flight, when a later one is there for it. Receives left for
     * messages that are no longer in flight are given back.
     */
    static org.datsim.fabric.hca.WorkRequest srqTake(ChoiceSource choices, Srq srq, Ep ep) {
        int others = otherMessagesInFlight(srq, ep);
        if (others == 0) {
            srq.skippedBy.clear();
        }
        java.util.List<org.datsim.fabric.hca.WorkRequest> eligible = new java.util.ArrayList<>();
        for (org.datsim.fabric.hca.WorkRequest r : srq.queue) {
            if (srq.skippedBy.get(r) != ep) {
                eligible.add(r);
            }
        }
        if (eligible.isEmpty()) {
            return null;
        }
        int i = 0;
        // At most one receive is left per message of another endpoint still to arrive, so each is taken.
        while (srq.skippedBy.size() < others && i + 1 < eligible.size() && srq.skippedBy.get(eligible.get(i)) == null
                && choices.choose(SRQ_ORDER, 2, ep.ia.host.name) == 1) {
            srq.skippedBy.put(eligible.get(i), ep);
            i++;
        }
        org.datsim.fabric.hca.WorkRequest taken = eligible.get(i);
        srq.queue.remove(taken);
        srq.skippedBy.remove(taken);
        return taken;
    }

    /**
     * Returns what a wait that timed out would wait for had an in-flight completion come in time (see
     * {@link #LATE_ARRIVAL}), or null if none is sure to come, as a notification, without another consumer acting
     * first: RDMA Reads, Writes and atomics (not suppressed or unsignalled), Sends whose message has taken its
     * receive, and messages to an endpoint feeding the EVD whose receives are posted (not SOLICITED_WAIT).
     */
    static ReapHold arrivalHold(Evd evd) {
        java.util.List<org.datsim.fabric.hca.WorkRequest> pending = new java.util.ArrayList<>();
        java.util.List<org.datsim.fabric.hca.WorkRequest> some = new java.util.ArrayList<>();
        for (Ep ep : evd.feeders) {
            if (ep.freed) {
                continue;
            }
            if (ep.requestEvd == evd) {
                some.clear();
                ep.qp.unreportedRequests(false, some);
                for (org.datsim.fabric.hca.WorkRequest w : some) {
                    boolean message = w.opcode == org.datsim.fabric.hca.WorkRequest.SEND || w.withImmediate;
                    // Only a notification would have ended the wait (rule 13): no unsignalled or suppressed ones.
                    if ((w.flags & (Dat.COMPLETION_SUPPRESS_FLAG | Dat.COMPLETION_UNSIGNALLED_FLAG)) == 0 && w.opcode
                            != org.datsim.fabric.hca.WorkRequest.BIND && (!message || w.isDelivered())) {
                        pending.add(w);
                    }
                }
            }
            boolean receives = ep.srq != null ? ep.srq.queue.size() > 0 : ep.receivesPosted > 0;
            boolean silent = (ep.attr.recvCompletionFlags()
                    & (Dat.COMPLETION_SOLICITED_WAIT_FLAG | Dat.COMPLETION_UNSIGNALLED_FLAG)) != 0;
            if (ep.recvEvd == evd && receives && !silent && ep.qp.peer() != null) {
                ep.qp.peer().unreportedRequests(true, pending);
            }
        }
        return pending.isEmpty() ? null : new ReapHold(evd, pending);
    }

    /** The request operations of an endpoint whose completions have not been reported, in posting order. */
    static java.util.List<org.datsim.fabric.hca.WorkRequest> unfinished(Ep ep) {
        java.util.List<org.datsim.fabric.hca.WorkRequest> pending = new java.util.ArrayList<>();
        if (ep != null && !ep.freed && ep.qp != null) {
            ep.qp.unreportedRequests(false, pending);
            pending.sort(java.util.Comparator.comparingLong(w -> w.opId));
        }
        return pending;
    }

    /** How many messages (Sends, Writes with immediate) to other endpoints of the SRQ have not arrived yet. */
    private static int otherMessagesInFlight(Srq srq, Ep ep) {
        int n = 0;
        java.util.List<org.datsim.fabric.hca.WorkRequest> pending = new java.util.ArrayList<>();
        for (Ep o : srq.eps) {
            if (o == ep || o.qp.peer() == null) {
                continue;
            }
            pending.clear();
            o.qp.peer().unreportedRequests(true, pending);
            for (org.datsim.fabric.hca.WorkRequest w : pending) {
                if (!w.isDelivered()) {
                    n++;
                }
            }
        }
        return n;
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
