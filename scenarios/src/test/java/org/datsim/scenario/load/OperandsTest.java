package org.datsim.scenario.load;

import static org.datsim.scenario.ScenarioJson.withCalls;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The loader keeps what it parsed of the calls' operands on the scenario: every reference, expression, size and
 * duration is parsed once, at validation, and the run looks the results up instead of parsing again.
 */
class OperandsTest {

    private static final String EXPR = "= $i * 64 + $buf.address % 8";

    @Test
    void theLoaderKeepsEveryOperandItParsed() throws Exception {
        Scenario s = ScenarioLoader.parse("t.json", withCalls(
                "{\"repeat\": 2, \"as\": \"i\", \"calls\": [{\"call\": \"mem_write\", \"lmr\": \"$buf\","
                        + " \"offset\": \"" + EXPR + "\", \"data\": {\"fill\": 1, \"length\": \"1KiB\"}}]}",
                "{\"call\": \"mem_read\", \"lmr\": \"$buf\", \"offset\": \"2KiB\", \"length\": 16}",
                "{\"call\": \"sleep\", \"time\": \"1.5us\"}"));
        Operands o = s.operands();
        Expr e = o.expr(EXPR);
        assertSame(e, o.expr(EXPR), "the expression is parsed once, by the loader");
        assertEquals(List.of("$i", "$buf.address"), e.refs());
        Refs.Ref buf = o.ref("$buf.address");
        assertSame(buf, o.ref("$buf.address"));
        assertEquals(new Refs.Ref(null, "buf", "address"), buf);
        assertSame(o.ref("$i"), o.ref("$i"), "a loop variable's reference is kept too");
        assertEquals(2048, o.size("2KiB"));
        assertEquals(1024, o.size("1KiB"));
        assertEquals(1_500_000, o.duration("1.5us"));
    }

    @Test
    void copiesOfTheScenarioKeepItsOperands() throws Exception {
        Scenario s = ScenarioLoader.parse("t.json", withCalls("{\"call\": \"sleep\", \"time\": \"1us\"}"));
        assertSame(s.operands(), s.withSeed(7).operands());
        assertSame(s.operands(), s.withLimits(10, 10).operands());
    }

    @Test
    void textsTheLoaderDidNotSeeAreParsedOnLookup() {
        Operands none = Operands.NONE;
        assertNotSame(none.expr("= 1 + 2"), none.expr("= 1 + 2"));
        assertEquals(3, none.expr("= 1 + 2").eval(r -> 0));
        assertEquals(new Refs.Ref("peer", "buf", "rmr_context"), none.ref("$peer/buf.rmr_context"));
        assertNull(none.ref("not a reference"));
        assertEquals(4096, none.size("4KiB"));
        assertEquals(250_000, none.duration("250ns"));
    }
}
