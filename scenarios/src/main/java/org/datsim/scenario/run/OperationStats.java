package org.datsim.scenario.run;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.stats.Counter;
import org.datsim.core.stats.LatencyRecorder;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSink;

/**
 * A trace sink that turns the run trace into statistics: the latency from post to completion of every operation,
 * per operation kind, and counts of trace kinds. It keeps one entry per operation in flight, not the trace.
 */
final class OperationStats implements TraceSink<TraceEvent> {

    private final Map<Long, Long> postedAt = new HashMap<>();
    private final Map<String, LatencyRecorder> latency = new TreeMap<>();
    private final Map<String, Counter> kinds = new TreeMap<>();
    /** Per operation kind: {bytes completed, first post time, last completion time}. */
    private final Map<String, long[]> bytes = new TreeMap<>();
    private long staleReads;
    private long errorCompletions;
    private long completions;
    private long bytesCompleted;
    private long firstPost = -1;
    private long lastComplete = -1;

    @Override
    public void accept(TraceEvent e) {
        kinds.computeIfAbsent(e.kind(), k -> new Counter(k, "events")).increment();
        if (TraceEvent.POST.equals(e.kind())) {
            postedAt.put(e.op(), e.tPs());
            if (firstPost < 0) {
                firstPost = e.tPs();
            }
        } else if (TraceEvent.MEM_READ.equals(e.kind())) {
            if (Boolean.TRUE.equals(e.attrs().get("stale"))) {
                staleReads++;
            }
        } else if (TraceEvent.COMPLETE.equals(e.kind())) {
            completions++;
            lastComplete = e.tPs();
            boolean ok = "DAT_DTO_SUCCESS".equals(e.status());
            Object opcode = e.attrs().get("opcode");
            Object b = e.attrs().get("bytes");
            if (!ok) {
                errorCompletions++;
            } else if (b instanceof Number n && !"recv".equals(opcode) && !"rmr_bind".equals(opcode)) {
                bytesCompleted += n.longValue();
            }
            Long t0 = postedAt.remove(e.op());
            if (t0 != null) {
                String kind = opcode + ("DAT_DTO_SUCCESS".equals(e.status()) ? "" : ":" + e.status());
                latency.computeIfAbsent(kind, k -> new LatencyRecorder(k)).record(e.tPs() - t0);
                long[] k = bytes.computeIfAbsent(kind, x -> new long[] {0, t0, e.tPs()});
                if (b instanceof Number n) {
                    k[0] += n.longValue();
                }
                k[1] = Math.min(k[1], t0);
                k[2] = Math.max(k[2], e.tPs());
            }
        }
    }

    /** Returns the latency recorders by operation kind, in name order. */
    Map<String, LatencyRecorder> latency() {
        return latency;
    }

    /** Returns the bytes of the completed operations of one kind (as keyed in {@link #latency()}). */
    long bytes(String kind) {
        long[] b = bytes.get(kind);
        return b == null ? 0 : b[0];
    }

    /** Returns the time of the first post of an operation of one kind that completed, or -1. */
    long firstPost(String kind) {
        long[] b = bytes.get(kind);
        return b == null ? -1 : b[1];
    }

    /** Returns the time of the last completion of an operation of one kind, or -1. */
    long lastComplete(String kind) {
        long[] b = bytes.get(kind);
        return b == null ? -1 : b[2];
    }

    /** Returns how many CPU reads of registered memory returned stale bytes. */
    long staleReads() {
        return staleReads;
    }

    /** Returns how many trace events of each kind were seen, in name order. */
    Map<String, Long> kindCounts() {
        Map<String, Long> out = new LinkedHashMap<>();
        kinds.forEach((k, c) -> out.put(k, c.value()));
        return out;
    }

    /** Returns how many completions had a status other than DAT_DTO_SUCCESS. */
    long errorCompletions() {
        return errorCompletions;
    }

    /** Returns how many completions were queued (every kind and status). */
    long completions() {
        return completions;
    }

    /** Returns the bytes of successful sends, RDMA Writes and RDMA Reads (receives are not counted twice). */
    long bytesCompleted() {
        return bytesCompleted;
    }

    /** Returns the time from the first post to the last completion, in picoseconds (0 if none). */
    long windowPs() {
        return firstPost < 0 || lastComplete < firstPost ? 0 : lastComplete - firstPost;
    }

    /** Returns the number of trace events of one kind. */
    long count(String kind) {
        Counter c = kinds.get(kind);
        return c == null ? 0 : c.value();
    }
}
