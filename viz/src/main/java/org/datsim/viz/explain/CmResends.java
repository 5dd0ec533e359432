package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;

/**
 * Tells, among the other happenings, how the connection manager recovered lost connection-management messages: for
 * each REQ, REP or DREQ an endpoint sent again ({@code cm_retry} lines of one endpoint, connection and message), how
 * many times, after how long each and the last when, with the drops of that message or of its answer that the trace
 * shows on that connection; and when it gave one up ({@code cm_timeout}), after how many resends and with which
 * connection event. Lines of a trace without {@code comm_id} (written before the lines carried it) are told without
 * their drops.
 */
final class CmResends {

    /** One message of one endpoint and connection: its resends in trace order, and its giving up, if any. */
    private static final class Group {
        final String ep;
        final String message;
        final String to;
        final long commId;
        final List<Long> resends = new ArrayList<>(2);
        long timeoutAt = -1;
        long timeoutResends;
        /** The connection event queued with the timeout ("" if none followed it). */
        String event = "";

        Group(String ep, String message, String to, long commId) {
            this.ep = ep;
            this.message = message;
            this.to = to;
            this.commId = commId;
        }
    }

    /** In order of first resend or timeout. */
    private final Map<String, Group> groups = new LinkedHashMap<>();
    /** Per endpoint: the message it just gave up, waiting for the connection event of the same instant. */
    private final Map<String, Group> givenUp = new HashMap<>();
    private long givenUpAt = -1;

    /** Takes a {@code cm_retry} or {@code cm_timeout} line. */
    void accept(TraceEvent e, long t) {
        String ep = e.ep() != null ? e.ep() : e.host();
        String message = TraceIndex.text(e, TraceKey.MESSAGE);
        String to = TraceIndex.text(e, TraceKey.TO);
        long commId = TraceIndex.number(e, TraceKey.COMM_ID, -1);
        Group g = groups.computeIfAbsent(ep + '\n' + commId + '\n' + message + '\n' + to,
                k -> new Group(ep, message, to, commId));
        if (TraceKind.CM_RETRY.equals(e.kind())) {
            g.resends.add(t);
            return;
        }
        g.timeoutAt = t;
        g.timeoutResends = TraceIndex.number(e, TraceKey.RESENDS, g.resends.size());
        if (givenUpAt != t) {
            givenUp.clear();
            givenUpAt = t;
        }
        givenUp.put(ep, g);
    }

    /** Takes an {@code event} line of an endpoint: the connection event that follows a timeout at the same time. */
    void event(TraceEvent e, long t) {
        if (t != givenUpAt) {
            return;
        }
        Group g = givenUp.remove(e.ep());
        if (g != null) {
            g.event = TraceIndex.text(e, TraceKey.EVENT);
        }
    }

    /** Whether the trace has a resend or a timeout to tell. */
    boolean any() {
        return !groups.isEmpty();
    }

    /**
     * Returns the lines to tell: per message resent, one at its first resend; per message given up, one when it was.
     *
     * @param drops every drop the trace shows, in trace order
     * @param responseTimeoutPs {@code cm.response_timeout} of the run, or -1 if not known
     * @return the lines, all notable
     */
    List<Explanation.Line> lines(List<OpRecord.Drop> drops, long responseTimeoutPs) {
        List<Explanation.Line> out = new ArrayList<>();
        for (Group g : groups.values()) {
            String subject = message(g.ep, g.message, g.to, g.commId);
            String evidence = evidence(g, drops);
            if (!g.resends.isEmpty()) {
                int n = g.resends.size();
                long wait = responseTimeoutPs > 0 ? responseTimeoutPs : evenGap(g.resends);
                StringBuilder sb = new StringBuilder(subject).append(" was resent ")
                        .append(n == 1 ? "once" : n + " times");
                if (wait > 0) {
                    sb.append(" after ").append(Times.human(wait)).append(n == 1 ? "" : " each").append(" without ")
                            .append(answer(g.message)).append(" (cm.response_timeout)");
                } else {
                    sb.append(n == 1 ? "" : ", each").append(" after cm.response_timeout without ")
                            .append(answer(g.message));
                }
                if (n > 1) {
                    sb.append(", the last at ").append(Times.human(g.resends.get(n - 1)));
                }
                out.add(new Explanation.Line(g.resends.get(0), sb.append(evidence).toString(), true));
            }
            if (g.timeoutAt >= 0) {
                long r = g.timeoutResends;
                StringBuilder sb = new StringBuilder(subject).append(" was given up ")
                        .append(r == 0 ? "without " + answer(g.message) + " and without a resend"
                                : "after " + (r == 1 ? "one resend" : r + " resends") + " without "
                                        + answer(g.message))
                        .append(" (cm.max_retries ").append(r).append("): ").append(consequence(g.event));
                out.add(new Explanation.Line(g.timeoutAt, sb.append(g.resends.isEmpty() ? evidence : "")
                        .toString(), true));
            }
        }
        return out;
    }

