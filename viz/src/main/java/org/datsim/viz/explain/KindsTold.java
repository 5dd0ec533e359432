package org.datsim.viz.explain;

import java.util.LinkedHashMap;
import java.util.Map;
import org.datsim.core.trace.TraceKind;

/**
 * What {@code explain} does with each kind of trace line the fabric and the consumers emit ({@link TraceKind}): told
 * in an operation's story, in the header, among the other happenings, or on purpose not told (and why). A kind the
 * schema declares and this table lacks fails KindsToldTest, so a new kind is a decision and not a silent gap. Kinds
 * that explain only counts are named in one header line when a run has them ({@link #alsoInTheTrace(Map)}).
 */
public final class KindsTold {

    /** How a kind is told: its value in {@link #HOW}, for the kinds explain counts in its header and no more. */
    static final String COUNTED = "counted in the header's \"Also in the trace\" line";

    /** Each kind, with how explain tells it. */
    public static final Map<String, String> HOW = new LinkedHashMap<>();

    static {
        String story = "an operation's story";
        HOW.put(TraceKind.POST, story + ": when it was posted (inline payloads)");
        HOW.put(TraceKind.START, story + ": when the send engine began it; a flow's start counts the workload");
        HOW.put(TraceKind.FENCE_WAIT, story + ": what fence held it back");
        HOW.put(TraceKind.CREDIT_WAIT, story + ": the RDMA Read credits it waited for");
        HOW.put(TraceKind.TX_START, story + ": when it went on the wire");
        HOW.put(TraceKind.TX_END, story + ": when its last bit left");
        HOW.put(TraceKind.PLACE, story + ": when it was placed (and which receive it filled)");
        HOW.put(TraceKind.COMPLETE, story + ": its completion, held behind an earlier one or not");
        HOW.put(TraceKind.DEQUEUE, story + ": when the consumer took its completion");
        HOW.put(TraceKind.CACHE_MISS, story + ": the HCA cache misses that stalled it");
        HOW.put(TraceKind.RNR_NAK, story + ": a receiver not ready");
        HOW.put(TraceKind.RETRANSMIT, story + ": the retransmissions and why each began");
        HOW.put(TraceKind.DROP, story + " and the header: which packets switches dropped, where and why");
        HOW.put(TraceKind.CALL, "other happenings: calls that returned errors, disconnects, wait timeouts");
        HOW.put(TraceKind.MEM_READ, "other happenings: stale or unexpected CPU reads");
        HOW.put(TraceKind.ERROR, "other happenings: asynchronous errors (EVD overflow, broken connections)");
        HOW.put(TraceKind.EXPECT_FAILED, "other happenings: failed expectations");
        HOW.put(TraceKind.EVENT, "the connection story: connection events of endpoints");
        HOW.put(TraceKind.CM_RETRY, "the connection story: CM messages sent again");
        HOW.put(TraceKind.CM_TIMEOUT, "the connection story: CM messages given up");
        HOW.put(TraceKind.CM, "not told: a CM message's handling shows through the connection events it causes");
        HOW.put(TraceKind.MEM_WRITE, "not told: a CPU write matters through the reads and sends of its bytes");
        HOW.put(TraceKind.REGISTRY, "not told: every run opens its IA through the registry");
        HOW.put(TraceKind.PORT_QUEUE, "the header: port queues traced, how many ports queued bytes");
        HOW.put(TraceKind.PORT_SAMPLE, "the header: port samples traced, how many ports queued bytes");
        HOW.put(TraceKind.PFC, "the header: PFC pauses");
        HOW.put(TraceKind.ECN_MARK, "the header: ECN marks");
        HOW.put(TraceKind.SRQ_TAKE, COUNTED);
        HOW.put(TraceKind.CNO_NOTIFY, COUNTED);
        HOW.put(TraceKind.CHOICE, COUNTED);
        HOW.put(TraceKind.FLOW, COUNTED);
    }

    private KindsTold() {}

    /**
     * The header line naming the kinds a run has that explain only counts, or null if it has none.
     *
     * @param counts lines per kind in the trace
     * @return e.g. "Also in the trace, not told below: 2 srq_take lines, 1 choice line."
     */
    static String alsoInTheTrace(Map<String, Long> counts) {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, String> k : HOW.entrySet()) {
            Long n = counts.get(k.getKey());
            if (k.getValue().equals(COUNTED) && n != null && n > 0) {
                sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(k.getKey())
                        .append(n == 1 ? " line" : " lines");
            }
        }
        return sb.length() == 0 ? null : "Also in the trace, not told below: " + sb + ".";
    }
}
