package org.datsim.scenario.run;

import java.util.Arrays;
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

    /** Post times of the operations in flight, by operation number. */
    private final PostTimes postedAt = new PostTimes();
    private final Map<String, LatencyRecorder> latency = new TreeMap<>();
    private final Map<String, Counter> kinds = new TreeMap<>();
    /** The same counters for the lookup of every event (kinds are few, and their names hash once). */
    private final Map<String, Counter> kindIndex = new HashMap<>();
    /** Per operation kind: {bytes completed, first post time, last completion time}. */
    private final Map<String, long[]> bytes = new TreeMap<>();
    /** The latency and bytes of each operation kind, for the lookup of every completion. */
    private final Map<String, OpKind> opKinds = new HashMap<>();
    private long staleReads;
    private long errorCompletions;
    private long completions;
    private long bytesCompleted;
    private long firstPost = -1;
    private long lastComplete = -1;

    /** What is kept of one operation kind (as keyed in {@link #latency()}): its recorder and its bytes entry. */
    private record OpKind(LatencyRecorder latency, long[] bytes) {
    }

    @Override
    public void accept(TraceEvent e) {
        String kind = e.kind();
        Counter c = kindIndex.get(kind);
        if (c == null) {
            c = new Counter(kind, "events");
            kindIndex.put(kind, c);
            kinds.put(kind, c);
        }
        c.increment();
        if (TraceEvent.POST.equals(kind)) {
            postedAt.put(e.op(), e.tPs());
            if (firstPost < 0) {
                firstPost = e.tPs();
            }
        } else if (TraceEvent.MEM_READ.equals(kind)) {
            if (Boolean.TRUE.equals(e.attrValue("stale"))) {
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
        Object opcode = e.attrValue("opcode");
        long b = e.attrLong("bytes", 0); // a missing or non-numeric "bytes" adds nothing
        if (!ok) {
            errorCompletions++;
        } else if (!"recv".equals(opcode) && !"rmr_bind".equals(opcode)) {
            bytesCompleted += b;
        }
        long t0 = postedAt.remove(e.op());
        if (t0 != PostTimes.ABSENT) {
            // the kind: the opcode, with ":STATUS" unless the operation succeeded
            String name = ok ? String.valueOf(opcode) : opcode + ":" + e.status();
            OpKind k = opKinds.get(name);
            if (k == null) {
                k = new OpKind(new LatencyRecorder(name), new long[] {0, t0, e.tPs()});
                opKinds.put(name, k);
                latency.put(name, k.latency());
                bytes.put(name, k.bytes());
            }
            k.latency().record(e.tPs() - t0);
            long[] kb = k.bytes();
            kb[0] += b;
            kb[1] = Math.min(kb[1], t0);
            kb[2] = Math.max(kb[2], e.tPs());
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

    /**
     * A map from operation number to post time without boxing: open addressing with linear probing, deletion by
     * shifting back. Simulated times are never negative, so {@link #ABSENT} cannot be a post time.
     */
    static final class PostTimes {

        /** What {@link #remove(long)} returns for an operation not in the map. */
        static final long ABSENT = Long.MIN_VALUE;

        private static final long FREE = Long.MIN_VALUE;

        private long[] keys = newKeys(64);
        private long[] values = new long[64];
        private int size;
        /** The entry of key {@link #FREE}, which cannot be stored in the table. */
        private boolean hasFreeKey;
        private long freeKeyValue;

        private static long[] newKeys(int n) {
            long[] k = new long[n];
            Arrays.fill(k, FREE);
            return k;
        }

        private static int slot(long key, int mask) {
            long h = key * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32)) & mask;
        }

        /** Sets the value of a key (replacing any). */
        void put(long key, long value) {
            if (key == FREE) {
                hasFreeKey = true;
                freeKeyValue = value;
                return;
            }
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (keys[i] != FREE) {
                if (keys[i] == key) {
                    values[i] = value;
                    return;
                }
                i = (i + 1) & mask;
            }
            keys[i] = key;
            values[i] = value;
            if (++size * 2 > keys.length) {
                grow();
            }
        }

        /** Removes a key; returns its value, or {@link #ABSENT} if it was not there. */
        long remove(long key) {
            if (key == FREE) {
                if (!hasFreeKey) {
                    return ABSENT;
                }
                hasFreeKey = false;
                return freeKeyValue;
            }
            int mask = keys.length - 1;
            int i = slot(key, mask);
            while (keys[i] != key) {
                if (keys[i] == FREE) {
                    return ABSENT;
                }
                i = (i + 1) & mask;
            }
            long v = values[i];
            // shift back the entries after i that probed past it
            int gap = i;
            int j = (i + 1) & mask;
            while (keys[j] != FREE) {
                int home = slot(keys[j], mask);
                if (((j - home) & mask) >= ((j - gap) & mask)) {
                    keys[gap] = keys[j];
                    values[gap] = values[j];
                    gap = j;
                }
                j = (j + 1) & mask;
            }
            keys[gap] = FREE;
            size--;
            return v;
        }

        /** Returns the number of keys. */
        int size() {
            return size + (hasFreeKey ? 1 : 0);
        }

        private void grow() {
            long[] oldKeys = keys;
            long[] oldValues = values;
            keys = newKeys(oldKeys.length * 2);
            values = new long[oldKeys.length * 2];
            size = 0;
            for (int i = 0; i < oldKeys.length; i++) {
                if (oldKeys[i] != FREE) {
                    put(oldKeys[i], oldValues[i]);
                }
            }
        }
    }
}
