package org.datsim.scenario.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.datsim.scenario.load.ScenarioLoader;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The scenarios under {@code src/test/resources/calls}: each exercises a group of DAT calls (SRQ, CNO, RSP, the EP
 * extras, the registry) with an expectation on every call, covering each DAT_RETURN a scenario can reach. A
 * scenario passes when it runs to the end with exit code 0, every expectation holding.
 */
class CallScenariosTest {

    static Stream<Path> scenarios() throws IOException, URISyntaxException {
        Path dir = Path.of(CallScenariosTest.class.getResource("/calls").toURI());
        try (Stream<Path> files = Files.list(dir)) {
            List<Path> list = files.filter(p -> p.toString().endsWith(".json")).sorted().collect(Collectors.toList());
            return list.stream();
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("scenarios")
    void everyExpectationHolds(Path scenario, @TempDir Path out) throws Exception {
        RunResultSummary r = new ScenarioRunner(ScenarioLoader.load(scenario)).run(out, List.of());
        assertEquals(0, r.exitCode(), () -> String.join("\n", r.lines()));
        assertTrue(r.lines().get(r.lines().size() - 1).startsWith("OK: 0 failed expectation(s)"),
                () -> String.join("\n", r.lines()));
    }
}
