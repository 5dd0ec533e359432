package org.datsim.core.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A keyed {@link CalendarQueue} takes events of equal time in key order whatever the insertion order: a randomised
 * differential test against a TreeSet of (time, key), with many ties, keys inserted out of order, far events,
 * cancellations, events queued again and the growth and shrinking of the calendar.
 */
class KeyedCalendarQueueTest {

    private long clock;

    @Test
    void takesEqualTimesInKeyOrderWhateverTheInsertionOrder() {
        for (long seed = 1; seed <= 6; seed++) {
            fuzz(seed);
        }
    }

    private void fuzz(long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        clock = 0;
        CalendarQueue q = CalendarQueue.keyed(() -> clock);
        assertTrue(q.isKeyed());
        TreeSet<long[]> ref = new TreeSet<>((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        HashMap<Long, long[]> byKey = new HashMap<>();
        HashMap<Long, Long> idOfKey = new HashMap<>();
        List<Long> live = new ArrayList<>();
        EventHandler h = arg -> {};
        long taken = 0;
        for (int step = 0; step < 40_000; step++) {
            int op = rnd.nextInt(10);
            if (op < 5 || ref.isEmpty()) {
                long span = rnd.nextInt(4) == 0 ? 1L << (20 + rnd.nextInt(30)) : 64;
                long t = clock + (rnd.nextLong(span) / 8) * 8; // a coarse grid: many ties
                long key = rnd.nextLong(1L << 40) << 8 | rnd.nextInt(256); // random, so out of insertion order
                if (byKey.containsKey(key)) {
                    continue;
                }
                int owner = (int) (key & 1023);
                long id = q.insertKeyed(t, h, key ^ 77, key, owner);
                long[] e = {t, key, owner};
                ref.add(e);
                byKey.put(key, e);
                idOfKey.put(key, id);
                live.add(key);
                taken = 0;
            } else if (op < 6 && !live.isEmpty()) {
                long key = live.remove(rnd.nextInt(live.size()));
                long[] e = byKey.remove(key);
                if (e != null && ref.remove(e)) {
                    assertTrue(q.cancel(idOfKey.get(key)));
                    assertFalse(q.isPending(idOfKey.get(key)));
                }
                taken = 0;
            } else if (op < 7 && taken != 0) {
                // queue the event just taken again, later, under its key
                long[] e = byKey.get(taken);
                long t = clock + (rnd.nextLong(256) / 8) * 8;
                long id = q.reinsertTaken(t, h, taken ^ 77);
                assertEquals(idOfKey.get(taken), id);
                long[] again = {t, taken, e[2]};
                ref.add(again);
                byKey.put(taken, again);
                live.add(taken);
                taken = 0;
            } else {
                long[] exp = ref.pollFirst();
                EventHandler got = q.peek();
                assertNotNull(got, "seed " + seed + " step " + step);
                assertEquals(exp[0], q.headTime(), "seed " + seed + " step " + step);
                assertEquals(exp[1], q.headKey(), "seed " + seed + " step " + step);
                assertEquals((int) exp[2], q.headOwner());
                assertEquals(exp[1] ^ 77, q.headArg());
                clock = exp[0];
                q.pollMin();
                live.remove(exp[1]);
                taken = exp[1];
            }
            assertEquals(ref.size(), q.size());
        }
        while (!ref.isEmpty()) {
            long[] exp = ref.pollFirst();
            assertNotNull(q.peek());
            assertEquals(exp[1], q.headKey());
            clock = exp[0];
            q.pollMin();
        }
        assertEquals(Long.MAX_VALUE, q.peekTime());
    }

    @Test
    void eachModeRefusesTheOtherInsertion() {
        CalendarQueue plain = new CalendarQueue(() -> 0);
        assertFalse(plain.isKeyed());
        assertThrows(IllegalStateException.class, () -> plain.insertKeyed(1, a -> {}, 0, 1, 0));
        CalendarQueue keyed = CalendarQueue.keyed(() -> 0);
        assertThrows(IllegalStateException.class, () -> keyed.insert(1, a -> {}, 0));
    }

    @Test
    void keysIncreasingWithInsertionGiveTheDefaultOrder() {
        SplittableRandom rnd = new SplittableRandom(3);
        CalendarQueue plain = new CalendarQueue(() -> 0);
        CalendarQueue keyed = CalendarQueue.keyed(() -> 0);
        for (int i = 0; i < 5000; i++) {
            long t = rnd.nextInt(300);
            plain.insert(t, a -> {}, i);
            keyed.insertKeyed(t, a -> {}, i, EventKeys.of(1).next(0) + i, 0);
        }
        for (int i = 0; i < 5000; i++) {
            plain.peek();
            keyed.peek();
            assertEquals(plain.headArg(), keyed.headArg());
            plain.pollMin();
            keyed.pollMin();
        }
    }
}
