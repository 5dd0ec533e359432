package org.datsim.scenario.sweep;

import static org.datsim.scenario.load.Problems.show;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonPointer;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.LongNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.datsim.core.time.ByteSize;
import org.datsim.scenario.load.JsonInput;
import org.datsim.scenario.load.Problems;
import org.datsim.scenario.load.ScenarioException;
import org.datsim.scenario.load.ScenarioLoader;

/**
 * Reads and validates a study file, plans its runs and validates the scenario of every point before anything runs.
 * Problems are collected, each naming the file and the JSON path; a point's scenario problems name the point and its
 * values as well. The study file and a base scenario file are parsed as {@link JsonInput} parses what people write
 * (plain trees, no typing, duplicate keys and content after the value rejected), and their sizes are bounded.
 */
public final class StudyLoader {

    /** The most runs (points times repetitions) a study may plan. */
    public static final int MAX_RUNS = 100_000;
    /** The most problems reported for the scenarios of the points (the rest are counted). */
    static final int MAX_POINT_PROBLEMS = 20;

    private static final ObjectMapper SORTED = JsonMapper.builder().build();

    private final String file;
    private final Path dir;
    private final Problems problems;

    private StudyLoader(String file, Path dir) {
        this.file = file;
        this.dir = dir;
        this.problems = new Problems(file);
    }

    /**
     * Loads a study file; a base scenario given as a path is resolved against the study file's directory.
     *
     * @param path the study file
     * @return the validated study with its runs planned
     * @throws ScenarioException with one message per problem
     */
    public static Study load(Path path) throws ScenarioException {
        String text = JsonInput.readFile(path, "study");
        Path parent = path.toAbsolutePath().getParent();
        return parse(path.toString(), text, parent);
    }

    /**
     * Validates study text.
     *
     * @param file the name used in messages
     * @param json the study's JSON text
     * @param dir the directory that relative scenario paths are resolved against
     * @return the validated study
     * @throws ScenarioException with one message per problem
     */
    public static Study parse(String file, String json, Path dir) throws ScenarioException {
        JsonNode root = JsonInput.tree(file, json, "study");
        StudyLoader l = new StudyLoader(file, dir);
        Study s = l.validate(root);
        if (l.problems.count() > 0) {
            throw new ScenarioException(l.problems.messages());
        }
        return s;
    }

    private Study validate(JsonNode root) {
        if (!root.isObject()) {
            problems.add("$", "expected a study object, found " + show(root));
            return null;
        }
        problems.unknownKeys(root, "$", Set.of("study", "description", "scenario", "seed", "seeds", "repetitions",
                "set", "axes", "metrics", "plot", "keep_traces", "$schema"));
        String name = problems.string(root, "study", "$", true);
        if (name != null && !name.matches("[A-Za-z0-9_.-]+")) {
            problems.add("$.study", "expected a name of letters, digits, '_', '.' and '-', found \"" + name + "\"");
        }
        String description = problems.string(root, "description", "$", false);
        long seed = 1;
        JsonNode sn = root.get("seed");
        if (sn != null) {
            if (sn.isIntegralNumber() && sn.canConvertToLong()) {
                seed = sn.asLong();
            } else {
                problems.add("$.seed", "expected a whole number, found " + show(sn));
            }
        }
        boolean common = false;
        String seeds = problems.string(root, "seeds", "$", false);
        if (seeds != null) {
            if (seeds.equals("common")) {
                common = true;
            } else if (!seeds.equals("per_point")) {
                problems.add("$.seeds", "expected \"per_point\" (each point and repetition its own seed, the default)"
                        + " or \"common\" (every point uses the same seeds, repetition by repetition), found \""
                        + seeds + "\"");
            }
        }
        int reps = 1;
        JsonNode rn = root.get("repetitions");
        if (rn != null) {
            if (rn.isIntegralNumber() && rn.asLong() >= 1 && rn.asLong() <= 10_000) {
                reps = rn.asInt();
            } else {
                problems.add("$.repetitions", "expected a whole number from 1 to 10000, found " + show(rn));
            }
        }
        boolean keep = false;
        JsonNode kt = root.get("keep_traces");
        if (kt != null) {
            if (kt.isBoolean()) {
                keep = kt.asBoolean();
            } else {
                problems.add("$.keep_traces", "expected true or false, found " + show(kt));
            }
        }
        ObjectNode base = base(root.get("scenario"));
        if (base != null) {
            fixed(root.get("set"), base);
        }
        List<Axis> axes = axes(root.get("axes"));
        List<String> metrics = metrics(root.get("metrics"));
        String[] plot = plot(root.get("plot"), axes);
        if (problems.count() > 0) {
            return null;
        }
        List<Point> runs = plan(base, axes, reps, seed, common);
        return runs == null ? null : new Study(file, name, description == null ? "" : description, axes, reps,
                metrics, plot[0], plot[1], "true".equals(plot[2]), keep, runs, java.util.Collections.unmodifiableMap(new LinkedHashMap<>(captions)));
    }

