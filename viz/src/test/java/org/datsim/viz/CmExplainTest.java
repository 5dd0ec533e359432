package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.viz.explain.Explainer;
import org.datsim.viz.explain.Explanation;
import org.junit.jupiter.api.Test;

/**
 * The explainer on hand-made traces of lost connection-management messages: each dropped CM packet is told with its
 * message and connection, each message the connection manager sent again with how many times, after how long and
 * the drops behind it, and a message given up with the connection event it led to; all starred, with a legend that
 * says so only when there is such a line.
 */
class CmExplainTest {

    private static final long US = 1_000_000L;

    private static String text(Explanation x) {
        StringWriter w = new StringWriter();
        x.print(new PrintWriter(w));
        return w.toString();
    }

    private static TraceEvent cmDrop(long t, String message, String from, String to, long comm) {
        return TraceEvent.of(t, "drop", from).attr("switch", "S").attr("port", from + "->S").attr("reason", "filter")
                .attr("packet", "cm").attr("message", message).attr("from", from).attr("to", to).attr("comm_id", comm)
                .attr("bytes", 256L);
    }

    private static TraceEvent retry(long t, String ep, String message, long attempt, String to, long comm) {
        return TraceEvent.of(t, "cm_retry", ep.substring(0, 1)).ep(ep).attr("message", message)
                .attr("attempt", attempt).attr("to", to).attr("comm_id", comm);
    }

    private static TraceEvent timeout(long t, String ep, String message, long resends, String to, long comm) {
        return TraceEvent.of(t, "cm_timeout", ep.substring(0, 1)).ep(ep).attr("message", message)
                .attr("resends", resends).attr("to", to).attr("comm_id", comm);
    }

    private static TraceEvent event(long t, String ep, String name) {
        return TraceEvent.of(t, "event", ep.substring(0, 1)).ep(ep).attr("event", name).attr("state", "x");
    }

    private static String legend(String t) {
        return t.lines().filter(l -> l.startsWith("(* marks ")).findFirst().orElseThrow();
    }

    @Test
    void everyLostReqItsResendsAndTheTimeoutAreToldAndStarred() {
        Explainer x = new Explainer();
        x.setCmResponseTimeout(100 * US);
        x.accept(cmDrop(12 * US, "REQ", "A", "B", 1));
        x.accept(retry(110 * US, "A/ep1", "REQ", 1, "B", 1));
        x.accept(cmDrop(112 * US, "REQ", "A", "B", 1));
        x.accept(retry(210 * US, "A/ep1", "REQ", 2, "B", 1));
        x.accept(cmDrop(212 * US, "REQ", "A", "B", 1));
        x.accept(timeout(310 * US, "A/ep1", "REQ", 2, "B", 1));
        x.accept(event(310 * US, "A/ep1", "DAT_CONNECTION_EVENT_TIMED_OUT"));
        Explanation e = x.explain();
        String t = text(e);
        assertTrue(t.contains("12 us  * switch S dropped A's REQ to B (connection 1) on arrival over A->S: the drop"
                + " filter took it (fault injection)\n"), t);
        assertTrue(t.contains("110 us  * A/ep1's REQ to B (connection 1) was resent 2 times after 100 us each without a"
                + " REP or REJ (cm.response_timeout), the last at 210 us: switch S dropped the REQ 3 times, the first at"
                + " 12 us\n"), t);
        assertTrue(t.contains("310 us  * A/ep1's REQ to B (connection 1) was given up after 2 resends without a REP or"
                + " REJ (cm.max_retries 2): the connection timed out (DAT_CONNECTION_EVENT_TIMED_OUT)\n"), t);
        int[] at = {t.indexOf("  12 us  * switch"), t.indexOf("  110 us  * A/ep1"), t.indexOf("  112 us  * switch"),
            t.indexOf("  212 us  * switch"), t.indexOf("  310 us  * A/ep1")};
        for (int i = 0; i < at.length; i++) {
            assertTrue(at[i] > (i == 0 ? t.indexOf("Other happenings:") : at[i - 1]), "in time order: " + t);
        }
        List<String> notable = e.notableSentences();
        assertEquals(5, notable.size(), "3 drops, the resends and the timeout: " + notable);
        assertTrue(notable.get(1).startsWith("at 110 us A/ep1's REQ to B (connection 1) was resent 2 times"),
                notable::toString);
        assertTrue(legend(t).contains("connection-manager resends and timeouts"), legend(t));
    }

