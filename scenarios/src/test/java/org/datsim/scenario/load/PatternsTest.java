package org.datsim.scenario.load;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.SimTime;
import org.junit.jupiter.api.Test;

/**
 * The JSON Schema's patterns are the loader's: every pattern in the schema is one of {@link Patterns}, and the
 * units of the time and size patterns are exactly the units the parsers (the judges) accept.
 */
class PatternsTest {

    @Test
    void everyPatternInTheSchemaIsOneOfTheShared() {
        Set<String> shared = Set.of(Patterns.NAME, Patterns.TIME, Patterns.SIZE, Patterns.HEX, Patterns.REF_START,
                Patterns.REF_OR_EXPR_START, Patterns.INDEXED_NAME, Patterns.AFTER, Patterns.OUTCOME_KEY,
                Patterns.COMPARISON);
        List<String> found = new ArrayList<>();
        collect(SchemaGenerator.schema(), found);
        assertTrue(found.size() > 10, found.toString());
        for (String p : found) {
            assertTrue(shared.contains(p), "the schema's pattern " + p + " is not defined in Patterns");
        }
        assertEquals(shared, Set.copyOf(found));
    }

    @Test
    void theComparisonPatternAcceptsWhatTheLoaderReadsAsAComparison() {
        Pattern p = Pattern.compile(Patterns.COMPARISON);
        for (String c : List.of(">= 4", "!= 0", "<$n", " > = $a + 1", "<= $e.evd_qlen")) {
            boolean loader = Comparison.parse(com.fasterxml.jackson.databind.node.TextNode.valueOf(c)) != null;
            assertEquals(loader, p.matcher(c).find(), c);
        }
        for (String c : List.of("= 4", "$n", "4KiB", "<")) {
            assertTrue(!p.matcher(c).find() && Comparison.parse(
                    com.fasterxml.jackson.databind.node.TextNode.valueOf(c)) == null, c);
        }
    }

    private static void collect(JsonNode n, List<String> out) {
        if (n.isObject() && n.has("pattern") && n.get("pattern").isTextual()) {
            out.add(n.get("pattern").asText());
        }
        n.forEach(c -> collect(c, out));
    }

    @Test
    void theTimePatternHasExactlyTheUnitsSimTimeAccepts() {
        Set<String> units = unitsNamedBy(SimTime::parse);
        assertEquals(units, alternatives(Patterns.TIME));
        for (String u : units) {
            for (String text : List.of("2" + u, "3 " + u)) {
                assertTrue(Pattern.compile(Patterns.TIME).matcher(text).find(), text);
                SimTime.parse(text);
            }
        }
        assertTrue(!Pattern.compile(Patterns.TIME).matcher("1.5").find());
    }

    @Test
    void theSizePatternHasExactlyTheUnitsByteSizeAccepts() {
        Set<String> units = unitsNamedBy(ByteSize::parse);
        assertEquals(units, alternatives(Patterns.SIZE));
        for (String u : units) {
            for (String text : List.of("4" + u, "2 " + u)) {
                assertTrue(Pattern.compile(Patterns.SIZE).matcher(text).find(), text);
                ByteSize.parse(text);
            }
        }
        assertTrue(Pattern.compile(Patterns.SIZE).matcher("4096").find());
    }

    /** The units a parser's "unknown unit" message lists, such as "(use one of ps, ns, us, ms, s)". */
    private static Set<String> unitsNamedBy(Function<String, Long> parser) {
        String message = assertThrows(IllegalArgumentException.class, () -> parser.apply("1 furlong")).getMessage();
        Matcher m = Pattern.compile("\\(use (?:one of )?([^)]*)\\)").matcher(message);
        assertTrue(m.find(), message);
        return new TreeSet<>(Arrays.asList(m.group(1).split(",\\s*|\\s+or\\s+")));
    }

    /** The alternatives of a pattern's unit group, such as "(ps|ns|us|ms|s)". */
    private static Set<String> alternatives(String pattern) {
        Matcher m = Pattern.compile("\\(([A-Za-z|]+)\\)").matcher(pattern);
        assertTrue(m.find(), pattern);
        return new TreeSet<>(Arrays.asList(m.group(1).split("\\|")));
    }

    @Test
    void namesReferencesAndExpressionsAreJudgedByTheSamePatterns() {
        Pattern name = Pattern.compile(Patterns.NAME);
        for (String s : List.of("a", "_x1", "buf_2", "1a", "a-b", "a.b", "", "a b")) {
            assertEquals(name.matcher(s).find(), Refs.isName(s), s);
        }
        Pattern start = Pattern.compile(Patterns.REF_OR_EXPR_START);
        for (String s : List.of("$buf", "$b/buf.address", "= $i * 2", "=1", "buf", "4KiB", " $x", "")) {
            boolean loader = s.startsWith(Patterns.REF_PREFIX) || Expr.isExpr(s);
            assertEquals(start.matcher(s).find(), loader, s);
        }
        assertEquals(new Refs.Ref("b", "buf", "address"), Refs.parse("$b/buf.address"));
        assertEquals(new Refs.Ref(null, "buf", null), Refs.parse("$buf"));
        assertEquals(null, Refs.parse("$1buf"));
        Pattern hex = Pattern.compile(Patterns.HEX);
        for (String s : List.of("", "00ff", "ABcd")) {
            assertTrue(hex.matcher(s).find(), s);
        }
        for (String s : List.of("0", "abc", "zz", "00\n")) {
            assertTrue(!hex.matcher(s).matches(), s);
        }
    }
}
