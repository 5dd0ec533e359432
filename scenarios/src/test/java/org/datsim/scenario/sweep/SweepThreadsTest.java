package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sweep point of the fct-vs-load study (a workload on a k=4 fat-tree under HPCC and DCQCN) run by {@code sweep run
 * --threads} on 1, 2 and 4 threads (the fabric split into as many partitions) writes the same files, byte for byte.
 */
class SweepThreadsTest {

    @TempDir
    Path tmp;

    private Study study() throws Exception {
        return TestStudies.write(tmp, "threads", "fct-fat-tree.json", "\"repetitions\": 1,"
                + " \"set\": {\"/workload/load\": \"50%\", \"/workload/duration\": \"200us\","
                + " \"/fabric/params/ecn.enabled\": \"true\"},"
                + " \"axes\": [{\"zip\": [{\"name\": \"cc\", \"path\": \"/fabric/params/cc.algorithm\","
                + " \"values\": [\"hpcc\", \"dcqcn\"]}, {\"name\": \"int\", \"path\": \"/fabric/params/cc.int\","
                + " \"values\": [\"true\", \"false\"]}]}]");
    }

    private static List<Path> files(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            return s.filter(Files::isRegularFile).map(dir::relativize).sorted().collect(Collectors.toList());
        }
    }

    @Test
    void aSweepPointWritesTheSameFilesOnOneTwoAndFourThreads() throws Exception {
        Study s = study();
        Path one = tmp.resolve("t1");
        assertEquals(2, SweepRunner.run(s, one, 1, 1, 1, 1, Progress.silent()).ran());
        List<Path> expected = files(one);
        assertEquals(true, expected.stream().anyMatch(p -> p.toString().endsWith("fct.csv")), expected.toString());
        for (int t : new int[] {2, 4}) {
            Path many = tmp.resolve("t" + t);
            assertEquals(2, SweepRunner.run(s, many, 1, t, 1, 1, Progress.silent()).ran());
            assertEquals(expected, files(many), t + " threads");
            for (Path f : expected) {
                if (f.getFileName().toString().equals("run.txt")) { // its lines name the sweep's directory
                    assertEquals(Files.readString(one.resolve(f)), Files.readString(many.resolve(f))
                            .replace(many.toString(), one.toString()), f + " on " + t + " threads");
                } else {
                    assertArrayEquals(Files.readAllBytes(one.resolve(f)), Files.readAllBytes(many.resolve(f)),
                            f + " on " + t + " threads");
                }
            }
        }
    }
}
