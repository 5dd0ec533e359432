package org.datsim.fabric.memory;

/**
 * A map from {@code long} keys to objects by open addressing with linear probing, kept at most half full: no boxing
 * of keys and no entry objects, for the page table of {@link SparseMemory} and the line table of a non-coherent
 * {@link HostMemory}. Removal shifts the entries of the probe run back, so no tombstones accumulate. Never iterated:
 * nothing that depends on it can depend on hash order.
 *
 * @param <V> the value type
 */
final class LongTable<V> {

    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    /** Returns the number of entries. */
    int size() {
        return size;
    }

    private static int home(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & mask;
    }

    /** Returns the value of {@code key}, or null. */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = home(key, mask);; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null || keys[i] == key) {
                return (V) v;
            }
        }
    }

    /** Maps {@code key} to a non-null {@code value}, replacing any earlier value. */
    void put(long key, V value) {
        if (2 * (size + 1) > keys.length) {
            grow();
        }
        int mask = keys.length - 1;
        int i = home(key, mask);
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == null) {
            size++;
        }
        keys[i] = key;
        values[i] = value;
    }

    /** Removes {@code key}'s entry, if any. */
    void remove(long key) {
        int mask = keys.length - 1;
        int i = home(key, mask);
        while (values[i] != null && keys[i] != key) {
            i = (i + 1) & mask;
        }
        if (values[i] == null) {
            return;
        }
        size--;
        // Backward shift: move each later entry of the run whose home is not cyclically in (hole, j] into the hole.
        int hole = i;
        for (int j = (i + 1) & mask; values[j] != null; j = (j + 1) & mask) {
            int h = home(keys[j], mask);
            boolean stays = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
            if (!stays) {
                keys[hole] = keys[j];
                values[hole] = values[j];
                hole = j;
            }
        }
        values[hole] = null;
    }

    private void grow() {
        long[] oldKeys = keys;
        Object[] oldValues = values;
        keys = new long[2 * oldKeys.length];
        values = new Object[2 * oldKeys.length];
        size = 0;
        int mask = keys.length - 1;
        for (int k = 0; k < oldKeys.length; k++) {
            if (oldValues[k] != null) {
                int i = home(oldKeys[k], mask);
                while (values[i] != null) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[k];
                values[i] = oldValues[k];
                size++;
            }
        }
    }
}
