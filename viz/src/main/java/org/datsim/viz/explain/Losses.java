package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Tells the packets switches dropped ({@code drop} lines): in an operation's story, which of its packets (or of the
 * responses and acknowledgements coming back to it) were lost, where and why, one line per run of drops at one
 * switch input for one reason whose packet indexes rise while no new sending of the message began; behind a
 * retransmission, the dropped packet of its endpoint that came first in sequence since the previous one; and in the
 * header, how many each switch dropped on each input.
 */
final class Losses {

    private final TraceIndex index;

    Losses(TraceIndex index) {
        this.index = index;
    }

    /** Adds the drops of an operation's packets to its story, each run at its first drop. */
    void write(OpRecord o, List<Explanation.Line> lines) {
        if (o.drops == null) {
            return;
        }
        List<OpRecord.Drop> run = new ArrayList<>(4);
        int runSent = -1;
        for (OpRecord.Drop d : o.drops) {
            int sent = sending(o, d);
            if (!run.isEmpty() && !(sent == runSent && continues(run.get(run.size() - 1), d))) {
                lines.add(line(run));
                run.clear();
            }
            run.add(d);
            runSent = sent;
        }
        lines.add(line(run));
    }

    /**
     * Which sending of its message a dropped packet may belong to: how many of the operation's messages of that
     * direction (its request, or its response) had begun to leave their host before the drop.
     */
    private static int sending(OpRecord o, OpRecord.Drop d) {
        boolean response = "read_response".equals(d.packet()) || "atomic_ack".equals(d.packet());
        int n = 0;
        for (long[] w : response ? o.responseTx : o.tx) {
            n += w[0] < d.tPs() ? 1 : 0;
        }
        return n;
    }

    /** Whether {@code d} continues the run that {@code last} ends: same place, reason and message, a later packet. */
    private static boolean continues(OpRecord.Drop last, OpRecord.Drop d) {
        return d.sw().equals(last.sw()) && d.port().equals(last.port()) && d.reason().equals(last.reason())
                && d.packet().equals(last.packet()) && d.seq() == last.seq() && d.index() > last.index();
    }

    private static Explanation.Line line(List<OpRecord.Drop> run) {
        OpRecord.Drop first = run.get(0);
        OpRecord.Drop last = run.get(run.size() - 1);
        String text = "had " + what(run) + " dropped by switch " + first.sw() + " on arrival over " + first.port()
                + (last.tPs() != first.tPs() ? ", the last at " + Times.human(last.tPs()) : "") + ": "
                + why(first.reason(), run.size() > 1, false);
        return new Explanation.Line(first.tPs(), text, true);
    }

    /**
     * The evidence behind a retransmission of an endpoint's operations at {@code tPs}, as a clause to put in
     * parentheses: of the endpoint's packets dropped after its previous retransmission (or from the start) up to
     * then, the one first in sequence (message, then packet), the first the responder missed; "" when the trace shows
     * none.
     */
    String evidence(long id, String ep, long tPs) {
        List<OpRecord.Drop> drops = index.dropsByEp.get(ep);
        if (drops == null) {
            return "";
        }
        Long previous = index.retransmitsByEp.containsKey(ep) ? index.retransmitsByEp.get(ep).lowerKey(tPs) : null;
        int from = previous == null ? 0 : after(drops, previous);
        int to = after(drops, tPs);
        if (from >= to) {
            return "";
        }
        OpRecord.Drop d = drops.get(from);
        for (int i = from + 1; i < to; i++) {
            OpRecord.Drop c = drops.get(i);
            if (c.seq() >= 0 && (d.seq() < 0 || c.seq() < d.seq() || c.seq() == d.seq() && c.index() < d.index())) {
                d = c;
            }
        }
        String whose = d.op() == id ? "its " : index.name(d.op()) + "'s ";
        StringBuilder sb = new StringBuilder("the trace shows switch ").append(d.sw()).append(" dropping ")
                .append(whose).append(noun(d)).append(" at ").append(Times.human(d.tPs()));
        int n = to - from;
        if (n > 1) {
            sb.append(", the first in sequence of the ").append(n).append(" packets of ").append(ep)
                    .append(" dropped ").append(previous == null ? "before this retransmission"
                            : "since its previous retransmission, at " + Times.human(previous));
        }
        return sb.toString();
    }

