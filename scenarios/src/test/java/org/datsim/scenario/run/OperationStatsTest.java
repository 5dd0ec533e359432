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
    void latenciesOfManyInterleavedOperationsWithExtremeNumbers() {
        // operations in flight at once, completed in a shuffled order, keys that collide and cluster, extreme op
        // numbers (Long.MIN_VALUE among them), a post repeated for the same op (the later time counts), and
        // completions of ops never posted or already completed (no latency); each completion's bytes are the latency
        // the test expects, so that the bytes of the kind add up exactly only if every post time was paired right
        OperationStats s = new OperationStats();
        Map<Long, Long> inFlight = new HashMap<>();
        SplittableRandom r = new SplittableRandom(42);
        long t = 0;
        long sum = 0;
        long count = 0;
        for (int i = 0; i < 200_000; i++) {
            long op = switch (r.nextInt(20)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> -1;
                default -> r.nextInt(3_000) * 64L;
            };
            t += 1 + r.nextInt(1_000);
            if (r.nextInt(3) == 0) {
                Long t0 = inFlight.remove(op);
                long want = t0 == null ? 1_000_000_000L : t - t0; // unpaired: its bytes must not be counted
                s.accept(complete(t, op, "send", want, "DAT_DTO_SUCCESS"));
                if (t0 != null) {
                    count++;
                    sum += want;
                }
            } else {
                inFlight.put(op, t);
                s.accept(post(t, op, "send", 8));
            }
            if (i % 50_000 == 0) {
                assertEquals(count, s.latency().isEmpty() ? 0 : s.latency().get("send").count(), "at " + i);
            }
        }
        for (Map.Entry<Long, Long> e : inFlight.entrySet()) {
            t += 1;
            s.accept(complete(t, e.getKey(), "send", t - e.getValue(), "DAT_DTO_SUCCESS"));
            count++;
            sum += t - e.getValue();
        }
        assertEquals(count, s.latency().get("send").count());
        assertEquals(sum, s.bytes("send"), "the latencies, summed exactly");
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
