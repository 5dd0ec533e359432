package org.datsim.core.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.LinkedHashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The schema declares each kind and key once: every constant of {@link TraceKind} and {@link TraceKey} is in the
 * schema and the schema holds nothing else; the constants are interned compile-time constants (TraceEvent compares
 * keys by identity first); {@link TraceSchema#check(TraceEvent)} tells an undeclared kind, an undeclared key, a key
 * of another kind and a value of the wrong type.
 */
class TraceSchemaTest {

    private static Set<String> constants(Class<?> c) throws IllegalAccessException {
        Set<String> out = new LinkedHashSet<>();
        for (Field f : c.getDeclaredFields()) {
            int m = f.getModifiers();
            if (Modifier.isPublic(m) && Modifier.isStatic(m) && Modifier.isFinal(m) && f.getType() == String.class) {
                String v = (String) f.get(null);
                assertEquals(f.getName(), v.toUpperCase(), "a constant is named after its value: " + v);
                assertSame(v.intern(), v, "interned: " + f.getName());
                assertTrue(out.add(v), "declared twice: " + v);
            }
        }
        return out;
    }

    @Test
    void everyKindConstantIsInTheSchemaAndNothingElse() throws Exception {
        assertEquals(constants(TraceKind.class), TraceSchema.kinds());
    }

    @Test
    void everyKeyConstantIsInTheSchemaOrAStandardFieldAndNothingElse() throws Exception {
        Set<String> keys = constants(TraceKey.class);
        keys.removeAll(TraceSchema.STANDARD_KEYS);
        assertEquals(keys, TraceSchema.keys());
        assertEquals(TraceEvent.STANDARD_KEYS, new LinkedHashSet<>(TraceSchema.STANDARD_KEYS));
        for (String k : TraceSchema.STANDARD_KEYS) {
            assertTrue(TraceSchema.isStandardKey(k));
            assertTrue(TraceEvent.isStandardKey(k), k);
            assertFalse(TraceSchema.isKey(k), "a standard field is no attribute key: " + k);
        }
    }

    @Test
    void everyKeyIsCarriedBySomeKindAndHasATypeAndAUnit() {
        for (String k : TraceSchema.keys()) {
            assertFalse(TraceSchema.kindsWith(k).isEmpty(), "no kind carries " + k);
            assertNotNull(TraceSchema.typeOf(k), k);
            assertNotNull(TraceSchema.unitOf(k), k);
        }
        assertEquals("B", TraceSchema.unitOf(TraceKey.QUEUE_BYTES));
        assertEquals("ps", TraceSchema.unitOf(TraceKey.PENALTY_PS));
        assertEquals(TraceSchema.ValueType.INTEGER_ARRAY, TraceSchema.typeOf(TraceKey.WAITING_FOR));
        assertNull(TraceSchema.typeOf("no_such_key"));
    }

    @Test
    void theOldKindConstantsOfTraceEventAreTheSchemasOwnStrings() {
        assertSame(TraceKind.POST, TraceEvent.POST);
        assertSame(TraceKind.CALL, TraceEvent.CALL);
        assertSame(TraceKind.DEQUEUE, TraceEvent.DEQUEUE);
        assertSame(TraceKind.ERROR, TraceEvent.ERROR);
        assertSame("transfered_length", TraceKey.TRANSFERED_LENGTH); // the output's spelling, kept
    }

    @Test
    void checkAcceptsADeclaredLineAndNamesWhatIsWrongWithOthers() {
        assertNull(TraceSchema.check(TraceEvent.of(1, TraceKind.PFC, "S").attr(TraceKey.PORT, "A->S")
                .attr(TraceKey.PAUSED, 1).attr(TraceKey.QUEUE_BYTES, 4096L)));
        assertNull(TraceSchema.check(TraceEvent.of(1, TraceKind.FENCE_WAIT, "A").ep("A/ep").op(3)
                .attr(TraceKey.WAITING_FOR, new long[] {1, 2}).attr(TraceKey.REASON, "barrier fence")));

        String kind = TraceSchema.check(TraceEvent.of(1, "pfc_pause", "S"));
        assertTrue(kind.contains("undeclared kind \"pfc_pause\""), kind);
        String key = TraceSchema.check(TraceEvent.of(1, TraceKind.PFC, "S").attr("queue_byte", 1L));
        assertTrue(key.contains("undeclared key \"queue_byte\""), key);
        String other = TraceSchema.check(TraceEvent.of(1, TraceKind.PFC, "S").attr(TraceKey.OPCODE, "send"));
        assertTrue(other.contains("\"opcode\" is declared, but not for this kind"), other);
        String type = TraceSchema.check(TraceEvent.of(1, TraceKind.PFC, "S").attr(TraceKey.PAUSED, "yes"));
        assertTrue(type.contains("should be integer"), type);
    }

    @Test
    void lookupsAnswerForDeclaredAndUndeclaredNames() {
        assertTrue(TraceSchema.isKind(TraceKind.PORT_QUEUE));
        assertFalse(TraceSchema.isKind("switch_queue"));
        assertTrue(TraceSchema.allows(TraceKind.DEQUEUE, TraceKey.TRANSFERED_LENGTH));
        assertFalse(TraceSchema.allows(TraceKind.DEQUEUE, TraceKey.PORT));
        assertTrue(TraceSchema.keysOf("no_such_kind").isEmpty());
        assertTrue(TraceSchema.keyTableMarkdown().contains("| `queue_bytes` | integer | `B` | `pfc`, `port_queue`"));
    }
}
