package org.datsim.scenario.bridge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.lang.reflect.RecordComponent;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.RmrTriplet;
import org.datsim.scenario.load.Arg;
import org.datsim.scenario.load.CallCatalog;
import org.datsim.scenario.load.CallSpec;
import org.datsim.scenario.load.PostCall;
import org.datsim.scenario.load.TypedCall;
import org.junit.jupiter.api.Test;

/**
 * serve --record's writer is the inverse of the scenario loader: every request decoded from its sample frame
 * ({@link RequestSamples}) is either written as a step or listed as unrecorded (the set below, docs/bridge.md), and
 * each step written is typed by the loader ({@link TypedCall#of}) into a record whose arguments are all the step
 * carries (none the call does not declare, none the typed call does not read) and read back into the same
 * {@link BridgeCall}: load(write(record)) equals record, for every request recorded.
 */
class RecorderRoundTripTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** The requests serve --record has no scenario form for (docs/bridge.md, Recording). */
    private static final Set<Request> UNRECORDED = EnumSet.of(Request.HELLO, Request.SIDE, Request.UNSUPPORTED);

    /** The LMR contexts of the samples' segments, as the recording names their LMRs. */
    private static Recorder.LmrAt lmr(int context) {
        return context == 21 ? new Recorder.LmrAt("$lmr21", 0x10000) : context == 22
                ? new Recorder.LmrAt("$lmr22", 0x20000) : null;
    }

    /** A program whose handle ids 1 to 19 are bound as {@code $hN}, and 21, 22 are the LMRs of those contexts. */
    private static Recorder.Program program() {
        Recorder.Program g = new Recorder.Program("A", "A");
        for (int id = 1; id < 20; id++) {
            g.refs.put(id, "$h" + id);
        }
        g.refs.put(21, "$lmr21");
        g.refs.put(22, "$lmr22");
        return g;
    }

    @Test
    void everyRequestIsWrittenOrListedAsUnrecorded() {
        Recorder rec = new Recorder(JSON.createObjectNode(), "t");
        Recorder.Program g = program();
        for (Map.Entry<Request, ByteBuffer> e : RequestSamples.all().entrySet()) {
            Request r = e.getKey();
            BridgeCall c = RequestDecoder.decode(r, e.getValue());
            ObjectNode step = rec.step(g, RecorderRoundTripTest::lmr, c);
            if (UNRECORDED.contains(r)) {
                assertEquals(null, step, r + " is written now: take it out of UNRECORDED (and docs/bridge.md)");
                assertTrue(rec.unrecorded().contains(r.call()), r + " is not listed as unrecorded");
            } else {
                assertNotNull(step, r + " is not written");
            }
        }
    }

    @Test
    void loadingAWrittenStepGivesTheRecordBack() {
        Recorder rec = new Recorder(JSON.createObjectNode(), "t");
        Recorder.Program g = program();
        int checked = 0;
        Set<Request> seen = EnumSet.noneOf(Request.class);
        for (Map.Entry<Request, ByteBuffer> e : RequestSamples.everything()) {
            Request r = e.getKey();
            if (UNRECORDED.contains(r)) {
                continue;
            }
            BridgeCall c = RequestDecoder.decode(r, e.getValue());
            ObjectNode step = rec.step(g, RecorderRoundTripTest::lmr, c);
            String name = step.get("call").asText();
            CallSpec spec = CallCatalog.get(name);
            assertNotNull(spec, r + " is written as " + name + ", which the scenario format does not have");
            String path = "$.processes[0].calls[" + checked + "]";
            TypedCall typed = TypedCall.of(spec, step, path);
            assertNotNull(typed, name + " is typed by no family");
            Map<String, JsonNode> args = args(typed, path);
            step.fieldNames().forEachRemaining(k -> {
                if (!k.equals("call")) {
                    assertTrue(spec.args().containsKey(k), name + " is written with \"" + k
                            + "\", an argument the call does not declare");
                    assertTrue(args.containsKey(k), name + "'s \"" + k + "\" is read by no field of "
                            + typed.getClass().getSimpleName());
                }
            });
            BridgeCall back = back(r, name, args, c);
            assertEquals(canonical(c), canonical(back), "load(write(" + r + "))");
            checked++;
            seen.add(r);
        }
        assertEquals(Request.values().length - UNRECORDED.size(), seen.size());
    }

    @Test
    void aRangeTheScenarioCannotSayIsListedAsUnrecorded() {
        Recorder rec = new Recorder(JSON.createObjectNode(), "t");
        Recorder.Program g = program();
        LmrTriplet[] inLmr21 = {new LmrTriplet(21, 0x10040, 64)};
        assertEquals(null, rec.step(g, RecorderRoundTripTest::lmr,
                new BridgeCall.RmrBind(7, 22, inLmr21, 3, 8, 55L, 1)), "a bind of LMR 22 to a range of LMR 21");
        assertTrue(rec.unrecorded().contains("dat_rmr_bind of a range outside its LMR"), rec.unrecorded().toString());
        LmrTriplet[] nowhere = {new LmrTriplet(23, 0x30000, 8)};
        assertEquals(null, rec.step(g, RecorderRoundTripTest::lmr, new BridgeCall.LmrSync(1, true, nowhere)));
        assertEquals(null, rec.step(g, RecorderRoundTripTest::lmr, new BridgeCall.SrqPostRecv(13, nowhere, 1L)));
        assertTrue(rec.unrecorded().contains("dat_lmr_sync_rdma_write of memory outside the program's LMRs"));
        assertTrue(rec.unrecorded().contains("dat_srq_post_recv of memory outside the program's LMRs"));
        // an unbind reads only the length: written even when its segment is not in the LMR it names
        ObjectNode unbind = rec.step(g, RecorderRoundTripTest::lmr,
                new BridgeCall.RmrBind(7, 22, new LmrTriplet[] {new LmrTriplet(21, 0x10040, 0)}, 0, 8, 57L, 0));
        assertNotNull(unbind);
        assertEquals("$lmr22", unbind.get("lmr").asText());
        assertEquals(0, unbind.get("length").asLong());
    }

    /** The arguments a typed call carries, by name (from each field's JSON path), those the step gives. */
    private static Map<String, JsonNode> args(TypedCall typed, String path) {
        Map<String, JsonNode> m = new TreeMap<>();
        for (RecordComponent rc : typed.getClass().getRecordComponents()) {
            if (rc.getType() != Arg.class) {
                continue;
            }
            try {
                Arg a = (Arg) rc.getAccessor().invoke(typed);
                if (a.present()) {
                    m.put(a.path().substring(path.length() + 1), a.node());
                }
            } catch (ReflectiveOperationException ex) {
                throw new AssertionError(ex);
            }
        }
        return m;
    }

    private static int h(Map<String, JsonNode> a, String name) {
        JsonNode n = a.get(name);
        if (n == null || n.isNull()) {
            return 0;
        }
        String t = n.asText();
        if (t.startsWith("$lmr")) {
            return Integer.parseInt(t.substring("$lmr".length()));
        }
        assertTrue(t.startsWith("$h"), name + " refers to " + t);
        return Integer.parseInt(t.substring(2));
    }

    private static long n(Map<String, JsonNode> a, String name) {
        JsonNode v = a.get(name);
        assertNotNull(v, "no " + name);
        return v.isTextual() && v.asText().equals("DAT_TIMEOUT_INFINITE") ? Dat.TIMEOUT_INFINITE : v.asLong();
    }

    private static byte[] pd(Map<String, JsonNode> a) {
        JsonNode p = a.get("private_data");
        return p == null ? new byte[0] : HexFormat.of().parseHex(p.get("hex").asText());
    }

    private static LmrTriplet[] iov(Map<String, JsonNode> a, String arg) {
        List<LmrTriplet> out = new ArrayList<>();
        for (JsonNode s : a.get(arg)) {
            String lmr = s.get("lmr").asText();
            int ctx = Integer.parseInt(lmr.substring("$lmr".length()));
            out.add(new LmrTriplet(ctx, lmr(ctx).address() + s.get("offset").asLong(), s.get("length").asLong()));
        }
        return out.toArray(new LmrTriplet[0]);
    }

    private static RmrTriplet rmr(Map<String, JsonNode> a) {
        JsonNode r = a.get("remote_iov");
        return r == null ? null : new RmrTriplet((int) r.get("rmr_context").asLong(), r.get("address").asLong(),
                r.get("length").asLong());
    }

    private static final Map<String, Integer> TYPES = new HashMap<>(Map.of("cr", DatHandle.TYPE_CR, "ep",
            DatHandle.TYPE_EP, "evd", DatHandle.TYPE_EVD, "lmr", DatHandle.TYPE_LMR, "psp", DatHandle.TYPE_PSP, "pz",
            DatHandle.TYPE_PZ, "rmr", DatHandle.TYPE_RMR, "rsp", DatHandle.TYPE_RSP, "cno", DatHandle.TYPE_CNO,
            "srq", DatHandle.TYPE_SRQ));

    /**
     * Reads a loaded step's arguments back into the bridge record of the request. What a step does not carry is
     * taken from the original: the IA name (a replay opens its host's IA).
     */
    private static BridgeCall back(Request r, String call, Map<String, JsonNode> a, BridgeCall original) {
        return switch (r) {
            case IA_OPEN -> new BridgeCall.IaOpen(((BridgeCall.IaOpen) original).name(),
                    (int) n(a, "async_evd_qlen"));
            case IA_CLOSE -> new BridgeCall.HandleValue(r, h(a, "ia"), n(a, "flags"));
            case EP_DISCONNECT -> new BridgeCall.HandleValue(r, h(a, "ep"), n(a, "flags"));
            case QUERY -> {
                String kind = call.substring("dat_".length(), call.length() - "_query".length());
                yield new BridgeCall.Query(h(a, kind), TYPES.get(kind));
            }
            case SET_CTX -> new BridgeCall.HandleValue(r, h(a, "handle"), n(a, "context"));
            case IA_QUERY, PZ_CREATE -> new BridgeCall.OneHandle(r, h(a, "ia"));
            case CNO_CREATE -> new BridgeCall.HandleValue(r, h(a, "ia"), a.containsKey("agent") ? 1 : 0);
            case GET_CTX, HANDLE_TYPE -> new BridgeCall.OneHandle(r, h(a, "handle"));
            case PZ_FREE, RMR_CREATE -> new BridgeCall.OneHandle(r, h(a, "pz"));
            case EVD_FREE, EVD_DEQUEUE -> new BridgeCall.OneHandle(r, h(a, "evd"));
            case CNO_FREE -> new BridgeCall.OneHandle(r, h(a, "cno"));
            case LMR_FREE -> new BridgeCall.OneHandle(r, h(a, "lmr"));
            case RMR_FREE -> new BridgeCall.OneHandle(r, h(a, "rmr"));
            case EP_FREE, EP_RESET, EP_GET_STATUS -> new BridgeCall.OneHandle(r, h(a, "ep"));
            case PSP_FREE -> new BridgeCall.OneHandle(r, h(a, "psp"));
            case RSP_FREE -> new BridgeCall.OneHandle(r, h(a, "rsp"));
            case CR_REJECT -> new BridgeCall.OneHandle(r, h(a, "cr"));
            case EVD_CREATE -> new BridgeCall.EvdCreate(h(a, "ia"), (int) n(a, "evd_min_qlen"), h(a, "cno"),
                    (int) n(a, "evd_flags"));
            case EVD_WAIT -> new BridgeCall.EvdWait(h(a, "evd"), n(a, "timeout"), (int) n(a, "threshold"));
            case CNO_WAIT -> new BridgeCall.CnoWait(h(a, "cno"), n(a, "timeout"));
            case LMR_CREATE -> new BridgeCall.LmrCreate(h(a, "ia"), n(a, "address"), n(a, "length"), h(a, "pz"),
                    (int) n(a, "privileges"));
            case EP_CREATE -> {
                JsonNode e = a.get("ep_attr");
                EpAttributes attr = e == null ? null : new EpAttributes(e.get("max_message_size").asLong(),
                        e.get("max_rdma_size").asLong(), e.get("max_recv_dtos").asInt(),
                        e.get("max_request_dtos").asInt(), e.get("max_recv_iov").asInt(),
                        e.get("max_request_iov").asInt(), e.get("request_completion_flags").asInt(),
                        e.get("recv_completion_flags").asInt(), e.get("max_rdma_read_in").asInt(),
                        e.get("max_rdma_read_out").asInt());
                yield new BridgeCall.EpCreate(h(a, "ia"), h(a, "pz"), h(a, "recv_evd"), h(a, "request_evd"),
                        h(a, "connect_evd"), h(a, "srq"), attr);
            }
            case EP_CONNECT -> new BridgeCall.EpConnect(h(a, "ep"),
                    Protocol.ipOf(a.get("remote_ia_address").get("host_index").asInt()), n(a, "remote_conn_qual"),
                    n(a, "timeout"), pd(a));
            case POST_SEND, POST_RECV, POST_READ, POST_WRITE, POST_WRITE_IMMED, POST_ATOMIC -> {
                PostCall.Kind kind = PostCall.Kind.of(call);
                long first = kind == PostCall.Kind.CMP_AND_SWAP ? n(a, "cmp_value")
                        : kind == PostCall.Kind.FETCH_AND_ADD ? n(a, "add_value") : 0;
                long second = kind == PostCall.Kind.CMP_AND_SWAP ? n(a, "swap_value") : 0;
                int immediate = kind == PostCall.Kind.RDMA_WRITE_IMMED ? (int) n(a, "immediate_data") : 0;
                yield new BridgeCall.Post(kind, h(a, "ep"), iov(a, "local_iov"), n(a, "user_cookie"),
                        (int) n(a, "completion_flags"), rmr(a), immediate, first, second);
            }
            case PSP_CREATE -> new BridgeCall.PspCreate(h(a, "ia"), n(a, "conn_qual"), h(a, "evd"),
                    (int) n(a, "psp_flags"));
            case CR_ACCEPT -> new BridgeCall.CrAccept(h(a, "cr"), h(a, "ep"), pd(a));
            case EVD_UNWAITABLE, EVD_ENABLE -> new BridgeCall.Toggle(r, h(a, "evd"),
                    call.equals("dat_evd_set_unwaitable") || call.equals("dat_evd_enable"));
            case EVD_RESIZE -> new BridgeCall.HandleValue(r, h(a, "evd"), n(a, "evd_min_qlen"));
            case EVD_POST_SE -> new BridgeCall.HandleValue(r, h(a, "evd"), n(a, "pointer"));
            case EVD_MODIFY_CNO -> new BridgeCall.EvdModifyCno(h(a, "evd"), h(a, "cno"));
            case CNO_MODIFY_AGENT -> new BridgeCall.HandleValue(r, h(a, "cno"), a.containsKey("agent") ? 1 : 0);
            case LMR_SYNC -> new BridgeCall.LmrSync(h(a, "ia"), call.equals("dat_lmr_sync_rdma_write"),
                    iov(a, "local_segments"));
            case RMR_BIND -> {
                int lmr = h(a, "lmr");
                // a scenario's range is in the bound LMR (here handle id N is the LMR of context N), or without
                // one the offset is the address
                LmrTriplet range = lmr == 0 ? new LmrTriplet(0, n(a, "offset"), n(a, "length"))
                        : new LmrTriplet(lmr, lmr(lmr).address() + n(a, "offset"), n(a, "length"));
                yield new BridgeCall.RmrBind(h(a, "rmr"), lmr, new LmrTriplet[] {range}, (int) n(a, "mem_priv"),
                        h(a, "ep"), n(a, "user_cookie"), (int) n(a, "completion_flags"));
            }
            case EP_DUP_CONNECT -> new BridgeCall.EpDupConnect(h(a, "ep"), h(a, "dup_ep"), n(a, "timeout"), pd(a));
            case PSP_CREATE_ANY -> new BridgeCall.PspCreateAny(h(a, "ia"), h(a, "evd"), (int) n(a, "psp_flags"));
            case RSP_CREATE -> new BridgeCall.RspCreate(h(a, "ia"), n(a, "conn_qual"), h(a, "ep"), h(a, "evd"));
            case CR_HANDOFF -> new BridgeCall.HandleValue(r, h(a, "cr"), n(a, "handoff"));
            case SRQ_CREATE -> {
                JsonNode q = a.get("srq_attr");
                yield new BridgeCall.SrqCreate(h(a, "ia"), h(a, "pz"), q.get("max_recv_dtos").asInt(),
                        q.get("max_recv_iov").asInt(), q.get("low_watermark").asInt());
            }
            case SRQ_FREE -> new BridgeCall.OneHandle(r, h(a, "srq"));
            case EP_RECV_QUERY -> new BridgeCall.OneHandle(r, h(a, "ep"));
            case SRQ_RESIZE -> new BridgeCall.HandleValue(r, h(a, "srq"), n(a, "srq_max_recv_dto"));
            case SRQ_SET_LW -> new BridgeCall.HandleValue(r, h(a, "srq"), n(a, "low_watermark"));
            case SRQ_POST_RECV -> new BridgeCall.SrqPostRecv(h(a, "srq"), iov(a, "local_iov"), n(a, "user_cookie"));
            case EP_SET_WATERMARK -> new BridgeCall.Watermark(h(a, "ep"), (int) n(a, "soft_high_watermark"),
                    (int) n(a, "hard_high_watermark"));
            case HELLO, SIDE, UNSUPPORTED -> throw new AssertionError(r + " has no scenario form");
        };
    }

    /**
     * A record's fields as text (arrays by content). A fetch-and-add's second value is not sent by the library (0)
     * nor recorded.
     */
    private static String canonical(BridgeCall c) {
        StringBuilder b = new StringBuilder(c.getClass().getSimpleName()).append('(');
        for (RecordComponent rc : c.getClass().getRecordComponents()) {
            Object v;
            try {
                v = rc.getAccessor().invoke(c);
            } catch (ReflectiveOperationException ex) {
                throw new AssertionError(ex);
            }
            if (c instanceof BridgeCall.Post p && rc.getName().equals("second")
                    && p.kind() == PostCall.Kind.FETCH_AND_ADD) {
                v = 0L;
            }
            b.append(rc.getName()).append('=');
            b.append(v instanceof Object[] o ? Arrays.deepToString(o) : v instanceof byte[] y ? Arrays.toString(y)
                    : String.valueOf(v)).append(' ');
        }
        return b.append(')').toString();
    }
}