    private String baseName = "inline scenario";

    private ObjectNode base(JsonNode n) {
        if (n == null) {
            problems.add("$.scenario", "missing; expected the base scenario: a path (relative to the study file) or a"
                    + " scenario object");
            return null;
        }
        if (n.isObject()) {
            return (ObjectNode) n.deepCopy();
        }
        if (!n.isTextual()) {
            problems.add("$.scenario", "expected a path to a scenario file or a scenario object, found " + show(n));
            return null;
        }
        Path p = JsonInput.userPath(dir, n.asText());
        if (p == null) {
            problems.add("$.scenario", JsonInput.badPath(n.asText()));
            return null;
        }
        p = p.normalize();
        baseName = n.asText();
        try {
            JsonNode t = JsonInput.tree(p.toString(), JsonInput.readFile(p, "scenario"), "scenario");
            if (!t.isObject()) {
                problems.add("$.scenario", p + " holds " + show(t) + ", expected a scenario object");
                return null;
            }
            return (ObjectNode) t;
        } catch (ScenarioException e) {
            problems.add("$.scenario", String.join("; ", e.problems()));
            return null;
        }
    }

    /** Applies the study's fixed settings ({"set": {"/json/pointer": value}}) to the base scenario. */
    private void fixed(JsonNode n, ObjectNode base) {
        if (n == null) {
            return;
        }
        if (!n.isObject()) {
            problems.add("$.set", "expected an object of JSON Pointers and values such as {\"/vars/size\": \"64KiB\"},"
                    + " found " + show(n));
            return;
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = n.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            String path = "$.set[\"" + e.getKey() + "\"]";
            try {
                JsonPointer p = JsonPointer.compile(e.getKey());
                if (p.matches() || e.getKey().equals("/seed")) {
                    problems.add(path, "expected a JSON Pointer to a parameter (not the whole scenario, not the seed)");
                    continue;
                }
            } catch (IllegalArgumentException ex) {
                problems.add(path, "expected a JSON Pointer (RFC 6901) starting with \"/\"");
                continue;
            }
            String why = set(base, e.getKey(), e.getValue());
            if (why != null) {
                problems.add(path, why);
            }
        }
    }