    @Test
    void aLostRepIsBehindTheReqSentAgainAndTheRepSentAgainAndAnUnansweredDreqDisconnectsLocally() {
        Explainer x = new Explainer();
        x.setCmResponseTimeout(100 * US);
        x.accept(cmDrop(60 * US, "REP", "B", "A", 4));
        x.accept(retry(110 * US, "A/ep2", "REQ", 1, "B", 4));
        x.accept(retry(158 * US, "B/ep1", "REP", 1, "A", 4));
        x.accept(cmDrop(300 * US, "DREQ", "A", "B", 4));
        x.accept(cmDrop(400 * US, "DREP", "B", "A", 4));
        x.accept(timeout(500 * US, "A/ep2", "DREQ", 0, "B", 4));
        x.accept(event(500 * US, "A/ep2", "DAT_CONNECTION_EVENT_DISCONNECTED"));
        String t = text(x.explain());
        assertTrue(t.contains("* switch S dropped B's REP to A (connection 4) on arrival over B->S"), t);
        assertTrue(t.contains("110 us  * A/ep2's REQ to B (connection 4) was resent once after 100 us without a REP or"
                + " REJ (cm.response_timeout): switch S dropped the REP at 60 us\n"), t);
        assertTrue(t.contains("158 us  * B/ep1's REP to A (connection 4) was resent once after 100 us without an RTU"
                + " (cm.response_timeout): switch S dropped the REP at 60 us\n"), t);
        assertTrue(t.contains("500 us  * A/ep2's DREQ to B (connection 4) was given up without a DREP and without a"
                + " resend (cm.max_retries 0): the endpoint disconnected locally all the same"
                + " (DAT_CONNECTION_EVENT_DISCONNECTED): the trace shows 2 drops of the DREQ and its answers, the first"
                + " the DREQ by switch S at 300 us\n"), t);
    }

    @Test
    void withoutTheRunsResponseTimeoutEvenResendsGiveTheirGapAndAReqResentWithoutADropWasAnsweredLate() {
        Explainer x = new Explainer();
        x.accept(retry(110 * US, "A/ep1", "REQ", 1, "B", 2));
        x.accept(retry(210 * US, "A/ep1", "REQ", 2, "B", 2));
        x.accept(retry(500 * US, "C/ep1", "REQ", 1, "B", 3));
        String t = text(x.explain());
        assertTrue(t.contains("* A/ep1's REQ to B (connection 2) was resent 2 times after 100 us each without a REP or"
                + " REJ (cm.response_timeout), the last at 210 us: the trace shows no drop of it or of an answer, so the"
                + " passive side had not answered yet (it answers once its consumer accepts or rejects)\n"), t);
        assertTrue(t.contains("* C/ep1's REQ to B (connection 3) was resent once after cm.response_timeout without a REP"
                + " or REJ: the trace shows no drop"), t);
    }

    @Test
    void theLegendNamesConnectionManagerResendsOnlyWhenTheExplanationTellsOne() {
        Explainer x = new Explainer();
        x.accept(cmDrop(12 * US, "RTU", "A", "B", 1)); // a drop alone: "switch drops" in the legend covers it
        String t = text(x.explain());
        assertTrue(t.contains("* switch S dropped A's RTU to B (connection 1)"), t);
        assertFalse(legend(t).contains("connection-manager"), legend(t));
        assertTrue(legend(t).contains("switch drops"), legend(t));

        Explainer y = new Explainer();
        y.accept(timeout(5 * US, "B/ep1", "REP", 15, "A", 7));
        String u = text(y.explain());
        assertTrue(u.contains("* B/ep1's REP to A (connection 7) was given up after 15 resends without an RTU"
                + " (cm.max_retries 15): no connection event followed (the endpoint had moved on): the trace shows no"
                + " drop of it or of its answer\n"), u);
        assertEquals(legend(t).replace("go-back-N resends after a loss, switch drops", "go-back-N resends after a"
                + " loss, connection-manager resends and timeouts, switch drops"), legend(u), "the same legend, and that");
    }
}
