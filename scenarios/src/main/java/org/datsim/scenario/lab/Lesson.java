package org.datsim.scenario.lab;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.datsim.scenario.load.JsonInput;

/**
 * One lesson of the fencing lab: a directory {@code NN-name/} holding {@code lesson.json} (title, rules, the
 * explanation, the hazard's trace sign) and the two scenarios {@code hazard.json} and {@code fix.json}.
 *
 * <p>{@code lesson.json}: {@code {"title": "...", "rules": [17, 19], "summary": "...", "hazard": {"explains": "...",
 * "sign": {"kind": "mem_read", ...}}, "fix": {"explains": "...", "sign": {...}}}}. The hazard's sign must occur in
 * the hazard run and not in the fix run; the fix's sign (what the fix does, e.g. a fence_wait) must occur in the fix
 * run.
 *
 * @param number the lesson number (the NN of its directory)
 * @param dir its directory
 * @param title a one-line title
 * @param rules the DAT rule numbers it teaches
 * @param summary what the lesson shows, one paragraph
 * @param hazardExplains what went wrong in the hazard scenario and why
 * @param hazardSign the trace event that shows the hazard
 * @param fixExplains why the fix is right
 * @param fixSign the trace event that shows the fix at work
 */
public record Lesson(int number, Path dir, String title, List<Integer> rules, String summary, String hazardExplains,
        TraceSign hazardSign, String fixExplains, TraceSign fixSign) {

    private static final long MAX_BYTES = 1 << 20;

    /** Returns the hazard scenario file. */
    public Path hazardScenario() {
        return dir.resolve("hazard.json");
    }

    /** Returns the fix scenario file. */
    public Path fixScenario() {
        return dir.resolve("fix.json");
    }

    /** Returns the directory's name, e.g. "01-send-after-read". */
    public String name() {
        return dir.getFileName().toString();
    }

    /**
     * Loads a lesson directory.
     *
     * @param number its number
     * @param dir the directory
     * @return the lesson
     * @throws LabException naming the file and the JSON path of every problem
     */
    public static Lesson load(int number, Path dir) throws LabException {
        Path file = dir.resolve("lesson.json");
        List<String> problems = new ArrayList<>();
        JsonNode root = null;
        if (!Files.exists(file)) {
            throw new LabException(List.of(file + ": no such file (every lesson directory has a lesson.json)"));
        }
        try {
            root = JsonInput.tree(file.toString(), JsonInput.text(file.toString(),
                    JsonInput.readBytes(file, "lesson JSON", MAX_BYTES), "lesson JSON"), "lesson");
        } catch (org.datsim.scenario.load.ScenarioException e) {
            throw new LabException(e.problems());
        }
        if (root == null || !root.isObject()) {
            throw new LabException(List.of(file + ": $: expected an object"));
        }
        unknown(file, "$", root, Set.of("title", "rules", "summary", "hazard", "fix"), problems);
        String title = text(file, "$.title", root.get("title"), problems);
        String summary = text(file, "$.summary", root.get("summary"), problems);
        List<Integer> rules = new ArrayList<>();
        JsonNode r = root.get("rules");
        if (r == null || !r.isArray() || r.isEmpty()) {
            problems.add(file + ": $.rules: expected a non-empty array of DAT rule numbers (1 to 51)");
        } else {
            for (int i = 0; i < r.size(); i++) {
                JsonNode n = r.get(i);
                if (!n.isInt() || n.asInt() < 1 || n.asInt() > 51) {
                    problems.add(file + ": $.rules[" + i + "]: expected a DAT rule number from 1 to 51, found " + n);
                } else {
                    rules.add(n.asInt());
                }
            }
        }
        String[] hazardText = new String[1];
        String[] fixText = new String[1];
        TraceSign hazardSign = part(file, "$.hazard", root.get("hazard"), hazardText, true, problems);
        TraceSign fixSign = part(file, "$.fix", root.get("fix"), fixText, false, problems);
        for (String s : new String[] {"hazard.json", "fix.json"}) {
            if (!Files.isRegularFile(dir.resolve(s))) {
                problems.add(dir.resolve(s) + ": no such file (a lesson has a hazard.json and a fix.json)");
            }
        }
        if (!problems.isEmpty()) {
            throw new LabException(problems);
        }
        return new Lesson(number, dir, title, List.copyOf(rules), summary, hazardText[0], hazardSign, fixText[0],
                fixSign);
    }

    private static TraceSign part(Path file, String path, JsonNode n, String[] explains, boolean signRequired,
            List<String> problems) {
        if (n == null || !n.isObject()) {
            problems.add(file + ": " + path + ": expected an object with \"explains\" and \"sign\"");
            return null;
        }
        unknown(file, path, n, Set.of("explains", "sign"), problems);
        explains[0] = text(file, path + ".explains", n.get("explains"), problems);
        JsonNode s = n.get("sign");
        if (s == null) {
            if (signRequired) {
                problems.add(file + ": " + path + ".sign: expected an object of trace fields, e.g. {\"kind\":"
                        + " \"mem_read\", \"stale\": \"true\"}");
            }
            return null;
        }
        if (!s.isObject() || s.isEmpty()) {
            problems.add(file + ": " + path + ".sign: expected a non-empty object of trace fields");
            return null;
        }
        Map<String, String> fields = new LinkedHashMap<>();
        Iterator<Map.Entry<String, JsonNode>> it = s.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            if (!f.getValue().isValueNode() || f.getValue().isNull()) {
                problems.add(file + ": " + path + ".sign." + f.getKey() + ": expected a string, number or boolean");
            } else {
                fields.put(f.getKey(), f.getValue().asText());
            }
        }
        return new TraceSign(fields);
    }

    private static String text(Path file, String path, JsonNode n, List<String> problems) {
        if (n == null || !n.isTextual() || n.asText().isBlank()) {
            problems.add(file + ": " + path + ": expected a non-empty string");
            return "";
        }
        return n.asText();
    }

    private static void unknown(Path file, String path, JsonNode n, Set<String> known, List<String> problems) {
        Iterator<String> names = n.fieldNames();
        while (names.hasNext()) {
            String k = names.next();
            if (!known.contains(k)) {
                problems.add(file + ": " + path + "." + k + ": unknown field (expected one of " + known.stream()
                        .sorted().toList() + ")");
            }
        }
    }
}
