package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

/** Every first frame is read field by field against its length: the forms, and each way to be malformed. */
class HandshakeTest {

    private static ByteBuffer frame(int code, Object... fields) {
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN).putInt(code);
        for (Object f : fields) {
            if (f instanceof Integer i) {
                b.putInt(i);
            } else if (f instanceof Long l) {
                b.putLong(l);
            } else {
                b.put((byte[]) f);
            }
        }
        return b.flip();
    }

    private static String malformed(ByteBuffer f) {
        return assertThrows(Handshake.Malformed.class, () -> Handshake.parse(f)).getMessage();
    }

    @Test
    void theFormsAreRead() throws Exception {
        Handshake h = Handshake.parse(frame(Protocol.C_HELLO, 0L, 1, new byte[] {'B'}, 42, 1));
        assertEquals("B", h.host());
        assertEquals(42, h.pid());
        assertTrue(h.wantsRings());
        byte[] token = Handshake.newToken();
        assertArrayEquals(token, Handshake.parse(frame(Protocol.C_SIDE, token)).token());
        Handshake t = Handshake.parse(frame(Protocol.C_THREAD, 0L, token, 0));
        assertArrayEquals(token, t.token());
        assertEquals(Protocol.C_INFO, Handshake.parse(frame(Protocol.C_INFO, 0L)).code());
    }

    @Test
    void eachMalformedFormSaysWhat() throws Exception {
        assertTrue(malformed(frame(Protocol.C_HELLO)).contains("shorter than its fields"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, -1)).contains("a host of -1 bytes"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, 0)).contains("a host of 0 bytes"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, 5, new byte[] {'B'})).contains("shorter than its fields"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, 1, new byte[] {'B'}, 42)).contains("shorter"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, 1, new byte[] {'B'}, 42, 2)).contains("rings field is 2"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, 1, new byte[] {(byte) 0xC3}, 42, 0)).contains("UTF-8"));
        assertTrue(malformed(frame(Protocol.C_HELLO, 0L, 1, new byte[] {'B'}, 42, 0, 7)).contains("4 bytes after"));
        assertTrue(malformed(frame(Protocol.C_SIDE)).contains("side channel handshake shorter"));
        assertTrue(malformed(frame(Protocol.C_SIDE, 1)).contains("shorter"), "a 32-bit token of the old protocol");
        assertTrue(malformed(frame(Protocol.C_THREAD, 0L, 1)).contains("thread handshake shorter"));
        assertTrue(malformed(frame(Request.IA_OPEN.code(), 0L)).contains("code 2"));
        assertTrue(malformed(ByteBuffer.allocate(2)).contains("too short for its code"));
        assertThrows(Handshake.Malformed.class, () -> Handshake.checkLength(64 << 20));
        assertThrows(Handshake.Malformed.class, () -> Handshake.checkLength(-1));
        assertThrows(Handshake.Malformed.class, () -> Handshake.checkLength(3));
        Handshake.checkLength(Handshake.MAX_FRAME - 4);
    }
}
