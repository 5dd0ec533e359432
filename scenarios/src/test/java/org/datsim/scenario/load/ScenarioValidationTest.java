package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.FABRIC_AB;
import static org.datsim.scenario.ScenarioJson.FILE;
import static org.datsim.scenario.ScenarioJson.base;
import static org.datsim.scenario.ScenarioJson.baseCalls;
import static org.datsim.scenario.ScenarioJson.process;
import static org.datsim.scenario.ScenarioJson.replacingCall;
import static org.datsim.scenario.ScenarioJson.scenario;
import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.datsim.scenario.ScenarioJson.withFabric;
import static org.datsim.scenario.ScenarioJson.withParams;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Validation of malformed scenario files by {@link ScenarioLoader#parse(String, String)}: for each kind of mistake
 * (JSON that does not parse, wrong structure, unknown or unsupported calls, bad arguments, dangling references, bad
 * units, flags and parameters, a bad fabric, bad expectations and data objects) the loader throws a
 * {@link ScenarioException} whose problems are exactly the expected ones, each naming the file, the JSON path (or
 * line and column) and what was expected; and several problems in one file are all reported.
 */
class ScenarioValidationTest {

    private static final String EVD_CREATE_NO_QLEN =
            "{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"evd\"}";

    // ------------------------------------------------------------------ helpers

    private static List<String> problems(String json) {
        ScenarioException e = assertThrows(ScenarioException.class, () -> ScenarioLoader.parse(FILE, json),
                () -> "expected the scenario to be rejected:\n" + json);
        assertEquals(String.join("\n", e.problems()), e.getMessage());
        return e.problems();
    }

    /** Asserts the scenario has exactly one problem and returns it. */
    private static String onlyProblem(String json) {
        List<String> p = problems(json);
        assertEquals(1, p.size(), () -> "expected exactly one problem, got " + p);
        return p.get(0);
    }

    private static void assertStarts(String prefix, String problem) {
        assertTrue(problem.startsWith(prefix), () -> "expected a problem starting with <" + prefix + ">, got <"
                + problem + ">");
    }

    private static void assertMentions(String problem, String... fragments) {
        for (String f : fragments) {
            assertTrue(problem.contains(f), () -> "expected <" + f + "> in <" + problem + ">");
        }
    }

    /** Asserts exactly one problem, at a JSON path, mentioning every fragment. */
    private static void assertOnlyProblemAt(String json, String path, String... fragments) {
        String p = onlyProblem(json);
        assertStarts(FILE + ": " + path + ": ", p);
        assertMentions(p, fragments);
    }

    // ------------------------------------------------------------------ the base is valid

    @Test
    void baseScenarioIsValid() throws ScenarioException {
        Scenario s = ScenarioLoader.parse(FILE, base());
        assertEquals("t", s.name());
        assertEquals(FILE, s.file());
        assertEquals(1, s.processes().size());
        assertEquals(4, s.processes().get(0).steps().size());
        assertEquals("$.processes[0].calls[2]", s.processes().get(0).steps().get(2).path());
        assertEquals(List.of("A", "B"), s.topology().hosts());
    }

    // ------------------------------------------------------------------ JSON syntax

    @Test
    void badJsonSyntaxNamesLineAndColumn() {
        String json = "{\n  \"scenario\": \"t\"\n  \"fabric\": {}\n}\n";
        String p = onlyProblem(json);
        assertStarts(FILE + ":3:3: invalid JSON: ", p);
        assertMentions(p, "comma");
    }

    @Test
    void trailingGarbageAfterTheObject() {
        String json = base() + "{}\n";
        long lines = base().chars().filter(c -> c == '\n').count();
        String p = onlyProblem(json);
        assertStarts(FILE + ":" + (lines + 1) + ":", p);
        assertMentions(p, ": invalid JSON: expected the end of the file after the scenario's JSON value, found more");
    }

    @Test
    void aStrayBracketAfterTheObjectIsContentAfterItNotJacksonsWording() {
        String json = base() + "]\n";
        long lines = base().chars().filter(c -> c == '\n').count();
        String p = onlyProblem(json);
        assertEquals(FILE + ":" + (lines + 1) + ":1: invalid JSON: expected the end of the file after the scenario's"
                + " JSON value, found more", p);
    }

    @Test
    void duplicateKey() {
        String json = base().replaceFirst("\"scenario\": \"t\",", "\"scenario\": \"t\", \"scenario\": \"u\",");
        String p = onlyProblem(json);
        assertStarts(FILE + ":2:", p);
        assertMentions(p, "invalid JSON", "Duplicate field 'scenario'");
    }

    @Test
    void emptyFile() {
        assertEquals(List.of(FILE + ": the file is empty, expected a scenario JSON object"), problems(""));
        assertEquals(List.of(FILE + ": the file is empty, expected a scenario JSON object"), problems(" \n\t\n"));
    }

    @Test
    void topLevelArray() {
        assertEquals(List.of(FILE + ": $: expected a scenario object, found [{\"scenario\":\"t\"}]"),
                problems("[{\"scenario\": \"t\"}]"));
    }

    // ------------------------------------------------------------------ structure

    @Test
    void unknownTopLevelField() {
        String json = base().replaceFirst("\"scenario\": \"t\",", "\"scenario\": \"t\", \"colour\": \"red\",");
        assertOnlyProblemAt(json, "$.colour", "unknown field; expected one of "
                + "[$schema, description, fabric, limits, outcomes, processes, scenario, seed, vars, workload]");
    }

    @Test
    void missingScenarioName() {
        String json = base().replaceFirst("\"scenario\": \"t\",", "");
        assertOnlyProblemAt(json, "$.scenario", "missing; expected a string");
    }

    @Test
    void missingFabric() {
        String json = "{\"scenario\": \"t\", \"processes\": [" + process("p", "A", baseCalls()) + "]}";
        assertOnlyProblemAt(json, "$.fabric", "missing; expected {\"hosts\": [...], \"links\": [...]}");
    }

    @Test
    void missingProcesses() {
        String json = "{\"scenario\": \"t\", \"fabric\": " + FABRIC_AB + "}";
        assertOnlyProblemAt(json, "$.processes", "missing; expected an array of processes");
    }

    // ------------------------------------------------------------------ calls

    @Test
    void unknownCallSaysNotSupportedAndListsTheSupportedCalls() {
        String p = onlyProblem(withCalls("{\"call\": \"dat_foo\"}"));
        assertStarts(FILE + ": $.processes[0].calls[4].call: \"dat_foo\" is not supported by this version of"
                + " datsim; the supported calls are [dat_ia_open, dat_ia_close, ", p);
        assertMentions(p, "dat_ep_post_send", "dat_ep_post_rdma_write", "mem_read", "sleep]");
        for (String call : CallCatalog.all().keySet()) {
            assertMentions(p, call);
        }
    }

    @Test
    void nonDatUnknownCallIsNotACallScenariosCanMake() {
        assertOnlyProblemAt(withCalls("{\"call\": \"memcpy\"}"), "$.processes[0].calls[4].call",
                "\"memcpy\" is not a call scenarios can make; the supported calls are [");
    }

    @Test
    void aMisspeltCallGetsDidYouMean() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_evd_dequeu\", \"evd\": \"$x\"}"),
                "$.processes[0].calls[4].call",
                "\"dat_evd_dequeu\" is not supported by this version of datsim; did you mean dat_evd_dequeue?");
    }

    @Test
    void realDatCallNotSupportedYet() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_cno_trigger\", \"rmr\": \"$x\"}"),
                "$.processes[0].calls[4].call", "\"dat_cno_trigger\" is not supported by this version of datsim");
    }

    @Test
    void missingRequiredArgument() {
        assertOnlyProblemAt(replacingCall(2, EVD_CREATE_NO_QLEN), "$.processes[0].calls[2].evd_min_qlen",
                "missing; expected " + ArgType.INT.expected());
    }

    @Test
    void stringWhereIntExpected() {
        String call = EVD_CREATE_NO_QLEN.replace("\"ia\": \"$ia\",", "\"ia\": \"$ia\", \"evd_min_qlen\": \"16\",");
        assertOnlyProblemAt(replacingCall(2, call), "$.processes[0].calls[2].evd_min_qlen",
                "expected " + ArgType.INT.expected() + ", found \"16\"");
    }

    @Test
    void unknownArgumentField() {
        String call = EVD_CREATE_NO_QLEN.replace("\"ia\": \"$ia\",",
                "\"ia\": \"$ia\", \"evd_min_qlen\": 16, \"evd_qlen\": 16,");
        assertOnlyProblemAt(replacingCall(2, call), "$.processes[0].calls[2].evd_qlen",
                "unknown field; expected one of [after, call, cno, comment, evd_flags, evd_min_qlen, expect, ia, name, observe,"
                        + " out]");
    }

    @Test
    void expectedDataFilledPerLineIsCheckedWithItsPath() throws ScenarioException {
        String read = "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": 128, \"expect\": {\"data\": %s}}";
        ScenarioLoader.parse(FILE, withCalls(String.format(read,
                "{\"fill_per_line\": [0, 171], \"line\": 64, \"length\": 128}")));
        assertOnlyProblemAt(withCalls(String.format(read, "{\"fill_per_line\": [0, 300], \"line\": 64, \"length\": 128}")),
                "$.processes[0].calls[4].expect.data.fill_per_line[1]", "expected a byte value from 0 to 255");
        assertOnlyProblemAt(withCalls(String.format(read, "{\"fill_per_line\": [0], \"length\": 128}")),
                "$.processes[0].calls[4].expect.data.line", "missing");
        assertOnlyProblemAt(withCalls(String.format(read, "{\"fill_per_line\": [], \"line\": 64, \"length\": 128}")),
                "$.processes[0].calls[4].expect.data.fill_per_line", "non-empty array");
    }

    @Test
    void outOnACallWithoutOutputIsAnUnknownField() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_pz_free\", \"pz\": \"$pz\", \"out\": \"x\"}"),
                "$.processes[0].calls[4].out", "unknown field");
    }

    // ------------------------------------------------------------------ references

    @Test
    void danglingReference() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_pz_free\", \"pz\": \"$nope\"}"),
                "$.processes[0].calls[4].pz",
                "dangling reference \"$nope\": no call of process \"p\" binds \"nope\" with \"out\"");
    }

    @Test
    void referenceToAnUnknownProcess() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\","
                + " \"length\": 64, \"address\": \"$zz/buf.address\", \"out\": \"buf2\"}"),
                "$.processes[0].calls[4].address", "no process is named \"zz\"");
    }

    @Test
    void referenceToAFieldTheKindDoesNotHave() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\","
                + " \"length\": 64, \"address\": \"$ia.rmr_context\", \"out\": \"buf2\"}"),
                "$.processes[0].calls[4].address",
                "\"ia\" is a ia, which has no field \"rmr_context\"; its fields are [async_evd]");
    }

    @Test
    void referenceToAnotherProcessResolvesAgainstThatProcess() throws ScenarioException {
        List<String> q = baseCalls();
        q.add("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": 64,"
                + " \"address\": \"$p/buf.address\", \"out\": \"copy\"}");
        String good = scenario(FABRIC_AB, process("p", "A", baseCalls()), process("q", "B", q));
        assertEquals(2, ScenarioLoader.parse(FILE, good).processes().size());
        String bad = good.replace("$p/buf.address", "$p/copy.address");
        assertOnlyProblemAt(bad, "$.processes[1].calls[4].address",
                "dangling reference \"$p/copy.address\": no call of process \"p\" binds \"copy\"");
    }

    @Test
    void malformedReference() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_pz_free\", \"pz\": \"$pz.\"}"),
                "$.processes[0].calls[4].pz", "expected a reference such as \"$name\"", "found \"$pz.\"");
    }

    @Test
    void danglingReferenceInExpectEp() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\","
                + " \"expect\": {\"ret\": \"any\", \"ep\": \"$nope\"}}"), "$.processes[0].calls[4].expect.ep",
                "dangling reference \"$nope\"");
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_evd_dequeue\", \"evd\": \"$evd\","
                + " \"expect\": {\"ret\": \"any\", \"ep\": \"$zz/ep\"}}"), "$.processes[0].calls[4].expect.ep",
                "no process is named \"zz\"");
    }

    // ------------------------------------------------------------------ flags and units

    @Test
    void badFlagName() {
        String call = EVD_CREATE_NO_QLEN.replace("DAT_EVD_DTO_FLAG", "DAT_EVD_DTO_FLAG|DAT_EVD_FAST_FLAG")
                .replace("\"ia\": \"$ia\",", "\"ia\": \"$ia\", \"evd_min_qlen\": 16,");
        String p = onlyProblem(replacingCall(2, call));
        assertStarts(FILE + ": $.processes[0].calls[2].evd_flags: \"DAT_EVD_FAST_FLAG\" is not a ", p);
        assertMentions(p, "expected one of [", "DAT_EVD_DTO_FLAG", "DAT_EVD_CR_FLAG");
    }

    @Test
    void badUnitInLinkBandwidth() {
        String p = onlyProblem(withFabric("{\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\", \"bandwidth\": \"100Gbs\"}]}"));
        assertStarts(FILE + ": $.fabric.links[0].bandwidth: ", p);
        assertMentions(p, "100Gbs", "Gbps");
    }

    @Test
    void badUnitInSleepTime() {
        String p = onlyProblem(withCalls("{\"call\": \"sleep\", \"time\": \"5 parsecs\"}"));
        assertStarts(FILE + ": $.processes[0].calls[4].time: ", p);
        assertMentions(p, "5 parsecs", "ns");
    }

    @Test
    void sleepTimeMustBeAString() {
        assertOnlyProblemAt(withCalls("{\"call\": \"sleep\", \"time\": 5}"), "$.processes[0].calls[4].time",
                "expected a time such as \"250ns\" or \"1.5us\", found 5");
    }

    // ------------------------------------------------------------------ fabric

    @Test
    void unknownFabricParam() {
        assertOnlyProblemAt(withParams("{\"link.bandwith\": \"10Gbps\"}"), "$.fabric.params.link.bandwith",
                "unknown parameter (see `datsim params` for the catalogue)");
    }

    @Test
    void badFabricParamValue() {
        String p = onlyProblem(withParams("{\"link.latency\": \"fast\"}"));
        assertStarts(FILE + ": $.fabric.params.link.latency: ", p);
        assertMentions(p, "\"fast\"");
        String q = onlyProblem(withParams("{\"hca.mtu\": [4096]}"));
        assertStarts(FILE + ": $.fabric.params.hca.mtu: expected a string such as \"100Gbps\" or a number", q);
    }

    @Test
    void goodFabricParamsAreApplied() throws ScenarioException {
        Scenario s = ScenarioLoader.parse(FILE, withParams("{\"link.latency\": \"75ns\", \"transport.rnr_retry\": 3}"));
        assertEquals(75_000L, s.params().get(org.datsim.fabric.FabricParams.LINK_LATENCY));
        assertEquals(3L, s.params().get(org.datsim.fabric.FabricParams.RNR_RETRY));
    }

    @Test
    void unknownHostInAProcess() {
        String json = scenario(FABRIC_AB, process("p", "C", baseCalls()));
        assertOnlyProblemAt(json, "$.processes[0].host", "no host is named \"C\"; the fabric's hosts are [A, B]");
    }

    @Test
    void hostWithNoLink() {
        String p = onlyProblem(withFabric("{\"hosts\": [\"A\", \"B\", \"C\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}"));
        assertStarts(FILE + ": $.fabric: ", p);
        assertMentions(p, "host \"C\" has 0 links", "needs exactly one link");
    }

    @Test
    void disconnectedFabric() {
        String p = onlyProblem(withFabric("{\"hosts\": [\"A\", \"B\", \"C\", \"D\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}, {\"a\": \"C\", \"b\": \"D\"}]}"));
        assertStarts(FILE + ": $.fabric: ", p);
        assertMentions(p, "the fabric is not connected", "[A, B]", "[C, D]");
    }

    @Test
    void linkToAnUnknownNode() {
        String p = onlyProblem(withFabric("{\"hosts\": [\"A\", \"B\"],"
                + " \"links\": [{\"a\": \"A\", \"b\": \"B\"}, {\"a\": \"B\", \"b\": \"Z\"}]}"));
        assertStarts(FILE + ": $.fabric.links[1]: ", p);
        assertMentions(p, "links[1]", "no host or switch is named \"Z\"");
    }

    @Test
    void duplicateProcessNames() {
        List<String> other = List.of("{\"call\": \"dat_ia_open\", \"out\": \"ia2\"}",
                "{\"call\": \"dat_pz_create\", \"ia\": \"$ia2\", \"out\": \"pz2\"}");
        String json = scenario(FABRIC_AB, process("p", "A", baseCalls()), process("p", "B", other));
        assertOnlyProblemAt(json, "$.processes[1].name", "process name \"p\" is used twice");
    }

    // ------------------------------------------------------------------ expectations and data

    @Test
    void badExpectRet() {
        String p = onlyProblem(withCalls("{\"call\": \"dat_pz_free\", \"pz\": \"$pz\","
                + " \"expect\": {\"ret\": \"DAT_FINE\"}}"));
        assertStarts(FILE + ": $.processes[0].calls[4].expect.ret: expected a DAT_RETURN name such as"
                + " \"DAT_SUCCESS\"", p);
        assertMentions(p, "found \"DAT_FINE\"");
    }

    @Test
    void unknownExpectKey() {
        assertOnlyProblemAt(withCalls("{\"call\": \"dat_pz_free\", \"pz\": \"$pz\","
                + " \"expect\": {\"event\": \"DAT_DTO_COMPLETION_EVENT\"}}"), "$.processes[0].calls[4].expect.event",
                "unknown field; expected one of [else, if, ret, then]");
    }

    @Test
    void dataWithTwoKinds() {
        assertOnlyProblemAt(withCalls("{\"call\": \"mem_write\", \"lmr\": \"$buf\","
                + " \"data\": {\"text\": \"hi\", \"hex\": \"6869\"}}"), "$.processes[0].calls[4].data",
                "expected exactly one of \"text\", \"hex\" or \"fill\"");
    }

    @Test
    void dataWithOddHex() {
        assertOnlyProblemAt(withCalls("{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"data\": {\"hex\": \"abc\"}}"),
                "$.processes[0].calls[4].data.hex", "expected an even number of hexadecimal digits, found \"abc\"");
    }

    @Test
    void fillWithoutLength() {
        assertOnlyProblemAt(withCalls("{\"call\": \"mem_write\", \"lmr\": \"$buf\", \"data\": {\"fill\": 7}}"),
                "$.processes[0].calls[4].data.length", "missing; a fill needs a length");
    }

    @Test
    void badDataInMemReadExpectation() {
        assertOnlyProblemAt(withCalls("{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"length\": 4,"
                + " \"expect\": {\"data\": {\"fill\": 300, \"length\": 4}}}"),
                "$.processes[0].calls[4].expect.data.fill", "expected a byte value from 0 to 255, found 300");
    }

    // ------------------------------------------------------------------ many problems at once

    @Test
    void severalProblemsInOneFileAreAllReported() {
        List<String> calls = baseCalls();
        calls.set(2, EVD_CREATE_NO_QLEN);
        calls.add("{\"call\": \"dat_foo\"}");
        calls.add("{\"call\": \"dat_pz_free\", \"pz\": \"$nope\"}");
        calls.add("{\"call\": \"sleep\", \"time\": \"5 parsecs\"}");
        String json = scenario("{\"hosts\": [\"A\", \"B\", \"C\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}",
                process("p", "A", calls)).replaceFirst("\"scenario\": \"t\",", "\"scenario\": \"t\", \"colour\": 1,");
        List<String> p = problems(json);
        String[] expected = {
            FILE + ": $.colour: unknown field",
            FILE + ": $.fabric: host \"C\" has 0 links",
            FILE + ": $.processes[0].calls[2].evd_min_qlen: missing",
            FILE + ": $.processes[0].calls[4].call: \"dat_foo\" is not supported",
            FILE + ": $.processes[0].calls[5].pz: dangling reference \"$nope\"",
            FILE + ": $.processes[0].calls[6].time: ",
        };
        assertEquals(expected.length, p.size(), () -> "expected one message per problem, got " + p);
        for (int i = 0; i < expected.length; i++) {
            assertStarts(expected[i], p.get(i));
        }
        assertEquals(p.size(), p.stream().distinct().count(), "no message is repeated");
    }
}
