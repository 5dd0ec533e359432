package org.datsim.viz.explain;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes how an operation ended: completed (and whether its completion waited for an earlier one, rule 2, or was
 * suppressed), flushed (by a broken connection or a disconnect, and what it was still waiting for), failed (and why),
 * or never completed; then when the consumer took the completion.
 */
final class CompletionCauses {

    private final TraceIndex index;

    CompletionCauses(TraceIndex index) {
        this.index = index;
    }

    /** Adds the end of an operation's story; {@code lines} holds its earlier steps. */
    void write(OpRecord o, List<Explanation.Line> lines) {
        if (o.complete < 0) {
            lines.add(new Explanation.Line(Math.max(index.lastEvent, lastTime(lines)), "never completed: the trace"
                    + " ends here", true));
            return;
        }
        String latency = Times.human(o.complete - o.post) + " after the post";
        if (o.heldBehind >= 0 && o.finishedPs >= 0) {
            lines.add(new Explanation.Line(o.complete, "completed " + o.status + " only now, " + latency + ": the"
                    + " transport had finished it at " + Times.human(o.finishedPs) + ", but its completion waited "
                    + Times.human(o.complete - o.finishedPs) + " behind " + index.name(o.heldBehind) + ", posted"
                    + " before it on " + o.ep + " (rule 2: completions in posting order)", true));
        } else if (o.suppressed) {
            lines.add(new Explanation.Line(o.complete, "completed DAT_DTO_SUCCESS with no event (SUPPRESS, rule"
                    + " 10); its request slot stays taken until a later signalled completion is reaped (rule 11)",
                    false));
        } else if ("DAT_DTO_ERR_FLUSHED".equals(o.status)) {
            lines.add(new Explanation.Line(o.complete, "was flushed, DAT_DTO_ERR_FLUSHED: " + whyFlushed(o)
                    + notStarted(o), true));
        } else if (!o.status.isEmpty() && !"DAT_DTO_SUCCESS".equals(o.status)) {
            lines.add(new Explanation.Line(o.complete, "failed with " + o.status + failedBecause(o), true));
        } else if (o.isUnsignalled() && "DAT_DTO_SUCCESS".equals(o.status)) {
            lines.add(new Explanation.Line(o.complete, "completed " + o.status + ", " + latency + "; its event is"
                    + " queued, but an unsignalled one is no notification: it wakes no dat_evd_wait waiter and triggers"
                    + " no CNO (rule 13)", false));
        } else {
            lines.add(new Explanation.Line(o.complete, "completed " + o.status + ", " + latency, false));
        }
        boolean lateUnsignalled = o.dequeue >= 0 && o.isUnsignalled() && o.dequeue > o.complete
                && "DAT_DTO_SUCCESS".equals(o.status);
        Explanation.Line taken = !lateUnsignalled ? null
                : o.dequeuedByWait ? takenByWait(o) : dequeuedAfterTimeout(o);
        if (taken != null) {
            lines.add(taken);
        } else if (o.dequeue >= 0) {
            lines.add(new Explanation.Line(o.dequeue, "was dequeued by process " + o.dequeueProcess
                    + (o.dequeue > o.complete ? ", " + Times.human(o.dequeue - o.complete) + " after it was queued"
                            : ""), false));
        }
    }

    /**
     * Rule 13 for an unsignalled completion a dat_evd_wait took later than it was queued: the wait returned when
     * another completion of the endpoint, a notification, was queued; or no such completion came in between, and
     * nothing but the wait's timeout (or its late start) ended it. Null when neither holds.
     */
    private Explanation.Line takenByWait(OpRecord o) {
        String taken = "was taken by process " + o.dequeueProcess + "'s dat_evd_wait "
                + Times.human(o.dequeue - o.complete) + " after it was queued";
        TreeMap<Long, Long> notified = index.notifiedByEp.getOrDefault(o.ep, new TreeMap<>());
        Long by = notified.get(o.dequeue);
        if (by != null) {
            OpRecord b = index.ops.get(by);
            if (b == null || "recv".equals(b.opcode) != "recv".equals(o.opcode)) {
                return null; // the other queue's completion: it may feed another EVD; nothing sure to tell
            }
            return new Explanation.Line(o.dequeue, taken + ", when " + index.name(by) + "'s signalled completion"
                    + " woke the waiter, which finds the earlier unsignalled events too (rule 13)", false);
        }
        if (notified.subMap(o.complete, false, o.dequeue, false).isEmpty()) {
            return new Explanation.Line(o.dequeue, taken + ": an unsignalled completion wakes no waiter (rule 13),"
                    + " and no signalled completion of " + o.ep + " came in between", true);
        }
        return null;
    }

