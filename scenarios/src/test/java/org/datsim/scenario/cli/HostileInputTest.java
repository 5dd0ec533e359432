package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The hostile inputs of issue 17, one test each: what used to be a stack trace, an exit 3, an out-of-memory error,
 * a blocked read, an unbounded trace or a deleted file of the user's is now one located message in datsim's words
 * (exit 2) or a run stopped by a named guard (exit 1).
 */
class HostileInputTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    static CliRun datsim(String... args) {
        return CliRun.of(args);
    }

    static Path moduleDir() {
        Path here = Paths.get(System.getProperty("user.dir"));
        return Files.isDirectory(here.resolve("examples")) ? here : here.resolve("scenarios");
    }

    private static ObjectNode example() throws Exception {
        return (ObjectNode) JSON.readTree(moduleDir().resolve("examples/write-then-send.json").toFile());
    }

    /** The write of 4 KiB into $src of process a (calls[6]), whose offset the tests replace. */
    private static ObjectNode srcWrite(ObjectNode s) {
        return (ObjectNode) s.path("processes").path(1).path("calls").path(6);
    }

    private Path write(String name, String text) throws Exception {
        Path f = tmp.resolve(name);
        Files.writeString(f, text, StandardCharsets.UTF_8);
        return f;
    }

    private static void assertClean(CliRun r) {
        assertFalse(r.err().contains("\tat ") || r.err().contains("Exception") || r.err().contains("Error:"),
                r.err());
        assertFalse(r.err().contains("StreamReadConstraints") || r.err().contains("Source: REDACTED"), r.err());
    }

    @Test
    void deeplyNestedExpressionIsALocatedProblem() throws Exception {
        ObjectNode s = example();
        srcWrite(s).put("offset", "= " + "(".repeat(400) + "0" + ")".repeat(400));
        Path f = write("nest.json", s.toString());
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code(), r.err());
        assertClean(r);
        assertTrue(r.err().startsWith(f + ": $.processes[1].calls[6].offset: parentheses and minus signs nested"
                + " deeper than 50 levels"), r.err());
    }

    @Test
    void aSumOfThousandsOfTermsIsRefusedAtValidationNotAtRunTime() throws Exception {
        ObjectNode s = example();
        srcWrite(s).put("offset", "= " + String.join("+", java.util.Collections.nCopies(20_000, "0")));
        Path f = write("sum.json", s.toString());
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("$.processes[1].calls[6].offset: the expression is 40001 characters long;"
                + " expressions are limited to 1000 characters"), r.err());
        // the longest accepted sum still evaluates (no deep recursion at run time)
        srcWrite(s).put("offset", "= " + String.join("+", java.util.Collections.nCopies(499, "0")));
        Path ok = write("sum-ok.json", s.toString());
        CliRun run = datsim("run", ok.toString(), "--out", tmp.resolve("o").toString());
        assertEquals(0, run.code(), run.err() + run.out());
    }

    @Test
    void deepJsonNestingIsLocatedInDatsimWords() throws Exception {
        Path f = write("deep.json", "{\"scenario\": \"x\", \"a\": " + "[".repeat(2000) + "]".repeat(2000) + "}");
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code());
        assertClean(r);
        assertTrue(r.err().startsWith(f + ":1:"), r.err());
        assertTrue(r.err().contains("arrays and objects nested deeper than 100 levels"), r.err());
    }

    @Test
    void longNumbersAndNamesAreLocatedAndNotEchoed() throws Exception {
        Path n = write("num.json", "{\"scenario\": \"x\",\n \"seed\": " + "9".repeat(10_000) + "}");
        CliRun r = datsim("validate", n.toString());
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith(n + ":2:"), r.err());
        assertTrue(r.err().contains("a number longer than 100 characters"), r.err());
        assertTrue(r.err().length() < 500, r.err());
        Path k = write("name.json", "{\"" + "k".repeat(20_000) + "\": 1}");
        CliRun rk = datsim("validate", k.toString());
        assertEquals(2, rk.code());
        assertTrue(rk.err().startsWith(k + ":1:"), rk.err());
        assertTrue(rk.err().contains("a field name longer than 1000 characters"), rk.err());
        assertTrue(rk.err().length() < 500, rk.err());
    }

    @Test
    void aFilePathWithANulCharacterIsALocatedProblemNotExit3() throws Exception {
        // found by the 10,000-input soak of HostileInputFuzzTest (input 7962): InvalidPathException from java.nio
        ObjectNode st = (ObjectNode) JSON.readTree(moduleDir().resolve("../studies/latency-vs-size.json").toFile());
        st.put("scenario", "a\u0000b");
        Path f = write("nul-study.json", st.toString());
        CliRun r = datsim("sweep", "plan", f.toString());
        assertEquals(2, r.code(), r.err());
        assertClean(r);
        assertTrue(r.err().contains(f + ": $.scenario: expected a file path"), r.err());
        ObjectNode s = example();
        ObjectNode fabric = s.with("fabric");
        fabric.putObject("topology").putObject("hpcc").put("file", "fat\u0000.txt");
        Path g = write("nul-topology.json", s.toString());
        CliRun rt = datsim("validate", g.toString());
        assertEquals(2, rt.code(), rt.err());
        assertClean(rt);
        assertTrue(rt.err().contains("expected a file path"), rt.err());
    }

    @Test
    void studyAxisPointerTooDeepIsAProblemNotExit3() throws Exception {
        ObjectNode st = (ObjectNode) JSON.readTree(moduleDir().resolve("../studies/latency-vs-size.json").toFile());
        st.put("scenario", moduleDir().resolve("../studies/scenarios/qp-stream.json").toAbsolutePath().toString());
        ((ObjectNode) st.path("axes").path(0)).put("path", "/vars" + "/a".repeat(2000));
        Path f = write("study.json", st.toString());
        CliRun r = datsim("sweep", "plan", f.toString());
        assertEquals(2, r.code(), r.err());
        assertClean(r);
        assertTrue(r.err().contains(f + ": $.axes[0].path: the pointer has 2001 levels"), r.err());
    }

    @Test
    void devicesFifosAndDirectoriesGetOneMessage() throws Exception {
        for (String dev : new String[] {"/dev/zero", "/dev/urandom"}) {
            if (Files.exists(Paths.get(dev))) {
                CliRun r = datsim("validate", dev);
                assertEquals(2, r.code());
                assertTrue(r.err().startsWith(dev + ": is not a regular file"), r.err());
                CliRun s = datsim("sweep", "plan", dev);
                assertEquals(2, s.code());
                assertTrue(s.err().contains(dev + ": is not a regular file"), s.err());
            }
        }
        Path fifo = tmp.resolve("fifo");
        Process p = new ProcessBuilder("mkfifo", fifo.toString()).start();
        if (p.waitFor() == 0) {
            CliRun r = datsim("validate", fifo.toString()); // used to block for ever
            assertEquals(2, r.code());
            assertTrue(r.err().startsWith(fifo + ": is not a regular file"), r.err());
        }
        CliRun d = datsim("validate", tmp.toString());
        assertEquals(2, d.code());
        assertTrue(d.err().startsWith(tmp + ": is a directory"), d.err());
    }

    @Test
    void aByteOrderMarkIsAcceptedAndUtf16IsNamed() throws Exception {
        Path f = write("bom.json", "\uFEFF" + example().toString());
        CliRun r = datsim("validate", f.toString());
        assertEquals(0, r.code(), r.err());
        Path u = tmp.resolve("utf16.json");
        Files.write(u, ("\uFEFF" + example()).getBytes(StandardCharsets.UTF_16));
        CliRun ru = datsim("validate", u.toString());
        assertEquals(2, ru.code());
        assertTrue(ru.err().startsWith(u + ": starts with a UTF-16 or UTF-32 byte-order mark"), ru.err());
    }

    @Test
    void controlCharactersAreEscapedAndLongValuesCut() throws Exception {
        Path f = write("ctl.json", "{\"scenario\": 7, \"seed\": \"a\\nb\\u2028c" + "x".repeat(5000) + "\"}");
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code());
        for (String line : r.err().split("\n")) {
            assertTrue(line.startsWith(f.toString()) || line.matches("\\d+ problem\\(s\\) in .*"), line);
            assertFalse(line.contains("\u2028"), line);
        }
        assertTrue(r.err().contains("(5009 characters)") || r.err().contains("characters)"), r.err());
    }

    @Test
    void commentsAreNamedWithoutJacksonInternals() throws Exception {
        Path f = write("c.json", "{\"scenario\": \"x\" // note\n}");
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code());
        assertClean(r);
        assertTrue(r.err().contains("comments are not allowed in JSON"), r.err());
        assertFalse(r.err().contains("ALLOW_COMMENTS"), r.err());
    }

    @Test
    void anUnclosedObjectSaysWhereItStartedWithoutJacksonsSourceNotes() throws Exception {
        Path f = write("open.json", "{\"scenario\": \"x\", \"a\": {\"b\": 1");
        CliRun r = datsim("validate", f.toString());
        assertEquals(2, r.code());
        assertClean(r);
        assertTrue(r.err().startsWith(f + ":1:31: invalid JSON: Unexpected end-of-input: expected close marker for"
                + " Object (start marker at line 1, column 24)"), r.err());
    }

    @Test
    void aBadOptionValueIsWordedByDatsim() {
        CliRun r = datsim("run", "--seed", "abc", "x.json");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("'--seed': expected a whole number, found 'abc'"), r.err());
        assertFalse(r.err().contains("is not a long"), r.err());
    }

    @Test
    void labOnADirectoryWithoutLessonsSaysSo() throws Exception {
        CliRun r = datsim("lab", "--lessons", tmp.toString(), "3");
        assertEquals(2, r.code());
        assertTrue(r.err().startsWith(tmp + ": no lessons there"), r.err());
        assertFalse(r.err().contains("1 to 0"), r.err());
    }

    @Test
    void aRunRefusesAForeignDirectoryAndDeletesOnlyItsOwnFiles() throws Exception {
        Path e = moduleDir().resolve("examples/write-then-send.json");
        Path out = Files.createDirectories(tmp.resolve("mine"));
        Files.writeString(out.resolve("timeline.html"), "the user's");
        Files.writeString(out.resolve("latency-histogram.svg"), "the user's");
        CliRun refused = datsim("run", e.toString(), "--out", out.toString());
        assertEquals(2, refused.code());
        assertTrue(refused.err().contains("is not empty and datsim did not create it"), refused.err());
        CliRun forced = datsim("run", e.toString(), "--out", out.toString(), "--force", "--no-perfetto");
        assertEquals(0, forced.code(), forced.err());
        assertEquals("the user's", Files.readString(out.resolve("timeline.html")));
        assertEquals("the user's", Files.readString(out.resolve("latency-histogram.svg")));
        // a second run: the directory is datsim's now; its own files are replaced, the user's kept
        Files.writeString(out.resolve("trace.json"), "the user's too");
        CliRun again = datsim("run", e.toString(), "--out", out.toString(), "--no-perfetto");
        assertEquals(0, again.code(), again.err());
        assertEquals("the user's too", Files.readString(out.resolve("trace.json")));
        assertTrue(Files.readString(out.resolve(".datsim-outputs")).contains("events.jsonl"));
    }

    @Test
    void aScenarioNamedDotDotStaysInsideRuns() throws Exception {
        assertEquals("_.", org.datsim.scenario.run.OutputDir.safeName(".."));
        assertEquals("_", org.datsim.scenario.run.OutputDir.safeName(""));
        assertEquals("_hidden", org.datsim.scenario.run.OutputDir.safeName(".hidden"));
        assertEquals("a_b", org.datsim.scenario.run.OutputDir.safeName("a/b"));
        assertEquals("write-then-send", org.datsim.scenario.run.OutputDir.safeName("write-then-send"));
    }

    @Test
    void theRnrLivelockIsStoppedByTheNoProgressGuard() throws Exception {
        ObjectNode s = example();
        ArrayNode b = (ArrayNode) s.path("processes").path(0).path("calls");
        for (int i = b.size() - 1; i >= 0; i--) {
            if (b.get(i).path("call").asText().equals("dat_ep_post_recv")) {
                b.remove(i); // the receiver never posts its receive: the sender retries RNR for ever
            }
        }
        ((ObjectNode) s.path("fabric").path("params")).put("transport.rnr_retry", 7);
        Path f = write("rnr.json", s.toString());
        Path out = tmp.resolve("rnr");
        CliRun r = datsim("run", f.toString(), "--out", out.toString(), "--no-perfetto");
        assertEquals(1, r.code(), r.err());
        assertTrue(r.out().contains("stopped by the no-progress guard"), r.out());
        assertTrue(r.out().contains("--max-stall TIME"), r.out());
        assertTrue(Files.size(out.resolve("events.jsonl")) < 20L << 20);
        CliRun o = datsim("run", f.toString(), "--out", out.toString(), "--no-perfetto", "--no-progress", "0",
                "--max-output", "2MiB"); // the guard's old name, still accepted
        assertEquals(1, o.code(), o.err());
        assertTrue(o.out().contains("stopped by the output guard"), o.out());
        assertTrue(o.out().contains("--max-output SIZE"), o.out());
        assertTrue(Files.size(out.resolve("events.jsonl")) < 3L << 20);
    }

    @Test
    void aTebibyteWriteUnderASmallHeapIsTheResidentLimitMessageNotOutOfMemory() throws Exception {
        ObjectNode s = example();
        ((ObjectNode) s.path("fabric").path("params")).put("memory.max_resident", "1TiB");
        ArrayNode a = (ArrayNode) s.path("processes").path(1).path("calls");
        for (JsonNodeLike c : JsonNodeLike.of(a)) {
            if ("src".equals(c.node().path("out").asText())) {
                c.node().put("length", "1TiB");
            }
            if ("mem_write".equals(c.node().path("call").asText()) && "$src".equals(c.node().path("lmr").asText())) {
                c.node().set("data", JSON.readTree("{\"fill\": 171, \"length\": \"1TiB\"}"));
            }
        }
        Path f = write("tib.json", s.toString());
        Path out = tmp.resolve("tib");
        // a JVM of its own with a 256 MiB heap: the limit of 1 TiB is far above it
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), DatsimCli.class.getName(), "run", f.toString(), "--out",
                out.toString(), "--no-perfetto").redirectErrorStream(true).start();
        String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), all);
        assertFalse(all.contains("OutOfMemoryError") || all.contains("\tat "), all);
        assertTrue(all.contains("host memory would exceed the heap the JVM has (256 MiB"), all);
        assertTrue(all.contains("DATSIM_JAVA_OPTS=-Xmx"), all);
        assertTrue(Files.exists(out.resolve("summary.json")));
    }

    @Test
    void aFabricTooLargeForTheHeapEndsWithExit1AndHowToGiveMore() throws Exception {
        ObjectNode s = (ObjectNode) JSON.readTree(moduleDir().resolve("examples/fat-tree-incast.json").toFile());
        ((ObjectNode) s.path("fabric").path("topology").path("fat_tree")).put("k", 32);
        Path f = write("ft32.json", s.toString());
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx48m",
                "-cp", System.getProperty("java.class.path"), DatsimCli.class.getName(), "run", f.toString(), "--out",
                tmp.resolve("ft").toString(), "--no-perfetto").redirectErrorStream(true).start();
        String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(1, p.waitFor(), all);
        assertFalse(all.contains("\tat "), all);
        assertTrue(all.contains("needs more memory than the JVM has (48 MiB of heap); run with"
                + " DATSIM_JAVA_OPTS=-Xmx"), all);
    }

    @Test
    void aWriteRefusedForAFileSizeLimitEndsWithExit2AndKeepsWhatWasWritten() throws Exception {
        Path bash = Path.of("/bin/bash");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(bash), "needs bash for ulimit -f");
        Path out = tmp.resolve("fsz");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // a 200 KiB limit per file (ulimit -f counts 1024-byte blocks): the example's trace is larger; the JVM
        // ignores SIGXFSZ, so the write fails with EFBIG instead of killing the process
        Process p = new ProcessBuilder(bash.toString(), "-c", "ulimit -f 200 && exec \"$0\" \"$@\"", java, "-cp",
                System.getProperty("java.class.path"), DatsimCli.class.getName(), "run",
                moduleDir().resolve("examples/fat-tree-incast.json").toString(), "--out", out.toString())
                .redirectErrorStream(true).start();
        String all = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.waitFor(), all);
        assertFalse(all.contains("\tat ") || all.contains("internal error"), all);
        assertEquals(1, all.trim().lines().count(), all);
        assertTrue(all.startsWith("datsim: cannot write the outputs in " + out + ": File too large"), all);
        assertEquals(200 * 1024, Files.size(out.resolve("events.jsonl")));
        assertTrue(Files.readAllLines(out.resolve("events.jsonl")).get(0).startsWith("{\"t_ps\":"));
    }

    @Test
    void perftestEchoesArgumentsEscapedAndCut() {
        for (String[] args : new String[][] {{"perftest", "ib_\u0007x\u2028"}, {"perftest", "x".repeat(100_000)},
            {"perftest", "ib_write_bw", "--preset", "\uFEFFroce\u0006"}, {"perftest", "ib_write_bw", "-s", "12\u0006"}}) {
            CliRun r = datsim(args);
            assertEquals(2, r.code(), r.err());
            assertTrue(r.err().length() < 1000, r.err().length() + " characters");
            assertTrue(r.err().chars().noneMatch(c -> c < 0x20 && c != '\n' || c == 0x2028 || c == 0xFEFF), r.err());
        }
    }

    /** A run directory of the write-then-send example, made by datsim run. */
    private Path runDir(String name) {
        Path out = tmp.resolve(name);
        CliRun r = datsim("run", moduleDir().resolve("examples/write-then-send.json").toString(), "--out",
                out.toString());
        assertEquals(0, r.code(), r.err());
        return out;
    }

    private static void assertOneLocatedLine(CliRun r, Path file, String words) {
        assertEquals(2, r.code(), r.err() + r.out());
        String e = r.err().trim();
        assertFalse(e.contains("\tat ") || e.contains("Exception") || e.contains("REDACTED")
                || e.contains("StreamReadConstraints") || e.contains("Input length"), e);
        assertTrue(e.startsWith("datsim: " + file), e);
        assertTrue(e.contains(words), e);
    }

    @Test
    void runDirectoryReadersRefuseFifosLinksAndDamagedFilesInTheirOwnWords() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/mkfifo")), "needs mkfifo");
        // a FIFO as events.jsonl: refused at once (opening it would block until a writer came)
        Path fifo = runDir("fifo");
        Files.delete(fifo.resolve("events.jsonl"));
        assertEquals(0, new ProcessBuilder("/usr/bin/mkfifo", fifo.resolve("events.jsonl").toString()).start()
                .waitFor());
        for (String cmd : new String[] {"view", "ops", "explain"}) {
            assertOneLocatedLine(datsim(cmd, fifo.toString()), fifo.resolve("events.jsonl"), "not a regular file");
        }
        // a planted link where view writes: view refuses it, and the file it points to is untouched
        Path link = runDir("link");
        Path outside = tmp.resolve("precious.txt");
        Files.writeString(outside, "mine");
        Files.deleteIfExists(link.resolve("timeline.html"));
        Files.createSymbolicLink(link.resolve("timeline.html"), outside);
        assertOneLocatedLine(datsim("view", link.toString()), link.resolve("timeline.html"), "symbolic link");
        assertEquals("mine", Files.readString(outside));
        // a link as the trace read: refused, not followed out of the directory
        Files.delete(link.resolve("timeline.html"));
        Files.move(link.resolve("events.jsonl"), tmp.resolve("elsewhere.jsonl"));
        Files.createSymbolicLink(link.resolve("events.jsonl"), tmp.resolve("elsewhere.jsonl"));
        assertOneLocatedLine(datsim("ops", link.toString()), link.resolve("events.jsonl"), "symbolic link");
        // bytes that are not UTF-8, and JSON nested past the limit, named with the file and place
        Path bad = runDir("bad");
        Files.write(bad.resolve("events.jsonl"), new byte[] {'{', '"', (byte) 0xC3, (byte) 0x28, '"', '}', '\n'});
        assertOneLocatedLine(datsim("ops", bad.toString()), bad.resolve("events.jsonl"), ":1: not UTF-8 text");
        Files.writeString(bad.resolve("events.jsonl"), "[".repeat(5000) + "\n");
        assertOneLocatedLine(datsim("view", bad.toString()), bad.resolve("events.jsonl"), "nested deeper than 100");
        Files.writeString(bad.resolve("events.jsonl"), "{\"t_ps\": 1, \"kind\": \"x\", \"host\": \"h\"\n");
        assertOneLocatedLine(datsim("ops", bad.toString()), bad.resolve("events.jsonl"), ":1: not a trace event:");
        // fct.csv: a damaged header and bytes that are not UTF-8
        Path fct = tmp.resolve("fct-run");
        Files.createDirectories(fct);
        Files.writeString(fct.resolve("fct.csv"), "src,\n");
        assertOneLocatedLine(datsim("fct", fct.toString()), fct.resolve("fct.csv"), "");
        Files.write(fct.resolve("fct.csv"), new byte[] {'s', (byte) 0xFF, ',', '\n'});
        assertOneLocatedLine(datsim("fct", fct.toString()), fct.resolve("fct.csv"), "not UTF-8 text");
    }

    /** The objects of an array, to edit in place. */
    private record JsonNodeLike(ObjectNode node) {
        static List<JsonNodeLike> of(ArrayNode a) {
            List<JsonNodeLike> l = new java.util.ArrayList<>();
            a.forEach(n -> l.add(new JsonNodeLike((ObjectNode) n)));
            return l;
        }
    }

    @Test
    void sweepMergeKeepsTheUsersPlots() throws Exception {
        Path study = moduleDir().resolve("../studies/latency-vs-size.json");
        ObjectNode st = (ObjectNode) JSON.readTree(study.toFile());
        st.put("scenario", moduleDir().resolve("../studies/scenarios/qp-stream.json").toAbsolutePath().toString());
        ((ObjectNode) st.path("axes").path(0)).set("values", JSON.readTree("[64, 128]"));
        ((ObjectNode) st.path("axes").path(1)).set("values", JSON.readTree("[\"ib-edr\"]"));
        Path f = write("study.json", st.toString());
        Path out = tmp.resolve("sweep");
        CliRun run = datsim("sweep", "run", f.toString(), "--out", out.toString());
        assertEquals(0, run.code(), run.err() + run.out());
        Files.createDirectories(out.resolve("plots"));
        Files.writeString(out.resolve("plots/mine.svg"), "<svg/>");
        Files.write(out.resolve("plots/photo.png"), new byte[] {1, 2, 3});
        for (int i = 0; i < 2; i++) {
            CliRun m = datsim("sweep", "merge", out.toString());
            assertEquals(0, m.code(), m.err() + m.out());
        }
        assertEquals("<svg/>", Files.readString(out.resolve("plots/mine.svg")));
        assertTrue(Files.exists(out.resolve("plots/photo.png")));
        List<String> marked = Files.readAllLines(out.resolve("plots/.datsim-outputs"));
        assertFalse(marked.contains("mine.svg"));
        assertTrue(marked.size() > 1, marked.toString());
    }
}
