package org.datsim.viz.explain;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Writes how a request got going: what held it before it started (a fence, an RMR bind's implicit fence, strict
 * read ordering, an RDMA Read credit), why it started when it did (the doorbell, the send engine busy with another
 * operation), whether it overtook an unfinished RDMA Read (rule 19), its messages on the wire (behind which other
 * operation's packet), the RNR NAKs that refused it, the go-back-N retransmissions that began with it (after an ACK
 * timeout, a sequence-error NAK or a missing response, and the first drop the trace shows behind each) and why it
 * started again.
 */
final class StartCauses {

    private static final String RNR_RETRY = "started again (the retry after the RNR NAK, transport.rnr_timer later)";
    /** The most operations a retransmission's line names; beyond, it counts the rest. */
    private static final int NAMED_RESENT = 4;

    private final TraceIndex index;
    private final long pcieLatency;
    private final Restarts restarts;
    private final Losses losses;

    StartCauses(TraceIndex index, long pcieLatency, Losses losses) {
        this.index = index;
        this.pcieLatency = pcieLatency;
        this.restarts = new Restarts(index);
        this.losses = losses;
    }

    /** Adds the steps of a request (anything but a receive) from its holds to its last message on the wire. */
    void write(OpRecord o, List<Explanation.Line> lines) {
        long hold = holds(o, lines);
        if (o.retransmits != null) { // before the restarts: at the same time, the retransmission tells why
            for (OpRecord.Retransmit r : o.retransmits) {
                lines.add(new Explanation.Line(r.tPs(), retransmitted(o, r), true));
            }
        }
        for (int i = 0; i < o.starts.size(); i++) {
            long s = o.starts.get(i);
            lines.add(new Explanation.Line(s, whyStarted(o, i, s, hold), false));
            if (i == 0 && hold < 0) {
                overtook(o, s, lines);
            }
        }
        wire(o, lines);
        for (long t : o.rnr) {
            lines.add(new Explanation.Line(t, "was refused by " + o.rnrHost + " with an RNR NAK: no receive was"
                    + " posted there (receiver not ready, rule 39); the requester retries after transport.rnr_timer",
                    true));
        }
    }

    /** The fence and credit holds; returns when the first began, or -1 if it was never held. */
    private long holds(OpRecord o, List<Explanation.Line> lines) {
        long hold = -1;
        long first = o.starts.isEmpty() ? -1 : o.starts.get(0);
        String until = first >= 0 ? " had finished, at " + Times.human(first) + " (held " : " had finished; it never"
                + " started";
        if (o.fenceAt >= 0) {
            hold = o.fenceAt;
            lines.add(new Explanation.Line(o.fenceAt, "was held by "
                    + Wording.fenceRule(o.fenceReason, index.readLikeKinds(o.fenceFor)) + ", until "
                    + index.names(o.fenceFor) + until + (first >= 0 ? Times.human(first - o.fenceAt) + ")" : ""),
                    true));
            if (o.inline) {
                // The inline copy was made at the post, before the fence released (dapl inlines by size alone).
                lines.add(new Explanation.Line(first >= 0 ? first : o.fenceAt,
                        Wording.inlineFenced(index.names(o.fenceFor)), true));
            }
        }
        if (o.creditAt >= 0) {
            hold = hold < 0 ? o.creditAt : hold;
            lines.add(new Explanation.Line(o.creditAt, "was held " + Wording.creditHold(o.isAtomic(),
                    index.readLikeKinds(o.creditFor)) + "; held until one of " + index.names(o.creditFor) + until
                    + (first >= 0 ? Times.human(first - o.creditAt) + ")" : ""), true));
        }
        return hold;
    }

    private String whyStarted(OpRecord o, int i, long s, long hold) {
        if (i > 0) {
            return whyAgain(o, i);
        }
        if (hold >= 0) {
            return "started, released by the hold above";
        }
        if (s - o.post > pcieLatency) {
            Map.Entry<Long, Long> before = index.startsByHost.getOrDefault(o.host, new TreeMap<>()).lowerEntry(s);
            String why = "started " + Times.human(s - o.post) + " after the post: the doorbell takes "
                    + Times.human(pcieLatency) + " over PCIe";
            if (before != null && before.getKey() >= o.post) {
                return why + ", then it waited for " + o.host + "'s send engine, busy with "
                        + index.name(before.getValue()) + " since " + Times.human(before.getKey());
            }
            return why + ", then it waited for " + o.host + "'s send engine";
        }
        return "was started by " + o.host + "'s send engine (the doorbell takes " + Times.human(pcieLatency)
                + " over PCIe)";
    }

    /** Why a request started for the {@code i}-th time (i from 1): a retransmission or an RNR NAK's retry. */
    private String whyAgain(OpRecord o, int i) {
        Restarts.Cause c = restarts.cause(o, i);
        if (c == null) {
            return o.rnr.isEmpty() ? "started again" : RNR_RETRY;
        }
        if (c.rnr()) {
            return c.first() == o.id ? RNR_RETRY : "started again: the retry of " + index.name(c.first())
                    + " after its RNR NAK sends every later unfinished operation of " + o.ep + " again too";
        }
        OpRecord.Retransmit r = retransmitAt(index.ops.get(c.first()), c.tPs());
        if (c.first() == o.id) {
            return "started again (retransmission" + (r == null ? "" : " attempt " + r.attempt()) + ")";
        }
        return "started again: go-back-N from " + index.name(c.first()) + ", retransmitted at " + Times.human(c.tPs())
                + (r == null ? "" : " after " + Wording.retransmitCause(r.reason())) + ", sends every later unfinished operation of " + o.ep + " again too";
    }

