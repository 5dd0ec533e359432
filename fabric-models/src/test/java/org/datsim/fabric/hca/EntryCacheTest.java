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
    void aFilledEntryIsUsableAtItsReadyTimeAndAnEarlierLookupWaitsForItAsAMiss() {
        EntryCache c = new EntryCache(4, EntryCache.LRU);
        assertTrue(c.fill(10, 1_000));
        assertFalse(c.fill(10, 5_000), "a present key is not fetched again");
        assertEquals(0, c.hits() + c.misses(), "a fill counts no access");
        assertEquals(400, c.lookup(10, 600, 0), "its read returns at 1000: the lookup at 600 waits 400");
        assertEquals(1, c.misses());
        assertEquals(0, c.lookup(10, 1_000, 0));
        assertEquals(1, c.hits());
        assertEquals(-1, c.lookup(11, 2_000, 2_300), "a missing key");
        assertEquals(2, c.misses());
        assertEquals(300, c.lookup(11, 2_000, 0), "inserted by the miss, usable when its own read returns");
        c.preload(11);
        assertEquals(0, c.lookup(11, 2_000, 0), "a registration's entry is usable at once");
    }

    @Test
    void fillsNeverOutgrowTheCacheNorReorderPresentEntries() {
        EntryCache c = new EntryCache(3, EntryCache.LRU);
        c.access(1);
        c.access(2);
        c.access(3); // LRU order, most recent first: 3 2 1
        assertFalse(c.fill(1, 0), "present: left where it is (still least recently used)");
        assertTrue(c.fill(4, 0)); // evicts 1, the least recently used
        assertFalse(c.contains(1));
        assertEquals(3, c.size());
        assertEquals(1, c.evictions());
        assertTrue(c.access(2)); // order: 2 4 3
        for (long k = 5; k < 100; k++) {
            c.fill(k, 0);
            assertTrue(c.size() <= 3);
        }
        assertEquals(3, c.size());
        assertTrue(c.contains(97) && c.contains(98) && c.contains(99), "the last fills are the most recent");
    }

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

    /**
     * Many keys, collisions and evictions: the cache agrees with a reference LRU built on LinkedHashSet, also while
     * its arrays grow from their initial room (16) to capacities of 17, 100 and 4,096.
     */
    @Test
    void agreesWithAReferenceLruUnderRandomKeys() {
        for (int capacity : new int[] {1, 3, 16, 17, 100, 4096}) {
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
