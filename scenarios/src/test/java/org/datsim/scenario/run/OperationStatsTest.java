package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;

class OperationStatsTest {

    @Test
    void postTimesBehaveLikeAMap() {
        OperationStats.PostTimes t = new OperationStats.PostTimes();
        Map<Long, Long> ref = new HashMap<>();
        SplittableRandom r = new SplittableRandom(42);
        for (int i = 0; i < 200_000; i++) {
            // keys from a small range collide and cluster; a few extreme keys, Long.MIN_VALUE among them
            long key = switch (r.nextInt(20)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> -1;
                default -> r.nextInt(3_000) * 64L;
            };
            if (r.nextInt(3) == 0) {
                Long want = ref.remove(key);
                assertEquals(want == null ? OperationStats.PostTimes.ABSENT : want, t.remove(key), "remove " + key);
            } else {
                long v = r.nextLong(1L << 50);
                ref.put(key, v);
                t.put(key, v);
            }
            assertEquals(ref.size(), t.size());
        }
        for (Map.Entry<Long, Long> e : ref.entrySet()) {
            assertEquals(e.getValue(), t.remove(e.getKey()));
        }
        assertEquals(0, t.size());
    }

    private static TraceEvent post(long t, long op, String opcode, long bytes) {
        return TraceEvent.of(t, TraceEvent.POST, "A").ep("ep").op(op).attr("opcode", opcode).attr("bytes", bytes);
    }

    private static TraceEvent complete(long t, long op, String opcode, Object bytes, String status) {
        return TraceEvent.of(t, TraceEvent.COMPLETE, "A").ep("ep").op(op).status(status).attr("opcode", opcode)
                .attr("bytes", bytes);
    }

    @Test
    void statisticsOfATrace() {
        OperationStats s = new OperationStats();
        List<TraceEvent> trace = List.of(
                post(100, 1, "rdma_write", 4096),
                post(200, 2, "send", 64),
                post(250, 3, "recv", 64),
                post(300, 4, "rdma_write", 8),
                TraceEvent.of(400, TraceEvent.MEM_READ, "B").attr("stale", true),
                TraceEvent.of(450, TraceEvent.MEM_READ, "B").attr("stale", false),
                complete(1_100, 1, "rdma_write", 4096L, "DAT_DTO_SUCCESS"),
                complete(1_300, 3, "recv", 64, "DAT_DTO_SUCCESS"), // an Integer
                complete(1_500, 2, "send", "not a number", "DAT_DTO_SUCCESS"),
                complete(1_600, 4, "rdma_write", 8L, "DAT_DTO_ERR_FLUSHED"),
                complete(1_700, 99, "send", 1L, "DAT_DTO_SUCCESS"), // never posted: counted, no latency
                TraceEvent.of(1_800, "credit_wait", "A"));
        trace.forEach(s::accept);
        assertEquals(List.of("rdma_write", "rdma_write:DAT_DTO_ERR_FLUSHED", "recv", "send"),
                List.copyOf(s.latency().keySet()));
        assertEquals(1_000, s.latency().get("rdma_write").max());
        assertEquals(1_300, s.latency().get("send").max());
        assertEquals(1_300, s.latency().get("rdma_write:DAT_DTO_ERR_FLUSHED").max());
        assertEquals(4096, s.bytes("rdma_write"));
        assertEquals(8, s.bytes("rdma_write:DAT_DTO_ERR_FLUSHED"));
        assertEquals(64, s.bytes("recv"));
        assertEquals(0, s.bytes("send"), "a non-numeric bytes adds nothing");
        assertEquals(100, s.firstPost("rdma_write"));
        assertEquals(1_100, s.lastComplete("rdma_write"));
        assertEquals(-1, s.firstPost("atomic"));
        assertEquals(5, s.completions());
        assertEquals(1, s.errorCompletions());
        assertEquals(4096 + 1, s.bytesCompleted(), "receives and failures are not counted");
        assertEquals(1, s.staleReads());
        assertEquals(1_700 - 100, s.windowPs());
        Map<String, Long> kinds = new LinkedHashMap<>();
        kinds.put("complete", 5L);
        kinds.put("credit_wait", 1L);
        kinds.put("mem_read", 2L);
        kinds.put("post", 4L);
        assertEquals(kinds, s.kindCounts());
        assertEquals(List.copyOf(kinds.keySet()), List.copyOf(s.kindCounts().keySet()), "in name order");
        assertEquals(1, s.count("credit_wait"));
        assertEquals(0, s.count(TraceEvent.FENCE_WAIT));
    }
}
