package org.datsim.fabric.link;

/**
 * A FIFO of packets, one traffic class of a {@link Port}, whose first {@code ready} entries are known to be eligible
 * (their ready time has passed). A port holds its data class in one ring (a final field) and, if asked, its control
 * class in another ({@link Port#prioritiseControl}). Each entry's ready time and wire
 * bytes are kept beside it, interleaved in one array ({@code m[2j]}, {@code m[2j + 1]}), so that looking at the
 * queue touches no packet and one line of that array per four entries; the mask is kept in the ring so that looking
 * at ready times does not touch the packet array either.
 */
final class PacketRing {
    private Packet[] a = new Packet[16];
    private long[] m = new long[32];
    private int mask = 15;
    private int head;
    int size;
    int ready;

    void add(Packet p, long readyPs) {
        if (size > mask) {
            int n = 2 * size;
            Packet[] b = new Packet[n];
            long[] t = new long[2 * n];
            for (int i = 0; i < size; i++) {
                int j = (head + i) & mask;
                b[i] = a[j];
                t[2 * i] = m[2 * j];
                t[2 * i + 1] = m[2 * j + 1];
            }
            a = b;
            m = t;
            mask = n - 1;
            head = 0;
        }
        int j = (head + size) & mask;
        a[j] = p;
        m[2 * j] = readyPs;
        m[2 * j + 1] = p.wireBytes;
        size++;
    }

    void addFirst(Packet p, long readyPs) {
        add(p, readyPs); // makes room; then moves it to the front
        int tail = (head + size - 1) & mask;
        a[tail] = null;
        head = (head - 1) & mask;
        a[head] = p;
        m[2 * head] = readyPs;
        m[2 * head + 1] = p.wireBytes;
    }

    Packet first() {
        return a[head];
    }

    Packet pollReady() {
        Packet p = a[head];
        a[head] = null;
        head = (head + 1) & mask;
        size--;
        ready--;
        return p;
    }

    /** Takes the first entry, which is not yet eligible (ready is 0). */
    Packet pollPending() {
        ready++;
        return pollReady();
    }

    /** Whether an entry is not yet known eligible. */
    boolean hasPending() {
        return ready < size;
    }

    /** The ready time of the first entry not yet known eligible (hasPending). */
    long pendingAt() {
        return m[2 * ((head + ready) & mask)];
    }

    /** The wire bytes of the first entry not yet known eligible (hasPending). */
    int pendingWire() {
        return (int) m[2 * ((head + ready) & mask) + 1];
    }
}
