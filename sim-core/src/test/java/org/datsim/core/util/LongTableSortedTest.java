package org.datsim.core.util;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** LongTable against a TreeMap, with extreme keys, then its sorted values, clear and the null check. */
class LongTableSortedTest {

    @Test
    void behavesLikeASortedMap() {
        LongTable<String> m = new LongTable<>();
        TreeMap<Long, String> ref = new TreeMap<>();
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < 200_000; i++) {
            // clustered keys, plus the extremes and 0 (the default of an empty slot's key)
            long key = switch (r.nextInt(20)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0;
                default -> r.nextInt(3_000) * 64L - 1_000;
            };
            switch (r.nextInt(3)) {
                case 0 -> {
                    ref.remove(key);
                    m.remove(key);
                }
                case 1 -> {
                    String v = "v" + i;
                    ref.put(key, v);
                    m.put(key, v);
                }
                default -> assertEquals(ref.get(key), m.get(key), "get " + key);
            }
            assertEquals(ref.size(), m.size());
        }
        assertEquals(List.copyOf(ref.values()), m.valuesByKey());
        m.clear();
        assertEquals(0, m.size());
        assertEquals(List.of(), m.valuesByKey());
        assertEquals(null, m.get(0));
        assertThrows(NullPointerException.class, () -> m.put(1, null));
    }
}
