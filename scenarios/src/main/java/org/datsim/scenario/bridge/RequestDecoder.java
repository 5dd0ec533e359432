package org.datsim.scenario.bridge;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.RmrTriplet;
import org.datsim.scenario.load.PostCall;

/**
 * Decodes a request's payload (after its u64 CPU time) once into its typed {@link BridgeCall}: the one place that
 * knows each request's wire layout (docs/bridge.md), read in the order {@code provider/datsim_provider.c} writes it.
 * One switch over {@link Request}, every request a case and no default: a new request does not compile until it is
 * decoded. A payload shorter than its arguments, or a count that the payload cannot hold, throws
 * {@link BufferUnderflowException} (the program's connection ends, never the server; nothing is allocated for a
 * count that was not sent).
 */
final class RequestDecoder {

    /** Bytes of one I/O vector entry on the wire: u32 LMR context, u64 address, u64 length. */
    static final int TRIPLET_BYTES = 20;

    private RequestDecoder() {
    }

    /**
     * Decodes one request.
     *
     * @param r the request
     * @param b its payload, little-endian, positioned after the CPU time
     * @return the typed call
     * @throws BufferUnderflowException if the payload is shorter than the request's arguments
     */
    static BridgeCall decode(Request r, ByteBuffer b) {
        return switch (r) {
            case HELLO, SIDE -> new BridgeCall.Bare(r);
            case IA_OPEN -> new BridgeCall.IaOpen(str(b), b.getInt());
            case IA_QUERY, GET_CTX, HANDLE_TYPE, PZ_CREATE, PZ_FREE, EVD_FREE, EVD_DEQUEUE, CNO_FREE, LMR_FREE,
                    RMR_CREATE, RMR_FREE, EP_FREE, EP_RESET, EP_GET_STATUS, PSP_FREE, RSP_FREE, CR_REJECT, SRQ_FREE,
                    EP_RECV_QUERY -> new BridgeCall.OneHandle(r, b.getInt());
            case IA_CLOSE, SET_CTX, EVD_RESIZE, EVD_POST_SE, CNO_MODIFY_AGENT, EP_DISCONNECT, CR_HANDOFF, SRQ_RESIZE,
                    SRQ_SET_LW -> new BridgeCall.HandleValue(r, b.getInt(), b.getLong());
            case CNO_CREATE -> new BridgeCall.HandleValue(r, b.getInt(), b.getInt()); // u32: an agent or none
            case EVD_UNWAITABLE, EVD_ENABLE -> new BridgeCall.Toggle(r, b.getInt(), b.getLong() != 0);
            case QUERY -> new BridgeCall.Query(b.getInt(), b.getInt());
            case EVD_CREATE -> new BridgeCall.EvdCreate(b.getInt(), b.getInt(), b.getInt(), b.getInt());
            case EVD_WAIT -> new BridgeCall.EvdWait(b.getInt(), b.getLong(), b.getInt());
            case CNO_WAIT -> new BridgeCall.CnoWait(b.getInt(), b.getLong());
            case EVD_MODIFY_CNO -> new BridgeCall.EvdModifyCno(b.getInt(), b.getInt());
            case LMR_CREATE -> new BridgeCall.LmrCreate(b.getInt(), b.getLong(), b.getLong(), b.getInt(), b.getInt());
            case LMR_SYNC -> new BridgeCall.LmrSync(b.getInt(), b.getInt() != 0, iov(b));
            case RMR_BIND -> new BridgeCall.RmrBind(b.getInt(), b.getInt(), iov(b), b.getInt(), b.getInt(),
                    b.getLong(), b.getInt());
            case EP_CREATE -> new BridgeCall.EpCreate(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt(),
                    b.getInt(), epAttr(b));
            case EP_CONNECT -> new BridgeCall.EpConnect(b.getInt(), b.getInt(), b.getLong(), b.getLong(), bytes(b));
            case EP_DUP_CONNECT -> new BridgeCall.EpDupConnect(b.getInt(), b.getInt(), b.getLong(), bytes(b));
            case POST_SEND -> post(PostCall.Kind.SEND, b);
            case POST_RECV -> post(PostCall.Kind.RECV, b);
            case POST_READ -> post(PostCall.Kind.RDMA_READ, b);
            case POST_WRITE -> post(PostCall.Kind.RDMA_WRITE, b);
            case POST_WRITE_IMMED -> post(PostCall.Kind.RDMA_WRITE_IMMED, b);
            case POST_ATOMIC -> atomic(b);
            case PSP_CREATE -> new BridgeCall.PspCreate(b.getInt(), b.getLong(), b.getInt(), b.getInt());
            case PSP_CREATE_ANY -> new BridgeCall.PspCreateAny(b.getInt(), b.getInt(), b.getInt());
            case RSP_CREATE -> new BridgeCall.RspCreate(b.getInt(), b.getLong(), b.getInt(), b.getInt());
            case CR_ACCEPT -> new BridgeCall.CrAccept(b.getInt(), b.getInt(), bytes(b));
            case SRQ_CREATE -> new BridgeCall.SrqCreate(b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt());
            case SRQ_POST_RECV -> new BridgeCall.SrqPostRecv(b.getInt(), iov(b), b.getLong());
            case EP_SET_WATERMARK -> new BridgeCall.Watermark(b.getInt(), b.getInt(), b.getInt());
            case UNSUPPORTED -> new BridgeCall.Unsupported(str(b));
        };
    }

