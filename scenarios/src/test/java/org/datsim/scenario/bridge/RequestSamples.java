package org.datsim.scenario.bridge;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;

/**
 * One sample payload of every {@link Request}, framed as provider/libdatsim.so frames it (after the u64 CPU time),
 * with distinct values so that a field read in the wrong place shows. A request without a sample fails
 * {@link RequestDecoderTest}: a new request needs one, and so is decoded and recorded under test.
 */
final class RequestSamples {

    private RequestSamples() {
    }

    /** An I/O vector of two segments in LMR contexts 21 and 22. */
    private static final Object[] IOV = {2, t(21, 0x10010, 100), t(22, 0x20000, 200)};
    /** A remote buffer. */
    private static final Object[] RMR = {t(31, 0x30000, 300)};

    /** A triplet (u32 context, u64 address, u64 length). */
    record T(int context, long address, long length) {
    }

    private static T t(int context, long address, long length) {
        return new T(context, address, length);
    }

    /** The payloads by request (little-endian, without the frame header and the CPU time). */
    static Map<Request, ByteBuffer> all() {
        Map<Request, ByteBuffer> m = new EnumMap<>(Request.class);
        m.put(Request.HELLO, frame());
        m.put(Request.SIDE, frame());
        m.put(Request.IA_OPEN, frame("ia-of-host0", 8));
        m.put(Request.IA_CLOSE, frame(1, 1L));
        m.put(Request.IA_QUERY, frame(1));
        m.put(Request.QUERY, frame(8, DatHandle.TYPE_EP));
        m.put(Request.SET_CTX, frame(8, 77L));
        m.put(Request.GET_CTX, frame(8));
        m.put(Request.HANDLE_TYPE, frame(9));
        m.put(Request.PZ_CREATE, frame(1));
        m.put(Request.PZ_FREE, frame(2));
        m.put(Request.EVD_CREATE, frame(1, 16, 5, 0x3));
        m.put(Request.EVD_FREE, frame(4));
        m.put(Request.EVD_WAIT, frame(4, 1000L, 2));
        m.put(Request.EVD_DEQUEUE, frame(4));
        m.put(Request.EVD_UNWAITABLE, frame(4, 1L));
        m.put(Request.EVD_ENABLE, frame(4, 0L));
        m.put(Request.EVD_RESIZE, frame(4, 32L));
        m.put(Request.EVD_POST_SE, frame(4, 9L));
        m.put(Request.EVD_MODIFY_CNO, frame(4, 5));
        m.put(Request.CNO_CREATE, frame(1, 1));
        m.put(Request.CNO_FREE, frame(5));
        m.put(Request.CNO_WAIT, frame(5, Dat.TIMEOUT_INFINITE));
        m.put(Request.CNO_MODIFY_AGENT, frame(5, 1L));
        m.put(Request.LMR_CREATE, frame(1, 0x10000L, 4096L, 2, 7));
        m.put(Request.LMR_FREE, frame(6));
        m.put(Request.LMR_SYNC, frame(1, 1, IOV));
        m.put(Request.RMR_CREATE, frame(2));
        m.put(Request.RMR_FREE, frame(7));
        m.put(Request.RMR_BIND, frame(7, 21, 1, t(21, 0x10040, 64), 3, 8, 55L, 1));
        m.put(Request.EP_CREATE, frame(1, 2, 4, 3, 4, 0, 1, 100L, 1L << 40, 10, 11, 2, 3, 1, 0, 4, 5));
        m.put(Request.EP_FREE, frame(8));
        m.put(Request.EP_CONNECT, frame(8, Protocol.ipOf(1), 5000L, 1000L, new byte[] {1, 2, 3}));
        m.put(Request.EP_DUP_CONNECT, frame(8, 9, 1000L, new byte[] {4}));
        m.put(Request.EP_DISCONNECT, frame(8, 1L));
        m.put(Request.EP_RESET, frame(8));
        m.put(Request.EP_GET_STATUS, frame(8));
        m.put(Request.POST_SEND, frame(8, IOV, 11L, 1));
        m.put(Request.POST_RECV, frame(8, IOV, 12L, 0));
        m.put(Request.POST_READ, frame(8, IOV, 13L, 1, RMR));
        m.put(Request.POST_WRITE, frame(8, IOV, 14L, 1, RMR));
        m.put(Request.POST_WRITE_IMMED, frame(8, IOV, 15L, 1, RMR, 0xfeedbeef));
        m.put(Request.POST_ATOMIC, frame(8, 1, 40L, 41L, 1, t(21, 0x10020, 8), 16L, 1, RMR));
        m.put(Request.PSP_CREATE, frame(1, 5000L, 4, 0));
        m.put(Request.PSP_CREATE_ANY, frame(1, 4, 0));
        m.put(Request.PSP_FREE, frame(10));
        m.put(Request.RSP_CREATE, frame(1, 5001L, 8, 4));
        m.put(Request.RSP_FREE, frame(11));
        m.put(Request.CR_ACCEPT, frame(12, 8, new byte[] {9, 8}));
        m.put(Request.CR_REJECT, frame(12));
        m.put(Request.CR_HANDOFF, frame(12, 6000L));
        m.put(Request.SRQ_CREATE, frame(1, 2, 10, 2, 1));
        m.put(Request.SRQ_FREE, frame(13));
        m.put(Request.SRQ_POST_RECV, frame(13, IOV, 17L));
        m.put(Request.SRQ_RESIZE, frame(13, 20L));
        m.put(Request.SRQ_SET_LW, frame(13, 3L));
        m.put(Request.EP_RECV_QUERY, frame(8));
        m.put(Request.EP_SET_WATERMARK, frame(8, 4, 8));
        m.put(Request.UNSUPPORTED, frame("dat_ep_modify"));
        return m;
    }

