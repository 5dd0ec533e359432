package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;

/**
 * Writes the happenings that belong to no operation: broken connections and other asynchronous errors, stale or
 * unexpected CPU reads, posts the provider refused, disconnects, failed expectations and dropped packets of no
 * operation (connection management, whose resends and timeouts {@link CmResends} tells).
 */
final class OtherHappenings {

    private final List<Explanation.Line> lines = new ArrayList<>();

    /** An {@code error} event: a broken connection, or another asynchronous error such as an EVD overflow. */
    void error(TraceEvent e, long t) {
        if ("connection broken".equals(TraceIndex.text(e, TraceKey.ERROR)) && e.ep() != null) {
            lines.add(new Explanation.Line(t, "the connection of " + e.ep() + " broke ("
                    + (e.status() == null ? "an error" : e.status()) + "): its outstanding operations are"
                    + " flushed and it is DISCONNECTED (rule 44)", true));
        } else {
            lines.add(new Explanation.Line(t, "asynchronous error on " + e.host() + ": "
                    + TraceIndex.text(e, TraceKey.ERROR) + (e.hasAttr(TraceKey.LOST_EVENT) ? " (lost "
                            + TraceIndex.text(e, TraceKey.LOST_EVENT) + ")" : ""), true));
        }
    }

    /**
     * A {@code drop} of a packet that belongs to no operation (connection management): the message and its
     * connection when the line names them ("A's REQ to B (connection 1)"), else the packet's kind.
     */
    void drop(OpRecord.Drop d) {
        String what = !d.message().isEmpty() ? CmResends.message(d.from(), d.message(), d.to(), d.commId())
                : ("cm".equals(d.packet()) ? "a connection-management packet" : "a " + d.packet() + " packet")
                        + " from " + d.from() + " to " + d.to();
        lines.add(new Explanation.Line(d.tPs(), "switch " + d.sw() + " dropped " + what + " on arrival over "
                + d.port() + ": " + Losses.why(d.reason(), false, false), true));
    }

    /** A {@code mem_read}: told only when it was stale or not what the scenario expected. */
    void memRead(TraceEvent e, long t) {
        if (Boolean.TRUE.equals(e.attrValue(TraceKey.STALE))) {
            lines.add(new Explanation.Line(t, "process " + TraceIndex.text(e, TraceKey.PROCESS) + " on " + e.host()
                    + " read " + TraceIndex.number(e, TraceKey.BYTES, 0) + " bytes of "
                    + TraceIndex.text(e, TraceKey.LMR)
                    + " and got stale bytes: its CPU cache still held lines that DMA had since overwritten (without"
                    + " dat_lmr_sync_rdma_write after an incoming RDMA Write, rule 32)", true));
        } else if (Boolean.FALSE.equals(e.attrValue(TraceKey.MATCH))) {
            lines.add(new Explanation.Line(t, "process " + TraceIndex.text(e, TraceKey.PROCESS) + " on " + e.host()
                    + " read " + TraceIndex.number(e, TraceKey.BYTES, 0) + " bytes of "
                    + TraceIndex.text(e, TraceKey.LMR)
                    + " that are not what it expected (" + shortHex(TraceIndex.text(e, TraceKey.DATA_HEX)) + ")",
                    true));
        }
    }

    /**
     * A {@code call}: a successful dat_ep_disconnect, a post or bind the provider refused, or a dat_evd_wait refused
     * with DAT_INVALID_STATE.
     */
    void call(TraceEvent e, long t) {
        String c = e.call() == null ? "" : e.call();
        boolean ok = "DAT_SUCCESS".equals(e.ret());
        if (c.equals("dat_ep_disconnect") && ok && e.ep() != null) {
            lines.add(new Explanation.Line(t, "process " + TraceIndex.text(e, TraceKey.PROCESS)
                    + " called dat_ep_disconnect on " + e.ep(), false));
        } else if (!ok && (c.startsWith("dat_ep_post_") || c.equals("dat_rmr_bind"))) {
            String sub = TraceIndex.text(e, TraceKey.SUBTYPE);
            String hint = "DAT_INSUFFICIENT_RESOURCES".equals(e.ret()) ? ": max_request_dtos operations of the"
                    + " endpoint still hold their slots (a suppressed completion keeps its slot until a later"
                    + " signalled one is reaped, rule 11)" : "";
            lines.add(new Explanation.Line(t, "process " + TraceIndex.text(e, TraceKey.PROCESS) + "'s " + c + " on "
                    + (e.ep() != null ? e.ep() : e.host()) + (e.hasCookie() ? " (cookie " + e.cookie() + ")" : "")
                    + " returned " + e.ret() + (sub.isEmpty() ? "" : " (" + sub + ")") + ", so nothing was posted"
                    + hint, true));
        } else if (c.equals("dat_evd_wait") && "DAT_INVALID_STATE".equals(e.ret())) {
            String sub = TraceIndex.text(e, TraceKey.SUBTYPE);
            String evd = TraceIndex.text(e, TraceKey.EVD);
            lines.add(new Explanation.Line(t, "process " + TraceIndex.text(e, TraceKey.PROCESS) + "'s dat_evd_wait on "
                    + (evd.isEmpty() ? e.host() : evd) + " returned DAT_INVALID_STATE" + (sub.isEmpty() ? ""
                            : " (" + sub + ")") + ", so it took no event" + waitHint(sub), true));
        }
    }

    private static String waitHint(String subtype) {
        switch (subtype) {
            case "DAT_INVALID_STATE_EVD_CONFIG_THRESHOLD":
                return ": an EVD fed by a stream whose notifications the consumer controls (UNSIGNALLED completions)"
                        + " or the sender does (SOLICITED_WAIT receives) allows only threshold 1 (rules 6 and 15)";
            case "DAT_INVALID_STATE_EVD_WAITER":
                return ": another consumer was already waiting on the EVD, which it owns meanwhile (rule 4)";
            case "DAT_INVALID_STATE_EVD_UNWAITABLE":
                return ": the EVD is unwaitable (dat_evd_set_unwaitable)";
            default:
                return "";
        }
    }

    /** An {@code expect_failed}: an expectation of the scenario did not hold. */
    void expectFailed(TraceEvent e, long t) {
        lines.add(new Explanation.Line(t, "an expectation of process " + TraceIndex.text(e, TraceKey.PROCESS)
                + " failed: " + TraceIndex.text(e, TraceKey.MESSAGE), true));
    }

    /** Returns the lines so far in time order (ties in the order they happened). */
    List<Explanation.Line> sorted() {
        return sorted(List.of());
    }

    /**
     * Returns the lines so far and some more in time order (ties: the lines so far in the order they happened, then
     * the others in their order).
     *
     * @param more lines told at the end of the trace (e.g. {@link CmResends}'), not kept
     * @return a new list
     */
    List<Explanation.Line> sorted(List<Explanation.Line> more) {
        List<Explanation.Line> out = new ArrayList<>(lines);
        out.addAll(more);
        out.sort((a, b) -> Long.compare(a.tPs(), b.tPs()));
        return out;
    }

    private static String shortHex(String hex) {
        return hex.length() > 16 ? hex.substring(0, 16) + "..." : hex;
    }
}
