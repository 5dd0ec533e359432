package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenario language holds real test suites: the dapltest-style transaction test (4 endpoints, 4 iterations of
 * RDMA Write, RDMA Read and Send with data validation) is one file under 150 lines that checks every transfer, and
 * the read-then-write litmus test states its allowed outcomes and passes with both read orderings, observing a
 * different allowed outcome under each.
 */
class TestSuiteExamplesTest {

    @TempDir
    Path out;

    private RunResultSummary run(JsonNode scenario, String name) throws Exception {
        return new ScenarioRunner(ScenarioLoader.parse(name, scenario.toString())).run(out, List.of());
    }

    @Test
    void theTransactionTestIsOneShortFileThatChecksEveryTransfer() throws Exception {
        Path f = ScenarioJson.examplesDir().resolve("transaction-rw-rr-sr.json");
        assertTrue(Files.readAllLines(f).size() < 150, "the transaction test fits in 150 lines");
        RunResultSummary r = run(ScenarioJson.readJson(f), f.toString());
        assertEquals(0, r.exitCode(), String.join("\n", r.lines()));
        List<JsonNode> trace = ScenarioJson.readTrace(out.resolve("events.jsonl"));
        long checkedReads = trace.stream().filter(e -> e.path("kind").asText().equals("mem_read")
                && e.path("match").asBoolean(false)).count();
        assertEquals(4 * 4 * 3, checkedReads, "per endpoint and iteration: the read-back, the receive, the target");
        JsonNode ops = ScenarioJson.readJson(out.resolve("summary.json")).path("operations");
        for (String op : new String[] {"rdma_write", "rdma_read", "send", "recv"}) {
            assertEquals(16, ops.path(op).path("count").asLong(), op);
        }
        assertEquals(List.of("A/ep[0]", "A/ep[1]", "A/ep[2]", "A/ep[3]"), trace.stream()
                .filter(e -> e.path("call").asText().equals("dat_ep_connect")).map(e -> e.path("ep").asText())
                .toList());
    }

    @Test
    void theLitmusTestPassesWithBothReadOrderingsAndSeesBothTailValues() throws Exception {
        Path f = ScenarioJson.examplesDir().resolve("litmus-read-write.json");
        String[] tails = new String[2];
        String[] orderings = {"relaxed", "strict"};
        for (int k = 0; k < 2; k++) {
            ObjectNode s = (ObjectNode) ScenarioJson.readJson(f);
            ((ObjectNode) s.at("/fabric/params")).put("transport.read_ordering", orderings[k]);
            RunResultSummary r = run(s, f.toString());
            assertEquals(0, r.exitCode(), orderings[k] + ":\n" + String.join("\n", r.lines()));
            JsonNode obs = ScenarioJson.readJson(out.resolve("summary.json")).path("observations");
            assertEquals("{\"fill\":34,\"length\":64}", obs.path("r_head").toString());
            tails[k] = obs.path("r_tail").toString();
        }
        assertEquals("{\"fill\":51,\"length\":64}", tails[0], "relaxed: the Write overtook the Read");
        assertEquals("{\"fill\":34,\"length\":64}", tails[1], "strict: the Read fetched the old bytes");
        // An outcome outside the allowed set fails the run.
        ObjectNode s = (ObjectNode) ScenarioJson.readJson(f);
        ((ObjectNode) s.at("/outcomes/allowed/0")).set("r_tail", ScenarioJson.readJson("{\"fill\": 34, \"length\":"
                + " 64}"));
        RunResultSummary r = run(s, f.toString());
        assertEquals(1, r.exitCode());
        assertTrue(String.join("\n", r.lines()).contains("FAILED $.outcomes.allowed: the observed outcome"),
                String.join("\n", r.lines()));
    }
}
