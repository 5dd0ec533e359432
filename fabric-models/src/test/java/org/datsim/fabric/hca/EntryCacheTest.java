package org.datsim.fabric.hca;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Random;
import org.apache.commons.math3.random.MersenneTwister;
import org.junit.jupiter.api.Test;

/** The HCA's on-chip cache model: replacement policies, counts, and its hash table against a reference. */
class EntryCacheTest {

    @Test
    void lruEvictsTheLeastRecentlyUsed() {
        EntryCache c = new EntryCache(2, EntryCache.LRU);
        assertFalse(c.access(1));
        assertFalse(c.access(2));
        assertTrue(c.access(1)); // 1 is now the most recent
        assertFalse(c.access(3)); // evicts 2
        assertTrue(c.contains(1));
        assertFalse(c.contains(2));
        assertTrue(c.contains(3));
        assertEquals(1, c.hits());
        assertEquals(3, c.misses());
        assertEquals(1, c.evictions());
    }

    @Test
    void fifoEvictsTheOldestInsertedEvenIfUsed() {
        EntryCache c = new EntryCache(2, EntryCache.FIFO);
        c.access(1);
        c.access(2);
        assertTrue(c.access(1));
        assertFalse(c.access(3)); // evicts 1, the oldest, although it was just used
        assertFalse(c.contains(1));
        assertTrue(c.contains(2));
    }

    @Test
    void aCyclicScanLargerThanAnLruCacheAlwaysMisses() {
        EntryCache c = new EntryCache(4, EntryCache.LRU);
        for (int round = 0; round < 5; round++) {
            for (long k = 0; k < 5; k++) {
                c.access(k);
            }
        }
        assertEquals(0, c.hits());
        assertEquals(25, c.misses());
    }

    @Test
    void randomReplacementIsReproducibleFromItsSeedAndHitsSometimesOnACyclicScan() {
        long[] hits = new long[2];
        for (int run = 0; run < 2; run++) {
            EntryCache c = new EntryCache(4, EntryCache.RANDOM);
            c.setRandom(new MersenneTwister(7));
            for (int round = 0; round < 50; round++) {
                for (long k = 0; k < 5; k++) {
                    c.access(k);
                }
            }
            hits[run] = c.hits();
        }
        assertEquals(hits[0], hits[1]);
        assertTrue(hits[0] > 0, "random replacement keeps some of a scan LRU always loses");
    }

    @Test
    void unlimitedCapacityNeverMisses() {
        EntryCache c = new EntryCache(0, EntryCache.LRU);
        for (long k = 0; k < 1000; k++) {
            assertTrue(c.access(k));
        }
        assertEquals(0, c.misses());
        assertEquals(0, c.size());
    }

    @Test
    void preloadInsertsWithoutCounting() {
        EntryCache c = new EntryCache(3, EntryCache.LRU);
        c.preload(10);
        assertEquals(0, c.hits() + c.misses());
        assertTrue(c.access(10));
    }

    /** Many keys, collisions and evictions: the cache agrees with a reference LRU built on LinkedHashSet. */
    @Test
    void agreesWithAReferenceLruUnderRandomKeys() {
        for (int capacity : new int[] {1, 3, 16, 100}) {
            EntryCache c = new EntryCache(capacity, EntryCache.LRU);
            LinkedHashSet<Long> ref = new LinkedHashSet<>();
            Random r = new Random(capacity);
            for (int i = 0; i < 20_000; i++) {
                long key = r.nextInt(capacity * 3) * 4096L; // page-aligned keys, like MTT lookups
                boolean expected = ref.remove(key);
                ref.add(key);
                if (ref.size() > capacity) {
                    ref.remove(ref.iterator().next());
                }
                assertEquals(expected, c.access(key), "access " + i + " of key " + key);
            }
            List<Long> held = new ArrayList<>(ref);
            for (long k : held) {
                assertTrue(c.contains(k));
            }
            assertEquals(ref.size(), c.size());
        }
    }
}