    /**
     * A CM message in words: "A/ep1's REQ to B (connection 3)".
     *
     * @param who the endpoint or host that sent it
     * @param message REQ, REP, ...
     * @param to the host it was sent to
     * @param commId its connection's communication id, or 0 or less for none
     * @return the words
     */
    static String message(String who, String message, String to, long commId) {
        return who + "'s " + message + " to " + to + (commId > 0 ? " (connection " + commId + ")" : "");
    }

    /** What answers a message that is sent again without it. */
    private static String answer(String message) {
        switch (message) {
            case "REQ":
                return "a REP or REJ";
            case "REP":
                return "an RTU";
            case "DREQ":
                return "a DREP";
            default:
                return "an answer";
        }
    }

    /** The messages whose loss makes this one be sent again: itself and its answers. */
    private static boolean related(String message, String dropped) {
        switch (message) {
            case "REQ":
                return dropped.equals("REQ") || dropped.equals("REP") || dropped.equals("REJ");
            case "REP":
                return dropped.equals("REP") || dropped.equals("RTU");
            case "DREQ":
                return dropped.equals("DREQ") || dropped.equals("DREP");
            default:
                return dropped.equals(message);
        }
    }

    /** What the connection manager's giving up led to, from the connection event that followed it. */
    private static String consequence(String event) {
        switch (event) {
            case "DAT_CONNECTION_EVENT_TIMED_OUT":
                return "the connection timed out (" + event + ")";
            case "DAT_CONNECTION_EVENT_UNREACHABLE":
                return "the connection failed as unreachable (" + event + ", provider.cm_timeout_event)";
            case "DAT_CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR":
                return "the accept failed (" + event + ")";
            case "DAT_CONNECTION_EVENT_DISCONNECTED":
                return "the endpoint disconnected locally all the same (" + event + ")";
            case "":
                return "no connection event followed (the endpoint had moved on)";
            default:
                return event;
        }
    }

    /**
     * The drops behind a message's resends and its giving up, as a clause after a colon: of that connection, that
     * message or its answers, dropped before the last resend (or the giving up); "" when the lines do not name the
     * connection.
     */
    private static String evidence(Group g, List<OpRecord.Drop> drops) {
        if (g.commId <= 0) {
            return "";
        }
        long end = g.timeoutAt >= 0 ? g.timeoutAt : g.resends.get(g.resends.size() - 1);
        List<OpRecord.Drop> behind = new ArrayList<>(2);
        boolean oneKind = true;
        for (OpRecord.Drop d : drops) {
            if (d.commId() == g.commId && d.tPs() < end && related(g.message, d.message())) {
                if (!behind.isEmpty()) {
                    OpRecord.Drop first = behind.get(0);
                    oneKind &= first.message().equals(d.message()) && first.sw().equals(d.sw());
                }
                behind.add(d);
            }
        }
        if (behind.isEmpty()) {
            return "REQ".equals(g.message) ? ": the trace shows no drop of it or of an answer, so the passive side had"
                    + " not answered yet (it answers once its consumer accepts or rejects)"
                    : ": the trace shows no drop of it or of its answer";
        }
        OpRecord.Drop first = behind.get(0);
        if (behind.size() == 1) {
            return ": switch " + first.sw() + " dropped the " + first.message() + " at " + Times.human(first.tPs());
        }
        if (oneKind) {
            return ": switch " + first.sw() + " dropped the " + first.message() + " " + behind.size()
                    + " times, the first at " + Times.human(first.tPs());
        }
        return ": the trace shows " + behind.size() + " drops of the " + g.message + " and its answers, the first the "
                + first.message() + " by switch " + first.sw() + " at " + Times.human(first.tPs());
    }

    /** The gap between successive resends if they are all equal (cm.response_timeout), else -1. */
    private static long evenGap(List<Long> times) {
        if (times.size() < 2) {
            return -1;
        }
        long gap = times.get(1) - times.get(0);
        for (int i = 2; i < times.size(); i++) {
            if (times.get(i) - times.get(i - 1) != gap) {
                return -1;
            }
        }
        return gap;
    }
}
