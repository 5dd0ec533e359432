package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep killed part-way and run again completes the study with results identical to an uninterrupted run's: the
 * kill is simulated by running one shard only and leaving the half-written temporary directory of a run that was
 * killed while writing; the resumed run (with another number of jobs) skips the finished runs, cleans the debris
 * and finishes the rest, and the merged tables and plots are byte-identical.
 */
class SweepResumeTest {

    @TempDir
    Path tmp;

    private Study study() throws Exception {
        return TestStudies.write(tmp, "resume", "qp-stream.json", "\"repetitions\": 2,"
                + " \"set\": {\"/fabric/hosts/count\": 2, \"/vars/clients\": 1, \"/vars/writes\": 2},"
                + " \"axes\": [{\"name\": \"size\", \"path\": \"/vars/size\", \"values\": [64, 4096]},"
                + " {\"name\": \"mtu\", \"path\": \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"4KiB\"]}]");
    }

    private static byte[] read(Path p) throws IOException {
        return Files.readAllBytes(p);
    }

    @Test
    void aKilledSweepResumesAndEndsIdenticalToAnUninterruptedOne() throws Exception {
        Study s = study();
        assertEquals(8, s.runs().size());
        SweepMerger.Options opt = new SweepMerger.Options(null, null, "svg", 0.95);

        Path whole = tmp.resolve("whole");
        SweepRunner.Outcome w = SweepRunner.run(s, whole, 2, 1, 1, Progress.silent());
        assertEquals(new SweepRunner.Outcome(8, 8, 0, 0, List.of()), w);
        assertEquals(0, SweepMerger.merge(whole, opt).missing());

        Path resumed = tmp.resolve("resumed");
        SweepRunner.Outcome part = SweepRunner.run(s, resumed, 1, 1, 3, Progress.silent());
        assertEquals(3, part.ran(), "shard 1/3 holds runs 0, 3 and 6");
        Point killed = s.runs().get(1);
        Path debris = resumed.resolve(SweepRunner.POINTS).resolve(".tmp-" + killed.id() + "-424242");
        Files.createDirectories(debris);
        Files.writeString(debris.resolve("summary.json"), "{\"truncated");
        assertFalse(SweepRunner.finished(resumed, killed));
        SweepMerger.Outcome partial = SweepMerger.merge(resumed, opt);
        assertEquals(5, partial.missing(), "a merge of a partial sweep says what is missing");

        SweepRunner.Outcome rest = SweepRunner.run(s, resumed, 2, 1, 1, Progress.silent());
        assertEquals(new SweepRunner.Outcome(8, 5, 3, 0, List.of()), rest, "finished runs are skipped");
        assertFalse(Files.exists(debris), "the killed run's temporary directory is removed");
        assertEquals(0, SweepMerger.merge(resumed, opt).missing());

        for (String f : List.of("results.csv", "aggregate.csv")) {
            assertArrayEquals(read(whole.resolve(f)), read(resumed.resolve(f)), f);
        }
        try (Stream<Path> plots = Files.list(whole.resolve("plots"))) {
            List<Path> all = plots.sorted().toList();
            assertEquals(List.of("makespan_us.svg"), all.stream().map(p -> p.getFileName().toString())
                    .filter(n -> n.startsWith("makespan")).toList());
            for (Path p : all) {
                assertArrayEquals(read(p), read(resumed.resolve("plots").resolve(p.getFileName())), p.toString());
            }
        }
        for (Point p : s.runs()) {
            assertArrayEquals(read(SweepRunner.dir(whole, p).resolve("summary.json")),
                    read(SweepRunner.dir(resumed, p).resolve("summary.json")), p.describe());
        }
        List<String> rows = Files.readAllLines(whole.resolve("results.csv"));
        assertEquals(9, rows.size());
        assertTrue(rows.get(0).startsWith("point,rep,seed,id,exit,size,mtu,makespan_us,"), rows.get(0));
        assertTrue(rows.get(0).contains(",rdma_write.p50_us,"), rows.get(0));
        SweepRunner.Outcome again = SweepRunner.run(s, whole, 2, 1, 1, Progress.silent());
        assertEquals(new SweepRunner.Outcome(8, 0, 8, 0, List.of()), again, "nothing is run twice");
    }
}
