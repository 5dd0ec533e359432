package org.datsim.fabric.link;

/**
 * Recycles {@link Packet}s and their payload buffers, so the packet path allocates nothing in the steady state.
 * One pool serves a whole fabric (packets travel between hosts). A packet's {@link Packet#id} finds it again
 * ({@link #get}), which lets a model schedule an event about a packet with the simulator's allocation-free
 * {@code (EventHandler, long)} API. Payload buffers are {@link #BUFFER_BYTES} long, the largest MTU.
 *
 * <p>Not thread-safe: a pool belongs to one simulator.
 */
public final class PacketPool {

    /** The size of every payload buffer: the largest path MTU. */
    public static final int BUFFER_BYTES = 4096;

    private Packet[] byId = new Packet[64];
    private int created;
    private Packet[] free = new Packet[64];
    private int freeCount;
    private byte[][] buffers = new byte[64][];
    private int buffersCreated;
    private int bufferCount;

    /** Creates an empty pool. */
    public PacketPool() {
    }

    /**
     * Takes a packet; its fields are to be set with {@link Packet#set}.
     *
     * @return a packet no one else holds
     */
    public Packet acquire() {
        Packet p;
        if (freeCount > 0) {
            p = free[--freeCount];
            free[freeCount] = null;
        } else {
            if (created == byId.length) {
                if (group != null && created == LOCAL_MASK + 1) {
                    throw new IllegalStateException("a partition's packet pool holds at most " + (LOCAL_MASK + 1)
                            + " packets");
                }
                // published with a release store: another partition may look a packet of this pool up (get)
                BY_ID.setRelease(this, java.util.Arrays.copyOf(byId, 2 * created));
            }
            p = new Packet(this, idBase | created);
            byId[created++] = p;
        }
        p.free = false;
        return p;
    }

    /**
     * Gives a packet a payload buffer of {@link #BUFFER_BYTES} bytes (contents undefined).
     *
     * @param p the packet
     * @param length the payload bytes the packet will carry, at most {@link #BUFFER_BYTES}
     * @return the buffer, also in {@link Packet#data}
     */
    public byte[] attachBuffer(Packet p, int length) {
        if (length > BUFFER_BYTES) {
            throw new IllegalArgumentException("payload of " + length + " bytes exceeds " + BUFFER_BYTES);
        }
        byte[] b;
        if (bufferCount > 0) {
            b = buffers[--bufferCount];
        } else {
            b = new byte[BUFFER_BYTES];
            buffersCreated++;
        }
        buffers[bufferCount] = null;
        p.data = b;
        p.length = length;
        return b;
    }

    /**
     * Returns the packet with an id.
     *
     * @param id the id
     * @return the packet
     */
    public Packet get(long id) {
        if (group == null) {
            return byId[(int) id];
        }
        return group.pool((int) (id >>> LOCAL_BITS)).local((int) id & LOCAL_MASK);
    }

    /** A packet of this pool by its index here, looked up from any partition (an acquire load of the table). */
    private Packet local(int i) {
        return ((Packet[]) BY_ID.getAcquire(this))[i];
    }

    /** In a partitioned fabric: the pools of all partitions, and this pool's index among them (else null). */
    private PartitionPools group;
    private int index;
    /** The thread running this pool's partition in the current window (null: not partitioned). */
    private volatile Thread runner;

    /** Joins a partitioned fabric's pools ({@link PartitionPools}). */
    void join(PartitionPools group, int index) {
        if (created > 0) {
            throw new IllegalStateException("a pool joins its partitions before its first packet");
        }
        this.group = group;
        this.index = index;
        this.idBase = index << LOCAL_BITS;
    }

    /*
     * In a partitioned fabric a packet's id names its pool too (the pool's index above LOCAL_BITS), so an event
     * argument naming a packet means the same packet in every partition; alone, ids are the indexes (idBase 0).
     */
    private static final int LOCAL_BITS = 25;
    private static final int LOCAL_MASK = (1 << LOCAL_BITS) - 1;
    private int idBase;
    private static final java.lang.invoke.VarHandle BY_ID;

    static {
        try {
            BY_ID = java.lang.invoke.MethodHandles.lookup().findVarHandle(PacketPool.class, "byId", Packet[].class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int index() {
        return index;
    }

    /** The window starts in this pool's partition, on the calling thread. */
    void runBy(Thread t) {
        if (runner != t) {
            runner = t;
        }
    }

    void release(Packet p) {
        if (group != null && runner != Thread.currentThread()) {
            group.stash(p); // released in another partition's thread: this pool takes it back at a window start
            return;
        }
        releaseHere(p);
    }

    /** Releases a packet on this pool's own thread. */
    void releaseHere(Packet p) {
        if (p.free) {
            throw new IllegalStateException("packet released twice: " + p);
        }
        p.free = true;
        if (p.payloadPending) {
            p.payloadSource.released(p); // dropped or discarded with its payload still held by reference
        }
        if (p.snapCount != 0) {
            p.clearSnapshot(); // dropped or discarded before its shared pages were placed
        }
        if (p.data != null) {
            if (bufferCount == buffers.length) {
                buffers = java.util.Arrays.copyOf(buffers, 2 * bufferCount);
            }
            buffers[bufferCount++] = p.data;
            p.data = null;
        }
        if (p.context instanceof PacketOperation op) {
            op.packetReleased();
        }
        p.context = null;
        p.aux = null;
        p.endpoint = null; // a port's last packet and the pool's free ones keep no queue pair alive
        if (freeCount == free.length) {
            free = java.util.Arrays.copyOf(free, 2 * freeCount);
        }
        free[freeCount++] = p;
    }

    /** Returns how many payload buffers this pool made: the most that were ever attached at once. */
    public int buffersCreated() {
        return buffersCreated;
    }

    /** Returns how many packets exist (in use or free): the most that were ever in use at once. */
    public int created() {
        return created;
    }

    /** Returns how many packets are in use now (taken and not yet released). */
    public int inUse() {
        return created - freeCount;
    }
}