    private List<Axis> axes(JsonNode n) {
        List<Axis> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (!n.isArray()) {
            problems.add("$.axes", "expected an array of axes such as [{\"name\": \"mtu\", \"path\":"
                    + " \"/fabric/params/hca.mtu\", \"values\": [\"1KiB\", \"4KiB\"]}], found " + show(n));
            return out;
        }
        Set<String> names = new LinkedHashSet<>();
        Set<String> pointers = new LinkedHashSet<>();
        for (int i = 0; i < n.size(); i++) {
            String path = "$.axes[" + i + "]";
            JsonNode a = n.get(i);
            if (a.isObject() && a.has("zip")) {
                for (Iterator<String> it = a.fieldNames(); it.hasNext();) {
                    String k = it.next();
                    if (!k.equals("zip")) {
                        problems.add(path + "." + k, "unknown field; a zip is {\"zip\": [axis, axis, ...]}");
                    }
                }
                JsonNode z = a.get("zip");
                if (!z.isArray() || z.size() < 1) {
                    problems.add(path + ".zip", "expected a non-empty array of axes that advance together, found "
                            + show(z));
                    continue;
                }
                int len = -1;
                for (int j = 0; j < z.size(); j++) {
                    Axis ax = axis(z.get(j), path + ".zip[" + j + "]", i, names, pointers);
                    if (ax == null) {
                        continue;
                    }
                    if (len >= 0 && ax.values().size() != len) {
                        problems.add(path + ".zip[" + j + "].values", "a zip's axes must have the same number of"
                                + " values: found " + ax.values().size() + ", the first has " + len);
                    }
                    len = len < 0 ? ax.values().size() : len;
                    out.add(ax);
                }
            } else {
                Axis ax = axis(a, path, i, names, pointers);
                if (ax != null) {
                    out.add(ax);
                }
            }
        }
        return out;
    }

    private Axis axis(JsonNode a, String path, int group, Set<String> names, Set<String> pointers) {
        if (!a.isObject()) {
            problems.add(path, "expected an axis {\"name\": ..., \"path\": \"/json/pointer\", \"values\": [...]} or a"
                    + " {\"zip\": [...]}, found " + show(a));
            return null;
        }
        problems.unknownKeys(a, path, Set.of("name", "path", "values"));
        JsonNode pn = a.get("path");
        String pointer = null;
        if (pn == null || !pn.isTextual()) {
            problems.add(path + ".path", "expected a JSON Pointer into the scenario such as \"/fabric/params/hca.mtu\","
                    + " \"/fabric/links/0/bandwidth\" or \"/vars/size\", found " + show(pn));
        } else {
            pointer = pn.asText();
            try {
                JsonPointer p = JsonPointer.compile(pointer);
                String deep = tooDeep(pointer);
                if (p.matches()) {
                    problems.add(path + ".path", "the empty pointer addresses the whole scenario; name a parameter");
                    pointer = null;
                } else if (deep != null) {
                    problems.add(path + ".path", deep);
                    pointer = null;
                } else if (pointer.equals("/seed")) {
                    problems.add(path + ".path", "the seed is set by the study (\"seed\", \"seeds\", \"repetitions\"),"
                            + " not by an axis");
                    pointer = null;
                } else if (!pointers.add(pointer)) {
                    problems.add(path + ".path", "\"" + pointer + "\" is set by another axis already");
                    pointer = null;
                }
            } catch (IllegalArgumentException e) {
                problems.add(path + ".path", "expected a JSON Pointer (RFC 6901) starting with \"/\", found \""
                        + pointer + "\"");
                pointer = null;
            }
        }
        String name = null;
        JsonNode nn = a.get("name");
        if (nn != null) {
            if (!nn.isTextual() || !nn.asText().matches("[A-Za-z0-9_.-]+")) {
                problems.add(path + ".name", "expected a name of letters, digits, '_', '.' and '-', found " + show(nn));
            } else {
                name = nn.asText();
            }
        } else if (pointer != null) {
            name = pointer.substring(pointer.lastIndexOf('/') + 1).replace("~1", "/").replace("~0", "~");
        }
        if (name != null && Set.of("point", "rep", "seed", "id", "exit", "n").contains(name)) {
            problems.add(path + ".name", "\"" + name + "\" is a column of the tables already; name the axis otherwise");
            name = null;
        } else if (name != null && !names.add(name)) {
            problems.add(path + ".name", "another axis is named \"" + name + "\"; give each axis its own \"name\"");
            name = null;
        }
        List<JsonNode> values = values(a.get("values"), path + ".values");
        if (pointer == null || name == null || values == null) {
            return null;
        }
        return new Axis(name, pointer, values, group);
    }

