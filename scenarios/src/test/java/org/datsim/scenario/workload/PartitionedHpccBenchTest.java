package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.cli.DatsimCli;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code bench hpcc --threads} (issue 30): HPCC's workload gives byte-identical fct.csv and summary.json, and the same
 * counts, on the default engine and {@code --threads 1} (the keyed sequential engine), 2 threads and 2 partitions, 2
 * threads and 4 partitions, and 4 threads and 4
 * partitions, under every algorithm, on a two-tier fabric in HPCC's format with flows that congest it (PFC pauses
 * happen).
 */
class PartitionedHpccBenchTest {

    private static int datsim(StringWriter out, StringWriter err, String... args) {
        return DatsimCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    /** 16 hosts under 4 leaves, 2 spines, 100 Gb/s down and 400 Gb/s up, 1 us links. */
    static void writeFabric(Path topo, Path flows) throws Exception {
        StringBuilder t = new StringBuilder("22 6 24\n16 17 18 19 20 21\n");
        for (int h = 0; h < 16; h++) {
            t.append(h).append(' ').append(16 + h / 4).append(" 100Gbps 1000ns 0\n");
        }
        for (int leaf = 16; leaf < 20; leaf++) {
            for (int spine = 20; spine < 22; spine++) {
                t.append(leaf).append(' ').append(spine).append(" 400Gbps 1000ns 0\n");
            }
        }
        Files.writeString(topo, t.toString());
        StringBuilder f = new StringBuilder("80\n");
        long x = 12345;
        for (int i = 0; i < 80; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
            int src = (int) ((x >>> 33) % 16);
            int dst = (src + 1 + (int) ((x >>> 40) % 15)) % 16;
            if (i % 5 == 0) {
                dst = 7; // an incast on host 7
            }
            if (src == dst) {
                dst = (dst + 3) % 16;
            }
            long size = 1000 + (x >>> 20) % (i % 7 == 0 ? 3_000_000 : 60_000);
            f.append(src).append(' ').append(dst).append(" 3 100 ").append(size).append(' ')
                    .append(String.format(java.util.Locale.ROOT, "%.9f", 2.0 + i * 0.000001)).append('\n');
        }
        Files.writeString(flows, f.toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"dcqcn", "hpcc", "dctcp", "timely"})
    void everyThreadCountAndPartitioningGivesTheSameOutputs(String cc, @TempDir Path dir) throws Exception {
        Path topo = dir.resolve("t.txt");
        Path flows = dir.resolve("f.txt");
        writeFabric(topo, flows);
        String[][] runs = {{null, null}, {"1", "1"}, {"2", "2"}, {"2", "4"}, {"4", "4"}};
        byte[] fct = null;
        byte[] summary = null;
        List<String> counts = null;
        for (String[] tp : runs) {
            Path out = dir.resolve("o" + tp[0] + tp[1]);
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            List<String> args = new java.util.ArrayList<>(List.of("bench", "hpcc", "--model", "hpcc-ns3", "--cc", cc,
                    "--topology", topo.toString(), "--flows", flows.toString(), "--no-ideal", "--no-progress",
                    "--out", out.toString(), "--param", "switch.shared_buffer=600KiB"));
            if (tp[0] != null) {
                args.addAll(List.of("--threads", tp[0], "--partitions", tp[1]));
            }
            assertEquals(0, datsim(o, e, args.toArray(new String[0])), e.toString());
            List<String> lines = o.toString().lines().toList();
            String engine = tp[0] == null || tp[1].equals("1") ? "engine=sequential" : "engine=partitioned";
            assertTrue(lines.contains(engine) && lines.contains("partitions=" + (tp[0] == null ? "1" : tp[1]))
                    && lines.contains("threads=" + (tp[0] == null ? "1" : tp[0])), o.toString());
            List<String> c = lines.stream().filter(l -> l.startsWith("completed=") || l.startsWith("events=")
                    || l.startsWith("packets=") || l.startsWith("simulated_end_ps=")
                    || l.startsWith("flow_control_stall_ps=") || l.startsWith("drops=")).toList();
            byte[] f = Files.readAllBytes(out.resolve("fct.csv"));
            byte[] s = Files.readAllBytes(out.resolve("summary.json"));
            if (fct == null) {
                fct = f;
                summary = s;
                counts = c;
                assertTrue(c.contains("completed=80"), o.toString());
                // congested: with a small shared buffer, the incast pauses links
                assertTrue(c.stream().anyMatch(l -> l.startsWith("flow_control_stall_ps=")
                        && !l.equals("flow_control_stall_ps=0")), o.toString());
            } else {
                assertArrayEquals(fct, f, cc + ": fct.csv on " + tp[0] + " threads, " + tp[1] + " partitions");
                assertArrayEquals(summary, s, cc + ": summary.json on " + tp[0] + " threads, " + tp[1] + " partitions");
                assertEquals(counts, c);
            }
        }
    }

    @org.junit.jupiter.api.Test
    void theEventLimitStopsAtTheSameWindowEndOnAnyThreadCount(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("t.txt");
        Path flows = dir.resolve("f.txt");
        writeFabric(topo, flows);
        String first = null;
        for (String threads : new String[] {"1", "2"}) {
            StringWriter o = new StringWriter();
            StringWriter e = new StringWriter();
            assertEquals(1, datsim(o, e, "bench", "hpcc", "--cc", "dcqcn", "--topology", topo.toString(), "--flows",
                    flows.toString(), "--no-ideal", "--no-progress", "--out", dir.resolve("o" + threads).toString(),
                    "--max-events", "200000", "--threads", threads, "--partitions", "2"), e.toString());
            assertTrue(e.toString().contains("event limit of 200000"), e.toString());
            String events = o.toString().lines().filter(l -> l.startsWith("events=")).findFirst().orElseThrow();
            String completed = o.toString().lines().filter(l -> l.startsWith("completed=")).findFirst()
                    .orElseThrow();
            assertTrue(Long.parseLong(events.substring(7)) >= 100_000, events); // handovers not counted
            assertTrue(!completed.equals("completed=80"), completed);
            if (first == null) {
                first = events + " " + completed;
            } else {
                assertEquals(first, events + " " + completed);
                assertArrayEquals(Files.readAllBytes(dir.resolve("o1").resolve("fct.csv")),
                        Files.readAllBytes(dir.resolve("o2").resolve("fct.csv")));
            }
        }
    }
}
