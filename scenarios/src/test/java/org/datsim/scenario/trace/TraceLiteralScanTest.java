package org.datsim.scenario.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No model, scenario-runner or viz main source spells a trace kind or key as a string literal where it emits or reads
 * a trace line: they use {@code org.datsim.core.trace.TraceKind} and {@code TraceKey}, so a renamed kind or key is a
 * compile error and not a blank view. Scanned: the second argument of {@code TraceEvent.of}, the key of
 * {@code .attr}, {@code .attrValue}, {@code .attrLong}, {@code .hasAttr}, {@code .attrs().get} and of a
 * {@code Map<String, Object>} of attributes, viz's readers {@code text(e, ...)}, {@code number(e, ...)},
 * {@code ids(e, ...)}, the {@code case} labels of a switch on a kind and {@code equals} with a kind. A parameter value
 * that happens to be spelled like a kind ({@code "pfc"} as a flow-control choice) is not a trace literal. The fix
 * for a failure: {@code scripts/trace-literals.py} (declare a new name in TraceKind or TraceKey and TraceSchema
 * first).
 */
class TraceLiteralScanTest {

    private static final Pattern CALL_ON_KEY = Pattern.compile(
            "\\.(?:attr|attrValue|attrLong|hasAttr)\\(\\s*\"|\\.attrs\\(\\)\\.get\\(\\s*\""
                    + "|(?<![\\w.])(?:TraceIndex\\.)?(?:text|number|ids)\\(\\s*(?:e|ev|event)\\s*,\\s*\"");
    private static final Pattern OF = Pattern.compile("\\bTraceEvent\\.of\\(");
    private static final String KIND_EXPR = "(?<![\\w.])(?:\\w+\\.)*kind(?:\\(\\))?";
    private static final Pattern KIND_EQUALS = Pattern.compile(
            "\"[^\"]*\"\\.equals\\(\\s*" + KIND_EXPR + "\\s*\\)|" + KIND_EXPR + "\\.equals\\(\\s*\"");
    private static final Pattern SWITCH = Pattern.compile("\\bswitch\\s*\\(");
    private static final Pattern CASE_LITERAL = Pattern.compile("\\bcase\\s+(?:[\\w.]+\\s*,\\s*)*\"");
    private static final Pattern ATTR_MAP = Pattern.compile("Map<String, Object>\\s+(\\w+)\\s*[=,)]");

    static List<Path> sources() throws IOException {
        Path root = ScenarioTreeRoot.find();
        List<Path> out = new ArrayList<>();
        for (String dir : List.of("fabric-models/src/main/java", "scenarios/src/main/java", "viz/src/main/java")) {
            try (Stream<Path> s = Files.walk(root.resolve(dir))) {
                s.filter(p -> p.toString().endsWith(".java")).sorted().forEach(out::add);
            }
        }
        return out;
    }

    /** The places in one source where a trace kind or key is spelled as a literal: "LINE: text". */
    static List<String> literals(String src) {
        String code = blankComments(src);
        List<String> out = new ArrayList<>();
        Matcher m = CALL_ON_KEY.matcher(code);
        while (m.find()) {
            out.add(at(code, m.start()));
        }
        m = OF.matcher(code);
        while (m.find()) {
            int comma = topLevelComma(code, m.end());
            if (comma > 0 && code.substring(comma + 1).stripLeading().startsWith("\"")) {
                out.add(at(code, m.start()));
            }
        }
        if (code.contains("TraceEvent")) {
            m = KIND_EQUALS.matcher(code);
            while (m.find()) {
                out.add(at(code, m.start()));
            }
            m = SWITCH.matcher(code);
            while (m.find()) {
                int close = closing(code, m.end() - 1);
                if (close > 0 && Pattern.compile("(?<![\\w.])(?:\\w+\\.)*kind\\b")
                        .matcher(code.substring(m.end(), close)).find()) {
                    casesOf(code, code.indexOf('{', close), out);
                }
            }
            m = ATTR_MAP.matcher(code);
            while (m.find()) {
                Matcher get = Pattern.compile("(?<![\\w.])" + m.group(1) + "\\.get\\(\\s*\"").matcher(code);
                while (get.find()) {
                    out.add(at(code, get.start()));
                }
            }
        }
        return out.stream().distinct().toList();
    }

