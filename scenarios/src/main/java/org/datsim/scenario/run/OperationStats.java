package org.datsim.scenario.run;

import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.stats.Counter;
import org.datsim.core.stats.LatencyRecorder;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSink;
import org.datsim.core.util.LongTable;

/**
 * A trace sink that turns the run trace into statistics: the latency from post to completion of every operation,
 * per operation kind, and counts of trace kinds. It keeps one entry per operation in flight, not the trace; post
 * times sit unboxed in one-element cells that the next posts reuse once their operation completes. Its maps are
 * looked up by hash and read out in name order.
 */
final class OperationStats implements TraceSink<TraceEvent> {

    /** The post time of each operation in flight, by operation number: a one-element cell. */
    private final LongTable<long[]> postedAt = new LongTable<>();
    /** Cells of completed operations, for the next posts. */
    private final ArrayDeque<long[]> spareCells = new ArrayDeque<>();
    /** The counter of each trace kind (kinds are few, and their names hash once). */
    private final Map<String, Counter> kinds = new HashMap<>();
    /** What is kept of each operation kind (as keyed in {@link #latency()}). */
    private final Map<String, OpKind> opKinds = new HashMap<>();
    private long staleReads;
    private long errorCompletions;
    private long completions;
    private long bytesCompleted;
    private long firstPost = -1;
    private long lastComplete = -1;

    /** One operation kind: its latencies, bytes completed, first post and last completion. */
    private static final class OpKind {
        final LatencyRecorder latency;
        long bytes;
        long firstPost;
        long lastComplete;

        OpKind(LatencyRecorder latency, long firstPost, long lastComplete) {
            this.latency = latency;
            this.firstPost = firstPost;
            this.lastComplete = lastComplete;
        }
    }

    @Override
    public void accept(TraceEvent e) {
        String kind = e.kind();
        Counter c = kinds.get(kind);
        if (c == null) {
            c = new Counter(kind, "events");
            kinds.put(kind, c);
        }
        c.increment();
        if (TraceEvent.POST.equals(kind)) {
            long[] cell = postedAt.get(e.op());
            if (cell == null) {
                cell = spareCells.isEmpty() ? new long[1] : spareCells.pop();
                postedAt.put(e.op(), cell);
            }
            cell[0] = e.tPs();
            if (firstPost < 0) {
                firstPost = e.tPs();
            }
        } else if (TraceEvent.MEM_READ.equals(kind)) {
            if (Boolean.TRUE.equals(e.attrValue(TraceKey.STALE))) {
                staleReads++;
            }
        } else if (TraceEvent.COMPLETE.equals(kind)) {
            complete(e);
        }
    }

    private void complete(TraceEvent e) {
        completions++;
        lastComplete = e.tPs();
        boolean ok = "DAT_DTO_SUCCESS".equals(e.status());
        Object opcode = e.attrValue(TraceKey.OPCODE);
        long b = e.attrLong(TraceKey.BYTES, 0); // a missing or non-numeric "bytes" adds nothing
        if (!ok) {
            errorCompletions++;
        } else if (!"recv".equals(opcode) && !"rmr_bind".equals(opcode)) {
            bytesCompleted += b;
        }
        long[] cell = postedAt.get(e.op());
        if (cell != null) {
            postedAt.remove(e.op());
            spareCells.push(cell);
            long t0 = cell[0];
            // the kind: the opcode, with ":STATUS" unless the operation succeeded
            String name = ok ? String.valueOf(opcode) : opcode + ":" + e.status();
            OpKind k = opKinds.get(name);
            if (k == null) {
                k = new OpKind(new LatencyRecorder(name), t0, e.tPs());
                opKinds.put(name, k);
            }
            k.latency.record(e.tPs() - t0);
            k.bytes += b;
            k.firstPost = Math.min(k.firstPost, t0);
            k.lastComplete = Math.max(k.lastComplete, e.tPs());
        }
    }

    /** Returns the latency recorders by operation kind, in name order (a new map each call). */
    Map<String, LatencyRecorder> latency() {
        Map<String, LatencyRecorder> out = new TreeMap<>();
        opKinds.forEach((name, k) -> out.put(name, k.latency));
        return out;
    }

    /** Returns the bytes of the completed operations of one kind (as keyed in {@link #latency()}). */
    long bytes(String kind) {
        OpKind k = opKinds.get(kind);
        return k == null ? 0 : k.bytes;
    }

    /** Returns the time of the first post of an operation of one kind that completed, or -1. */
    long firstPost(String kind) {
        OpKind k = opKinds.get(kind);
        return k == null ? -1 : k.firstPost;
    }

    /** Returns the time of the last completion of an operation of one kind, or -1. */
    long lastComplete(String kind) {
        OpKind k = opKinds.get(kind);
        return k == null ? -1 : k.lastComplete;
    }

    /** Returns how many CPU reads of registered memory returned stale bytes. */
    long staleReads() {
        return staleReads;
    }

    /** Returns how many trace events of each kind were seen, in name order. */
    Map<String, Long> kindCounts() {
        Map<String, Long> out = new TreeMap<>();
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