    private List<JsonNode> values(JsonNode v, String path) {
        if (v == null) {
            problems.add(path, "missing; expected an array of values or a range {\"from\": 64, \"to\": \"64KiB\","
                    + " \"times\": 2} or {\"from\": 1, \"to\": 16, \"step\": 1}");
            return null;
        }
        if (v.isArray()) {
            if (v.isEmpty()) {
                problems.add(path, "expected at least one value");
                return null;
            }
            List<JsonNode> out = new ArrayList<>();
            v.forEach(out::add);
            return out;
        }
        if (!v.isObject()) {
            problems.add(path, "expected an array of values or a range object, found " + show(v));
            return null;
        }
        for (Iterator<String> it = v.fieldNames(); it.hasNext();) {
            String k = it.next();
            if (!Set.of("from", "to", "step", "times").contains(k)) {
                problems.add(path + "." + k, "unknown field; a range has from, to and step or times");
            }
        }
        Long from = whole(v.get("from"), path + ".from");
        Long to = whole(v.get("to"), path + ".to");
        Long step = v.has("step") ? whole(v.get("step"), path + ".step") : null;
        Long times = v.has("times") ? whole(v.get("times"), path + ".times") : null;
        if (from == null || to == null) {
            return null;
        }
        if ((step == null) == (times == null)) {
            problems.add(path, "expected exactly one of \"step\" (arithmetic) and \"times\" (geometric)");
            return null;
        }
        if (step != null && step < 1 || times != null && times < 2 || times != null && from < 1) {
            problems.add(path, "expected step >= 1, or times >= 2 with from >= 1");
            return null;
        }
        List<JsonNode> out = new ArrayList<>();
        for (long x = from; x <= to; x = step != null ? x + step : x * times) {
            if (out.size() >= MAX_RUNS) {
                problems.add(path, "the range has more than " + MAX_RUNS + " values");
                return null;
            }
            out.add(LongNode.valueOf(x));
            if (x > Long.MAX_VALUE / 4) {
                break;
            }
        }
        if (out.isEmpty()) {
            problems.add(path, "the range is empty (from > to)");
            return null;
        }
        return out;
    }

    private Long whole(JsonNode n, String path) {
        if (n != null && n.isIntegralNumber() && n.canConvertToLong()) {
            return n.asLong();
        }
        if (n != null && n.isTextual()) {
            try {
                return ByteSize.parse(n.asText());
            } catch (IllegalArgumentException e) {
                // reported below
            }
        }
        problems.add(path, "expected a whole number or a size such as \"64KiB\", found " + show(n));
        return null;
    }

    private List<String> metrics(JsonNode n) {
        List<String> out = new ArrayList<>();
        if (n == null) {
            return out;
        }
        if (!n.isArray()) {
            problems.add("$.metrics", "expected an array of metric names, globs or JSON Pointers into summary.json,"
                    + " found " + show(n));
            return out;
        }
        for (int i = 0; i < n.size(); i++) {
            JsonNode m = n.get(i);
            String path = "$.metrics[" + i + "]";
            if (!m.isTextual()) {
                problems.add(path, "expected a metric name such as \"rdma_read.p50_us\", found " + show(m));
                continue;
            }
            String why = Metrics.checkSelector(m.asText());
            if (why != null) {
                problems.add(path, why);
            } else {
                out.add(m.asText());
            }
        }
        return out;
    }

    /** The captions of {@code plot.captions}, by metric, in file order. */
    private final Map<String, String> captions = new java.util.LinkedHashMap<>();

