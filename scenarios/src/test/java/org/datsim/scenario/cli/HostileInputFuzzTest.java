package org.datsim.scenario.cli;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A seeded structure-aware fuzz of every file datsim reads: each example scenario, the studies and their scenarios,
 * and the lab's lessons and their scenarios are parsed, mutated (values replaced by hostile ones, fields removed,
 * renamed or duplicated, elements repeated; sometimes the bytes cut or corrupted after) and given to the command that
 * reads them: {@code run} (bounded to a few thousand events), {@code sweep plan} or {@code lab}. Every input must end
 * with exit 0, 1 or 2, never 3; print no stack trace and no out-of-memory error; say where each problem is when it
 * exits 2 (every problem line names a file); and write or delete nothing outside its output directory.
 *
 * <p>The default build runs {@value #DEFAULT_INPUTS} inputs. The soak (docs/limits.md) runs many more:
 * {@code mvn -B -q -pl scenarios -am test -Dtest=HostileInputFuzzTest -Dsurefire.failIfNoSpecifiedTests=false
 * -Ddatsim.fuzz.inputs=10000 -DargLine=-Xmx512m}; {@code -Ddatsim.fuzz.seeds=4242,4243} runs the sequences of those
 * seeds one after another ({@code -Ddatsim.fuzz.seed=N}, one seed, still works). Each seed's exit-code histogram is
 * printed when it ends, passed or failed.
 */
class HostileInputFuzzTest {

    static final int DEFAULT_INPUTS = 300;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory F = JsonNodeFactory.instance;
    private static final Pattern LOCATED = Pattern.compile("^(?:/|\\./|[A-Za-z0-9_.-]+/)?\\S*?\\.json[: ].*");

    @TempDir
    Path tmp;

    private record Seed(String kind, Path file, JsonNode tree) {
    }

    @Test
    void mutatedInputsEndWithExit012AndLocatedMessages() throws Exception {
        int inputs = Integer.getInteger("datsim.fuzz.inputs", DEFAULT_INPUTS);
        String list = System.getProperty("datsim.fuzz.seeds", System.getProperty("datsim.fuzz.seed", "17"));
        for (String one : list.split(",")) {
            fuzz(inputs, Long.parseLong(one.trim()));
        }
    }

    private void fuzz(int inputs, long seed) throws Exception {
        Path module = HostileInputTest.moduleDir();
        List<Seed> seeds = seeds(module);
        assertTrue(seeds.size() > 20, "seed files: " + seeds.size());
        Random r = new Random(seed);
        TreeMap<Integer, Integer> histogram = new TreeMap<>();
        Path work = Files.createDirectories(tmp.resolve("work-" + seed));
        long t0 = System.nanoTime();
        int done = 0;
        try {
            fuzz(inputs, seed, seeds, r, histogram, work);
            done = inputs;
        } finally {
            long ms = (System.nanoTime() - t0) / 1_000_000;
            int ran = histogram.values().stream().mapToInt(Integer::intValue).sum();
            System.out.println("HostileInputFuzzTest: " + ran + " of " + inputs + " inputs (seed " + seed + ") in " + ms
                    + " ms" + (done == inputs ? "" : ", stopped at a failure") + "; exit codes " + histogram);
        }
    }

    private void fuzz(int inputs, long seed, List<Seed> seeds, Random r, TreeMap<Integer, Integer> histogram,
            Path work) throws Exception {
        for (int i = 0; i < inputs; i++) {
            Seed s = seeds.get(r.nextInt(seeds.size()));
            byte[] bytes = mutate(s.tree(), r);
            // Each input in a directory of its own, removed once it passed: the listing below walks only the
            // current case, so a 10,000-input soak costs linear, not quadratic, time.
            Path dir = Files.createDirectories(work.resolve("case-" + i));
            Path out = dir.resolve("out-" + i);
            Path file;
            String[] args;
            switch (s.kind()) {
                case "study" -> {
                    file = dir.resolve("in-" + i + ".json");
                    Files.write(file, bytes);
                    args = new String[] {"sweep", "plan", file.toString()};
                }
                case "lesson" -> {
                    Path lab = dir.resolve("lab-" + i);
                    Path lesson = Files.createDirectories(lab.resolve(s.file().getParent().getFileName()));
                    for (String f : new String[] {"hazard.json", "fix.json"}) {
                        Path from = s.file().resolveSibling(f);
                        if (Files.exists(from)) {
                            Files.copy(from, lesson.resolve(f));
                        }
                    }
                    file = lesson.resolve("lesson.json");
                    Files.write(file, bytes);
                    args = new String[] {"lab", "--lessons", lab.toString()};
                }
                default -> {
                    file = dir.resolve("in-" + i + ".json");
                    Files.write(file, bytes);
                    args = new String[] {"run", file.toString(), "--out", out.toString(), "--max-events", "5000",
                        "--no-perfetto"};
                }
            }
            TreeSet<String> before = listing(work, out);
            CliRun res = HostileInputTest.datsim(args);
            String what = "input " + i + " (seed " + seed + ", from " + s.file().getFileName() + ", kept as " + file
                    + "): exit " + res.code() + "\n" + cut(res.err()) + "\n" + cut(res.out());
            histogram.merge(res.code(), 1, Integer::sum);
            if (res.code() < 0 || res.code() > 2) {
                keep(file);
                fail("exit code not 0, 1 or 2: " + what);
            }
            String all = res.err() + res.out();
            if (all.contains("\tat ") || all.contains("OutOfMemoryError") || all.contains("StackOverflowError")
                    || all.contains("Exception") || all.contains("internal error") || all.contains("REDACTED")
                    || all.contains("StreamReadConstraints") || all.contains("StreamReadFeature")) {
                keep(file);
                fail("a stack trace or an internal error: " + what);
            }
            if (res.code() == 2) {
                for (String line : res.err().split("\n")) {
                    if (line.isEmpty() || line.matches("\\d+ problem\\(s\\) in .*") || line.startsWith("(see:")
                            || line.contains("... and ")) {
                        continue;
                    }
                    if (!LOCATED.matcher(line).matches() && !line.startsWith(work.toString())) {
                        keep(file);
                        fail("an exit-2 message without a file and place: \"" + line + "\" in " + what);
                    }
                }
            }
            TreeSet<String> after = listing(work, out);
            if (!before.equals(after)) {
                keep(file);
                fail("files changed outside the output directory: " + before + " -> " + after + " in " + what);
            }
            clean(dir);
        }
    }

    private static String cut(String s) {
        return s.length() > 2000 ? s.substring(0, 2000) + "..." : s;
    }

    /** Keeps a failing input where the test's temporary directory will not delete it. */
    private static void keep(Path file) {
        try {
            Path dir = Files.createDirectories(Path.of("target", "fuzz-failures"));
            Files.copy(file, dir.resolve(file.getFileName()), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            // the message names the input anyway
        }
    }

    /** The files under the work directory, apart from the run's output directory. */
    private static TreeSet<String> listing(Path work, Path out) throws IOException {
        TreeSet<String> names = new TreeSet<>();
        try (Stream<Path> s = Files.walk(work)) {
            s.filter(p -> !p.startsWith(out)).forEach(p -> names.add(work.relativize(p).toString()));
        }
        try (Stream<Path> s = Files.list(Path.of("."))) {
            s.forEach(p -> names.add("cwd:" + p.getFileName()));
        }
        return names;
    }

    private static void clean(Path out) throws IOException {
        org.datsim.scenario.run.FileTrees.delete(out);
    }

    private static List<Seed> seeds(Path module) throws IOException {
        List<Seed> seeds = new ArrayList<>();
        Path root = module.getParent();
        add(seeds, "scenario", module.resolve("examples"), 1);
        add(seeds, "scenario", root.resolve("studies/scenarios"), 1);
        add(seeds, "study", root.resolve("studies"), 1);
        try (Stream<Path> s = Files.list(module.resolve("lab"))) {
            for (Path d : s.filter(Files::isDirectory).sorted().toList()) {
                for (String f : new String[] {"hazard.json", "fix.json"}) {
                    if (Files.exists(d.resolve(f))) {
                        seeds.add(new Seed("scenario", d.resolve(f), JSON.readTree(d.resolve(f).toFile())));
                    }
                }
                if (Files.exists(d.resolve("lesson.json"))) {
                    seeds.add(new Seed("lesson", d.resolve("lesson.json"),
                            JSON.readTree(d.resolve("lesson.json").toFile())));
                }
            }
        }
        return seeds;
    }

    private static void add(List<Seed> seeds, String kind, Path dir, int depth) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.filter(x -> x.toString().endsWith(".json")).sorted().toList()) {
                seeds.add(new Seed(kind, p, JSON.readTree(p.toFile())));
            }
        }
    }

    // ---- the mutator ----

    private record Slot(JsonNode parent, String key, int index) {
    }

    private static byte[] mutate(JsonNode seed, Random r) {
        JsonNode t = seed.deepCopy();
        int n = 1 + r.nextInt(3);
        for (int k = 0; k < n; k++) {
            List<Slot> slots = new ArrayList<>();
            collect(t, slots);
            if (slots.isEmpty()) {
                break;
            }
            Slot s = slots.get(r.nextInt(slots.size()));
            int op = r.nextInt(10);
            if (s.parent() instanceof ObjectNode o) {
                switch (op) {
                    case 0 -> o.remove(s.key());
                    case 1 -> {
                        JsonNode v = o.remove(s.key());
                        o.set(hostileName(r), v);
                    }
                    default -> o.set(s.key(), hostileValue(r, o.get(s.key())));
                }
            } else if (s.parent() instanceof ArrayNode a) {
                switch (op) {
                    case 0 -> a.remove(s.index());
                    case 1, 2 -> {
                        int times = r.nextInt(4) == 0 ? 200 : 1 + r.nextInt(3);
                        for (int j = 0; j < times; j++) {
                            a.insert(s.index(), a.get(s.index()).deepCopy());
                        }
                    }
                    default -> a.set(s.index(), hostileValue(r, a.get(s.index())));
                }
            }
        }
        byte[] bytes = t.toString().getBytes(StandardCharsets.UTF_8);
        if (r.nextInt(6) == 0) {
            bytes = corrupt(bytes, r);
        }
        return bytes;
    }

    private static void collect(JsonNode n, List<Slot> slots) {
        if (n instanceof ObjectNode o) {
            for (Iterator<String> it = o.fieldNames(); it.hasNext();) {
                String k = it.next();
                slots.add(new Slot(o, k, -1));
                collect(o.get(k), slots);
            }
        } else if (n instanceof ArrayNode a) {
            for (int i = 0; i < a.size(); i++) {
                slots.add(new Slot(a, null, i));
                collect(a.get(i), slots);
            }
        }
    }

    private static String hostileName(Random r) {
        return switch (r.nextInt(6)) {
            case 0 -> "..";
            case 1 -> "$";
            case 2 -> "k".repeat(2000);
            case 3 -> "a\nb\u2028c";
            case 4 -> "";
            default -> "x" + r.nextInt(100);
        };
    }

    private static JsonNode hostileValue(Random r, JsonNode old) {
        return switch (r.nextInt(30)) {
            case 0 -> F.numberNode(0);
            case 1 -> F.numberNode(-1);
            case 2 -> F.numberNode(Long.MAX_VALUE);
            case 3 -> F.numberNode(Long.MIN_VALUE);
            case 4 -> F.numberNode(new BigInteger("9".repeat(40)));
            case 5 -> F.numberNode(1e308);
            case 6 -> F.textNode("");
            case 7 -> F.textNode("..");
            case 8 -> F.textNode("../../escape");
            case 9 -> F.textNode("1TiB");
            case 10 -> F.textNode("8EiB");
            case 11 -> F.textNode("-5us");
            case 12 -> F.textNode("= " + "(".repeat(30 + r.nextInt(60)) + "1" + ")".repeat(30 + r.nextInt(60)));
            case 13 -> F.textNode("= 1/0");
            case 14 -> F.textNode("= $nope.address + 1");
            case 15 -> F.textNode("= 9223372036854775807 * 2");
            case 16 -> F.textNode("a\nb\u2028c\u0000d\u001b[31m");
            case 17 -> F.textNode("x".repeat(5000));
            case 18 -> F.arrayNode();
            case 19 -> F.objectNode();
            case 20 -> F.nullNode();
            case 21 -> F.booleanNode(true);
            case 22 -> deep(r.nextInt(2) == 0 ? 40 : 95);
            case 23 -> F.numberNode(1_000_000_000);
            case 24 -> F.numberNode(r.nextInt(100_000));
            case 25 -> F.textNode("= " + String.join("+", java.util.Collections.nCopies(1 + r.nextInt(600), "1")));
            case 26 -> F.textNode("DAT_TIMEOUT_INFINITE");
            case 27 -> F.numberNode(1.5);
            case 28 -> old != null && old.isNumber() ? F.textNode(old.asText()) : F.numberNode(old == null ? 0
                    : old.asText().length());
            default -> F.textNode("/fabric/" + "x/".repeat(r.nextInt(50)) + "y");
        };
    }

    private static JsonNode deep(int depth) {
        JsonNode n = F.numberNode(1);
        for (int i = 0; i < depth; i++) {
            n = i % 2 == 0 ? F.arrayNode().add(n) : F.objectNode().set("d", n);
        }
        return n;
    }

    private static byte[] corrupt(byte[] b, Random r) {
        switch (r.nextInt(6)) {
            case 0 -> {
                return java.util.Arrays.copyOf(b, r.nextInt(b.length + 1));
            }
            case 1 -> {
                byte[] c = b.clone();
                for (int i = 0; i < 1 + r.nextInt(8); i++) {
                    c[r.nextInt(c.length)] = (byte) r.nextInt(256);
                }
                return c;
            }
            case 2 -> {
                byte[] c = new byte[b.length + 3];
                c[0] = (byte) 0xef;
                c[1] = (byte) 0xbb;
                c[2] = (byte) 0xbf;
                System.arraycopy(b, 0, c, 3, b.length);
                return c;
            }
            case 3 -> {
                String s = new String(b, StandardCharsets.UTF_8);
                int at = s.indexOf(',');
                return (at < 0 ? s : s.substring(0, at) + " // a comment\n" + s.substring(at))
                        .getBytes(StandardCharsets.UTF_8);
            }
            case 4 -> {
                String s = new String(b, StandardCharsets.UTF_8);
                int at = s.indexOf('{');
                return (at < 0 ? s : s.substring(0, at + 1) + "\"seed\": 1, \"seed\": 2, " + s.substring(at + 1))
                        .getBytes(StandardCharsets.UTF_8);
            }
            default -> {
                return (new String(b, StandardCharsets.UTF_8) + "\n{}").getBytes(StandardCharsets.UTF_8);
            }
        }
    }
}
