package org.datsim.fabric.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.core.param.Params;
import org.junit.jupiter.api.Test;

/** Small versions of the two benchmark workloads, checked for their results (never for their speed). */
class BenchWorkloadTest {

    @Test
    void streamLastByteArrivesWhenTheClosedFormSays() {
        Params p = StreamBench.params();
        StreamBench.Result r = StreamBench.run(p, 200, 4096, 16);
        assertEquals(200, r.completed());
        assertEquals(0, r.failed());
        assertEquals("link", r.regime(), "the pipelined send engine outpaces a 100 Gb/s link at 4 KiB");
        assertTrue(r.predictedLastArrivalPs() > 0);
        assertEquals(r.predictedLastArrivalPs(), r.simulatedLastArrivalPs());
        assertEquals(200 * 4 + 200, r.packets(), "4 data packets and one ACK per write");
    }

    @Test
    void streamBoundByTheEngineArrivesWhenTheClosedFormSays() {
        Params p = StreamBench.params("hca.wqe_interval", "500ns");
        StreamBench.Result r = StreamBench.run(p, 200, 4096, 16);
        assertEquals(200, r.completed());
        assertEquals("hca_engine", r.regime());
        assertTrue(r.predictedLastArrivalPs() > 0);
        assertEquals(r.predictedLastArrivalPs(), r.simulatedLastArrivalPs());
        assertEquals(StreamBench.run(StreamBench.params("hca.wqe_interval", "400ns"), 200, 4096, 16)
                .predictedLastArrivalPs() + 199 * 100_000L, r.predictedLastArrivalPs(),
                "when the engine is the bottleneck every write costs hca.wqe_interval");
    }

    @Test
    void streamPredictionFollowsTheParameters() {
        Params p = StreamBench.params("pcie.latency", "300ns", "hca.wqe_process", "100ns");
        StreamBench.Result r = StreamBench.run(p, 50, 4096, 16);
        assertEquals(r.predictedLastArrivalPs(), r.simulatedLastArrivalPs());
        assertEquals(StreamBench.run(StreamBench.params(), 50, 4096, 16).predictedLastArrivalPs()
                + 5 * 150_000L + 70_000L, r.predictedLastArrivalPs(),
                "the pipelined engine overlaps the per-write latencies: only the first write pays its doorbell,"
                        + " WQE fetch and payload round trips (5 more PCIe latencies) and 70 ns more processing");
    }

    @Test
    void aWindowTooSmallToKeepTheLinkBusyHasNoClosedForm() {
        StreamBench.Result r = StreamBench.run(StreamBench.params(), 50, 4096, 2);
        assertEquals(-1, r.predictedLastArrivalPs());
        assertEquals("no_closed_form", r.regime());
        assertTrue(r.simulatedLastArrivalPs() > StreamBench.predictLastArrival(StreamBench.params(), 50, 4096, 50),
                "the window makes the stream wait");
    }

    @Test
    void everyWriteOfASmallFatTreeCompletes() {
        FatTreeBench.Result r = FatTreeBench.run(FatTreeBench.params(), 4, 8, 64 * 1024, 42);
        assertEquals(16, r.hosts());
        assertEquals(20, r.switches());
        assertEquals(16 * 8, r.writes());
        assertEquals(r.writes(), r.completed());
        assertEquals(0, r.failed());
        assertTrue(r.packets() >= r.writes() * 16 * 2, "every data packet crosses at least two links");
    }

    @Test
    void everyWriteCompletesUnderPfcAndCutThroughWithSmallBuffers() {
        FatTreeBench.Result r = FatTreeBench.run(FatTreeBench.params("link.flow_control", "pfc", "switch.mode",
                "cut_through", "switch.buffer", "64KiB", "pfc.xoff", "24KiB", "pfc.xon", "12KiB"), 4, 8, 64 * 1024, 7);
        assertEquals(r.writes(), r.completed());
        assertEquals(0, r.failed());
        assertTrue(r.maxStallPs() > 0, "an incast this size pauses some port");
    }
}
