package org.datsim.fabric.link;

/**
 * One packet on the wire. The transport that made it keeps its meaning in {@link #context}; the network only reads
 * the destination, the size, the kind and the flow hash. Payload bytes travel in {@link #data} (the first
 * {@link #length} bytes of a pooled buffer).
 *
 * <p>Packets are pooled ({@link PacketPool}): the fields are set by {@link #set} when a packet is taken from the
 * pool, and the final receiver gives the packet back with {@link #release()} once it has used it. A packet must not
 * be touched after its release.
 */
public final class Packet {

    /** A connection-management datagram (REQ, REP, RTU, REJ, DREQ, DREP). */
    public static final int CM = 0;
    /** A Send packet. */
    public static final int SEND = 1;
    /** An RDMA Write packet. */
    public static final int RDMA_WRITE = 2;
    /** An RDMA Read request. */
    public static final int READ_REQUEST = 3;
    /** An RDMA Read response packet. */
    public static final int READ_RESPONSE = 4;
    /** A positive acknowledgement. */
    public static final int ACK = 5;
    /** A negative acknowledgement (RNR or an error); the reason is in {@link #status}. */
    public static final int NAK = 6;
    /** An IB atomic request (Fetch and Add or Compare and Swap, with its AtomicETH). */
    public static final int ATOMIC = 7;
    /** An IB atomic acknowledgement carrying the original remote value (AtomicAckETH). */
    public static final int ATOMIC_ACK = 8;
    /**
     * A RoCEv2 congestion notification packet (BTH opcode 0x81): a receiver's DCQCN notification point tells the
     * sender of an ECN-marked packet to slow down.
     */
    public static final int CNP = 9;

    private static final String[] KIND_NAMES = {"cm", "send", "rdma_write", "read_request", "read_response", "ack",
        "nak", "atomic", "atomic_ack", "cnp"};

    // The fields a switch and a port read as a packet passes come first, in the order the JVM lays them out (longs,
    // then ints, then booleans, then references: nextInFlight first of those), so that they share as few cache lines
    // as they can.
    /**
     * The next packet on the same link, towards the same node, while this one is on its way ({@link Port}'s
     * in-flight list); null otherwise. Linked through the packets, which the arrival reads anyway, rather than kept
     * in an array of the port's, whose entry would be one more cache miss per packet and hop.
     */
    Packet nextInFlight;
    /** When the packet's last bit arrives at the node holding it, in picoseconds (cut-through forwarding). */
    long tailPs;
    /**
     * For a packet an HCA streams out while its payload is still being read: when its last payload bytes have been
     * read (picoseconds), or 0; its last bit leaves no earlier than that plus the wire time of
     * {@link #dataTailBytes}.
     */
    public long dataReadyPs;
    /** The packet kind, one of the constants of this class. */
    public int kind;
    /** The id of the destination host. */
    public int dstHost;
    /** The bytes this packet occupies on the wire, headers included. */
    public int wireBytes;
    /** The flow hash switches use to choose among equal-cost paths (the same for every packet of a flow). */
    public int flow;
    /** The index of the switch port the packet arrived on (set by the switch that holds it). */
    int inPort;
    /** In-band telemetry: the hop records filled so far (0 when the packet is {@linkplain #set set}). */
    public int intHops;
    /** The payload bytes of the packet that become readable at {@link #dataReadyPs}. */
    public int dataTailBytes;
    /**
     * Congestion Experienced: a switch egress marked this packet (ECN CE, RED at {@code ecn.kmin}/{@code ecn.kmax});
     * false when the packet is {@linkplain #set set}. On an ACK, which switches do not mark, the receiver's echo of
     * the acknowledged data packet's mark (ECN-Echo, for DCTCP).
     */
    public boolean ecn;
    /** The pool this packet belongs to. */
    final PacketPool pool;
    /** This packet's slot in its pool: pass it as an event's {@code long} argument and look it up again. */
    public final int id;
    boolean free;
    /** The id of the source host. */
    public int srcHost;
    /** The transport's context (the work request, the CM message, ...). */
    public Object context;
    /** A second transport context (for example the receive a Send's payload is placed into), or null. */
    public Object aux;
    /**
     * For a packet of an HCA operation: the queue pair on the responder side, fixed when the packet is built.
     * Requests are for it and responses come from it, even if the requester's queue pair has since been reset or
     * connected elsewhere.
     */
    public Object endpoint;
    /** This packet's index within its message, from 0. */
    public int index;
    /** The number of packets of its message. */
    public int count;
    /** The payload buffer, or null when the packet has none; only the first {@link #length} bytes count. */
    public byte[] data;
    /** The payload bytes. */
    public int length;
    /**
     * True while the payload is held by reference ({@link #payloadSource}): the bytes are those of the sending
     * host's memory when the packet's DMA finished, and stay there until they are needed (copied into {@link #data}
     * when the packet starts on the wire, or for an RDMA Write copied straight into the target's memory when it is
     * placed) or until they are about to change (then copied into {@link #data} first).
     */
    public boolean payloadPending;
    /** Holds the payload while {@link #payloadPending} (null otherwise). */
    public PayloadSource payloadSource;
    /** The packets whose payloads one source holds by reference, linked in the order they were read. */
    public Packet refPrev;
    /** See {@link #refPrev}. */
    public Packet refNext;
    /** True while an RDMA Write's payload held by reference has already started on the wire. */
    public boolean refOnWire;
    /**
     * On a partitioned fabric, an RDMA Write's payload as its DMA read found it, without a copy: pieces of the
     * sender's memory pages, shared copy-on-write so they never change ({@code HostMemory.dmaSharePage}). Piece i
     * is {@code snapPages[i][snapOffsets[i], + snapLengths[i])}; the first {@link #snapCount} count. The arrays are
     * the pooled packet's, kept for its next use; the page references are dropped when placed or released.
     */
    public byte[][] snapPages;
    /** See {@link #snapPages}. */
    public int[] snapOffsets;
    /** See {@link #snapPages}. */
    public int[] snapLengths;
    /** See {@link #snapPages}: 0 when the packet holds no shared pages. */
    public int snapCount;
    /** The offset of this packet's payload within its message, in bytes. */
    public long offset;
    /** A status for NAKs (a DAT DTO completion status), otherwise 0. */
    public int status;
    /**
     * On a data packet (or any packet the HCA's packet arbiter sends): when the arbiter chose it to leave, in
     * picoseconds, the time its queue pair's congestion control counts it as sent (HPCC's {@code SeqTsHeader} ts, set
     * when its NIC makes the packet). On an ACK: the receiver's echo of the acknowledged data packet's, from which
     * TIMELY takes its RTT. {@link #NO_TIMESTAMP} when the packet is {@linkplain #set set}.
     */
    public long timestampPs;
    /** {@link #timestampPs} of a packet that carries no send time. */
    public static final long NO_TIMESTAMP = -1;
    /** The most in-band telemetry hop records a packet carries (HPCC's IntHeader::maxHop). */
    public static final int INT_MAX_HOPS = 5;
    // The hop records, INT_FIELDS longs a hop in one array (a hop's record is written and read together, so it shares
    // a cache line or two, where four arrays of one field each cost four). Allocated the first time this pooled packet
    // carries telemetry and reused after (so a fabric without telemetry carries no array, and one with telemetry
    // allocates nothing once the pool is warm); read only the first intHops records, through the int* accessors.
    private static final int INT_FIELDS = 4;
    private static final int INT_TIME = 0;
    private static final int INT_TX = 1;
    private static final int INT_QUEUE = 2;
    private static final int INT_RATE = 3;
    private long[] intRecords;

