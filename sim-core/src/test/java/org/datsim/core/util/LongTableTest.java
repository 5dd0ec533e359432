package org.datsim.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** LongTable against java.util.HashMap: random puts, gets and removes over a small key range (long probe runs). */
class LongTableTest {

    @Test
    void behavesLikeAHashMapUnderRandomPutsAndRemoves() {
        SplittableRandom r = new SplittableRandom(42);
        LongTable<Long> t = new LongTable<>();
        Map<Long, Long> ref = new HashMap<>();
        for (int step = 0; step < 200_000; step++) {
            // Keys that collide: multiples of a large power of two share low bits, and a small range keeps runs long.
            long key = (r.nextInt(300) - 150) * (1L << 33) + r.nextInt(3);
            int op = r.nextInt(10);
            if (op < 5) {
                t.put(key, (long) step);
                ref.put(key, (long) step);
            } else if (op < 8) {
                t.remove(key);
                ref.remove(key);
            } else {
                assertEquals(ref.get(key), t.get(key), "key " + key + " at step " + step);
            }
            if (step % 1000 == 0) {
                assertEquals(ref.size(), t.size());
                for (Map.Entry<Long, Long> e : ref.entrySet()) {
                    assertEquals(e.getValue(), t.get(e.getKey()));
                }
            }
        }
    }

    @Test
    void removingAnAbsentKeyChangesNothing() {
        LongTable<String> t = new LongTable<>();
        t.put(7, "a");
        t.remove(8);
        assertEquals(1, t.size());
        assertEquals("a", t.get(7));
        t.remove(7);
        assertNull(t.get(7));
        assertEquals(0, t.size());
    }
}
