package org.datsim.scenario.workload;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The scenario's workload section: validation, a small run end to end, fct.csv and summary.json. */
class WorkloadScenarioTest {

    private static String scenario(String workload) {
        return "{\"scenario\": \"w\", \"seed\": 3, \"fabric\": {\"preset\": \"roce-100g\", \"topology\": {\"fat_tree\":"
                + " {\"k\": 4, \"levels\": 3}}}, \"workload\": " + workload + ", \"processes\": []}";
    }

    private static List<String> problems(String workload) {
        try {
            ScenarioLoader.parse("w.json", scenario(workload));
            return List.of();
        } catch (ScenarioException e) {
            return e.problems();
        }
    }

    @Test
    void eachProblemIsOneLocatedMessage() {
        assertEquals(List.of("w.json: $.workload.distribution: unknown distribution \"Web\"; expected one of"
                + " [WebSearch, FbHdp, AliStorage2019, GoogleRPC2008] or {\"cdf_file\": \"PATH\"}"),
                problems("{\"distribution\": \"Web\", \"load\": 0.3, \"duration\": \"1ms\"}"));
        for (String load : List.of("0", "\"0%\"", "1.5", "\"150%\"", "\"x%\"", "-0.2")) {
            List<String> p = problems("{\"distribution\": \"WebSearch\", \"load\": " + load + ", \"duration\": \"1ms\"}");
            assertEquals(1, p.size(), load + ": " + p);
            assertTrue(p.get(0).startsWith("w.json: $.workload.load: expected the offered load of each host's link,"
                    + " more than 0 and at most 100%"), p.get(0));
        }
        List<String> p = problems("{\"distribution\": \"WebSearch\", \"load\": 0.3, \"duration\": \"0s\"}");
        assertEquals(1, p.size());
        assertTrue(p.get(0).startsWith("w.json: $.workload.duration: expected a time such as \"1ms\""), p.get(0));
        p = problems("{\"distribution\": \"WebSearch\", \"load\": 0.3, \"duration\": \"1ms\", \"pattern\":"
                + " {\"incast\": {\"senders\": 16, \"target\": \"h99\"}}}");
        assertEquals(List.of("w.json: $.workload.pattern.incast.target: no host named \"h99\" in the topology",
                "w.json: $.workload.pattern.incast.senders: expected a whole number from 1 to 15 (the other hosts),"
                        + " found 16"), p);
        assertEquals(List.of("w.json: $.workload.operation: expected \"rdma_write\" or \"send\", found \"read\""),
                problems("{\"distribution\": \"WebSearch\", \"load\": 0.3, \"duration\": \"1ms\", \"operation\":"
                        + " \"read\"}"));
        assertEquals(List.of("w.json: $.workload.sizes: unknown field; expected one of [distribution, duration,"
                + " ideal_fct, load, operation, pattern, start]"),
                problems("{\"distribution\": \"WebSearch\", \"load\": 0.3, \"duration\": \"1ms\", \"sizes\": 1}"));
    }

    @Test
    void congestionControlWithoutItsSignalOrOnInfinibandIsRefusedWithALocatedMessage() {
        String s = "{\"scenario\": \"w\", \"fabric\": {\"preset\": \"roce-100g\", \"params\": {\"cc.algorithm\":"
                + " \"dcqcn\"}, \"topology\": {\"fat_tree\": {\"k\": 4, \"levels\": 3}}}, \"processes\": []}";
        try {
            ScenarioLoader.parse("w.json", s);
            throw new AssertionError("accepted");
        } catch (ScenarioException e) {
            assertEquals(1, e.problems().size(), e.problems().toString());
            assertTrue(e.problems().get(0).startsWith("w.json: $.fabric"), e.problems().toString());
            assertTrue(e.problems().get(0).contains("cc.algorithm dcqcn reacts to ECN marks: set ecn.enabled true"),
                    e.problems().toString());
        }
        String ib = "{\"scenario\": \"w\", \"fabric\": {\"preset\": \"ib-edr\", \"params\": {\"cc.algorithm\":"
                + " \"hpcc\", \"cc.int\": true}, \"topology\": {\"fat_tree\": {\"k\": 4, \"levels\": 3}}},"
                + " \"processes\": []}";
        try {
            ScenarioLoader.parse("w.json", ib);
            throw new AssertionError("accepted");
        } catch (ScenarioException e) {
            assertEquals(1, e.problems().size(), e.problems().toString());
            assertTrue(e.problems().get(0).contains("cc.algorithm hpcc is not available with link.flow_control"
                    + " ib_credits"), e.problems().toString());
        }
    }

