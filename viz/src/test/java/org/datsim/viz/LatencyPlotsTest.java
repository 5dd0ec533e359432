package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Latency per kind from post to completion, failed completions as their own kind, and the two SVG plots. */
class LatencyPlotsTest {

    @TempDir
    Path dir;

    private static TraceEvent post(long t, long op, String opcode) {
        return TraceEvent.of(t, TraceEvent.POST, "A").ep("A/ep1").op(op).attr("opcode", opcode);
    }

    private static TraceEvent done(long t, long op, String opcode, String status) {
        return TraceEvent.of(t, TraceEvent.COMPLETE, "A").ep("A/ep1").op(op).status(status).attr("opcode", opcode);
    }

    @Test
    void latenciesPerKindAndPlots() throws Exception {
        LatencyPlots p = new LatencyPlots();
        p.accept(post(0, 1, "rdma_write"));
        p.accept(post(100, 2, "rdma_write"));
        p.accept(post(200, 3, "send"));
        p.accept(done(3_000_000, 2, "rdma_write", "DAT_DTO_SUCCESS"));
        p.accept(done(1_000_000, 1, "rdma_write", "DAT_DTO_SUCCESS"));
        p.accept(done(5_000_200, 3, "send", "DAT_DTO_ERR_FLUSHED"));
        p.accept(done(6_000_000, 9, "send", "DAT_DTO_SUCCESS"));
        Map<String, long[]> lat = p.latencies();
        assertEquals("[rdma_write, send:DAT_DTO_ERR_FLUSHED]", lat.keySet().toString(),
                "a completion without a post is not counted; a failed one is its own kind");
        assertArrayEquals(new long[] {1_000_000, 2_999_900}, lat.get("rdma_write"));
        assertArrayEquals(new long[] {5_000_000}, lat.get("send:DAT_DTO_ERR_FLUSHED"));
        Path[] files = p.write(dir);
        String hist = Files.readString(files[0]);
        assertTrue(hist.contains("<svg"), hist.substring(0, 40));
        assertTrue(hist.contains("rdma_write (n=2)") && hist.contains("send:DAT_DTO_ERR_FLUSHED (n=1)"));
        assertTrue(hist.contains("p50 1us") && hist.contains("max 3us"), "percentiles in the subtitles");
        String cdf = Files.readString(files[1]);
        assertTrue(cdf.contains("Latency CDF per operation kind") && cdf.contains("rdma_write (n=2)"));
    }

    @Test
    void noOperationsStillGivesPlotsThatSaySo() throws Exception {
        Path[] files = new LatencyPlots().write(dir);
        assertTrue(Files.readString(files[0]).contains("no operation completed"));
        assertTrue(Files.readString(files[1]).contains("no operation completed"));
    }
}