    /** The index of the first drop later than {@code tPs} (drops are in time order). */
    private static int after(List<OpRecord.Drop> drops, long tPs) {
        int lo = 0;
        int hi = drops.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (drops.get(mid).tPs() <= tPs) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /**
     * The header's sentence on every drop the trace shows: per switch, in order of first drop, how many and on which
     * inputs, and why.
     */
    static String summary(List<OpRecord.Drop> drops) {
        Map<String, Map<String, Integer>> perSwitch = new LinkedHashMap<>();
        Map<String, Integer> reasons = new LinkedHashMap<>();
        for (OpRecord.Drop d : drops) {
            perSwitch.computeIfAbsent(d.sw(), k -> new LinkedHashMap<>()).merge(d.port(), 1, Integer::sum);
            reasons.merge(d.reason(), 1, Integer::sum);
        }
        StringBuilder sb = new StringBuilder("Packets lost: ");
        boolean firstSwitch = true;
        for (Map.Entry<String, Map<String, Integer>> s : perSwitch.entrySet()) {
            int n = 0;
            for (int c : s.getValue().values()) {
                n += c;
            }
            sb.append(firstSwitch ? "" : "; ").append("switch ").append(s.getKey()).append(" dropped ").append(n)
                    .append(n == 1 ? " packet" : " packets");
            firstSwitch = false;
            if (s.getValue().size() == 1) {
                sb.append(" arriving over ").append(s.getValue().keySet().iterator().next());
                continue;
            }
            sb.append(" (");
            int i = 0;
            for (Map.Entry<String, Integer> p : s.getValue().entrySet()) {
                sb.append(i == 0 ? "" : i == s.getValue().size() - 1 ? " and " : ", ").append(p.getValue())
                        .append(i == 0 ? " arriving over " : " over ").append(p.getKey());
                i++;
            }
            sb.append(')');
        }
        if (reasons.size() == 1) {
            String r = reasons.keySet().iterator().next();
            sb.append(drops.size() == 1 ? ": " : ", each because ").append(why(r, false, true));
        } else {
            sb.append(": ");
            int i = 0;
            for (Map.Entry<String, Integer> r : reasons.entrySet()) {
                sb.append(i == 0 ? "" : i == reasons.size() - 1 ? " and " : ", ").append(r.getValue())
                        .append(" because ").append(why(r.getKey(), r.getValue() > 1, true));
                i++;
            }
        }
        boolean noOp = false;
        boolean allNoOp = true;
        for (OpRecord.Drop d : drops) {
            noOp |= d.op() < 0;
            allNoOp &= d.op() < 0;
        }
        if (allNoOp) {
            return sb.append(drops.size() == 1 ? ". It belonged to no operation: the other happenings below tell it."
                    : ". None belonged to an operation: the other happenings below tell them.").toString();
        }
        return sb.append(". The story of each operation below tells which of its packets were lost, and when")
                .append(noOp ? " (the other happenings tell the packets of no operation)." : ".").toString();
    }

    /** What was dropped: "its packet 2 of 8", "3 of its 8 packets (2, 4 and 6)", "the ACK from B", ... */
    private static String what(List<OpRecord.Drop> g) {
        OpRecord.Drop d = g.get(0);
        int n = g.size();
        if (n == 1) {
            return "its " + noun(d);
        }
        String from = own(d.packet()) ? "" : " from " + d.from();
        if (d.packets() > 1 && multiPacket(d.packet())) {
            StringBuilder which = new StringBuilder();
            for (int i = 0; i < n; i++) {
                which.append(i == 0 ? "" : i == n - 1 ? " and " : ", ").append(g.get(i).index() + 1);
            }
            return n + " of its " + d.packets() + (own(d.packet()) ? " packets" : " response packets") + from
                    + " (" + which + ")";
        }
        return n + " of its " + plural(single(d.packet())) + from;
    }

    /** One dropped packet, after "its": "packet 2 of 8", "request", "ACK from B", "response packet 3 of 4 from B". */
    private static String noun(OpRecord.Drop d) {
        String from = own(d.packet()) ? "" : " from " + d.from();
        if (d.packets() > 1 && multiPacket(d.packet())) {
            return (own(d.packet()) ? "packet " : "response packet ") + (d.index() + 1) + " of " + d.packets() + from;
        }
        return single(d.packet()) + from;
    }

    /** Whether the requester sent packets of this kind (its own message) rather than the responder. */
    private static boolean own(String packet) {
        switch (packet) {
            case "send":
            case "rdma_write":
            case "read_request":
            case "atomic":
                return true;
            default:
                return false;
        }
    }

    private static boolean multiPacket(String packet) {
        return packet.equals("send") || packet.equals("rdma_write") || packet.equals("read_response");
    }

    /** The name of a one-packet message of a kind. */
    private static String single(String packet) {
        switch (packet) {
            case "send":
            case "rdma_write":
                return "packet";
            case "read_request":
            case "atomic":
                return "request";
            case "read_response":
                return "response";
            case "atomic_ack":
                return "atomic acknowledgement";
            case "ack":
                return "ACK";
            case "nak":
                return "NAK";
            default:
                return packet + " packet";
        }
    }

    private static String plural(String noun) {
        return noun + "s";
    }

    /**
     * Why a switch dropped packets, from the drop's {@code reason}.
     *
     * @param reason the {@code reason} of a {@code drop} line
     * @param several whether it is said of several packets
     * @param full whether to say why the buffer overflowed too (once, in the header)
     * @return a clause
     */
    static String why(String reason, boolean several, boolean full) {
        switch (reason) {
            case "buffer_full":
                return "the switch's buffer share for that input was full (PFC headroom too small" + (full
                        ? " for what the link still delivered after the pause)" : ")");
            case "filter":
                return "the drop filter took " + (several ? "them" : "it") + " (fault injection)";
            default:
                return reason.isEmpty() ? "no reason given" : reason;
        }
    }
}