    private static int datsim(StringWriter out, StringWriter err, String... args) {
        return DatsimCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
    }

    @Test
    void smallRunFctsAreAtLeastIdealAndFctCommandPrintsTheTable(@TempDir Path dir) throws Exception {
        // 16 hosts, WebSearch-sized flows at 50% load: about 50 flows
        Path file = dir.resolve("w.json");
        Files.writeString(file, scenario("{\"distribution\": \"FbHdp\", \"load\": \"50%\", \"duration\": \"45us\"}"));
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Path run = dir.resolve("run");
        assertEquals(0, datsim(out, err, "run", file.toString(), "--out", run.toString(), "--no-perfetto"),
                err.toString() + out);
        List<String> lines = Files.readAllLines(run.resolve("fct.csv"));
        assertEquals("src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,standalone_fct_ps,slowdown,"
                + "slowdown_vs_standalone", lines.get(0));
        List<FctFile.Row> rows = FctFile.read(run.resolve("fct.csv"));
        assertTrue(rows.size() >= 30 && rows.size() <= 80, "flows: " + rows.size());
        int slowed = 0;
        for (FctFile.Row r : rows) {
            assertTrue(r.fctPs() > 0 && r.idealPs() > 0, r.toString());
            assertTrue(r.fctPs() >= r.idealPs(), "an FCT below the flow's FCT alone: " + r);
            // HPCC's formula leaves out the host, the switches' latency and 34 header bytes a packet
            assertTrue(r.standalonePs() > 0 && r.standalonePs() < r.idealPs(), r.toString());
            slowed += r.fctPs() > r.idealPs() ? 1 : 0;
        }
        assertTrue(slowed > 0, "at 50% load some flow must wait for another");
        String summary = Files.readString(run.resolve("summary.json"));
        assertTrue(summary.contains("\"count\" : " + rows.size()), summary);
        assertTrue(summary.contains("\"slowdown_by_size\""), summary);
        assertTrue(summary.contains("\"ideal\" : \"alone, congestion control off\""), summary);
        assertTrue(summary.contains("\"slowdown_vs_standalone_by_size\""), summary);
        out = new StringWriter();
        assertEquals(0, datsim(out, err, "fct", run.toString()), err.toString());
        assertTrue(out.toString().startsWith("slowdown = FCT / ideal FCT (the flow alone on the idle fabric,"
                + " congestion control off)\nsize           flows     p50     p95     p99\n<10KB"), out.toString());
        assertTrue(out.toString().contains("\n\nFCT / HPCC's standalone FCT (a formula: base RTT + bytes with"
                + " 48-byte headers at the bottleneck link rate; no host, no switch latency)\nsize           flows"
                + "     p50     p95     p99\n<10KB"), out.toString());
        assertTrue(Files.size(run.resolve("fct-slowdown.svg")) > 1000);
        // the same seed gives the same fct.csv
        Path again = dir.resolve("again");
        assertEquals(0, datsim(new StringWriter(), err, "run", file.toString(), "--out", again.toString(),
                "--no-perfetto"));
        assertEquals(Files.readString(run.resolve("fct.csv")), Files.readString(again.resolve("fct.csv")));
    }

