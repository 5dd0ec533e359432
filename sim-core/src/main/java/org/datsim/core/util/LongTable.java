package org.datsim.core.util;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A map from {@code long} keys to non-null objects by open addressing with linear probing, kept at most half full:
 * no boxing of keys and no entry objects (the page and cache-line tables of host memory, the operations in flight
 * of a trace writer). Removal shifts the entries of the probe run back, so no tombstones accumulate. It is never
 * iterated in hash order: {@link #valuesByKey()} sorts, so nothing that depends on it can depend on hash order.
 *
 * @param <V> the value type
 */
public final class LongTable<V> {

    private long[] keys = new long[16];
    private Object[] values = new Object[16];
    private int size;

    /** Returns the number of entries. */
    public int size() {
        return size;
    }

    private static int home(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h >>> 40) & mask;
    }

    /** Returns the value of {@code key}, or null. */
    @SuppressWarnings("unchecked")
    public V get(long key) {
        int mask = keys.length - 1;
        for (int i = home(key, mask);; i = (i + 1) & mask) {
            Object v = values[i];
            if (v == null || keys[i] == key) {
                return (V) v;
            }
        }
    }

    /** Maps {@code key} to a non-null {@code value}, replacing any earlier value. */
    public void put(long key, V value) {
        Objects.requireNonNull(value, "value");
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
    public void remove(long key) {
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

    /** Returns the values in increasing order of their keys. */
    @SuppressWarnings("unchecked")
    public List<V> valuesByKey() {
        long[] k = new long[size];
        int n = 0;
        for (int i = 0; i < keys.length; i++) {
            if (values[i] != null) {
                k[n++] = keys[i];
            }
        }
        Arrays.sort(k);
        List<V> out = new ArrayList<>(n);
        for (long key : k) {
            out.add(get(key));
        }
        return out;
    }

    /** Removes every key. */
    public void clear() {
        Arrays.fill(values, null);
        size = 0;
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
