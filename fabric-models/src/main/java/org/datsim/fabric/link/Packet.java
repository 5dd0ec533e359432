package org.datsim.fabric.link;

/**
 * One packet on the wire. The transport that made it keeps its meaning in {@link #context}; the network only reads
 * the destination, the size and the kind. Payload bytes travel in {@link #data}.
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

    private static final String[] KIND_NAMES = {"cm", "send", "rdma_write", "read_request", "read_response", "ack",
        "nak", "atomic", "atomic_ack"};

    /** The packet kind, one of the constants of this class. */
    public final int kind;
    /** The id of the destination host. */
    public final int dstHost;
    /** The id of the source host. */
    public final int srcHost;
    /** The bytes this packet occupies on the wire, headers included. */
    public final int wireBytes;
    /** The transport's context (the work request, the CM message, ...). */
    public final Object context;
    /** This packet's index within its message, from 0. */
    public final int index;
    /** The number of packets of its message. */
    public final int count;
    /** The payload bytes, or null when the packet has none. */
    public final byte[] data;
    /** The offset of this packet's payload within its message, in bytes. */
    public final long offset;
    /** A status for NAKs (a DAT DTO completion status), otherwise 0. */
    public final int status;

    /**
     * Creates a packet.
     *
     * @param kind the kind
     * @param srcHost the source host id
     * @param dstHost the destination host id
     * @param wireBytes bytes on the wire including headers
     * @param context the transport's context
     * @param index the index within the message
     * @param count the packets in the message
     * @param data the payload or null
     * @param offset the payload's offset within the message in bytes
     * @param status a NAK status or 0
     */
    public Packet(int kind, int srcHost, int dstHost, int wireBytes, Object context, int index, int count,
            byte[] data, long offset, int status) {
        this.kind = kind;
        this.srcHost = srcHost;
        this.dstHost = dstHost;
        this.wireBytes = wireBytes;
        this.context = context;
        this.index = index;
        this.count = count;
        this.data = data;
        this.offset = offset;
        this.status = status;
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
