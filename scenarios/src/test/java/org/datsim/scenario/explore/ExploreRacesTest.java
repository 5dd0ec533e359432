package org.datsim.scenario.explore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.ExploreCommandAccess;
import org.datsim.scenario.load.Scenario;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;

/**
 * Issue 27: the two races explore opens last. An RDMA Read of one endpoint against another endpoint's RDMA Write
 * to the same location ({@code transport.read_vs_write}, rule 2), and a CPU write-back racing a remote RDMA Read on
 * a CPU non-coherent host ({@code memory.cpu_writeback}, rule 31; lesson 6).
 */
class ExploreRacesTest {

    private static Scenario load(String file) throws Exception {
        return ScenarioLoader.load(ScenarioJson.examplesDir().resolve("..").normalize().resolve(file));
    }

    private static Explorer.Report explore(String file, boolean reduce) throws Exception {
        return new Explorer(load(file), new Explorer.Settings(1000, 0, 1, reduce)).explore();
    }

    /** Each outcome as explore describes its named observations. */
    private static Set<String> outcomes(Explorer.Report r) {
        Set<String> s = new TreeSet<>();
        r.outcomes().forEach(o -> s.add(ExploreCommandAccess.describe(o.named())));
        return s;
    }

    @Test
    void rule2_aReadOfOneEndpointFetchesBeforeOrAfterAnotherEndpointsWriteToTheSameLocation() throws Exception {
        Explorer.Report r = explore("litmus/read-vs-write-two-endpoints.json", true);
        assertTrue(r.exhaustive());
        assertEquals(Set.of("L = 0x22*64", "L = 0xc1*64"), outcomes(r));
        assertEquals(0, r.forbidden());
        assertTrue(r.points().containsKey("transport.read_vs_write (rule 2)"), r.points().toString());
    }

    @Test
    void rule31_withoutTheSyncARemoteReadGetsMemorysStaleBytesOrTheWrittenBackOnesWithItOnlyTheFresh()
            throws Exception {
        Explorer.Report hazard = explore("litmus/cpu-writeback-remote-read.json", true);
        assertTrue(hazard.exhaustive());
        assertEquals(Set.of("L = 0x00*64", "L = 0x22*64"), outcomes(hazard));
        assertTrue(hazard.points().containsKey("memory.cpu_writeback (rule 31)"), hazard.points().toString());
        Explorer.Report fix = explore("litmus/cpu-writeback-remote-read-sync.json", true);
        assertTrue(fix.exhaustive());
        assertEquals(Set.of("L = 0x22*64"), outcomes(fix));
        assertEquals(0, fix.forbidden());
        assertFalse(fix.points().containsKey("memory.cpu_writeback (rule 31)"), "the sync leaves nothing to race");
    }

    @Test
    void lesson6HazardStatesBothOutcomesTheRuleAllowsAndItsFixOnlyTheFreshOne() throws Exception {
        Explorer.Report hazard = explore("lab/06-sync-rdma-read/hazard.json", true);
        assertTrue(hazard.exhaustive());
        assertEquals(2, hazard.outcomes().size());
        assertEquals(0, hazard.forbidden(), "the hazard expects 0x00 or 0x22 (rule 31)");
        Explorer.Report fix = explore("lab/06-sync-rdma-read/fix.json", true);
        assertTrue(fix.exhaustive());
        assertEquals(1, fix.outcomes().size());
        assertEquals(0, fix.forbidden());
    }

    @Test
    void theNewPointsLoseNoOutcomeToTheReduction() throws Exception {
        for (String file : List.of("litmus/read-vs-write-two-endpoints.json", "litmus/cpu-writeback-remote-read.json",
                "lab/06-sync-rdma-read/hazard.json")) {
            Explorer.Report reduced = explore(file, true);
            Explorer.Report full = explore(file, false);
            assertTrue(reduced.exhaustive() && full.exhaustive(), file);
            Set<String> a = new TreeSet<>();
            Set<String> b = new TreeSet<>();
            reduced.outcomes().forEach(o -> a.add(o.observed().toString()));
            full.outcomes().forEach(o -> b.add(o.observed().toString()));
            assertEquals(b, a, file);
            assertTrue(reduced.executions() <= full.executions(), file);
        }
    }

    @Test
    void everyWitnessOfTheNewPointsReplaysItsOutcome() throws Exception {
        for (String file : List.of("litmus/read-vs-write-two-endpoints.json", "litmus/cpu-writeback-remote-read.json")) {
            Scenario s = load(file);
            Explorer.Report r = new Explorer(s, new Explorer.Settings(1000, 0, 1, true)).explore();
            for (Explorer.Outcome o : r.outcomes()) {
                assertEquals(o.observed(), Explorer.execute(s, o.witness(), null, true).observed(), file);
            }
        }
    }

    @Test
    void withoutChoicesTheRunIsTheTimingModels() throws Exception {
        // Alternative 0 of both points is the timing model's: the empty vector reaches the first outcome a plain
        // run shows (the Read fetched before C's Write landed; memory's stale bytes).
        for (String[] fileAndL : new String[][] {{"litmus/read-vs-write-two-endpoints.json", "L = 0x22*64"},
                {"litmus/cpu-writeback-remote-read.json", "L = 0x00*64"}}) {
            Scenario s = load(fileAndL[0]);
            Explorer.Execution e = Explorer.execute(s, new int[0], null, true);
            assertEquals(fileAndL[1], ExploreCommandAccess.describe(e.named()), fileAndL[0]);
        }
    }
}