    /** The case labels that are literals in the switch block at brace, nested switches left out. */
    private static void casesOf(String code, int brace, List<String> out) {
        int depth = 0;
        for (int i = brace; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"') {
                i = endOfString(code, i);
            } else if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return;
            } else if (i > brace && code.startsWith("switch", i) && SWITCH.matcher(code).region(i, code.length())
                    .lookingAt()) {
                int close = closing(code, code.indexOf('(', i));
                i = closing(code, code.indexOf('{', close)); // skip the nested switch's block
            } else if (CASE_LITERAL.matcher(code).region(i, code.length()).lookingAt()) {
                out.add(at(code, i));
            }
        }
    }

    /** The index of the bracket closing the one at open (any of ( [ {), strings skipped; -1 if none. */
    private static int closing(String code, int open) {
        int depth = 0;
        for (int i = open; i >= 0 && i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                i = endOfString(code, i);
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if ((c == ')' || c == ']' || c == '}') && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the first top-level comma of the call whose arguments start at from; -1 if none. */
    private static int topLevelComma(String code, int from) {
        int depth = 0;
        for (int i = from; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '"' || c == '\'') {
                i = endOfString(code, i);
            } else if (c == '(' || c == '[' || c == '{') {
                depth++;
            } else if (c == ')' || c == ']' || c == '}') {
                if (depth-- == 0) {
                    return -1;
                }
            } else if (c == ',' && depth == 0) {
                return i;
            }
        }
        return -1;
    }

    private static int endOfString(String code, int i) {
        char q = code.charAt(i);
        if (code.startsWith("\"\"\"", i)) {
            int j = code.indexOf("\"\"\"", i + 3);
            return j < 0 ? code.length() : j + 2;
        }
        for (int j = i + 1; j < code.length(); j++) {
            char c = code.charAt(j);
            if (c == '\\') {
                j++;
            } else if (c == q) {
                return j;
            }
        }
        return code.length();
    }

    /** The source with every comment replaced by spaces (line breaks kept), strings untouched. */
    static String blankComments(String src) {
        StringBuilder sb = new StringBuilder(src);
        for (int i = 0; i < src.length(); i++) {
            char c = src.charAt(i);
            if (c == '"' || c == '\'') {
                i = endOfString(src, i);
            } else if (src.startsWith("//", i)) {
                int j = src.indexOf('\n', i);
                j = j < 0 ? src.length() : j;
                blank(sb, i, j);
                i = j;
            } else if (src.startsWith("/*", i)) {
                int j = src.indexOf("*/", i + 2);
                j = j < 0 ? src.length() : j + 2;
                blank(sb, i, j);
                i = j - 1;
            }
        }
        return sb.toString();
    }

    private static void blank(StringBuilder sb, int from, int to) {
        for (int k = from; k < to; k++) {
            if (sb.charAt(k) != '\n') {
                sb.setCharAt(k, ' ');
            }
        }
    }

    private static String at(String code, int pos) {
        int line = 1;
        for (int i = 0; i < pos; i++) {
            line += code.charAt(i) == '\n' ? 1 : 0;
        }
        int s = code.lastIndexOf('\n', pos) + 1;
        int e = code.indexOf('\n', pos);
        return line + ": " + code.substring(s, e < 0 ? code.length() : e).strip();
    }

    @Test
    void noMainSourceSpellsATraceKindOrKeyAsALiteral() throws IOException {
        List<Path> files = sources();
        assertTrue(files.size() > 100, "the sources are found: " + files.size());
        List<String> found = new ArrayList<>();
        Path root = ScenarioTreeRoot.find();
        for (Path f : files) {
            for (String l : literals(Files.readString(f, StandardCharsets.UTF_8))) {
                found.add(root.relativize(f) + ":" + l);
            }
        }
        assertEquals(List.of(), found, "run scripts/trace-literals.py");
    }

    @Test
    void theScanFindsEachFormOfATraceLiteral() {
        String src = String.join("\n",
                "class X {",
                "  void f(TraceEvent e, String kind) {",
                "    trace.fire(TraceEvent.of(sim.now(), \"pfc\", name).attr(\"port\", p));",
                "    long q = e.attrLong(\"queue_bytes\", 0);",
                "    Object o = e.attrs().get(\"bytes\");",
                "    String r = TraceIndex.text(e, \"reason\");",
                "    if (\"ecn_mark\".equals(e.kind())) {}",
                "    if (kind.equals(\"port_queue\")) {}",
                "    switch (e.kind()) {",
                "      case \"port_sample\":",
                "      case TraceKind.PFC, \"port_queue\" -> {}",
                "        switch (packet) { case \"cm\": break; }",
                "        break;",
                "    }",
                "    Map<String, Object> a = e.attrs();",
                "    a.get(\"opcode\");",
                "  }",
                "}");
        List<String> found = literals(src);
        assertEquals(List.of("3: trace.fire(TraceEvent.of(sim.now(), \"pfc\", name).attr(\"port\", p));",
                "4: long q = e.attrLong(\"queue_bytes\", 0);",
                "5: Object o = e.attrs().get(\"bytes\");",
                "6: String r = TraceIndex.text(e, \"reason\");",
                "7: if (\"ecn_mark\".equals(e.kind())) {}",
                "8: if (kind.equals(\"port_queue\")) {}",
                "10: case \"port_sample\":",
                "11: case TraceKind.PFC, \"port_queue\" -> {}",
                "16: a.get(\"opcode\");"), found);
    }

    @Test
    void aParameterValueSpelledLikeAKindAndCommentsAreNotTraceLiterals() {
        String src = String.join("\n",
                "class Y {",
                "  // trace.fire(TraceEvent.of(t, \"pfc\", n));",
                "  void f(TraceEvent e) {",
                "    if (\"pfc\".equals(p.choice(LINK_FLOW_CONTROL))) {}",
                "    switch (topology) { case \"fat_tree\": break; }",
                "    trace.fire(TraceEvent.of(now(\"x\"), TraceKind.PFC, n).attr(TraceKey.PORT, \"A->S\"));",
                "  }",
                "}");
        assertEquals(List.of(), literals(src));
    }
}
