package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.load.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exact wording and order of a study's problems: every kind of message the study loader words itself ("FILE:
 * PATH: expected X, found Y", unknown fields, missing and non-string fields, values cut to 60 characters), so that
 * a change to how the messages are built cannot change one of them unseen.
 */
class StudyMessagesTest {

    @TempDir
    Path dir;

    private List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> StudyLoader.parse("s.json", json, dir)).problems();
    }

    private static String lines(List<String> problems) {
        return String.join("\n", problems);
    }

    @Test
    void aStudyThatIsNotAnObject() {
        assertEquals("s.json: $: expected a study object, found [1,2]", lines(problems("[1, 2]")));
        assertEquals("s.json: $: expected a study object, found \"" + "a".repeat(56) + "... (82 characters)",
                lines(problems("\"" + "a".repeat(80) + "\"")));
    }

    @Test
    void topLevelFieldsOfTheWrongKind() {
        String json = "{\"study\": 5, \"description\": [1], \"bogus\": true, \"zzz\": null, \"seed\": 1.5, \"seeds\": 3,"
                + " \"repetitions\": \"x\", \"keep_traces\": 1, \"scenario\": 7, \"axes\": {}, \"metrics\": \"m\","
                + " \"plot\": 3}";
        assertEquals("""
                s.json: $.bogus: unknown field; expected one of [$schema, axes, description, keep_traces, metrics, plot, repetitions, scenario, seed, seeds, set, study]
                s.json: $.zzz: unknown field; expected one of [$schema, axes, description, keep_traces, metrics, plot, repetitions, scenario, seed, seeds, set, study]
                s.json: $.study: expected a string, found 5
                s.json: $.description: expected a string, found [1]
                s.json: $.seed: expected a whole number, found 1.5
                s.json: $.seeds: expected a string, found 3
                s.json: $.repetitions: expected a whole number from 1 to 10000, found "x"
                s.json: $.keep_traces: expected true or false, found 1
                s.json: $.scenario: expected a path to a scenario file or a scenario object, found 7
                s.json: $.axes: expected an array of axes such as [{"name": "mtu", "path": "/fabric/params/hca.mtu", "values": ["1KiB", "4KiB"]}], found {}
                s.json: $.metrics: expected an array of metric names, globs or JSON Pointers into summary.json, found "m"
                s.json: $.plot: expected {"x": AXIS, "series": AXIS, "log_x": true}, found 3""", lines(problems(json)));
    }

    @Test
    void missingFieldsAndNestedUnknownOnes() {
        String json = "{\"scenario\": " + ScenarioJson.base() + ", \"set\": [\"/vars/a\"], \"axes\": ["
                + "{\"name\": \"a\", \"path\": \"/vars/a\", \"values\": [1], \"colour\": \"red\", \"alpha\": 2},"
                + "{\"zip\": [{\"name\": \"b\", \"path\": \"/vars/b\", \"values\": {\"from\": 1, \"to\": 2, \"step\": 1,"
                + " \"by\": 3}}], \"extra\": 1},"
                + "{\"name\": \"" + "n".repeat(70) + " x\", \"path\": \"/vars/c\", \"values\": [1]}],"
                + " \"plot\": {\"x\": \"a\", \"y\": \"b\", \"log_x\": \"yes\"}, \"metrics\": [{\"m\": 1}]}";
        assertEquals("""
                s.json: $.study: missing; expected a string
                s.json: $.set: expected an object of JSON Pointers and values such as {"/vars/size": "64KiB"}, found ["/vars/a"]
                s.json: $.axes[0].colour: unknown field; expected one of [name, path, values]
                s.json: $.axes[0].alpha: unknown field; expected one of [name, path, values]
                s.json: $.axes[1].extra: unknown field; a zip is {"zip": [axis, axis, ...]}
                s.json: $.axes[1].zip[0].values.by: unknown field; a range has from, to and step or times
                s.json: $.axes[2].name: expected a name of letters, digits, '_', '.' and '-', found "nnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnnn... (74 characters)
                s.json: $.metrics[0]: expected a metric name such as "rdma_read.p50_us", found {"m":1}
                s.json: $.plot.y: unknown field; expected one of [captions, log_x, series, x]
                s.json: $.plot.log_x: expected true or false, found "yes\"""", lines(problems(json)));
    }

    @Test
    void aBaseScenarioFileThatHoldsNoObject() throws Exception {
        Files.writeString(dir.resolve("base.json"), "[1, 2, 3]");
        Files.writeString(dir.resolve("empty.json"), " \n");
        assertEquals("s.json: $.scenario: " + dir.resolve("base.json") + " holds [1,2,3], expected a scenario object",
                lines(problems("{\"study\": \"t\", \"scenario\": \"base.json\"}")));
        assertEquals("s.json: $.scenario: " + dir.resolve("empty.json") + ": the file is empty, expected a scenario"
                + " JSON object", lines(problems("{\"study\": \"t\", \"scenario\": \"empty.json\"}")));
        assertEquals("s.json: $.study: missing; expected a string\ns.json: $.scenario: " + dir + ": is a directory,"
                + " expected a scenario JSON file", lines(problems("{\"scenario\": \".\"}")));
        assertEquals("s.json: the file is empty, expected a study JSON object", lines(problems("")));
    }
}
