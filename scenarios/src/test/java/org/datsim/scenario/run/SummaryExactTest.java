package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 15: summary.json's min, max and mean and (for a run this small) its percentiles are the exact picoseconds of
 * the post-to-completion times in events.jsonl, not HdrHistogram buckets, and it says that they are exact.
 */
class SummaryExactTest {

    @TempDir
    Path tmp;

    @Test
    void summaryAgreesToThePicosecondWithTheTrace() throws Exception {
        Path out = tmp.resolve("run");
        StringWriter o = new StringWriter();
        int code = DatsimCli.execute(new String[] {"run", ScenarioJson.examplesDir().resolve("many-clients.json")
                .toString(), "--out", out.toString(), "--no-perfetto"}, new PrintWriter(o), new PrintWriter(o));
        assertEquals(0, code, o.toString());
        ObjectMapper m = new ObjectMapper();
        Map<String, Long> posted = new HashMap<>();
        Map<String, List<Long>> byKind = new TreeMap<>();
        for (String line : Files.readAllLines(out.resolve("events.jsonl"))) {
            JsonNode e = m.readTree(line);
            String kind = e.path("kind").asText();
            String key = e.path("host").asText() + "/" + e.path("op").asLong();
            if ("post".equals(kind)) {
                posted.put(key, e.path("t_ps").asLong());
            } else if ("complete".equals(kind) && posted.containsKey(key)) {
                String status = e.path("status").asText();
                String name = "DAT_DTO_SUCCESS".equals(status) ? e.path("opcode").asText()
                        : e.path("opcode").asText() + ":" + status;
                byKind.computeIfAbsent(name, k -> new ArrayList<>()).add(e.path("t_ps").asLong() - posted.remove(key));
            }
        }
        JsonNode ops = m.readTree(out.resolve("summary.json").toFile()).path("operations");
        assertEquals(byKind.keySet(), iterable(ops));
        boolean sawManyDistinct = false;
        for (Map.Entry<String, List<Long>> k : byKind.entrySet()) {
            long[] v = k.getValue().stream().mapToLong(Long::longValue).sorted().toArray();
            JsonNode s = ops.path(k.getKey());
            String what = k.getKey() + " " + s;
            BigInteger sum = BigInteger.ZERO;
            for (long x : v) {
                sum = sum.add(BigInteger.valueOf(x));
            }
            long mean = sum.add(BigInteger.valueOf(v.length / 2)).divide(BigInteger.valueOf(v.length)).longValueExact();
            assertEquals(v.length, s.path("count").asLong(), what);
            assertEquals(v[0], s.path("min_ps").asLong(), what);
            assertEquals(v[v.length - 1], s.path("max_ps").asLong(), what);
            assertEquals(mean, s.path("mean_ps").asLong(), what);
            assertEquals(v[rank(50, v.length)], s.path("p50_ps").asLong(), what);
            assertEquals(v[rank(90, v.length)], s.path("p90_ps").asLong(), what);
            assertEquals(v[rank(99, v.length)], s.path("p99_ps").asLong(), what);
            assertEquals("exact", s.path("percentiles_precision").asText(), what);
            sawManyDistinct |= java.util.Arrays.stream(v).distinct().count() > 10;
        }
        assertEquals(true, sawManyDistinct, "the example should have a kind with many distinct latencies");
    }

    @Test
    void aPingPongShowsItsHalfRoundTripAsTheReadmePromises() throws Exception {
        Path out = tmp.resolve("isl");
        StringWriter o = new StringWriter();
        int code = DatsimCli.execute(new String[] {"run", ScenarioJson.examplesDir().resolve("ib-send-lat.json")
                .toString(), "--out", out.toString(), "--no-perfetto"}, new PrintWriter(o), new PrintWriter(o));
        assertEquals(0, code, o.toString());
        // docs/examples.md: "a Send ping-pong whose half round trip is 0.815 us", as calibrate's ib_send_lat 32 B
        String client = o.toString().lines().filter(l -> l.startsWith("  repeat c ")).findFirst().orElse("");
        assertEquals(true, client.endsWith("half round trip p50=815.242ns"), o.toString());
        JsonNode rep = new ObjectMapper().readTree(out.resolve("summary.json").toFile()).path("repeats").path("c")
                .path("$.processes[1].calls[11]");
        assertEquals(8, rep.path("iterations").asLong(), rep.toString());
        assertEquals(1_630_484, rep.path("p50_ps").asLong(), rep.toString());
        assertEquals(815_242.0, rep.path("half_round_trip_p50_ps").asDouble(), rep.toString());
    }

    @Test
    void aBlockThatIsNoPingPongIsNotCalledARoundTrip() throws Exception {
        Path out = tmp.resolve("fence");
        StringWriter o = new StringWriter();
        String text = """
                {"scenario": "loop", "fabric": {"hosts": ["A", "B"], "links": [{"a": "A", "b": "B"}]}, "processes": [{"name": "p", "host": "A", "calls": [
                  {"call": "dat_ia_open", "out": "ia"},
                  {"repeat": 3, "calls": [{"call": "dat_pz_create", "ia": "$ia", "out": "pz"},
                    {"call": "dat_pz_free", "pz": "$pz"}]}]}]}""";
        Path f = tmp.resolve("loop.json");
        Files.writeString(f, text);
        int code = DatsimCli.execute(new String[] {"run", f.toString(), "--out", out.toString(), "--no-perfetto"},
                new PrintWriter(o), new PrintWriter(o));
        assertEquals(0, code, o.toString());
        String line = o.toString().lines().filter(l -> l.startsWith("  repeat p ")).findFirst().orElse("");
        assertEquals("  repeat p $.processes[0].calls[1]: 3 iterations, p50=200ns min=200ns max=200ns each", line,
                o.toString());
    }

    private static int rank(double p, int n) {
        return (int) Math.max(1, Math.ceil(p / 100 * n)) - 1;
    }

    private static java.util.Set<String> iterable(JsonNode o) {
        java.util.Set<String> s = new java.util.TreeSet<>();
        o.fieldNames().forEachRemaining(s::add);
        return s;
    }
}