    /**
     * trace.json holds one slice per flow on its source host's process (thread "flows", "flows (2)", ...), from its
     * start to its completion, with its size, destination, FCT and slowdown as args; the flows' cache misses are not
     * traced by default (trace.cache_misses auto), and are with trace.cache_misses=all.
     */
    @Test
    void traceJsonHasOneSlicePerFlowAndNoFlowCacheMissesByDefault(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w.json");
        Files.writeString(file, scenario("{\"distribution\": \"FbHdp\", \"load\": \"50%\", \"duration\": \"20us\"}"));
        Path run = dir.resolve("run");
        StringWriter err = new StringWriter();
        assertEquals(0, datsim(new StringWriter(), err, "run", file.toString(), "--out", run.toString()),
                err.toString());
        List<FctFile.Row> rows = FctFile.read(run.resolve("fct.csv"));
        assertTrue(rows.size() >= 5, "flows: " + rows.size());
        com.fasterxml.jackson.databind.JsonNode trace = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(run.resolve("trace.json").toFile());
        java.util.Map<Integer, String> procs = new java.util.HashMap<>();
        java.util.Map<String, String> threads = new java.util.HashMap<>();
        List<com.fasterxml.jackson.databind.JsonNode> slices = new java.util.ArrayList<>();
        for (com.fasterxml.jackson.databind.JsonNode e : trace.path("traceEvents")) {
            if ("process_name".equals(e.path("name").asText())) {
                procs.put(e.path("pid").asInt(), e.path("args").path("name").asText());
            } else if ("thread_name".equals(e.path("name").asText())) {
                threads.put(e.path("pid").asInt() + "/" + e.path("tid").asInt(), e.path("args").path("name").asText());
            } else if ("flow".equals(e.path("cat").asText())) {
                slices.add(e);
            }
        }
        assertEquals(rows.size(), slices.size(), "one slice per flow");
        for (com.fasterxml.jackson.databind.JsonNode e : slices) {
            int i = e.path("args").path("flow").asInt();
            FctFile.Row r = rows.get(i);
            assertTrue(procs.get(e.path("pid").asInt()).contains(r.src()), "on its source host: " + e);
            assertTrue(threads.get(e.path("pid").asInt() + "/" + e.path("tid").asInt()).startsWith("flows"), e.toString());
            assertEquals(r.dst(), e.path("args").path("dst").asText());
            assertEquals(r.sizeBytes(), e.path("args").path("size_bytes").asLong());
            assertEquals(r.fctPs(), e.path("args").path("fct_ps").asLong());
            assertEquals(r.slowdown(), e.path("args").path("slowdown").asDouble(), 1e-6);
            assertEquals(r.fctPs() / 1e6, e.path("dur").asDouble(), 1e-6, "from start to completion, in us");
            assertEquals(r.startPs() / 1e6, e.path("ts").asDouble(), 1e-6);
        }
        String events = Files.readString(run.resolve("events.jsonl"));
        assertTrue(!events.contains("\"cache_miss\""), "no flow cache misses by default");
        Path all = dir.resolve("all");
        assertEquals(0, datsim(new StringWriter(), err, "run", file.toString(), "--out", all.toString(),
                "--no-perfetto", "--param", "trace.cache_misses=all"), err.toString());
        assertTrue(Files.readString(all.resolve("events.jsonl")).contains("\"cache_miss\""),
                "trace.cache_misses=all traces them");
    }

