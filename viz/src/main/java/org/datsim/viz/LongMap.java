package org.datsim.viz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A map from {@code long} keys to non-null values that does not box its keys: open addressing with linear probing,
 * deletion by shifting entries back. For the operations in flight of a trace writer, looked up on every event.
 *
 * @param <V> the value type
 */
final class LongMap<V> {

    private long[] keys = new long[64];
    private Object[] values = new Object[64];
    private int size;

    private static int slot(long key, int mask) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    /** Returns the value of a key, or null. */
    @SuppressWarnings("unchecked")
    V get(long key) {
        int mask = keys.length - 1;
        for (int i = slot(key, mask); values[i] != null; i = (i + 1) & mask) {
            if (keys[i] == key) {
                return (V) values[i];
            }
        }
        return null;
    }

    /** Sets the value of a key, replacing any. */
    void put(long key, V value) {
        if (value == null) {
            throw new NullPointerException("LongMap holds no null values");
        }
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (values[i] != null) {
            if (keys[i] == key) {
                values[i] = value;
                return;
            }
            i = (i + 1) & mask;
        }
        keys[i] = key;
        values[i] = value;
        if (++size * 2 > keys.length) {
            long[] oldKeys = keys;
            Object[] oldValues = values;
            keys = new long[oldKeys.length * 2];
            values = new Object[oldKeys.length * 2];
            size = 0;
            for (int j = 0; j < oldKeys.length; j++) {
                if (oldValues[j] != null) {
                    @SuppressWarnings("unchecked")
                    V v = (V) oldValues[j];
                    put(oldKeys[j], v);
                }
            }
        }
    }

    /** Removes a key; does nothing if it is not there. */
    void remove(long key) {
        int mask = keys.length - 1;
        int i = slot(key, mask);
        while (keys[i] != key || values[i] == null) {
            if (values[i] == null) {
                return;
            }
            i = (i + 1) & mask;
        }
        // shift back the entries after i that probed past it
        int gap = i;
        int j = (i + 1) & mask;
        while (values[j] != null) {
            int home = slot(keys[j], mask);
            if (((j - home) & mask) >= ((j - gap) & mask)) {
                keys[gap] = keys[j];
                values[gap] = values[j];
                gap = j;
            }
            j = (j + 1) & mask;
        }
        values[gap] = null;
        size--;
    }

    /** Returns the number of keys. */
    int size() {
        return size;
    }

    /** Returns the values in increasing order of their keys. */
    @SuppressWarnings("unchecked")
    List<V> valuesByKey() {
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
    void clear() {
        Arrays.fill(values, null);
        size = 0;
    }
}
