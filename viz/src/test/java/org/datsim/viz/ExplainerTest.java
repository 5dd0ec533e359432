package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.viz.explain.Explainer;
import org.datsim.viz.explain.Explanation;
import org.datsim.viz.explain.Times;
import org.junit.jupiter.api.Test;

/**
 * The explainer on hand-made traces: each cause it names comes from a field of the trace. These check the words, not
 * the model, so they are not named ruleN_ (docs/rules.md lists the model's rule tests).
 */
class ExplainerTest {

    private static TraceEvent post(long t, long op, String opcode, String flags) {
        TraceEvent e = TraceEvent.of(t, TraceEvent.POST, "A").ep("A/ep1").op(op).cookie(op).attr("opcode", opcode)
                .attr("bytes", 64L);
        return flags == null ? e : e.attr("flags", flags);
    }

    private static String text(Explanation x) {
        StringWriter w = new StringWriter();
        x.print(new PrintWriter(w));
        return w.toString();
    }

    @Test
    void timesReadLikeUnits() {
        assertEquals("2.31 us", Times.human(2_310_000));
        assertEquals("812 ns", Times.human(812_000));
        assertEquals("0 ps", Times.human(0));
    }

    @Test
    void aCreditWaitAndItsReleaseAreToldRule49() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_read", null));
        x.accept(post(1_060_000, 2, "rdma_read", null));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(TraceEvent.of(1_500_000, "credit_wait", "A").ep("A/ep1").op(2).attr("opcode", "rdma_read")
                .attr("waiting_for", new long[] {1}).attr("reason", "max_rdma_read_out reads outstanding"));
        x.accept(TraceEvent.of(3_000_000, TraceEvent.PLACE, "A").ep("A/ep1").op(1).attr("bytes", 64L));
        x.accept(TraceEvent.of(3_000_000, TraceEvent.START, "A").ep("A/ep1").op(2));
        x.accept(TraceEvent.of(3_150_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(1).status("DAT_DTO_SUCCESS"));
        Explanation e = x.explain();
        assertEquals(2, e.stories().size());
        List<String> notable = e.notableSentences();
        assertEquals(2, notable.size(), notable::toString);
        assertTrue(notable.get(0).startsWith("at 1.5 us op 2 (rdma_read) was held for an RDMA Read credit"),
                notable::toString);
        assertTrue(notable.get(0).contains("until one of op 1 (rdma_read) had finished, at 3 us (held 1.5 us)"),
                notable::toString);
        assertTrue(notable.get(1).startsWith("at 3.15 us op 2 (rdma_read) never completed: the trace ends here"),
                notable::toString);
    }

    @Test
    void anRnrRefusalAndTheRetryAreToldRule39() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 5, "send", null));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(5));
        x.accept(TraceEvent.of(2_000_000, "rnr_nak", "B").ep("B/ep1").op(5).attr("reason", "no receive posted"));
        x.accept(TraceEvent.of(12_500_000, TraceEvent.START, "A").ep("A/ep1").op(5));
        x.accept(TraceEvent.of(14_000_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(5).status("DAT_DTO_SUCCESS"));
        String t = text(x.explain());
        assertTrue(t.contains("* was refused by B/ep1 with an RNR NAK: no receive was posted there"), t);
        assertTrue(t.contains("started again (the retry after the RNR NAK"), t);
        assertTrue(t.contains("completed DAT_DTO_SUCCESS, 13 us after the post"), t);
    }

    @Test
    void flushedOperationsNameTheBreakAndSuppressedOnesTheirSlotRule44() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_write", "DAT_COMPLETION_SUPPRESS_FLAG"));
        x.accept(post(1_100_000, 2, "rdma_write", null));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(TraceEvent.of(2_000_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(1).status("DAT_DTO_SUCCESS")
                .attr("suppressed", Boolean.TRUE));
        x.accept(TraceEvent.of(2_500_000, TraceEvent.ERROR, "A").ep("A/ep1").status("DAT_DTO_ERR_REMOTE_ACCESS")
                .attr("error", "connection broken"));
        x.accept(TraceEvent.of(2_650_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(2)
                .status("DAT_DTO_ERR_FLUSHED"));
        String t = text(x.explain());
        assertTrue(t.contains("op 1  rdma_write 64 B on A/ep1, cookie 1, DAT_COMPLETION_SUPPRESS_FLAG"), t);
        assertTrue(t.contains("completed DAT_DTO_SUCCESS with no event (SUPPRESS, rule 10)"), t);
        assertTrue(t.contains("* was flushed, DAT_DTO_ERR_FLUSHED: the connection of A/ep1 broke at 2.5 us"
                + " (DAT_DTO_ERR_REMOTE_ACCESS)"), t);
        assertTrue(t.contains("it had not started (the last operation A's send engine had started was op 1"
                + " (rdma_write), at 1.15 us)"), t);
    }
}
