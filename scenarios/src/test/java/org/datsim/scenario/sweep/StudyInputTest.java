package org.datsim.scenario.sweep;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.scenario.ScenarioJson;
import org.datsim.scenario.cli.DatsimCli;
import org.datsim.scenario.load.ScenarioException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A study file (and a base scenario file it names) holds exactly one JSON value: whatever follows it, another
 * object, a stray word, a closing bracket, is one clear problem naming the file, the line and column and what was
 * expected, and `datsim sweep plan/run` exit 2 on it without a stack trace. Duplicate keys are refused too.
 */
class StudyInputTest {

    private static final String TRAILING = "invalid JSON: expected the end of the file after the study's JSON value,"
            + " found more";

    @TempDir
    Path dir;

    /** A valid study on three lines; its object ends at line 3, column 2. */
    private static String study() {
        return "{\"study\": \"t\",\n\"scenario\": " + ScenarioJson.base().replace("\n", " ") + ",\n\"axes\": [{\"path\":"
                + " \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"2KiB\"]}]}";
    }

    private List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> StudyLoader.parse("s.json", json, dir)).problems();
    }

    @Test
    void theStudyWithWhiteSpaceAfterItIsValid() throws Exception {
        assertEquals(2, StudyLoader.parse("s.json", study() + "\n \t\n", dir).runs().size());
    }

    @Test
    void anythingAfterTheStudysValueIsOneProblemAtItsStart() {
        int end = study().lines().toList().get(2).length();
        String[][] cases = {
            {"\n{\"study\": \"u\"}", "4:1"},
            {" {}", "3:" + (end + 2)},
            {"\nx", "4:1"},
            {"\n  xyz", "4:3"},
            {"\n]", "4:1"},
            {"\n\n\t}", "5:2"},
            {"\n\"more\"", "4:1"},
            {" 1", "3:" + (end + 2)},
            {",", "3:" + (end + 1)},
            {"\n[1, 2", "4:1"},
            {"\n  /* a comment */", "4:3"},
            {"\n@", "4:1"},
        };
        for (String[] c : cases) {
            assertEquals(List.of("s.json:" + c[1] + ": " + TRAILING), problems(study() + c[0]), c[0]);
        }
        assertEquals(List.of("s.json:1:5: " + TRAILING), problems("[1] {}"), "whatever the first value is");
    }

    @Test
    void aStudyFileWithContentAfterItsValueIsRefusedByLoad() throws Exception {
        Path f = dir.resolve("study.json");
        Files.writeString(f, study() + "\n" + study() + "\n");
        List<String> p = assertThrows(ScenarioException.class, () -> StudyLoader.load(f)).problems();
        assertEquals(List.of(f + ":4:1: " + TRAILING), p);
    }

    @Test
    void aBaseScenarioFileWithContentAfterItsValueIsRefused() throws Exception {
        Files.writeString(dir.resolve("base.json"), ScenarioJson.base() + "x\n");
        Path f = dir.resolve("study.json");
        Files.writeString(f, "{\"study\": \"t\", \"scenario\": \"base.json\"}");
        List<String> p = assertThrows(ScenarioException.class, () -> StudyLoader.load(f)).problems();
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith(f + ": $.scenario: " + dir.resolve("base.json") + ":"), p.toString());
        assertTrue(p.get(0).endsWith(": invalid JSON: expected the end of the file after the scenario's JSON value,"
                + " found more"), p.toString());
    }

    @Test
    void duplicateKeysAreRefusedInTheStudyAndItsBaseScenarioFile() throws Exception {
        List<String> p = problems(study().replace("{\"study\": \"t\",", "{\"study\": \"t\", \"study\": \"u\","));
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).startsWith("s.json:1:") && p.get(0).contains("invalid JSON: Duplicate field 'study'"),
                p.toString());
        Files.writeString(dir.resolve("base.json"), ScenarioJson.base().replace("\"scenario\": \"t\",",
                "\"scenario\": \"t\", \"scenario\": \"u\","));
        p = problems("{\"study\": \"t\", \"scenario\": \"base.json\"}");
        assertEquals(1, p.size(), p.toString());
        assertTrue(p.get(0).contains("$.scenario: ") && p.get(0).contains("Duplicate field 'scenario'"), p.toString());
    }

    @Test
    void sweepPlanAndRunExit2WithTheMessageAndNoStackTrace() throws Exception {
        Path f = dir.resolve("study.json");
        Files.writeString(f, study() + "\n{}\n");
        for (String[] args : new String[][] {{"sweep", "plan", f.toString()},
            {"sweep", "run", f.toString(), "--out", dir.resolve("out").toString()}}) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int code = DatsimCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
            String all = "exit " + code + "\n" + out + "\n" + err;
            assertEquals(2, code, all);
            assertEquals(List.of(f + ":4:1: " + TRAILING, "1 problem(s) in " + f + "; nothing was run"),
                    err.toString().lines().toList(), all);
            assertFalse(all.contains("Exception") || all.contains("\tat "), all);
            assertFalse(Files.exists(dir.resolve("out")), "nothing was run: " + all);
        }
    }
}