    /** An endpoint post but the atomics: u32 ep, the IOV, u64 cookie, u32 flags, the remote buffer, the immediate. */
    private static BridgeCall.Post post(PostCall.Kind kind, ByteBuffer b) {
        int ep = b.getInt();
        LmrTriplet[] iov = iov(b);
        long cookie = b.getLong();
        int flags = b.getInt();
        RmrTriplet remote = kind == PostCall.Kind.SEND || kind == PostCall.Kind.RECV ? null : rmr(b);
        int immediate = kind == PostCall.Kind.RDMA_WRITE_IMMED ? b.getInt() : 0;
        return new BridgeCall.Post(kind, ep, iov, cookie, flags, remote, immediate, 0, 0);
    }

    /**
     * An atomic: u32 ep, u32 compare-and-swap (else fetch-and-add), u64 the value added or compared, u64 the value
     * stored (fetch-and-add sends 0), the IOV, u64 cookie, u32 flags, the remote buffer.
     */
    private static BridgeCall.Post atomic(ByteBuffer b) {
        int ep = b.getInt();
        boolean cmpSwap = b.getInt() != 0;
        long first = b.getLong();
        long second = b.getLong();
        LmrTriplet[] iov = iov(b);
        long cookie = b.getLong();
        int flags = b.getInt();
        RmrTriplet remote = rmr(b);
        return new BridgeCall.Post(cmpSwap ? PostCall.Kind.CMP_AND_SWAP : PostCall.Kind.FETCH_AND_ADD, ep, iov,
                cookie, flags, remote, 0, first, second);
    }

    /**
     * dat_ep_create's optional attributes (u32 present, then the fields). OFA dapl, the library these programs are
     * written for, never checks a post's length against max_message_size or max_rdma_size (dtest asks for 0 and
     * 64 KiB and sends and writes more): the bridge gives the endpoint at least datsim's defaults (1 GiB), so dapl's
     * programs run unchanged, and a recording replays with the same attributes.
     */
    private static EpAttributes epAttr(ByteBuffer b) {
        if (b.getInt() == 0) {
            return null;
        }
        EpAttributes d = EpAttributes.defaults();
        long msg = b.getLong();
        long rdma = b.getLong();
        return new EpAttributes(Math.max(msg, d.maxMessageSize()), Math.max(rdma, d.maxRdmaSize()), b.getInt(),
                b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt(), b.getInt());
    }

    private static String str(ByteBuffer b) {
        return new String(bytes(b), StandardCharsets.UTF_8);
    }

    private static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[count(b, 1)];
        b.get(a);
        return a;
    }

    /**
     * Reads a count of items of {@code each} bytes that follow: one that the payload cannot hold is a request
     * shorter than its arguments (never an allocation of what it declares).
     */
    private static int count(ByteBuffer b, int each) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining() / each) {
            throw new BufferUnderflowException();
        }
        return n;
    }

    private static LmrTriplet[] iov(ByteBuffer b) {
        LmrTriplet[] t = new LmrTriplet[count(b, TRIPLET_BYTES)];
        for (int i = 0; i < t.length; i++) {
            int ctx = b.getInt();
            long a = b.getLong();
            long len = b.getLong();
            t[i] = new LmrTriplet(ctx, a, len);
        }
        return t;
    }

    private static RmrTriplet rmr(ByteBuffer b) {
        int ctx = b.getInt();
        long a = b.getLong();
        long len = b.getLong();
        return new RmrTriplet(ctx, a, len);
    }
}