    /**
     * Rules 5 and 13 for an unsignalled completion dequeued after a dat_evd_wait of the same process timed out while
     * it lay queued, with no signalled completion of its endpoint in between: nothing could wake the wait. Null when
     * no such timeout came between.
     */
    private Explanation.Line dequeuedAfterTimeout(OpRecord o) {
        TreeMap<Long, String> timeouts = index.waitTimeouts.get(o.dequeueProcess);
        Long at = timeouts == null ? null : timeouts.lowerKey(o.dequeue + 1);
        if (at == null || at <= o.complete) {
            return null;
        }
        TreeMap<Long, Long> notified = index.notifiedByEp.getOrDefault(o.ep, new TreeMap<>());
        if (!notified.subMap(o.complete, false, at, true).isEmpty()) {
            return null;
        }
        return new Explanation.Line(o.dequeue, "was dequeued by process " + o.dequeueProcess + " "
                + Times.human(o.dequeue - o.complete) + " after it was queued, once its dat_evd_wait on "
                + timeouts.get(at) + " had timed out at " + Times.human(at) + " (rule 5): an unsignalled completion"
                + " wakes no waiter (rule 13), and no signalled completion of " + o.ep + " came in between", true);
    }

    /**
     * Why an operation failed, after its status: for DAT_DTO_ERR_TRANSPORT after the local ACK timer had made it
     * retransmit, the retries that ran out; otherwise the status's usual reason.
     */
    private static String failedBecause(OpRecord o) {
        OpRecord.Retransmit last = o.retransmits == null || o.retransmits.isEmpty() ? null
                : o.retransmits.get(o.retransmits.size() - 1);
        if ("DAT_DTO_ERR_TRANSPORT".equals(o.status) && last != null && "ack_timeout".equals(last.reason())
                && last.tPs() <= o.complete) {
            return ": the local ACK timer expired again after retransmission attempt " + last.attempt() + " with"
                    + " nothing heard from the responder, and hca.retry_count retries in a row without progress were"
                    + " used up (IBV_WC_RETRY_EXC_ERR); the later operations are flushed and the connection breaks";
        }
        return Wording.statusReason(o.status);
    }

    private String whyFlushed(OpRecord o) {
        long[] b = index.brokenAt.get(o.ep);
        Long disconnected = index.disconnectAt.get(o.ep);
        if (b != null && b[0] <= o.complete) {
            return "the connection of " + o.ep + " broke at " + Times.human(b[0]) + " ("
                    + index.brokenStatus.get(o.ep) + "), and the operations it still had outstanding are flushed"
                    + " (rule 44)";
        }
        if (disconnected != null && disconnected <= o.post) {
            return "it was posted after dat_ep_disconnect (at " + Times.human(disconnected) + "): a post on a"
                    + " DISCONNECTED endpoint is flushed at once (rule 42)";
        }
        if (disconnected != null && disconnected <= o.complete) {
            return "dat_ep_disconnect was called on " + o.ep + " at " + Times.human(disconnected) + ", before it"
                    + " could finish (rules 42 and 43)";
        }
        return "its endpoint was disconnected before it could finish (rules 42 and 43)";
    }

    /** For a request flushed before it started: what it was still waiting for, as far as the trace shows. */
    private String notStarted(OpRecord o) {
        Long disconnected = index.disconnectAt.get(o.ep);
        if (!o.starts.isEmpty() || "recv".equals(o.opcode) || (disconnected != null && disconnected <= o.post)) {
            return "";
        }
        if (o.fenceAt >= 0) {
            return "; it had not started, still held by the fence";
        }
        if (o.creditAt >= 0) {
            return "; it had not started, still waiting for a read credit";
        }
        Map.Entry<Long, Long> busy = index.startsByHost.getOrDefault(o.host, new TreeMap<>())
                .lowerEntry(o.complete);
        if (busy != null) {
            return "; it had not started (the last operation " + o.host + "'s send engine had started was "
                    + index.name(busy.getValue()) + ", at " + Times.human(busy.getKey()) + ")";
        }
        return "; it had not started";
    }

    private static long lastTime(List<Explanation.Line> lines) {
        long t = -1;
        for (Explanation.Line l : lines) {
            t = Math.max(t, l.tPs());
        }
        return t;
    }
}