    /** Returns when the packet's last bit reaches the node receiving it now, in picoseconds. */
    public long tailPs() {
        return tailPs;
    }

    /** Returns the pool this packet belongs to. */
    public PacketPool pool() {
        return pool;
    }

    Packet(PacketPool pool, int id) {
        this.pool = pool;
        this.id = id;
    }

    /**
     * Sets every field of a packet taken from the pool.
     *
     * @param kind the kind
     * @param srcHost the source host id
     * @param dstHost the destination host id
     * @param wireBytes bytes on the wire including headers
     * @param context the transport's context
     * @param index the index within the message
     * @param count the packets in the message
     * @param offset the payload's offset within the message in bytes
     * @param status a NAK status or 0
     * @param flow the flow hash
     * @return this packet
     */
    public Packet set(int kind, int srcHost, int dstHost, int wireBytes, Object context, int index, int count,
            long offset, int status, int flow) {
        this.kind = kind;
        this.srcHost = srcHost;
        this.dstHost = dstHost;
        this.wireBytes = wireBytes;
        this.context = context;
        if (context instanceof PacketOperation op) {
            op.packetTaken();
        }
        this.aux = null;
        this.endpoint = null;
        this.index = index;
        this.count = count;
        this.data = null;
        this.length = 0;
        this.payloadPending = false;
        this.offset = offset;
        this.status = status;
        this.flow = flow;
        this.inPort = -1;
        this.tailPs = 0;
        this.dataReadyPs = 0;
        this.dataTailBytes = 0;
        this.ecn = false;
        this.intHops = 0;
        this.timestampPs = NO_TIMESTAMP;
        return this;
    }

    /**
     * Gives the packet (and its payload buffer) back to its pool. Called once, by whoever consumed it last.
     */
    public void release() {
        pool.release(this);
    }

