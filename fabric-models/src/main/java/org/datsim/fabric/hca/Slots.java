package org.datsim.fabric.hca;

import java.util.Arrays;

/**
 * Numbered slots holding objects until an event takes them back: lets a model schedule an event about an object
 * with the simulator's allocation-free {@code (EventHandler, long)} API when events about such objects may fire in
 * another order than they were scheduled (a FIFO would hand them the wrong object). Freed slots are reused, so the
 * steady state allocates nothing.
 *
 * <p>Not thread-safe: belongs to one simulator.
 *
 * @param <T> the type of the objects held
 */
final class Slots<T> {

    private Object[] items = new Object[16];
    private int[] free = new int[16];
    private int freeCount;
    private int used;

    /**
     * Puts an object in a free slot.
     *
     * @param item the object
     * @return its slot, to pass to {@link #take}
     */
    int put(T item) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (used == items.length) {
                items = Arrays.copyOf(items, 2 * used);
            }
            slot = used++;
        }
        items[slot] = item;
        return slot;
    }

    /**
     * Takes an object back and frees its slot.
     *
     * @param slot the slot {@link #put} returned
     * @return the object
     */
    @SuppressWarnings("unchecked")
    T take(long slot) {
        int i = (int) slot;
        T item = (T) items[i];
        if (item == null) {
            throw new IllegalStateException("slot " + slot + " is empty");
        }
        items[i] = null;
        if (freeCount == free.length) {
            free = Arrays.copyOf(free, 2 * freeCount);
        }
        free[freeCount++] = i;
        return item;
    }
}
