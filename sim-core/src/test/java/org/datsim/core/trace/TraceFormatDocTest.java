package org.datsim.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * docs/trace-format.md against {@link TraceSchema}, both ways: its kinds table names every declared kind and no
 * other; each kind's row names every key the kind may carry and no declared key it may not; its key table is
 * {@link TraceSchema#keyTableMarkdown()} exactly. After a deliberate change to the schema, regenerate the key table
 * with {@code mvn -B -q -pl sim-core test -Dtest=TraceFormatDocTest -Dtrace.docs.write=true} and write the kind's
 * row by hand.
 */
class TraceFormatDocTest {

    static final Path DOC = Paths.get("..", "docs", "trace-format.md");
    static final String BEGIN = "<!-- trace-keys: generated from TraceSchema.keyTableMarkdown() -->\n";
    static final String END = "<!-- /trace-keys -->\n";
    private static final Pattern TICKED = Pattern.compile("`([a-z_]+)(?::[^`]*)?`");

    private static String doc() throws IOException {
        return Files.readString(DOC, StandardCharsets.UTF_8);
    }

    /** The rows of the kinds table ("| kind | when | extra fields |"), by the kinds their first cell names. */
    private static Map<String, String> kindRows(String doc) {
        int start = doc.indexOf("| kind | when | extra fields |");
        assertTrue(start >= 0, "the kinds table of " + DOC);
        Map<String, String> rows = new LinkedHashMap<>();
        String[] lines = doc.substring(start).split("\n", -1);
        for (int i = 2; i < lines.length && lines[i].startsWith("|"); i++) {
            String line = lines[i];
            // a row may go on over a wrapped line that does not start with '|'
            while (i + 1 < lines.length && !lines[i + 1].startsWith("|") && !lines[i + 1].isEmpty()) {
                line += " " + lines[++i];
            }
            String first = line.substring(1, line.indexOf('|', 1));
            Matcher m = TICKED.matcher(first);
            while (m.find()) {
                rows.put(m.group(1), line);
            }
        }
        return rows;
    }

    @Test
    void theKindsTableNamesEveryDeclaredKindAndNoOther() throws IOException {
        assertEquals(new ArrayList<>(TraceSchema.kinds()).stream().sorted().toList(),
                kindRows(doc()).keySet().stream().sorted().toList());
    }

    @Test
    void eachKindsRowNamesItsKeysAndNoKeyOfAnotherKind() throws IOException {
        List<String> problems = new ArrayList<>();
        for (Map.Entry<String, String> r : kindRows(doc()).entrySet()) {
            Set<String> named = new LinkedHashSet<>();
            Matcher m = TICKED.matcher(r.getValue());
            while (m.find()) {
                named.add(m.group(1));
            }
            for (String k : TraceSchema.keysOf(r.getKey())) {
                if (!named.contains(k)) {
                    problems.add(r.getKey() + ": its row does not name its key `" + k + "`");
                }
            }
            for (String k : named) {
                if (TraceSchema.isKey(k) && !TraceSchema.allows(r.getKey(), k)) {
                    problems.add(r.getKey() + ": its row names `" + k + "`, a key it does not carry");
                }
            }
        }
        assertEquals(List.of(), problems);
    }

    @Test
    void theKeyTableIsTheSchemas() throws IOException {
        String doc = doc();
        int b = doc.indexOf(BEGIN);
        int e = doc.indexOf(END);
        assertTrue(b >= 0 && e > b, DOC + " holds the key table between " + BEGIN.trim() + " and " + END.trim());
        String want = TraceSchema.keyTableMarkdown();
        if (Boolean.getBoolean("trace.docs.write")) {
            doc = doc.substring(0, b + BEGIN.length()) + want + doc.substring(e);
            Files.writeString(DOC, doc, StandardCharsets.UTF_8);
        }
        assertEquals(want, doc.substring(b + BEGIN.length(), doc.indexOf(END)),
                "regenerate with -Dtrace.docs.write=true (see this test's Javadoc)");
    }
}
