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
            Object opcode0 = e.attrs().get("opcode");
            Object bytes = e.attrs().get("bytes");
            if (!ok) {
                errorCompletions++;
            } else if (bytes instanceof Number && !"recv".equals(opcode0) && !"rmr_bind".equals(opcode0)) {
                bytesCompleted += ((Number) bytes).longValue();
            }
            Long t0 = postedAt.remove(e.op());
            if (t0 != null) {
                Object opcode = e.attrs().get("opcode");
                String kind = opcode + ("DAT_DTO_SUCCESS".equals(e.status()) ? "" : ":" + e.status());
                latency.computeIfAbsent(kind, k -> new LatencyRecorder(k)).record(e.tPs() - t0);
            }
        }
    }

    /** Returns the latency recorders by operation kind, in name order. */
    Map<String, LatencyRecorder> latency() {
        return latency;
    }

    /** Returns how many trace events of each kind were seen, in name order. */
    Map<String, Long> kindCounts() {
        Map<String, Long> out = new LinkedHashMap<>();
        kinds.forEach((k, c) -> out.put(k, c.value()));
        return out;
    }

    /** Returns how many memory reads returned stale bytes. */
    long staleReads() {
        return staleReads;
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
