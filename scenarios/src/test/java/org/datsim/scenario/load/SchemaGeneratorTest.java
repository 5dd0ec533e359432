package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schema shipped for editors ({@code scenarios/scenario.schema.json}) is exactly what the generator renders
 * from the call catalogue, and it describes every call and argument the examples use.
 */
class SchemaGeneratorTest {

    private static Path moduleDir() {
        Path here = Paths.get(System.getProperty("user.dir"));
        return Files.isDirectory(here.resolve("examples")) ? here : here.resolve("scenarios");
    }

    @Test
    void theCommittedSchemaIsUpToDate() throws IOException {
        Path file = moduleDir().resolve("scenario.schema.json");
        assertEquals(SchemaGenerator.render(), Files.readString(file, StandardCharsets.UTF_8),
                "scenario.schema.json is stale: regenerate it with ./datsim schema > scenarios/scenario.schema.json");
    }

    @Test
    void everyCatalogueCallIsInTheSchemaOnce() {
        JsonNode calls = SchemaGenerator.schema().at("/properties/processes/items/properties/calls/items/oneOf");
        Set<String> seen = new HashSet<>();
        for (JsonNode c : calls) {
            if (c.at("/properties/call/const").isMissingNode()) {
                assertEquals("repeat", c.get("title").asText());
                continue;
            }
            assertTrue(seen.add(c.at("/properties/call/const").asText()));
        }
        assertEquals(CallCatalog.all().keySet(), seen);
    }

    @Test
    void theSchemaDescribesEveryFieldTheExamplesUse() throws IOException {
        JsonNode calls = SchemaGenerator.schema().at("/properties/processes/items/properties/calls/items/oneOf");
        ObjectMapper m = new ObjectMapper();
        try (Stream<Path> files = Files.list(moduleDir().resolve("examples"))) {
            for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".json")).sorted()::iterator) {
                for (JsonNode process : m.readTree(f.toFile()).get("processes")) {
                    checkCalls(f, process.get("calls"), calls);
                }
            }
        }
    }

    private static void checkCalls(Path f, JsonNode list, JsonNode schemaCalls) {
        for (JsonNode call : list) {
            if (call.has("repeat")) {
                checkCalls(f, call.get("calls"), schemaCalls);
                continue;
            }
            String name = call.get("call").asText();
            JsonNode spec = null;
            for (JsonNode c : schemaCalls) {
                if (c.at("/properties/call/const").asText().equals(name)) {
                    spec = c;
                }
            }
            assertTrue(spec != null, f + ": " + name + " is not in the schema");
            JsonNode props = spec.get("properties");
            call.fieldNames().forEachRemaining(k -> assertTrue(props.has(k),
                    f + ": " + name + "." + k + " is not in the schema"));
        }
    }
}
