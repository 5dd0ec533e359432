package org.datsim.fabric.link;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.datsim.core.engine.WindowListener;

/**
 * The packet pools of a fabric run on a {@link org.datsim.core.engine.PartitionedSimulator}: one pool per partition,
 * so that taking and releasing packets needs no lock. A packet crosses partitions on a link ({@link LinkInbox}) and
 * is usually released by a node of another partition than its pool's. Such a release is not done there: the packet
 * is stashed, untouched, in a list of the releasing thread for the packet's pool, one list per window parity. At the
 * start of each window, in its own thread ({@link #listener}), a pool takes back what was stashed for it during the
 * previous window (every writer has passed the window barrier since; this window's writers fill the other parity)
 * and releases it there: the packet's operation and payload source, which belong to the sending node, are told in
 * the sending node's thread. Which packet objects a pool reuses then depends on the partitioning; what a packet
 * carries does not.
 */
public final class PartitionPools {

    private final PacketPool[] pools;
    /** Every thread's stash, registered once per thread (a run starts new worker threads). */
    private final List<Stash> stashes = new CopyOnWriteArrayList<>();
    private final ThreadLocal<Stash> mine = ThreadLocal.withInitial(this::register);

    /** The lists of one thread: by pool and window parity. */
    private final class Stash {
        final PacketList[][] lists = new PacketList[pools.length][2];
        long window;

        Stash() {
            for (PacketList[] l : lists) {
                l[0] = new PacketList();
                l[1] = new PacketList();
            }
        }
    }

    /** A growable array of packets. */
    private static final class PacketList {
        Packet[] items = new Packet[64];
        int size;

        void add(Packet p) {
            if (size == items.length) {
                items = java.util.Arrays.copyOf(items, 2 * size);
            }
            items[size++] = p;
        }
    }

    /**
     * Creates one pool per partition.
     *
     * @param partitions the number of partitions
     */
    public PartitionPools(int partitions) {
        if (partitions < 1 || partitions > 64) {
            throw new IllegalArgumentException("a partitioned fabric has 1 to 64 partitions, found " + partitions);
        }
        pools = new PacketPool[partitions];
        for (int q = 0; q < partitions; q++) {
            pools[q] = new PacketPool();
            pools[q].join(this, q);
        }
    }

    private Stash register() {
        Stash s = new Stash();
        stashes.add(s);
        return s;
    }

    /** Returns partition q's pool. */
    public PacketPool pool(int q) {
        return pools[q];
    }

    /** Returns every pool, by partition. */
    public List<PacketPool> pools() {
        return List.of(pools);
    }

    /**
     * Returns what partition q's engine tells at each window start: the pool notes its thread and takes back the
     * packets other threads stashed for it during the previous window.
     *
     * @param q the partition
     * @return the listener to set on the engine for that partition
     */
    public WindowListener listener(int q) {
        return window -> {
            PacketPool pool = pools[q];
            pool.runBy(Thread.currentThread());
            mine.get().window = window;
            int parity = (int) (window - 1) & 1;
            for (Stash s : stashes) {
                PacketList l = s.lists[q][parity];
                for (int i = 0; i < l.size; i++) {
                    Packet p = l.items[i];
                    l.items[i] = null;
                    pool.releaseHere(p);
                }
                l.size = 0;
            }
        };
    }

    /** A packet released by a thread other than its pool's: kept for its pool's next window start. */
    void stash(Packet p) {
        Stash s = mine.get();
        s.lists[p.pool.index()][(int) s.window & 1].add(p);
    }

    /** Returns how many packets exist in all pools. */
    public int created() {
        int n = 0;
        for (PacketPool p : pools) {
            n += p.created();
        }
        return n;
    }

    /** For tests: the packets stashed and not yet taken back. */
    int stashed() {
        int n = 0;
        for (Stash s : new ArrayList<>(stashes)) {
            for (PacketList[] l : s.lists) {
                n += l[0].size + l[1].size;
            }
        }
        return n;
    }
}
