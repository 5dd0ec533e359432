package org.datsim.scenario;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * Test support shared by the scenario tests: small builders for scenario JSON text (a valid base scenario whose
 * pieces can be swapped one at a time), the location of the module's {@code examples} directory, and a reader for
 * {@code events.jsonl} traces.
 */
public final class ScenarioJson {

    /** The file name used in messages of scenarios parsed from text. */
    public static final String FILE = "t.json";

    /** A valid two-host fabric: A and B joined by one link. */
    public static final String FABRIC_AB = "{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}]}";

    private static final ObjectMapper MAPPER = new ObjectMapper();

    private ScenarioJson() {
    }

    /**
     * Returns the calls of the base process, in order: index 0 dat_ia_open ("$ia"), 1 dat_pz_create ("$pz"),
     * 2 dat_evd_create ("$evd", a DTO EVD of 16 entries), 3 dat_lmr_create ("$buf", 4 KiB).
     */
    public static List<String> baseCalls() {
        List<String> calls = new ArrayList<>();
        calls.add("{\"call\": \"dat_ia_open\", \"ia_name\": \"ofa-v2-ib0\", \"out\": \"ia\"}");
        calls.add("{\"call\": \"dat_pz_create\", \"ia\": \"$ia\", \"out\": \"pz\"}");
        calls.add("{\"call\": \"dat_evd_create\", \"ia\": \"$ia\", \"evd_min_qlen\": 16,"
                + " \"evd_flags\": \"DAT_EVD_DTO_FLAG\", \"out\": \"evd\"}");
        calls.add("{\"call\": \"dat_lmr_create\", \"ia\": \"$ia\", \"pz\": \"$pz\", \"length\": \"4KiB\","
                + " \"out\": \"buf\"}");
        return calls;
    }

    /** Returns a process object with the given calls. */
    public static String process(String name, String host, List<String> calls) {
        return "{\"name\": \"" + name + "\", \"host\": \"" + host + "\", \"calls\": [\n    "
                + String.join(",\n    ", calls) + "\n  ]}";
    }

    /** Returns a scenario named "t" with a fabric object and processes (each a JSON object text). */
    public static String scenario(String fabric, String... processes) {
        return "{\n  \"scenario\": \"t\",\n  \"fabric\": " + fabric + ",\n  \"processes\": [\n  "
                + String.join(",\n  ", processes) + "\n  ]\n}\n";
    }

    /** Returns the valid base scenario: one process "p" on host A making {@link #baseCalls()}. */
    public static String base() {
        return withCalls();
    }

    /** Returns the base scenario with more calls appended to process "p" (the first is calls[4]). */
    public static String withCalls(String... extra) {
        List<String> calls = baseCalls();
        calls.addAll(List.of(extra));
        return scenario(FABRIC_AB, process("p", "A", calls));
    }

    /** Returns the base scenario with call {@code index} of process "p" replaced. */
    public static String replacingCall(int index, String call) {
        List<String> calls = baseCalls();
        calls.set(index, call);
        return scenario(FABRIC_AB, process("p", "A", calls));
    }

    /** Returns the base scenario with another fabric object. */
    public static String withFabric(String fabric) {
        return scenario(fabric, process("p", "A", baseCalls()));
    }

    /** Returns the base scenario's fabric with a "params" object added. */
    public static String withParams(String params) {
        return withFabric("{\"hosts\": [\"A\", \"B\"], \"links\": [{\"a\": \"A\", \"b\": \"B\"}], \"params\": "
                + params + "}");
    }

    /**
     * Returns the module's examples directory, whether the tests run with the module or the repository root as
     * working directory.
     */
    public static Path examplesDir() {
        Path dir = Paths.get(System.getProperty("user.dir"));
        for (Path candidate : new Path[] {dir.resolve("examples"), dir.resolve("scenarios/examples"),
            dir.resolve("../scenarios/examples")}) {
            if (Files.isDirectory(candidate)) {
                return candidate.normalize();
            }
        }
        throw new IllegalStateException("no examples directory found from " + dir);
    }

    /** Returns the write-then-send example. */
    public static Path writeThenSend() {
        return examplesDir().resolve("write-then-send.json");
    }

    /** Reads a JSON file into a tree. */
    public static JsonNode readJson(Path file) {
        try {
            return MAPPER.readTree(file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Parses JSON text into a tree. */
    public static JsonNode readJson(String text) {
        try {
            return MAPPER.readTree(text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads an events.jsonl trace, one tree per line. */
    public static List<JsonNode> readTrace(Path eventsJsonl) {
        try {
            List<JsonNode> out = new ArrayList<>();
            for (String line : Files.readAllLines(eventsJsonl)) {
                out.add(MAPPER.readTree(line));
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
