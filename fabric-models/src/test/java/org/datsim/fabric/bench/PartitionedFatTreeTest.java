package org.datsim.fabric.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.datsim.core.param.Params;
import org.junit.jupiter.api.Test;

/**
 * The fat-tree bench on the partitioned engine (issue 30, stage 2): every output is the same on 1, 2, 3 and 4
 * partitions with 1 and 2 threads, under InfiniBand credits and under PFC, and every write lands.
 */
class PartitionedFatTreeTest {

    private static String answer(FatTreeBench.Result r) {
        return "writes=" + r.writes() + " completed=" + r.completed() + " failed=" + r.failed() + " packets="
                + r.packets() + " events=" + r.events() + " end=" + r.endPs() + " stall=" + r.maxStallPs();
    }

    private static void sameOnEveryPartitioning(Params p) {
        FatTreeBench.Result one = FatTreeBench.run(p, 4, 6, 20_000, 3, 1, 1, s -> { });
        assertEquals(one.writes(), one.completed(), answer(one));
        assertEquals(0, one.failed());
        FatTreeBench.Result seq = FatTreeBench.run(p, 4, 6, 20_000, 3); // the default: the sequential engine
        assertEquals(answer(one), answer(seq));
        for (int parts = 2; parts <= 4; parts++) {
            for (int t = 1; t <= parts; t *= 2) {
                FatTreeBench.Result r = FatTreeBench.run(p, 4, 6, 20_000, 3, parts, t, s -> { });
                assertEquals(answer(one), answer(r), parts + " partitions, " + t + " threads");
            }
        }
    }

    @Test
    void creditsGiveTheSameAnswerOnEveryPartitioning() {
        sameOnEveryPartitioning(FatTreeBench.params());
    }

    @Test
    void pfcGivesTheSameAnswerOnEveryPartitioning() {
        sameOnEveryPartitioning(FatTreeBench.params("link.flow_control", "pfc", "switch.buffer", "40KiB", "pfc.xoff", "24KiB", "pfc.xon",
                "16KiB"));
    }

    @Test
    void aPacketThatStartsAtOnceCrossesWithoutAHandoverEvent() {
        // Under IB credits a port never commits a packet ahead of its start (nothing can take it back), so every
        // packet crossing a cut goes to the peer's partition when it starts: the engine runs exactly the sequential
        // run's events, none of them handovers
        FatTreeBench.Result r = FatTreeBench.run(FatTreeBench.params(), 4, 6, 20_000, 3, 2, 1, s -> { });
        assertTrue(r.windows().crossEvents() > 500, "packets cross the cut: " + r.windows().crossEvents());
        assertEquals(r.events(), r.windows().events(), "handover events");
    }

    @Test
    void aCutThroughFabricToo() {
        sameOnEveryPartitioning(FatTreeBench.params("switch.mode", "cut_through"));
    }
}
