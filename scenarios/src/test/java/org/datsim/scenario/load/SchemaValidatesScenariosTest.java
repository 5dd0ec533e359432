package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.networknt.schema.Error;
import com.networknt.schema.Schema;
import com.networknt.schema.SchemaRegistry;
import com.networknt.schema.SpecificationVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The shipped JSON Schema ({@code scenarios/scenario.schema.json}) agrees with the loader: a real validator
 * (networknt's json-schema-validator, draft 2020-12) accepts every scenario in the repository that the loader
 * accepts (the examples, the lab's hazards and fixes, the test resources and the studies' base scenarios), and
 * rejects shapes the loader rejects.
 */
class SchemaValidatesScenariosTest {

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private static Path repo() {
        Path here = Paths.get(System.getProperty("user.dir")).toAbsolutePath();
        return Files.isDirectory(here.resolve("examples")) ? here.getParent() : here;
    }

    private static Schema schema() throws IOException {
        String text = Files.readString(repo().resolve("scenarios/scenario.schema.json"), StandardCharsets.UTF_8);
        return SchemaRegistry.withDefaultDialect(SpecificationVersion.DRAFT_2020_12).getSchema(text);
    }

    /** Every scenario file of the repository: examples, lab hazards and fixes, test resources, study scenarios. */
    static List<Path> scenarioFiles() throws IOException {
        List<Path> out = new ArrayList<>();
        Path r = repo();
        for (Path dir : new Path[] {r.resolve("scenarios/examples"), r.resolve("scenarios/lab"),
            r.resolve("scenarios/src/test/resources"), r.resolve("studies/scenarios")}) {
            try (Stream<Path> s = Files.walk(dir)) {
                out.addAll(s.filter(p -> p.toString().endsWith(".json") && !p.getFileName().toString()
                        .equals("lesson.json")).sorted().collect(Collectors.toList()));
            }
        }
        return out;
    }

    private static List<String> errors(Schema schema, JsonNode scenario) {
        return schema.validate(scenario).stream().map(Error::toString).collect(Collectors.toList());
    }

    @Test
    void everyScenarioTheLoaderAcceptsIsValidAgainstTheSchema() throws Exception {
        Schema schema = schema();
        int checked = 0;
        List<String> failures = new ArrayList<>();
        for (Path f : scenarioFiles()) {
            try {
                ScenarioLoader.load(f);
            } catch (ScenarioException e) {
                continue; // a fixture of bad input
            }
            checked++;
            List<String> errors = errors(schema, MAPPER.readTree(f.toFile()));
            if (!errors.isEmpty()) {
                failures.add(repo().relativize(f) + ": " + errors);
            }
        }
        assertTrue(checked >= 50, "only " + checked + " scenarios found");
        assertEquals(List.of(), failures);
    }

    @Test
    void theSchemaRejectsShapesTheLoaderRejects() throws Exception {
        Schema schema = schema();
        JsonNode good = MAPPER.readTree(repo().resolve("scenarios/examples/write-then-send.json").toFile());
        assertEquals(List.of(), errors(schema, good));
        String[][] cases = {
            {"/processes/0/calls/0", "expect", "{\"ret\": 5}"},
            {"/processes/0/calls/0", "expect", "{\"ret\": {\"one_of\": []}}"},
            {"/processes/0/calls/0", "expect", "{\"colour\": 1}"},
            {"/processes/0/calls/0", "observe", "7"},
            {"/processes/0/calls/0", "after", "\"nobody\""},
            {"", "outcomes", "{\"allowed\": []}"}};
        for (String[] c : cases) {
            JsonNode s = good.deepCopy();
            ((com.fasterxml.jackson.databind.node.ObjectNode) s.at(c[0])).set(c[1], MAPPER.readTree(c[2]));
            assertTrue(!errors(schema, s).isEmpty(), "the schema accepts " + c[0] + "/" + c[1] + " = " + c[2]);
            assertTrue(loaderRejects(s), "the loader accepts " + c[0] + "/" + c[1] + " = " + c[2]);
        }
    }

    /** A repeat block bounded in time ("for") validates, as perftest -D generates it; a bad bound does not. */
    @Test
    void aTimeBoundedRepeatBlockValidatesAndABadBoundIsRejected() throws Exception {
        Schema schema = schema();
        org.datsim.scenario.calibrate.PerftestRun.Test t = org.datsim.scenario.calibrate.PerftestRun.Test.SEND_BW;
        JsonNode timed = MAPPER.readTree(org.datsim.scenario.calibrate.PerftestRun.scenarioJson(
                new org.datsim.scenario.calibrate.PerftestRun.Options(t, List.of(4096L), false, 1000, 2, 128, 100, 0,
                        0, true, false, "ib-edr", 0, 5 * org.datsim.core.time.SimTime.S,
                        org.datsim.core.time.SimTime.S), 4096));
        assertTrue(timed.toString().contains("\"for\":\"5s\""), timed.toString());
        assertEquals(List.of(), errors(schema, timed));
        ScenarioLoader.parse("t.json", timed.toString());
        JsonNode good = MAPPER.readTree(repo().resolve("scenarios/examples/write-then-send.json").toFile());
        for (String block : List.of("{\"for\": \"-5s\", \"calls\": []}", "{\"for\": \"soon\", \"calls\": []}",
                "{\"for\": 5, \"calls\": []}", "{\"calls\": []}")) {
            JsonNode s = good.deepCopy();
            ((com.fasterxml.jackson.databind.node.ArrayNode) s.at("/processes/0/calls")).add(MAPPER.readTree(block));
            assertTrue(!errors(schema, s).isEmpty(), "the schema accepts " + block);
            assertTrue(loaderRejects(s), "the loader accepts " + block);
        }
    }

    private static boolean loaderRejects(JsonNode s) {
        try {
            ScenarioLoader.parse("t.json", s.toString());
            return false;
        } catch (ScenarioException e) {
            return true;
        }
    }
}
