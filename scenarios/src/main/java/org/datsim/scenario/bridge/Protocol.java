package org.datsim.scenario.bridge;

/**
 * The bridge's wire protocol between {@code datsim serve} and the provider library {@code provider/libdatsim.so}
 * (docs/bridge.md). Every message is a frame: a 32-bit length (of what follows), a 32-bit code, then the payload,
 * all little-endian. The frame codes here are those of {@code provider/datsim_provider.c} (ProtocolHeaderTest
 * compares them); the request codes are {@link Request}'s, from which {@code provider/datsim_protocol.h} is generated.
 */
final class Protocol {

    private Protocol() {
    }

    /** Server to library: the reply to the pending request (DAT_RETURN, then the call's outputs). */
    static final int S_REPLY = 0;
    /** Server to library: send me these bytes of your memory (u64 address, u32 length). */
    static final int S_MEMREAD = 1;
    /** Server to library: write these bytes into your memory (u64 address, u32 length, bytes); no answer. */
    static final int S_MEMWRITE = 2;
    /** Server to library's side channel: answer once every write sent before is applied (an empty MEMDATA). */
    static final int S_SYNC = 3;
    /**
     * {@code datsim exec} to server, on a connection of its own: which dat.conf, provider library and hosts this
     * server has (the reply: u64 time, u32 DAT_SUCCESS, then the dat.conf's and the library's paths and the host
     * names, each a u32 length and UTF-8 bytes, the names after a u32 count). A number far from the call codes.
     */
    static final int C_INFO = 0x4001;
    /**
     * A further thread of an attached program, on a connection of its own (u64 CPU time, the 16-byte token the hello
     * reply gave, u32 rings: {@link Handshake}): a consumer process of the same program and host (docs/bridge.md).
     */
    static final int C_THREAD = 0x4002;
    /** Library to server: the bytes a {@link #S_MEMREAD} asked for. */
    static final int P_MEMDATA = 0x8001;

    /** The most bytes one frame may carry (a corrupt length is refused instead of allocated). */
    static final int MAX_FRAME = 64 << 20;

    /** The hello request's code ({@link Request#HELLO}), for the handshake. */
    static final int C_HELLO = 1; // a constant for the handshake's switches; ProtocolHeaderTest: = Request.HELLO
    /** The side channel's first frame's code ({@link Request#SIDE}), for the handshake (the 16-byte token: {@link Handshake}). */
    static final int C_SIDE = 57; // ProtocolHeaderTest: = Request.SIDE

    /** Returns a request code's call name. */
    static String name(int code) {
        Request r = Request.of(code);
        return r != null ? r.call() : "request " + code;
    }

    /** The IA address of the host with this id: 127.0.1.(id + 1). */
    static int ipOf(int hostId) {
        return (127 << 24) | (1 << 8) | (hostId + 1);
    }

    /** The host id of an IA address, or -1 when it is not one of {@link #ipOf}'s. */
    static int hostOf(int ip) {
        return (ip >>> 8) == ((127 << 16) | 1) ? (ip & 0xff) - 1 : -1;
    }

    /** The dotted form of {@link #ipOf}. */
    static String dotted(int hostId) {
        return "127.0.1." + (hostId + 1);
    }
}
