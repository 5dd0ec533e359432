package org.datsim.viz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Golden tests of the generated data: a small trace ({@code golden/small-events.jsonl}: an RDMA Read, a Send held
 * by a barrier fence behind it, the Read's response from B, the Send placed at B, a stale read, a failed call and a
 * broken connection) gives exactly the reviewed timeline data and Chrome trace. To accept a deliberate change, run
 * with {@code -Ddatsim.updateGolden=true} and review the diff.
 */
class GoldenTest {

    @TempDir
    Path tmp;

    private static Path golden(String name) throws URISyntaxException {
        return Paths.get(GoldenTest.class.getResource("/golden/" + name).toURI());
    }

    private static String pretty(String json) throws IOException {
        ObjectMapper m = new ObjectMapper();
        return m.writerWithDefaultPrettyPrinter().writeValueAsString(m.readTree(json)).replace("\r\n", "\n") + "\n";
    }

    private static void compare(String name, String actual) throws Exception {
        Path src = Paths.get("src/test/resources/golden").resolve(name);
        if (Boolean.getBoolean("datsim.updateGolden")) {
            Files.writeString(src, actual, StandardCharsets.UTF_8);
        }
        assertEquals(Files.readString(src, StandardCharsets.UTF_8), actual, "generated " + name
                + " differs from the reviewed golden file (update it with -Ddatsim.updateGolden=true if intended)");
    }

    @Test
    void timelineDataMatchesTheGoldenFile() throws Exception {
        TimelineData data = new TimelineData();
        TraceReader.read(golden("small-events.jsonl"), data::accept);
        StringWriter w = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(w)) {
            data.write(g, "small");
        }
        compare("timeline-data.json", pretty(w.toString()));
        assertEquals(1, data.staleReads());
        assertEquals(1, data.errors(), "one error event (the broken connection); the failed call is a mark, not counted");
    }

    @Test
    void chromeTraceMatchesTheGoldenFile() throws Exception {
        Path run = tmp.resolve("run");
        Files.createDirectories(run);
        Files.copy(golden("small-events.jsonl"), run.resolve("events.jsonl"));
        PerfettoTraceWriter.write(run);
        compare("trace.json", pretty(Files.readString(run.resolve("trace.json"))));
    }
}