    private static OpRecord.Retransmit retransmitAt(OpRecord first, long tPs) {
        OpRecord.Retransmit found = null;
        if (first != null && first.retransmits != null) {
            for (OpRecord.Retransmit r : first.retransmits) {
                if (r.tPs() == tPs) {
                    found = r; // the last one traced then, as TraceIndex keeps it
                }
            }
        }
        return found;
    }

    /**
     * A go-back-N retransmission that began with the operation: what told the requester that a packet was lost,
     * and which later operations it sent again with it.
     */
    private String retransmitted(OpRecord o, OpRecord.Retransmit r) {
        StringBuilder sb = new StringBuilder("was retransmitted (attempt ").append(r.attempt()).append(") after ")
                .append(Wording.retransmitCause(r.reason())).append(": ")
                .append(Wording.retransmitWhy(r.reason(), o.isAtomic() ? "atomic" : "RDMA Read"));
        String evidence = losses.evidence(o.id, o.ep, r.tPs());
        if (!evidence.isEmpty()) {
            sb.append(" (").append(evidence).append(')');
        }
        sb.append("; go-back-N sends ").append(o.isReadLike() ? "its request" : "it").append(" again");
        List<Long> with = restarts.resentWith(o.ep, r.tPs());
        if (!with.isEmpty()) {
            sb.append(", then ");
            if (with.size() <= NAMED_RESENT) {
                sb.append(index.names(with.stream().mapToLong(Long::longValue).toArray()));
            } else {
                sb.append(index.name(with.get(0))).append(", ").append(index.name(with.get(1))).append(" and ")
                        .append(with.size() - 2).append(" later operations of ").append(o.ep);
            }
        }
        if ("ack_timeout".equals(r.reason())) {
            sb.append("; after hca.retry_count such retries in a row with nothing heard in between, the next timeout"
                    + " fails it with DAT_DTO_ERR_TRANSPORT");
        }
        return sb.toString();
    }

    /** Its messages on the wire: the request (or data) packets, then any response coming back. */
    private void wire(OpRecord o, List<Explanation.Line> lines) {
        for (int i = 0; i < o.tx.size(); i++) {
            long[] w = o.tx.get(i);
            String what = o.isReadLike() ? "its request" : o.packets > 1 ? "its " + o.packets
                    + " packets" : "its packet";
            String text = "put " + what + " on " + o.txHost + "'s link" + (w[1] >= 0 && w[1] != w[0]
                    ? ", the last bit out at " + Times.human(w[1]) : "");
            Long before = index.txEndsByHost.getOrDefault(o.txHost, Map.of()).get(w[0]);
            boolean queued = before != null && before != o.id;
            if (queued) {
                text += " (it queued behind " + index.name(before) + "'s last packet, which left just then)";
            }
            if (i > 0) {
                text += " (again)";
            }
            lines.add(new Explanation.Line(w[0], text, false));
        }
        for (long[] w : o.responseTx) {
            String text = "had its response sent by " + o.responseHost + (w[1] >= 0 && w[1] != w[0]
                    ? ", the last bit out at " + Times.human(w[1]) : "");
            Long before = index.txEndsByHost.getOrDefault(o.responseHost, Map.of()).get(w[0]);
            if (before != null && before != o.id) {
                text += " (it queued behind " + index.name(before) + "'s last packet)";
            }
            lines.add(new Explanation.Line(w[0], text, false));
        }
    }

    /**
     * Rules 18 and 19: an operation that started while an RDMA Read or an atomic posted before it on its endpoint had
     * not finished. Reads and atomics themselves overtake none: the responder answers them in order.
     */
    private void overtook(OpRecord o, long start, List<Explanation.Line> lines) {
        if (o.isReadLike()) {
            return;
        }
        List<OpRecord> reads = index.readsByEp.get(o.ep);
        if (reads == null) {
            return;
        }
        int lo = 0;
        int hi = reads.size(); // reads are in posting order: find the last one posted before o
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (reads.get(mid).id < o.id) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo - 1, seen = 0; i >= 0 && seen < 256; i--, seen++) {
            OpRecord r = reads.get(i);
            long done = r.place >= 0 ? r.place : r.complete;
            if (done < 0 || done > start) {
                lines.add(new Explanation.Line(start, "started while " + index.name(r.id) + ", posted before it on "
                        + o.ep + ", had not finished" + (done >= 0 ? " (it finished at " + Times.human(done) + ")"
                                : "") + (r.isAtomic() ? ": nothing holds it behind the atomic without a fence (rules 18"
                                        + " and 19)" : ": nothing holds it behind the Read without a fence (rule 19)"),
                        true));
                return;
            }
        }
    }
}