    /**
     * The derived values as used: cc.base_rtt and cc.window given as 0 are the topology's largest round trip and
     * bandwidth-delay product, recorded in summary.json's resolved and told under the run's first line, with the
     * ECN thresholds per port rate; a run without congestion control or ECN records none.
     */
    @Test
    void resolvedValuesAreRecordedAndPrinted(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("w.json");
        Files.writeString(file, scenario("{\"distribution\": \"FbHdp\", \"load\": \"30%\", \"duration\": \"5us\","
                + " \"ideal_fct\": false}"));
        Path run = dir.resolve("dcqcn");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, datsim(out, err, "run", file.toString(), "--out", run.toString(), "--no-perfetto", "--param",
                "cc.algorithm=dcqcn", "--param", "ecn.enabled=true", "--param", "ecn.kmin=100KB", "--param",
                "ecn.kmax=200KB", "--param", "switch.buffer_mode=shared", "--param", "link.flow_control=pfc"),
                err.toString() + out);
        com.fasterxml.jackson.databind.JsonNode r = new com.fasterxml.jackson.databind.ObjectMapper()
                .readTree(run.resolve("summary.json").toFile()).path("resolved");
        assertTrue(r.path("cc.base_rtt_ps").asLong() > 1_000_000, r.toString());
        // the largest BDP at 100 Gb/s: 12.5 bytes a nanosecond over the largest round trip
        assertEquals(r.path("cc.base_rtt_ps").asLong() * 100 / 8_000, r.path("cc.window_bytes").asLong(),
                r.path("cc.window_bytes").asLong() / 100.0, r.toString());
        assertEquals(100_000, r.path("ecn.thresholds_by_port_rate").path("100Gbps").path("kmin_bytes").asLong());
        assertEquals(200_000, r.path("ecn.thresholds_by_port_rate").path("100Gbps").path("kmax_bytes").asLong());
        assertTrue(r.path("cc.header_bytes").isInt(), r.toString());
        assertTrue(r.path("transport.ack_interval").isMissingNode(), "dcqcn keeps one ACK per message: " + r);
        com.fasterxml.jackson.databind.JsonNode pfc = r.path("pfc_by_switch_port");
        assertTrue(pfc.size() >= 1, r.toString());
        pfc.fields().forEachRemaining(f -> {
            assertTrue(f.getValue().path("headroom_bytes").asLong() >= 2 * 1024, "at least two packets: " + f);
            assertEquals(3, f.getValue().path("alpha_shift").asInt(), "every port at the hosts' rate: " + f);
        });
        assertTrue(out.toString().contains("  resolved: PFC headroom/alpha shift per switch port (rate, delay): "),
                out.toString());
        String[] lines = out.toString().split("\n");
        assertTrue(lines[1].startsWith("  resolved: cc.base_rtt ") && lines[1].contains("(0 given: the topology's"
                + " largest unloaded round trip); cc.window "), out.toString());
        assertTrue(lines[2].startsWith("  resolved: cc.header_bytes 0 "), out.toString());
        assertTrue(lines[4].startsWith("  resolved: ECN kmin/kmax per port rate: 100Gbps 97.656KiB/195.313KiB"),
                out.toString());
        Path none = dir.resolve("none");
        assertEquals(0, datsim(new StringWriter(), err, "run", file.toString(), "--out", none.toString(),
                "--no-perfetto"), err.toString());
        assertTrue(new com.fasterxml.jackson.databind.ObjectMapper().readTree(none.resolve("summary.json").toFile())
                .path("resolved").isMissingNode());
    }

    @Test
    void fctCommandReadsAnOldFileAndSaysWhichIdealItHas(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("fct.csv"), "src,dst,size_bytes,start_ps,fct_ps,ideal_fct_ps,slowdown\n"
                + "h1,h2,5000,10,3000,2000,1.500000\nh2,h1,2000000,20,,9000,\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(0, datsim(out, err, "fct", dir.toString()), err.toString());
        assertTrue(out.toString().startsWith("slowdown = FCT / ideal FCT (an old fct.csv: the flow alone with the run's"
                + " own congestion control, which hides its throttling)\nsize"), out.toString());
        assertTrue(out.toString().contains("(not in this file: an fct.csv written before the standalone_fct_ps"
                + " column)"), out.toString());
        assertTrue(out.toString().contains("2 flows, 1 without a slowdown"), out.toString());
        assertTrue(Files.size(dir.resolve("fct-slowdown.svg")) > 1000); // its axis label is drawn as glyph shapes
    }

    @Test
    void aFlowAloneTakesItsIdealFct(@TempDir Path dir) throws Exception {
        for (String op : List.of("rdma_write", "send")) {
            Files.writeString(dir.resolve("one.flows"), "1\n3 12 3 100 250000 0.000001\n");
            Path file = dir.resolve("one.json");
            Files.writeString(file, scenario("{\"hpcc_flows\": \"one.flows\", \"operation\": \"" + op + "\"}"));
            Path run = dir.resolve("run-" + op);
            StringWriter err = new StringWriter();
            assertEquals(0, datsim(new StringWriter(), err, "run", file.toString(), "--out", run.toString(),
                    "--no-perfetto"), err.toString());
            List<FctFile.Row> rows = FctFile.read(run.resolve("fct.csv"));
            assertEquals(1, rows.size());
            FctFile.Row r = rows.get(0);
            assertEquals("h3", r.src());
            assertEquals("h12", r.dst());
            assertEquals(1_000_000, r.startPs());
            assertTrue(r.fctPs() > 250_000 * 8 * 10, "at least the serialisation at 100 Gb/s: " + r);
            assertEquals(r.idealPs(), r.fctPs(), op);
        }
    }

    @Test
    void aLoneFlowThatHpccThrottlesHasASlowdownAboveOneInARun(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("one.flows"), "1\n0 15 3 100 10000000 0\n");
        Path file = dir.resolve("one.json");
        Files.writeString(file, "{\"scenario\": \"w\", \"seed\": 3, \"fabric\": {\"preset\": \"roce-100g\", \"params\":"
                + " {\"cc.algorithm\": \"hpcc\", \"cc.int\": true, \"cc.window\": \"8KiB\"}, \"topology\": {\"fat_tree\": {\"k\": 4, \"levels\":"
                + " 3}}}, \"workload\": {\"hpcc_flows\": \"one.flows\"}, \"processes\": []}");
        Path run = dir.resolve("run");
        StringWriter err = new StringWriter();
        assertEquals(0, datsim(new StringWriter(), err, "run", file.toString(), "--out", run.toString(),
                "--no-perfetto"), err.toString());
        FctFile.Row r = FctFile.read(run.resolve("fct.csv")).get(0);
        // the ideal is the flow alone with hpcc off: the 8 KiB window that holds it back shows
        assertTrue(r.slowdown() > 1.5, r.toString());
        assertTrue(r.standalonePs() > 0 && r.standalonePs() < r.idealPs(), r.toString());
    }

    @Test
    void benchHpccRefusesBadCcParametersAndBadFiles(@TempDir Path dir) throws Exception {
        StringWriter err = new StringWriter();
        assertEquals(2, datsim(new StringWriter(), err, "bench", "hpcc", "--cc", "dcqcn", "--param",
                "cc.dcqcn.rp_timer=0us", "--out", dir.toString()));
        assertTrue(err.toString().contains("cc.dcqcn.rp_timer must be more than 0 with cc.algorithm dcqcn"),
                err.toString());
        Path topo = dir.resolve("t.txt");
        Files.writeString(topo, "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n");
        Path flows = dir.resolve("f.txt");
        Files.writeString(flows, "2\n0 1 3 100 1000 0\n0 1 3 100 zz 0\n");
        err = new StringWriter();
        assertEquals(2, datsim(new StringWriter(), err, "bench", "hpcc", "--topology", topo.toString(), "--flows",
                flows.toString(), "--out", dir.resolve("o").toString()));
        assertEquals("datsim: " + flows + ":3: expected whole numbers for priority, dport and size_bytes, found \"0 1 3"
                + " 100 zz 0\"", err.toString().trim());
        Files.writeString(flows, "2\n0 1 3 100 1000 0\n1 0 3 100 20000 0.000001\n");
        StringWriter out = new StringWriter();
        assertEquals(0, datsim(out, err, "bench", "hpcc", "--topology", topo.toString(), "--flows", flows.toString(),
                "--out", dir.resolve("o").toString()), err.toString());
        assertTrue(out.toString().contains("\ncompleted=2\n"), out.toString());
        // the round trip and window the algorithm would use, derived from the topology as the run resolved them
        assertTrue(Files.readString(dir.resolve("o").resolve("summary.json")).contains("\"resolved\""));
        assertTrue(out.toString().trim().lines().reduce((a, b) -> b).get().startsWith("process_wall_s="));
        assertEquals(3, Files.readAllLines(dir.resolve("o").resolve("fct.csv")).size());
        // the same flows on what HPCC's simulator models: no host costs, so both finish sooner
        StringWriter ns3 = new StringWriter();
        assertEquals(0, datsim(ns3, err, "bench", "hpcc", "--model", "hpcc-ns3", "--cc", "timely", "--topology",
                topo.toString(), "--flows", flows.toString(), "--out", dir.resolve("n").toString()), err.toString());
        assertTrue(ns3.toString().contains("\nmodel=hpcc-ns3\n"), ns3.toString());
        assertTrue(ns3.toString().contains("\ncc_base_rtt_ps="), ns3.toString()); // timely uses the base round trip
        List<FctFile.Row> own = FctFile.read(dir.resolve("o").resolve("fct.csv"));
        List<FctFile.Row> hpcc = FctFile.read(dir.resolve("n").resolve("fct.csv"));
        for (int i = 0; i < 2; i++) {
            assertTrue(hpcc.get(i).fctPs() < own.get(i).fctPs(), hpcc.get(i) + " against " + own.get(i));
        }
        for (String[] bad : new String[][] {{"--model", "ns-3"}, {"--cc", "swift"}}) {
            StringWriter e = new StringWriter();
            assertEquals(2, datsim(new StringWriter(), e, "bench", "hpcc", bad[0], bad[1], "--topology",
                    topo.toString(), "--flows", flows.toString(), "--out", dir.resolve("b").toString()));
            assertTrue(e.toString().startsWith("datsim: " + bad[0] + ": expected "), e.toString());
        }
    }

    @Test
    void benchHpccStopsAtItsGuardsAndKeepsWhatFinished(@TempDir Path dir) throws Exception {
        Path topo = dir.resolve("t.txt");
        Files.writeString(topo, "3 1 2\n2\n0 2 100Gbps 1us 0\n1 2 100Gbps 1us 0\n");
        Path flows = dir.resolve("f.txt");
        // a small flow, then a large one much later
        Files.writeString(flows, "2\n0 1 3 100 2000 0\n1 0 3 100 2000000 0.001\n");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        assertEquals(1, datsim(out, err, "bench", "hpcc", "--topology", topo.toString(), "--flows", flows.toString(),
                "--max-time", "500us", "--out", dir.resolve("t").toString()), err.toString());
        assertTrue(err.toString().startsWith("datsim: the loaded run stopped at simulated time "), err.toString());
        assertTrue(err.toString().contains("--max-time"), err.toString());
        List<FctFile.Row> rows = FctFile.read(dir.resolve("t").resolve("fct.csv"));
        assertEquals(2, rows.size());
        assertTrue(rows.get(0).fctPs() > 0, rows.toString()); // finished before the limit: kept
        assertTrue(rows.get(1).fctPs() < 0, rows.toString()); // not finished: no FCT
        assertTrue(Files.readString(dir.resolve("t").resolve("summary.json")).contains("\"stopped\""));
        // an event limit stops the loaded run (here, the large flow) the same way
        err = new StringWriter();
        assertEquals(1, datsim(new StringWriter(), err, "bench", "hpcc", "--topology", topo.toString(), "--flows",
                flows.toString(), "--no-ideal", "--max-events", "20000", "--out", dir.resolve("e").toString()));
        assertTrue(err.toString().startsWith("datsim: the loaded run stopped after 20000 events"), err.toString());
        // a 1 TB flow is refused before it runs, with the figure and the option
        Files.writeString(flows, "1\n0 1 3 100 1000000000000 0\n");
        err = new StringWriter();
        assertEquals(1, datsim(new StringWriter(), err, "bench", "hpcc", "--topology", topo.toString(), "--flows",
                flows.toString(), "--out", dir.resolve("tb").toString()));
        assertTrue(err.toString().startsWith("datsim: the flows need at least 2000000000 events (each of their"
                + " 1000000000 data packets"), err.toString());
        assertTrue(err.toString().contains("--max-events"), err.toString());
        assertFalse(Files.exists(dir.resolve("tb")), "refused before it ran");
        for (String[] bad : new String[][] {{"--max-events", "0"}, {"--max-time", "soon"}}) {
            StringWriter e = new StringWriter();
            assertEquals(2, datsim(new StringWriter(), e, "bench", "hpcc", bad[0], bad[1], "--topology",
                    topo.toString(), "--flows", flows.toString(), "--out", dir.resolve("b").toString()));
            assertTrue(e.toString().startsWith("datsim: " + bad[0] + ": "), e.toString());
            assertEquals(1, e.toString().trim().lines().count(), e.toString());
        }
    }
}