    /**
     * Appends a piece of a shared page to the payload ({@link #snapPages}).
     *
     * @param page the page (never written again)
     * @param off the piece's first index in it
     * @param len the piece's bytes
     */
    public void addSnapshot(byte[] page, int off, int len) {
        int n = snapCount;
        if (snapPages == null || n == snapPages.length) {
            int cap = snapPages == null ? 2 : 2 * n;
            snapPages = snapPages == null ? new byte[cap][] : java.util.Arrays.copyOf(snapPages, cap);
            snapOffsets = snapOffsets == null ? new int[cap] : java.util.Arrays.copyOf(snapOffsets, cap);
            snapLengths = snapLengths == null ? new int[cap] : java.util.Arrays.copyOf(snapLengths, cap);
        }
        snapPages[n] = page;
        snapOffsets[n] = off;
        snapLengths[n] = len;
        snapCount = n + 1;
    }

    /** Drops the shared pages the payload held ({@link #snapPages}). */
    public void clearSnapshot() {
        for (int i = 0; i < snapCount; i++) {
            snapPages[i] = null;
        }
        snapCount = 0;
    }

    /**
     * Records the switch port the packet arrived on (used by the switch to account its buffer).
     *
     * @param port the input port index
     */
    public void setInPort(int port) {
        this.inPort = port;
    }

    /**
     * Appends an in-band telemetry hop record, as HPCC's IntHeader::PushHop: a packet already holding
     * {@link #INT_MAX_HOPS} records keeps them and ignores this one.
     *
     * @param timePs when the packet left the egress queue, in picoseconds
     * @param txBytes the egress port's transmitted-bytes counter
     * @param queueBytes the bytes queued at the egress port
     * @param rateBps the egress link's rate in bits per second
     */
    public void pushIntHop(long timePs, long txBytes, long queueBytes, long rateBps) {
        int h = intHops;
        long[] r = intRecords;
        if (r == null) {
            r = allocateInt();
        }
        if (h < INT_MAX_HOPS) {
            int o = h * INT_FIELDS;
            r[o + INT_TIME] = timePs;
            r[o + INT_TX] = txBytes;
            r[o + INT_QUEUE] = queueBytes;
            r[o + INT_RATE] = rateBps;
            intHops = h + 1;
        }
    }

    private long[] allocateInt() {
        long[] r = new long[INT_MAX_HOPS * INT_FIELDS];
        intRecords = r;
        return r;
    }

    /**
     * Returns when the packet left the egress queue of a hop, in picoseconds.
     *
     * @param hop the hop, {@code 0 <= hop < intHops}
     * @return the time
     */
    public long intTimePs(int hop) {
        return intRecords[hop * INT_FIELDS + INT_TIME];
    }

    /**
     * Returns the bytes a hop's egress port had started transmitting before this packet (a running counter).
     *
     * @param hop the hop, {@code 0 <= hop < intHops}
     * @return the bytes
     */
    public long intTxBytes(int hop) {
        return intRecords[hop * INT_FIELDS + INT_TX];
    }

    /**
     * Returns the bytes queued at a hop's egress port when the packet left its queue.
     *
     * @param hop the hop, {@code 0 <= hop < intHops}
     * @return the bytes
     */
    public long intQueueBytes(int hop) {
        return intRecords[hop * INT_FIELDS + INT_QUEUE];
    }

    /**
     * Returns a hop's egress link rate.
     *
     * @param hop the hop, {@code 0 <= hop < intHops}
     * @return the rate in bits per second
     */
    public long intRateBps(int hop) {
        return intRecords[hop * INT_FIELDS + INT_RATE];
    }

    /**
     * Copies another packet's in-band telemetry into this one (a receiver echoing a data packet's hop records in
     * its acknowledgement, as HPCC's receiver does); this packet's own records are replaced.
     *
     * @param from the packet whose records to copy
     */
    public void copyIntFrom(Packet from) {
        int n = from.intHops;
        intHops = n;
        if (n == 0) {
            return;
        }
        long[] r = intRecords;
        if (r == null) {
            r = allocateInt();
        }
        System.arraycopy(from.intRecords, 0, r, 0, n * INT_FIELDS);
    }

    /**
     * Returns true for a packet of a kind that carries a message's data (Send, RDMA Write, RDMA Read response): the
     * ECN-capable packets of RoCE, which switches may mark and which carry in-band telemetry.
     *
     * @param kind a packet kind
     * @return true for a data packet
     */
    public static boolean isData(int kind) {
        return kind == SEND || kind == RDMA_WRITE || kind == READ_RESPONSE;
    }

    /** Returns true for the last packet of its message. */
    public boolean isLast() {
        return index == count - 1;
    }

    /** Returns the name of a packet kind. */
    public static String kindName(int kind) {
        return KIND_NAMES[kind];
    }

    @Override
    public String toString() {
        return kindName(kind) + "[" + index + "/" + count + " " + srcHost + "->" + dstHost + " " + wireBytes + "B]";
    }
}
