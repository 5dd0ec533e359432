package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringWriter;
import java.util.List;
import java.util.stream.Collectors;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.datsim.viz.explain.Explainer;
import org.datsim.viz.explain.Explanation;
import org.datsim.viz.explain.Times;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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

    /** explain knows the fabric's own lines: a traced queue is never called untraced; flows, PFC and ECN are told. */
    @Test
    void queuesPausesMarksAndFlowsAreToldAndQueuesAreNotCalledUntraced() {
        Explainer x = new Explainer();
        x.accept(TraceEvent.of(1_000, TraceEvent.START, "h0").ep("flow0").op(0).attr("opcode", "rdma_write"));
        x.accept(TraceEvent.of(2_000, "port_queue", "S").attr("port", "S->h1").attr("queue_bytes", 4158L));
        x.accept(TraceEvent.of(3_000, "pfc", "S").attr("port", "h0->S").attr("paused", 1));
        x.accept(TraceEvent.of(4_000, "ecn_mark", "S").attr("port", "S->h1"));
        Explanation e = x.explain();
        String head = String.join("\n", e.header());
        assertTrue(head.contains("Workload: 1 flows"), head);
        assertTrue(head.contains("port queues are traced (port_queue): 1 port queued"), head);
        assertTrue(head.contains("PFC: 1 pauses traced"), head);
        assertTrue(head.contains("ECN: 1 packets marked"), head);
        assertFalse(String.join(" ", e.limits()).contains("switch queue"), e.limits().toString());
        Explainer none = new Explainer();
        none.accept(TraceEvent.of(1_000, TraceEvent.POST, "A").ep("A/ep").op(1).attr("opcode", "send"));
        assertTrue(String.join(" ", none.explain().limits()).contains("this run traced no port_queue"));
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

    /** Two operations and a fenced Send on A/ep1, whose fence_wait names {@code waitingFor}; its notable sentence. */
    private static String fencedSendWaitingFor(String firstOpcode, String secondOpcode, long... waitingFor) {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, firstOpcode, null));
        x.accept(post(1_060_000, 2, secondOpcode, null));
        x.accept(post(1_120_000, 3, "send", "DAT_COMPLETION_BARRIER_FENCE_FLAG"));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(TraceEvent.of(1_210_000, TraceEvent.START, "A").ep("A/ep1").op(2));
        x.accept(TraceEvent.of(1_270_000, TraceEvent.FENCE_WAIT, "A").ep("A/ep1").op(3).attr("opcode", "send")
                .attr("waiting_for", waitingFor).attr("reason", "barrier fence"));
        x.accept(TraceEvent.of(3_000_000, TraceEvent.START, "A").ep("A/ep1").op(3));
        List<String> held = x.explain().notableSentences().stream().filter(n -> n.contains(" was held ")).toList();
        assertEquals(1, held.size(), held::toString);
        return held.get(0);
    }

    @Test
    void aFenceThatWaitedForAnAtomicSaysAtomicsNotReads() {
        String t = fencedSendWaitingFor("fetch_add", "rdma_write", 1);
        assertEquals("at 1.27 us op 3 (send, BARRIER_FENCE) was held by the barrier fence"
                + " (DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 18), which on InfiniBand waits for earlier atomics as it"
                + " does for RDMA Reads, until op 1 (fetch_add) had finished, at 3 us (held 1.73 us)", t);
    }

    @Test
    void aFenceThatWaitedForAReadAndAnAtomicNamesBoth() {
        String t = fencedSendWaitingFor("rdma_read", "cmp_swap", 1, 2);
        assertTrue(t.contains("(DAT_COMPLETION_BARRIER_FENCE_FLAG, rules 17 and 18), which waits for earlier RDMA"
                + " Reads and atomics, until op 1 (rdma_read) and op 2 (cmp_swap) had finished"), t);
    }

    @Test
    void aFenceThatWaitedForReadsOnlyKeepsItsWording() {
        String t = fencedSendWaitingFor("rdma_read", "rdma_read", 1, 2);
        assertTrue(t.contains("(DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 17), which waits for earlier RDMA Reads,"
                + " until op 1 (rdma_read) and op 2 (rdma_read) had finished"), t);
        assertFalse(t.contains("atomic"), t);
    }

    /** A Read and a fenced Send on A/ep1, the Send's post line with or without {@code "inline": true}. */
    private static Explanation readThenFencedSend(boolean inline) {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_read", null));
        TraceEvent send = post(1_060_000, 2, "send", "DAT_COMPLETION_BARRIER_FENCE_FLAG");
        x.accept(inline ? send.attr("inline", Boolean.TRUE) : send);
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(TraceEvent.of(1_210_000, TraceEvent.FENCE_WAIT, "A").ep("A/ep1").op(2).attr("opcode", "send")
                .attr("waiting_for", new long[] {1}).attr("reason", "barrier fence"));
        x.accept(TraceEvent.of(3_000_000, TraceEvent.START, "A").ep("A/ep1").op(2));
        return x.explain();
    }

    @Test
    void anInlineSendThatAFenceHeldIsToldItsPayloadWasCapturedAtThePost() {
        Explanation x = readThenFencedSend(true);
        String t = text(x);
        assertTrue(t.contains("was posted inline: the provider copied its bytes into the work request now"
                + " (IBV_SEND_INLINE, its length within hca.max_inline)"), t);
        List<String> warned = x.notableSentences().stream().filter(n -> n.contains("captured at post")).toList();
        assertEquals(List.of("at 3 us op 2 (send, BARRIER_FENCE) carries the payload captured at post, before the"
                + " fence released: it went inline, so the fence held only its start, not the inline copy of its"
                + " bytes, which was made before op 1 (rdma_read) had finished; if its buffer is where op 1"
                + " (rdma_read) placed data, it sent the bytes from before that (stale). Post it after their"
                + " completion, make it longer than hca.max_inline, or set hca.max_inline to 0"), warned);
        assertTrue(t.contains("inline payloads copied at the post before a fence released"), t);
    }

    @Test
    void aSendNotPostedInlineHasNoInlineWords() {
        String t = text(readThenFencedSend(false));
        assertFalse(t.contains("inline"), t);
    }

    @Test
    void anAtomicHeldForAReadCreditSaysAtomicsTakeReadCredits() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_read", null));
        x.accept(post(1_060_000, 2, "cmp_swap", null));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(TraceEvent.of(1_500_000, "credit_wait", "A").ep("A/ep1").op(2).attr("opcode", "cmp_swap")
                .attr("waiting_for", new long[] {1}).attr("reason", "max_rdma_read_out reads outstanding"));
        x.accept(TraceEvent.of(3_000_000, TraceEvent.START, "A").ep("A/ep1").op(2));
        String t = x.explain().notableSentences().get(0);
        assertTrue(t.startsWith("at 1.5 us op 2 (cmp_swap) was held for an RDMA Read credit: max_rdma_read_out RDMA"
                + " Reads and atomics of its endpoint are outstanding (an atomic takes a read credit as a Read does),"
                + " and an atomic beyond the limit waits rather than fails (rule 49); held until one of op 1"
                + " (rdma_read) had finished"), t);
    }

    @Test
    void anAtomicsResultComesBackFromTheResponderAndAWriteThatOvertookItIsMarked() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "fetch_add", null));
        x.accept(post(1_060_000, 2, "rdma_write", null));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(TraceEvent.of(1_210_000, TraceEvent.START, "A").ep("A/ep1").op(2));
        x.accept(TraceEvent.of(1_300_000, TraceEvent.TX_START, "A").ep("A/ep1").op(1).attr("packet", "atomic")
                .attr("packets", 1L));
        x.accept(TraceEvent.of(1_304_000, TraceEvent.TX_END, "A").ep("A/ep1").op(1).attr("packet", "atomic")
                .attr("packets", 1L));
        x.accept(TraceEvent.of(2_000_000, TraceEvent.TX_START, "B").ep("B/ep1").op(1).attr("packet", "atomic_ack")
                .attr("packets", 1L));
        x.accept(TraceEvent.of(2_003_000, TraceEvent.TX_END, "B").ep("B/ep1").op(1).attr("packet", "atomic_ack")
                .attr("packets", 1L));
        x.accept(TraceEvent.of(2_203_000, TraceEvent.PLACE, "A").ep("A/ep1").op(1).attr("bytes", 8L));
        String t = text(x.explain());
        assertTrue(t.contains("put its request on A's link, the last bit out at 1.304 us"), t);
        assertTrue(t.contains("had the original value placed in A's memory, 200 ns after its last bit left B"), t);
        assertTrue(t.contains("* started while op 1 (fetch_add), posted before it on A/ep1, had not finished (it"
                + " finished at 2.203 us): nothing holds it behind the atomic without a fence (rules 18 and 19)"), t);
    }

    private static TraceEvent miss(long t, String host, long op, String cache, long penalty) {
        return TraceEvent.of(t, "cache_miss", host).ep(host + "/ep1").op(op).attr("cache", cache)
                .attr("key", 4096L).attr("penalty_ps", penalty);
    }

    @Test
    void cacheMissesAreChargedToTheirOperationPerHostWithTheTotalStall() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_write", null));
        x.accept(post(1_060_000, 2, "rdma_write", null));
        x.accept(TraceEvent.of(1_150_000, TraceEvent.START, "A").ep("A/ep1").op(1));
        x.accept(miss(1_150_000, "A", 1, "qpc", 300_000));
        x.accept(miss(1_500_000, "A", 1, "mtt", 250_000));
        x.accept(miss(1_800_000, "A", 1, "mtt", 250_000));
        x.accept(miss(2_400_000, "B", 1, "mtt", 250_000));
        x.accept(TraceEvent.of(2_500_000, TraceEvent.START, "A").ep("A/ep1").op(2));
        x.accept(miss(2_500_000, "A", 2, "qpc", 300_000));
        x.accept(TraceEvent.of(4_000_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(1).status("DAT_DTO_SUCCESS"));
        x.accept(TraceEvent.of(4_100_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(2).status("DAT_DTO_SUCCESS"));
        List<String> notable = x.explain().notableSentences();
        assertEquals(List.of("at 1.15 us op 1 (rdma_write) missed the HCAs' on-chip caches 4 times, 1.05 us of stalls in"
                + " all: on A 1 QP-context miss and 2 translation (MTT) misses (800 ns); on B 1 translation (MTT) miss"
                + " (250 ns); each miss fetches the entry from host memory over PCIe (hca.qpc_miss_penalty,"
                + " hca.mtt_miss_penalty per page), and the caches hold hca.qpc_entries QP contexts and"
                + " hca.mtt_entries pages",
                "at 2.5 us op 2 (rdma_write) missed the HCAs' on-chip caches once, 300 ns of stalls in all: on A 1"
                + " QP-context miss (300 ns); each miss fetches the entry from host memory over PCIe"
                + " (hca.qpc_miss_penalty), and the cache holds hca.qpc_entries QP contexts"), notable);
        String t = text(x.explain());
        int story = t.indexOf("op 1  rdma_write");
        assertTrue(t.indexOf("was started by A's send engine") > story
                && t.indexOf("was started by A's send engine") < t.indexOf("* missed the HCAs' on-chip caches 4"), t);
    }

    @Test
    void aReceiveIsChargedTheTranslationMissesOfItsBuffer() {
        Explainer x = new Explainer();
        x.accept(TraceEvent.of(1_000_000, TraceEvent.POST, "B").ep("B/ep1").op(7).attr("opcode", "recv")
                .attr("bytes", 8192L));
        x.accept(miss(3_000_000, "B", 7, "mtt", 300_000));
        x.accept(miss(3_100_000, "B", 7, "mtt", 300_000));
        x.accept(TraceEvent.of(4_000_000, TraceEvent.COMPLETE, "B").ep("B/ep1").op(7).status("DAT_DTO_SUCCESS"));
        String t = text(x.explain());
        assertTrue(t.contains("3 us  * missed the HCAs' on-chip caches twice, 600 ns of stalls in all: on B 2"
                + " translation (MTT) misses (600 ns); each miss fetches the entry from host memory over PCIe"
                + " (hca.mtt_miss_penalty per page), and the cache holds hca.mtt_entries pages"), t);
    }

    private static TraceEvent call(long t, String call, String ret) {
        return TraceEvent.of(t, TraceEvent.CALL, "A").call(call).ret(ret).attr("process", "a");
    }

    @Test
    void unsignalledCompletionsAreToldAsQueuedButWakingNoWaiterRule13() {
        String u = "DAT_COMPLETION_UNSIGNALLED_FLAG";
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_write", u));
        x.accept(post(1_060_000, 2, "rdma_write", u));
        x.accept(post(1_120_000, 3, "rdma_write", null));
        x.accept(call(1_200_000, "dat_evd_wait", "DAT_INVALID_STATE").attr("subtype",
                "DAT_INVALID_STATE_EVD_CONFIG_THRESHOLD").attr("evd", "A/evd4"));
        x.accept(TraceEvent.of(2_000_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(1).status("DAT_DTO_SUCCESS"));
        x.accept(TraceEvent.of(2_100_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(2).status("DAT_DTO_SUCCESS"));
        // op 1: taken by a wait that nothing woke until 9 us; op 2: by one op 3's signalled completion woke
        x.accept(call(9_000_000, "dat_evd_wait", "DAT_SUCCESS").attr("evd", "A/evd4").attr("nmore", 0L));
        x.accept(TraceEvent.of(9_000_000, TraceEvent.DEQUEUE, "A").ep("A/ep1").op(1).attr("process", "a"));
        x.accept(TraceEvent.of(9_500_000, TraceEvent.COMPLETE, "A").ep("A/ep1").op(3).status("DAT_DTO_SUCCESS"));
        x.accept(call(9_500_000, "dat_evd_wait", "DAT_SUCCESS").attr("evd", "A/evd4").attr("nmore", 1L));
        x.accept(TraceEvent.of(9_500_000, TraceEvent.DEQUEUE, "A").ep("A/ep1").op(2).attr("process", "a"));
        x.accept(call(9_540_000, "dat_evd_dequeue", "DAT_SUCCESS").attr("evd", "A/evd4").attr("nmore", 0L));
        x.accept(TraceEvent.of(9_540_000, TraceEvent.DEQUEUE, "A").ep("A/ep1").op(3).attr("process", "a"));
        String t = text(x.explain());
        assertTrue(t.contains("2 us  completed DAT_DTO_SUCCESS, 1 us after the post; its event is queued, but an"
                + " unsignalled one is no notification: it wakes no dat_evd_wait waiter and triggers no CNO (rule 13)"),
                t);
        assertTrue(t.contains("9 us  * was taken by process a's dat_evd_wait 7 us after it was queued: an unsignalled"
                + " completion wakes no waiter (rule 13), and no signalled completion of A/ep1 came in between"), t);
        assertTrue(t.contains("9.5 us  was taken by process a's dat_evd_wait 7.4 us after it was queued, when op 3"
                + " (rdma_write)'s signalled completion woke the waiter, which finds the earlier unsignalled events"
                + " too (rule 13)"), t);
        assertTrue(t.contains("9.5 us  completed DAT_DTO_SUCCESS, 8.38 us after the post\n"), t);
        assertTrue(t.contains("9.54 us  was dequeued by process a, 40 ns after it was queued"), t);
        assertTrue(t.contains("1.2 us  * process a's dat_evd_wait on A/evd4 returned DAT_INVALID_STATE"
                + " (DAT_INVALID_STATE_EVD_CONFIG_THRESHOLD), so it took no event: an EVD fed by a stream whose"
                + " notifications the consumer controls (UNSIGNALLED completions) or the sender does (SOLICITED_WAIT"
                + " receives) allows only threshold 1 (rules 6 and 15)"), t);
    }
    private static TraceEvent start(long t, long op) {
        return TraceEvent.of(t, TraceEvent.START, "A").ep("A/ep1").op(op);
    }

    private static TraceEvent retransmit(long t, long op, String opcode, String reason, long attempt) {
        return TraceEvent.of(t, "retransmit", "A").ep("A/ep1").op(op).cookie(op).attr("opcode", opcode)
                .attr("reason", reason).attr("attempt", attempt);
    }

    private static TraceEvent complete(long t, long op, String status) {
        return TraceEvent.of(t, TraceEvent.COMPLETE, "A").ep("A/ep1").op(op).status(status);
    }

    /** The lines of one operation's story, from its heading to the next heading. */
    private static String story(String text, long op) {
        int from = text.indexOf("op " + op + "  ");
        int to = text.indexOf("\nop ", from + 1);
        return text.substring(from, to < 0 ? text.indexOf("\n\n", from) : to);
    }

    @Test
    void aGoBackNRetransmissionIsToldWithItsCauseAttemptAndTheOperationsSentAgainWithIt() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_write", null));
        x.accept(post(1_000_000, 2, "rdma_write", null));
        x.accept(post(1_000_000, 3, "send", null));
        x.accept(start(1_150_000, 1));
        x.accept(start(1_200_000, 2));
        x.accept(start(1_250_000, 3));
        x.accept(retransmit(5_000_000, 1, "rdma_write", "nak_sequence_error", 1));
        x.accept(start(5_000_000, 1));
        x.accept(start(5_050_000, 2));
        x.accept(start(5_100_000, 3));
        x.accept(retransmit(40_000_000, 2, "rdma_write", "ack_timeout", 1)); // op 1 finished meanwhile
        x.accept(start(40_000_000, 2));
        x.accept(start(40_050_000, 3));
        x.accept(complete(9_000_000, 1, "DAT_DTO_SUCCESS"));
        x.accept(complete(45_000_000, 2, "DAT_DTO_SUCCESS"));
        x.accept(complete(45_000_000, 3, "DAT_DTO_SUCCESS"));
        String t = text(x.explain());
        String one = story(t, 1);
        assertTrue(one.contains("5 us  * was retransmitted (attempt 1) after a sequence-error NAK: the responder got a"
                + " packet out of sequence and refused it, so a packet before that one, of this operation or a later"
                + " one, was lost; go-back-N sends it again, then op 2 (rdma_write) and op 3 (send)\n"), one);
        assertTrue(one.contains("5 us  started again (retransmission attempt 1)\n"), one);
        String two = story(t, 2);
        assertTrue(two.contains("5.05 us  started again: go-back-N from op 1 (rdma_write), retransmitted at 5 us"
                + " after a sequence-error NAK, sends every later unfinished operation of A/ep1 again too"), two);
        assertTrue(two.contains("40 us  * was retransmitted (attempt 1) after a local ACK timeout: the requester had"
                + " heard nothing from the responder (no ACK, NAK or response) for 1 to 2 times hca.ack_timeout"), two);
        assertTrue(two.contains("go-back-N sends it again, then op 3 (send); after hca.retry_count such retries"), two);
        String three = story(t, 3);
        assertTrue(three.contains("40.05 us  started again: go-back-N from op 2 (rdma_write), retransmitted at 40 us"
                + " after a local ACK timeout"), three);
        assertFalse(t.contains("RNR"), t);
        assertFalse(t.contains("the trace shows switch"), "a trace without drop lines names no drop: " + t);
        assertFalse(t.contains("Packets lost"), t);
        List<String> notable = x.explain().notableSentences();
        assertEquals(List.of("at 5 us op 1 (rdma_write) was retransmitted (attempt 1) after a sequence-error NAK",
                "at 40 us op 2 (rdma_write) was retransmitted (attempt 1) after a local ACK timeout"),
                notable.stream().map(n -> n.substring(0, n.indexOf(':'))).collect(Collectors.toList()));
    }

    @Test
    void aMissingReadResponseIsToldAsSuch() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_read", null));
        x.accept(start(1_150_000, 1));
        x.accept(retransmit(3_000_000, 1, "rdma_read", "response_missing", 1));
        x.accept(start(3_000_000, 1));
        x.accept(complete(6_000_000, 1, "DAT_DTO_SUCCESS"));
        String t = text(x.explain());
        assertTrue(t.contains("* was retransmitted (attempt 1) after a missing response: a later response, or the"
                + " acknowledgement of a later request, came back while a response of this RDMA Read had not, so that"
                + " response or its request was lost; go-back-N sends its request again\n"), t);
    }

    @Test
    void aTransportErrorAfterAckTimeoutsIsToldAsTheRetriesRunningOut() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "send", null));
        x.accept(post(1_000_000, 2, "send", null));
        x.accept(start(1_150_000, 1));
        x.accept(start(1_200_000, 2));
        x.accept(retransmit(30_000_000, 1, "send", "ack_timeout", 1));
        x.accept(start(30_000_000, 1));
        x.accept(start(30_050_000, 2));
        x.accept(TraceEvent.of(60_000_000, TraceEvent.ERROR, "A").ep("A/ep1").status("DAT_DTO_ERR_TRANSPORT")
                .attr("error", "connection broken"));
        x.accept(complete(60_000_000, 1, "DAT_DTO_ERR_TRANSPORT"));
        x.accept(complete(60_000_000, 2, "DAT_DTO_ERR_FLUSHED"));
        String t = text(x.explain());
        assertTrue(t.contains("* failed with DAT_DTO_ERR_TRANSPORT: the local ACK timer expired again after"
                + " retransmission attempt 1 with nothing heard from the responder, and hca.retry_count retries in a"
                + " row without progress were used up (IBV_WC_RETRY_EXC_ERR)"), t);
        assertTrue(story(t, 2).contains("* was flushed, DAT_DTO_ERR_FLUSHED: the connection of A/ep1 broke at 60 us"),
                t);
    }

    @Test
    void theRetryAfterAnRnrNakIsToldOnTheLaterOperationsItSendsAgainToo() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 5, "send", null));
        x.accept(post(1_000_000, 6, "send", null));
        x.accept(start(1_150_000, 5));
        x.accept(start(1_200_000, 6));
        x.accept(TraceEvent.of(2_000_000, "rnr_nak", "B").ep("B/ep1").op(5).attr("reason", "no receive posted"));
        x.accept(start(12_500_000, 5));
        x.accept(start(12_550_000, 6));
        x.accept(complete(14_000_000, 5, "DAT_DTO_SUCCESS"));
        x.accept(complete(14_000_000, 6, "DAT_DTO_SUCCESS"));
        String t = text(x.explain());
        assertTrue(story(t, 5).contains("started again (the retry after the RNR NAK, transport.rnr_timer later)"), t);
        assertTrue(story(t, 6).contains("12.55 us  started again: the retry of op 5 (send) after its RNR NAK sends"
                + " every later unfinished operation of A/ep1 again too"), t);
        assertFalse(t.contains("retransmi"), t);
        assertFalse(t.contains("switches dropped"), t);
    }

    @Test
    void theHeaderCountsThePacketsTheSummarySaysWereDropped(@TempDir Path dir) throws Exception {
        try (JsonLinesTraceWriter w = new JsonLinesTraceWriter(dir.resolve("events.jsonl"))) {
            w.accept(post(1_000_000, 1, "rdma_write", null));
            w.accept(complete(2_000_000, 1, "DAT_DTO_SUCCESS"));
        }
        Files.writeString(dir.resolve("summary.json"), "{\"scenario\": \"s\", \"seed\": 1, \"end_time_ps\": 2000000,"
                + " \"stop_reason\": \"NO_EVENTS\", \"ports\": {\"A->S\": {\"drops\": 3}, \"S->A\": {\"drops\": 0},"
                + " \"C->S\": {\"drops\": 1}, \"D->S\": {\"drops\": 2}}}");
        String t = text(Explainer.explainRun(dir));
        assertTrue(t.contains("\nPackets lost (summary.json's ports): 3 sent on A->S, 1 on C->S and 2 on D->S were"
                + " dropped by the switch at the link's end"), t);
        assertTrue(t.contains("Not in the trace: the packets the switches dropped: summary.json's ports count them, but"
                + " this trace has none of the drop lines that name them (it was written before switches traced their"
                + " drops)"), "a run older than the drop lines: " + t);

        Files.writeString(dir.resolve("summary.json"), "{\"scenario\": \"s\", \"ports\": {\"A->S\": {\"drops\": 0}}}");
        assertFalse(text(Explainer.explainRun(dir)).contains("Packets lost"), "nothing to say without drops");
    }

    private static TraceEvent drop(long t, long op, String packet, String from, long seq, long index, long packets,
            String reason) {
        return TraceEvent.of(t, "drop", "A").ep("A/ep1").op(op).cookie(op).attr("switch", "S")
                .attr("port", from + "->S").attr("reason", reason).attr("packet", packet).attr("from", from)
                .attr("to", from.equals("A") ? "B" : "A").attr("seq", seq).attr("index", index)
                .attr("packets", packets).attr("bytes", 4122L);
    }

    @Test
    void theStoryOfAnOperationTellsWhichOfItsPacketsASwitchDroppedWhenAndWhy() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_write", null));
        x.accept(post(1_000_000, 2, "rdma_write", null));
        x.accept(start(1_150_000, 1));
        x.accept(TraceEvent.of(1_200_000, TraceEvent.TX_START, "A").ep("A/ep1").op(1).attr("packet", "rdma_write")
                .attr("packets", 4L));
        x.accept(start(1_250_000, 2));
        x.accept(drop(2_000_000, 1, "rdma_write", "A", 0, 1, 4, "buffer_full"));
        x.accept(drop(2_500_000, 1, "rdma_write", "A", 0, 3, 4, "buffer_full"));
        x.accept(drop(2_600_000, 2, "rdma_write", "A", 1, 0, 1, "filter"));
        x.accept(retransmit(5_000_000, 1, "rdma_write", "nak_sequence_error", 1));
        x.accept(start(5_000_000, 1));
        x.accept(TraceEvent.of(5_100_000, TraceEvent.TX_START, "A").ep("A/ep1").op(1).attr("packet", "rdma_write")
                .attr("packets", 4L));
        x.accept(start(5_200_000, 2));
        x.accept(drop(6_000_000, 1, "ack", "B", 0, 0, 1, "filter"));
        x.accept(retransmit(30_000_000, 1, "rdma_write", "ack_timeout", 2));
        x.accept(complete(31_000_000, 1, "DAT_DTO_SUCCESS"));
        x.accept(complete(31_000_000, 2, "DAT_DTO_SUCCESS"));
        x.accept(TraceEvent.of(40_000_000, "drop", "C").attr("switch", "S").attr("port", "C->S")
                .attr("reason", "buffer_full").attr("packet", "cm").attr("from", "C").attr("to", "B")
                .attr("bytes", 256L));
        String t = text(x.explain());
        String one = story(t, 1);
        assertTrue(one.contains("2 us  * had 2 of its 4 packets (2 and 4) dropped by switch S on arrival over A->S, the"
                + " last at 2.5 us: the switch's buffer share for that input was full (PFC headroom too small)\n"), one);
        assertTrue(one.contains("5 us  * was retransmitted (attempt 1) after a sequence-error NAK: the responder got a"
                + " packet out of sequence and refused it, so a packet before that one, of this operation or a later"
                + " one, was lost (the trace shows switch S dropping its packet 2 of 4 at 2 us, the first in sequence of"
                + " the 3 packets of A/ep1 dropped before this retransmission); go-back-N"), one);
        assertTrue(one.contains("6 us  * had its ACK from B dropped by switch S on arrival over B->S: the drop filter took"
                + " it (fault injection)\n"), one);
        assertTrue(one.contains("30 us  * was retransmitted (attempt 2) after a local ACK timeout: the requester had"
                + " heard nothing from the responder (no ACK, NAK or response) for 1 to 2 times hca.ack_timeout, so a"
                + " packet it sent after the last one acknowledged, or the acknowledgement coming back, was lost (the"
                + " trace shows switch S dropping its ACK from B at 6 us); go-back-N"), one);
        String two = story(t, 2);
        assertTrue(two.contains("2.6 us  * had its packet dropped by switch S on arrival over A->S: the drop filter took"
                + " it (fault injection)\n"), two);
        assertTrue(t.startsWith("Packets lost: switch S dropped 5 packets (3 arriving over A->S, 1 over B->S and 1 over"
                + " C->S): 3 because the switch's buffer share for that input was full (PFC headroom too small for what"
                + " the link still delivered after the pause) and 2 because the drop filter took them (fault"
                + " injection). The story of each operation below tells which of its packets were lost, and when (the"
                + " other happenings tell the packets of no operation).\n"), t);
        assertTrue(t.contains("40 us  * switch S dropped a connection-management packet from C to B on arrival over"
                + " C->S: the switch's buffer share for that input was full (PFC headroom too small)\n"), t);
        assertFalse(t.contains("Not in the trace: the packets the switches dropped"), t);
        List<String> notable = x.explain().notableSentences();
        assertTrue(notable.contains("at 2 us op 1 (rdma_write) had 2 of its 4 packets (2 and 4) dropped by switch S on"
                + " arrival over A->S, the last at 2.5 us: the switch's buffer share for that input was full (PFC"
                + " headroom too small)"), notable::toString);
    }

    @Test
    void theLegendNamesWhatIsStarredRetransmissionsSwitchDropsAndCacheMissesToo() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_write", null));
        x.accept(start(1_150_000, 1));
        x.accept(miss(1_150_000, "A", 1, "qpc", 300_000));
        x.accept(drop(2_000_000, 1, "rdma_write", "A", 0, 0, 1, "buffer_full"));
        x.accept(retransmit(30_000_000, 1, "rdma_write", "ack_timeout", 1));
        x.accept(start(30_000_000, 1));
        x.accept(complete(31_000_000, 1, "DAT_DTO_SUCCESS"));
        String t = text(x.explain());
        String one = story(t, 1);
        assertTrue(one.contains("* missed the HCAs' on-chip caches once"), one);
        assertTrue(one.contains("* had its packet dropped by switch S"), one);
        assertTrue(one.contains("* was retransmitted (attempt 1)"), one);
        String legend = t.lines().filter(l -> l.startsWith("(* marks ")).findFirst().orElseThrow();
        for (String starred : List.of("HCA cache misses", "switch drops", "go-back-N resends")) {
            assertTrue(legend.contains(starred), starred + " are starred, so the legend says so: " + legend);
        }
    }

    @Test
    void aResentMessageStartsANewRunOfDropsAndResponsesAreToldAsTheirs() {
        Explainer x = new Explainer();
        x.accept(post(1_000_000, 1, "rdma_read", null));
        x.accept(start(1_150_000, 1));
        x.accept(TraceEvent.of(1_200_000, TraceEvent.TX_START, "A").ep("A/ep1").op(1).attr("packet", "read_request")
                .attr("packets", 1L));
        x.accept(TraceEvent.of(3_000_000, TraceEvent.TX_START, "B").ep("B/ep1").op(1).attr("packet", "read_response")
                .attr("packets", 8L));
        x.accept(drop(4_000_000, 1, "read_response", "B", 0, 2, 8, "buffer_full"));
        x.accept(drop(4_500_000, 1, "read_response", "B", 0, 5, 8, "buffer_full"));
        x.accept(TraceEvent.of(9_000_000, TraceEvent.TX_START, "B").ep("B/ep1").op(1).attr("packet", "read_response")
                .attr("packets", 8L));
        x.accept(drop(9_500_000, 1, "read_response", "B", 0, 6, 8, "buffer_full"));
        x.accept(complete(20_000_000, 1, "DAT_DTO_SUCCESS"));
        String one = story(text(x.explain()), 1);
        assertTrue(one.contains("4 us  * had 2 of its 8 response packets from B (3 and 6) dropped by switch S on arrival"
                + " over B->S, the last at 4.5 us: "), one);
        assertTrue(one.contains("9.5 us  * had its response packet 7 of 8 from B dropped by switch S on arrival over"
                + " B->S: "), one);
    }
}
