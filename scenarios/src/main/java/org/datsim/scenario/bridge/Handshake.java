package org.datsim.scenario.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;

/**
 * The first frame of a connection to {@code datsim serve}, read and checked field by field before anything acts on
 * it (docs/bridge.md, Security). Every form has an exact length; anything else is {@link Malformed}, with a message
 * that says what is wrong. Payloads (after the frame's length and code, little-endian):
 * <ul>
 * <li>{@link Protocol#C_HELLO}: u64 CPU time, u32 n and n bytes of UTF-8 (the host, 1 to {@link #MAX_NAME}),
 * u32 pid, u32 1 when the library takes shared-memory rings (0: the socket only).
 * <li>{@link Protocol#C_THREAD}: u64 CPU time, the program's {@link #TOKEN_BYTES}-byte token, u32 rings (as above).
 * <li>{@link Protocol#C_SIDE}: the program's token.
 * <li>{@link Protocol#C_INFO}: u64 (unused).
 * </ul>
 *
 * @param code the frame's code
 * @param host the host a hello names ("" for other forms)
 * @param pid the pid a hello gives (0 for other forms)
 * @param token the token a thread or side channel gives (null for other forms)
 * @param wantsRings whether the library takes shared-memory rings
 */
record Handshake(int code, String host, int pid, byte[] token, boolean wantsRings) {

    /** The bytes of a program's token: 128 random bits. */
    static final int TOKEN_BYTES = 16;
    /** The most bytes of a host name in a hello. */
    static final int MAX_NAME = 255;
    /** The most bytes a first frame may have, its length field included: any more ends the connection unread. */
    static final int MAX_FRAME = 4 + 4 + 8 + 4 + MAX_NAME + 4 + 4;

    private static final SecureRandom RANDOM = new SecureRandom();

    /** A first frame that is not one of the forms above. */
    static final class Malformed extends Exception {
        private static final long serialVersionUID = 1L;

        Malformed(String message) {
            super(message, null, false, false);
        }
    }

    /** Returns a new random token. */
    static byte[] newToken() {
        byte[] t = new byte[TOKEN_BYTES];
        RANDOM.nextBytes(t);
        return t;
    }

    /** Whether two tokens are equal, in time that does not depend on where they differ. */
    static boolean sameToken(byte[] a, byte[] b) {
        return a != null && b != null && MessageDigest.isEqual(a, b);
    }

    /**
     * Checks a frame's declared length (what follows the length field) before any of it is read.
     *
     * @param len the length field
     * @throws Malformed when no first frame has that length
     */
    static void checkLength(int len) throws Malformed {
        if (len < 4 || len > MAX_FRAME - 4) {
            throw new Malformed("a first frame declaring " + Integer.toUnsignedString(len) + " bytes (at most "
                    + (MAX_FRAME - 4) + ")");
        }
    }

    /**
     * Reads a first frame.
     *
     * @param frame the frame from its code on (position at the code, limit at the frame's end), little-endian
     * @return what it says
     * @throws Malformed when it is not one of the forms
     */
    static Handshake parse(ByteBuffer frame) throws Malformed {
        ByteBuffer f = frame.slice().order(ByteOrder.LITTLE_ENDIAN);
        if (f.remaining() < 4) {
            throw new Malformed("a frame of " + f.remaining() + " bytes, too short for its code");
        }
        int code = f.getInt();
        switch (code) {
            case Protocol.C_HELLO -> {
                need(f, 12, "hello");
                f.getLong();
                int n = f.getInt();
                if (n < 1 || n > MAX_NAME) {
                    throw new Malformed("a hello naming a host of " + n + " bytes (1 to " + MAX_NAME + ")");
                }
                need(f, n, "hello");
                byte[] name = new byte[n];
                f.get(name);
                need(f, 8, "hello");
                int pid = f.getInt();
                boolean rings = flag(f.getInt(), "hello");
                end(f, "hello");
                return new Handshake(code, utf8(name), pid, null, rings);
            }
            case Protocol.C_THREAD -> {
                need(f, 8 + TOKEN_BYTES + 4, "thread handshake");
                f.getLong();
                byte[] token = new byte[TOKEN_BYTES];
                f.get(token);
                boolean rings = flag(f.getInt(), "thread handshake");
                end(f, "thread handshake");
                return new Handshake(code, "", 0, token, rings);
            }
            case Protocol.C_SIDE -> {
                need(f, TOKEN_BYTES, "side channel handshake");
                byte[] token = new byte[TOKEN_BYTES];
                f.get(token);
                end(f, "side channel handshake");
                return new Handshake(code, "", 0, token, false);
            }
            case Protocol.C_INFO -> {
                need(f, 8, "information request");
                f.getLong();
                end(f, "information request");
                return new Handshake(code, "", 0, null, false);
            }
            default -> throw new Malformed("a first frame of code " + code + " (not a hello, thread, side channel"
                    + " or information request)");
        }
    }

    private static void need(ByteBuffer f, int n, String what) throws Malformed {
        if (f.remaining() < n) {
            throw new Malformed("a " + what + " shorter than its fields");
        }
    }

    private static void end(ByteBuffer f, String what) throws Malformed {
        if (f.hasRemaining()) {
            throw new Malformed("a " + what + " with " + f.remaining() + " bytes after its fields");
        }
    }

    private static boolean flag(int v, String what) throws Malformed {
        if (v != 0 && v != 1) {
            throw new Malformed("a " + what + " whose rings field is " + v + " (0 or 1)");
        }
        return v == 1;
    }

    private static String utf8(byte[] b) throws Malformed {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(b)).toString();
        } catch (CharacterCodingException e) {
            throw new Malformed("a hello whose host name is not UTF-8");
        }
    }
}