    /**
     * Further payloads of requests whose arguments choose between forms: fetch and add, an endpoint with an SRQ and
     * no attributes, an EVD without a CNO, a finite CNO wait, an accept on the CR's endpoint without private data, a
     * CNO without agent, an LMR read sync, a query of every handle type, an unbind (no LMR, length 0), the other
     * call of each two-call EVD request, an EVD taken from its CNO, a CNO's agent removed, a dup connect that waits
     * forever without private data, an SRQ receive of one segment.
     */
    static List<Map.Entry<Request, ByteBuffer>> variants() {
        List<Map.Entry<Request, ByteBuffer>> v = new ArrayList<>();
        v.add(Map.entry(Request.POST_ATOMIC, frame(8, 0, 40L, 0L, 1, t(22, 0x20008, 8), 18L, 0, RMR)));
        v.add(Map.entry(Request.EP_CREATE, frame(1, 2, 4, 4, 4, 13, 0)));
        v.add(Map.entry(Request.EVD_CREATE, frame(1, 16, 0, 0x1)));
        v.add(Map.entry(Request.CNO_WAIT, frame(5, 250L)));
        v.add(Map.entry(Request.CR_ACCEPT, frame(12, 0, new byte[0])));
        v.add(Map.entry(Request.CNO_CREATE, frame(1, 0)));
        v.add(Map.entry(Request.LMR_SYNC, frame(1, 0, IOV)));
        v.add(Map.entry(Request.RMR_BIND, frame(7, 0, 1, t(0, 0, 0), 0, 8, 56L, 0)));
        v.add(Map.entry(Request.EVD_UNWAITABLE, frame(4, 0L)));
        v.add(Map.entry(Request.EVD_ENABLE, frame(4, 1L)));
        v.add(Map.entry(Request.EVD_MODIFY_CNO, frame(4, 0)));
        v.add(Map.entry(Request.CNO_MODIFY_AGENT, frame(5, 0L)));
        v.add(Map.entry(Request.EP_DUP_CONNECT, frame(8, 9, Dat.TIMEOUT_INFINITE, new byte[0])));
        v.add(Map.entry(Request.SRQ_POST_RECV, frame(13, 1, t(22, 0x20010, 16), 19L)));
        for (int type : new int[] {DatHandle.TYPE_CR, DatHandle.TYPE_EVD, DatHandle.TYPE_LMR, DatHandle.TYPE_PSP,
            DatHandle.TYPE_PZ, DatHandle.TYPE_RMR, DatHandle.TYPE_RSP, DatHandle.TYPE_CNO, DatHandle.TYPE_SRQ}) {
            v.add(Map.entry(Request.QUERY, frame(9, type)));
        }
        return v;
    }

    /** Every sample and variant. */
    static List<Map.Entry<Request, ByteBuffer>> everything() {
        List<Map.Entry<Request, ByteBuffer>> v = new ArrayList<>(all().entrySet());
        v.addAll(variants());
        return v;
    }

    /** A payload of Integers (u32), Longs (u64), triplets, byte arrays and strings (u32 length, bytes). */
    static ByteBuffer frame(Object... args) {
        ByteBuffer b = ByteBuffer.allocate(1024).order(ByteOrder.LITTLE_ENDIAN);
        put(b, args);
        return b.flip();
    }

    private static void put(ByteBuffer b, Object[] args) {
        for (Object a : args) {
            if (a instanceof Integer i) {
                b.putInt(i);
            } else if (a instanceof Long l) {
                b.putLong(l);
            } else if (a instanceof T t) {
                b.putInt(t.context()).putLong(t.address()).putLong(t.length());
            } else if (a instanceof Object[] nested) {
                put(b, nested);
            } else if (a instanceof byte[] bytes) {
                b.putInt(bytes.length).put(bytes);
            } else {
                byte[] s = ((String) a).getBytes(StandardCharsets.UTF_8);
                b.putInt(s.length).put(s);
            }
        }
    }
}