    private String[] plot(JsonNode n, List<Axis> axes) {
        String[] out = {null, null, "false"};
        if (n == null) {
            return out;
        }
        if (!n.isObject()) {
            problems.add("$.plot", "expected {\"x\": AXIS, \"series\": AXIS, \"log_x\": true}, found " + show(n));
            return out;
        }
        problems.unknownKeys(n, "$.plot", Set.of("x", "series", "log_x", "captions"));
        JsonNode cap = n.get("captions");
        if (cap != null) {
            if (!cap.isObject()) {
                problems.add("$.plot.captions", "expected {\"METRIC\": \"caption\"}, found " + show(cap));
            } else {
                cap.fields().forEachRemaining(e -> {
                    if (!e.getValue().isTextual() || e.getValue().asText().length() > 500) {
                        problems.add("$.plot.captions." + e.getKey(), "expected a caption of at most 500 characters,"
                                + " found " + show(e.getValue()));
                    } else {
                        captions.put(e.getKey(), e.getValue().asText());
                    }
                });
            }
        }
        List<String> names = new ArrayList<>();
        axes.forEach(a -> names.add(a.name()));
        for (int i = 0; i < 2; i++) {
            String key = i == 0 ? "x" : "series";
            JsonNode v = n.get(key);
            if (v == null) {
                continue;
            }
            if (!v.isTextual() || !names.contains(v.asText())) {
                problems.add("$.plot." + key, "expected the name of an axis, one of " + names + ", found " + show(v));
            } else {
                out[i] = v.asText();
            }
        }
        if (out[0] != null && out[0].equals(out[1])) {
            problems.add("$.plot.series", "the series axis must differ from the x axis");
        }
        JsonNode lx = n.get("log_x");
        if (lx != null) {
            if (!lx.isBoolean()) {
                problems.add("$.plot.log_x", "expected true or false, found " + show(lx));
            } else {
                out[2] = String.valueOf(lx.asBoolean());
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ planning

    private List<Point> plan(ObjectNode base, List<Axis> axes, int reps, long studySeed, boolean common) {
        String label = file + " (base scenario " + baseName + ")";
        try {
            ScenarioLoader.parse(label, base.toString());
        } catch (ScenarioException e) {
            e.problems().forEach(problems::addWorded);
            return null;
        }
        // Cartesian dimensions in axis order; a zip's axes share one dimension.
        Map<Integer, List<Axis>> groups = new TreeMap<>();
        for (Axis a : axes) {
            groups.computeIfAbsent(a.group(), g -> new ArrayList<>()).add(a);
        }
        List<List<Axis>> dims = new ArrayList<>(groups.values());
        long total = 1;
        for (List<Axis> d : dims) {
            total *= d.get(0).values().size();
            if (total * reps > MAX_RUNS) {
                problems.add("$.axes", "the study plans more than " + MAX_RUNS + " runs (points times repetitions)");
                return null;
            }
        }
        List<Point> runs = new ArrayList<>();
        int pointProblems = 0;
        int[] idx = new int[dims.size()];
        for (int point = 0; point < total; point++) {
            long rest = point;
            for (int d = dims.size() - 1; d >= 0; d--) {
                int size = dims.get(d).get(0).values().size();
                idx[d] = (int) (rest % size);
                rest /= size;
            }
            ObjectNode s = base.deepCopy();
            Map<String, JsonNode> values = new LinkedHashMap<>();
            List<String> setProblems = new ArrayList<>();
            for (Axis a : axes) {
                int d = 0;
                while (dims.get(d).get(0).group() != a.group()) {
                    d++;
                }
                JsonNode v = a.values().get(idx[d]);
                values.put(a.name(), v);
                String why = set(s, a.pointer(), v);
                if (why != null) {
                    setProblems.add("axis \"" + a.name() + "\": " + why);
                }
            }
            Point probe = new Point(point, 0, 0, values, "", "");
            String where = file + " " + probe.describe().replace(" rep 0", "");
            if (!setProblems.isEmpty()) {
                for (String p : setProblems) {
                    if (pointProblems++ < MAX_POINT_PROBLEMS) {
                        problems.addWorded(where + ": " + p);
                    }
                }
                continue;
            }
            try {
                ScenarioLoader.parse(where, s.toString());
            } catch (ScenarioException e) {
                for (String p : e.problems()) {
                    if (pointProblems++ < MAX_POINT_PROBLEMS) {
                        problems.addWorded(p);
                    }
                }
                continue;
            }
            for (int rep = 0; rep < reps; rep++) {
                long seed = seed(studySeed, common ? -1 : point, rep);
                s.set("seed", LongNode.valueOf(seed));
                String canonical = canonical(s);
                runs.add(new Point(point, rep, seed, values, canonical, hash(canonical)));
            }
        }
        if (pointProblems > MAX_POINT_PROBLEMS) {
            problems.addWorded(file + ": ... and " + (pointProblems - MAX_POINT_PROBLEMS) + " more problems in the"
                    + " points' scenarios");
        }
        return problems.count() == 0 ? runs : null;
    }

    /** The most levels of a JSON Pointer into a scenario (the deepest scenario field is a few levels down). */
    static final int MAX_POINTER_LEVELS = 32;

    /** Returns why a pointer is too deep to follow, or null. */
    static String tooDeep(String pointer) {
        int levels = 0;
        for (int i = 0; i < pointer.length(); i++) {
            if (pointer.charAt(i) == '/') {
                levels++;
            }
        }
        return levels > MAX_POINTER_LEVELS ? "the pointer has " + levels + " levels; pointers into a scenario are"
                + " limited to " + MAX_POINTER_LEVELS : null;
    }

    /**
     * Sets the value a JSON Pointer addresses. Missing members of objects on the way are created as objects; array
     * elements must exist.
     *
     * @return null, or why the pointer cannot be set
     */
    static String set(ObjectNode root, String pointer, JsonNode value) {
        String deep = tooDeep(pointer);
        if (deep != null) {
            return deep;
        }
        JsonPointer p = JsonPointer.compile(pointer);
        JsonNode cur = root;
        String at = "";
        while (true) {
            JsonPointer tail = p.tail();
            String prop = p.getMatchingProperty();
            boolean last = tail == null || tail.matches();
            if (cur.isObject()) {
                ObjectNode o = (ObjectNode) cur;
                if (last) {
                    o.set(prop, value.deepCopy());
                    return null;
                }
                JsonNode next = o.get(prop);
                if (next == null || next.isNull()) {
                    next = o.putObject(prop);
                } else if (!next.isContainerNode()) {
                    return at + "/" + prop + " is " + show(next) + ", not an object or array, so \"" + pointer
                            + "\" cannot be set";
                }
                cur = next;
            } else {
                ArrayNode arr = (ArrayNode) cur;
                int i = p.getMatchingIndex();
                if (i < 0 || i >= arr.size()) {
                    return at + " is an array of " + arr.size() + " elements; \"" + prop + "\" is not one of its"
                            + " indexes, so \"" + pointer + "\" cannot be set";
                }
                if (last) {
                    arr.set(i, value.deepCopy());
                    return null;
                }
                JsonNode next = arr.get(i);
                if (!next.isContainerNode()) {
                    return at + "/" + prop + " is " + show(next) + ", not an object or array, so \"" + pointer
                            + "\" cannot be set";
                }
                cur = next;
            }
            at = at + "/" + prop;
            p = tail;
        }
    }

    /**
     * Derives a run's seed: SplitMix64 over the study seed, the point (-1 when every point shares the seeds) and
     * the repetition; positive and never 0.
     */
    static long seed(long studySeed, long point, long rep) {
        long z = studySeed;
        z = mix(z + 0x9E3779B97F4A7C15L * (point + 2));
        z = mix(z + 0x9E3779B97F4A7C15L * (rep + 1));
        z &= Long.MAX_VALUE;
        return z == 0 ? 1 : z;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /** Returns compact JSON with the members of every object sorted by name. */
    static String canonical(JsonNode n) {
        try {
            return SORTED.writeValueAsString(sorted(n));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static JsonNode sorted(JsonNode n) {
        if (n.isObject()) {
            ObjectNode o = JsonNodeFactory.instance.objectNode();
            TreeMap<String, JsonNode> m = new TreeMap<>();
            n.fields().forEachRemaining(e -> m.put(e.getKey(), e.getValue()));
            m.forEach((k, v) -> o.set(k, sorted(v)));
            return o;
        }
        if (n.isArray()) {
            ArrayNode a = JsonNodeFactory.instance.arrayNode();
            n.forEach(x -> a.add(sorted(x)));
            return a;
        }
        return n;
    }

    static String hash(String text) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d).substring(0, 20);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
