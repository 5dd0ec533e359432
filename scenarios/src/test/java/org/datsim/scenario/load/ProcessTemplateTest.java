package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Process templates and generated fabrics: one process per chosen host named NAME_HOST with $index and $count,
 * hosts generated from a prefix and a count, star links, and the messages for wrong templates.
 */
class ProcessTemplateTest {

    private static final String FABRIC = "{\"hosts\": {\"prefix\": \"h\", \"count\": 5}, \"switches\": [\"S\"],"
            + " \"links\": {\"star\": \"S\"}}";
    private static final String CALLS = "[{\"call\": \"dat_ia_open\", \"out\": \"ia\"},"
            + " {\"call\": \"sleep\", \"time\": \"1us\"}]";

    private static String scenario(String processes) {
        return "{\"scenario\": \"t\", \"fabric\": " + FABRIC + ", \"processes\": [" + processes + "]}";
    }

    private static List<String> problems(String json) {
        return assertThrows(ScenarioException.class, () -> ScenarioLoader.parse("t.json", json)).problems();
    }

    @Test
    void aTemplateMakesOneProcessPerHostSharingItsValidatedCalls() throws Exception {
        Scenario s = ScenarioLoader.parse("t.json", scenario(
                "{\"name\": \"srv\", \"host\": \"h0\", \"calls\": " + CALLS + "},"
                        + "{\"name\": \"cli\", \"hosts\": {\"all_except\": [\"h0\"]}, \"calls\": " + CALLS + "}"));
        assertEquals(List.of("h0", "h1", "h2", "h3", "h4"), s.topology().hosts());
        assertEquals(5, s.topology().links().size());
        List<ProcessDef> p = s.processes();
        assertEquals(List.of("srv", "cli_h1", "cli_h2", "cli_h3", "cli_h4"), p.stream().map(ProcessDef::name).toList());
        assertEquals("h3", p.get(3).host());
        assertEquals(2, p.get(3).index());
        assertEquals(4, p.get(3).count());
        assertSame(p.get(1).steps(), p.get(4).steps());
    }

    @Test
    void everyHostAndExplicitListsWork() throws Exception {
        Scenario s = ScenarioLoader.parse("t.json", scenario(
                "{\"name\": \"a\", \"hosts\": \"*\", \"calls\": " + CALLS + "},"
                        + "{\"name\": \"b\", \"hosts\": [\"h4\", \"h2\"], \"calls\": " + CALLS + "}"));
        assertEquals(7, s.processes().size());
        assertEquals("b_h4", s.processes().get(5).name());
        assertEquals(0, s.processes().get(5).index());
    }

    @Test
    void wrongTemplatesAreReported() {
        List<String> p = problems(scenario(
                "{\"name\": \"a\", \"host\": \"h0\", \"hosts\": \"*\", \"calls\": " + CALLS + "},"
                        + "{\"name\": \"b\", \"hosts\": [\"h9\"], \"calls\": " + CALLS + "},"
                        + "{\"name\": \"c\", \"hosts\": \"h1\", \"calls\": [{\"call\": \"dat_ia_open\","
                        + " \"out\": \"index\"}]}"));
        assertEquals(3, p.size(), String.join("\n", p));
        assertTrue(p.get(0).contains("$.processes[0]: give either \"host\""), p.get(0));
        assertTrue(p.get(1).contains("$.processes[1].hosts[0]: no host is named \"h9\""), p.get(1));
        assertTrue(p.get(2).contains("$.processes[2].hosts: expected \"*\""), p.get(2));
    }

    @Test
    void indexAndCountAreReservedAndUsableInExpressions() throws Exception {
        List<String> p = problems(scenario("{\"name\": \"a\", \"hosts\": \"*\", \"calls\": ["
                + "{\"call\": \"dat_ia_open\", \"out\": \"count\"}]}"));
        assertTrue(p.get(0).contains("\"count\" is reserved"), p.get(0));
        ScenarioLoader.parse("t.json", scenario("{\"name\": \"a\", \"hosts\": \"*\", \"calls\": ["
                + "{\"repeat\": \"= $count - $index\", \"calls\": [{\"call\": \"sleep\", \"time\": \"1us\"}]}]}"));
    }
}
