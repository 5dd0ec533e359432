package org.datsim.viz;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.Arrays;

/**
 * A growable column of {@code long}s, for the columnar data the viewers embed: no boxing, amortised O(1) appends.
 */
final class Columns {

    private long[] v = new long[64];
    private int n;

    /** Appends a value and returns its index. */
    int add(long x) {
        if (n == v.length) {
            v = Arrays.copyOf(v, n * 2);
        }
        v[n] = x;
        return n++;
    }

    long get(int i) {
        return v[i];
    }

    void set(int i, long x) {
        v[i] = x;
    }

    int size() {
        return n;
    }

    /** Writes the column as a JSON array of numbers, in the order given by {@code order} (or natural if null). */
    void write(JsonGenerator g, String name, int[] order) throws IOException {
        g.writeArrayFieldStart(name);
        for (int k = 0; k < n; k++) {
            g.writeNumber(v[order == null ? k : order[k]]);
        }
        g.writeEndArray();
    }
}
