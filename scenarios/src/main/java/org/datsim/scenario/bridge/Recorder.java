package org.datsim.scenario.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.IntFunction;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.scenario.consumer.HandleTable;
import org.datsim.scenario.load.PostCall;

/**
 * {@code datsim serve --record FILE}: the calls each attached program made, with their arguments, written as a
 * scenario that {@code datsim run} replays (docs/bridge.md, Recording). Each program (each thread) becomes a
 * process of that name on its host; an object is bound under the name the live run gave it ({@code A/ep1} is
 * {@code "out": "ep1"}), so the replay names it the same; an LMR keeps the program's address; an event is bound as
 * {@code evN} and a handle first seen in it (a CR) is read from it; a call that returned an error expects that
 * error; simulated time that passed while the program was outside calls (detached, or --cpu-scale) becomes a
 * {@code sleep}. Calls the scenario format has no form for are listed by {@link #unrecorded}.
 */
final class Recorder {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final JsonNode source;
    private final String scenarioName;
    private final List<Program> programs = new ArrayList<>();
    private final Map<BridgeProcess, Program> byProcess = new HashMap<>();
    private final TreeSet<String> unrecorded = new TreeSet<>();

    /** One recorded process: its calls and the references of the handles it has seen. */
    static final class Program {
        final String name;
        final String host;
        final ArrayNode calls = JSON.createArrayNode();
        final Map<Integer, String> refs = new HashMap<>();
        /** The simulated time of the program's last reply (its clock when it made its next call, if it held time). */
        long clock;
        int events;

        Program(String name, String host) {
            this.name = name;
            this.host = host;
        }
    }

    /**
     * @param source the served scenario file's JSON (its fabric, seed and vars are copied)
     * @param scenarioName the served scenario's name
     */
    Recorder(JsonNode source, String scenarioName) {
        this.source = source;
        this.scenarioName = scenarioName;
    }

    private Program program(BridgeProcess p) {
        return byProcess.computeIfAbsent(p, k -> {
            Program g = new Program(k.name().replace('/', '_'), k.host().name());
            programs.add(g);
            return g;
        });
    }

    /** The calls that could not be recorded (by name), for the server's message. */
    TreeSet<String> unrecorded() {
        return unrecorded;
    }

    /**
     * Records one executed request.
     *
     * @param p the process (connection) that made it
     * @param code its request code
     * @param call the request decoded ({@link RequestDecoder}), or null for a code this datsim does not know
     * @param ret what it returned
     * @param startedAt the simulated time at which the program made the call
     * @param before the number of handle ids the process knew before the call (new ones are its outputs)
     * @param event the event it returned, or null
     * @param now the simulated time of the reply
     * @param owedPs what the call costs after its reply, before the next call, in both runs (cpu.poll_overhead after
     *     an event taken or a blocked wait that ended)
     */
    void record(BridgeProcess p, int code, BridgeCall call, int ret, long startedAt, int before, DatEvent event,
            long now, long owedPs) {
        Program g = program(p);
        long gap = startedAt - g.clock;
        // Where the replay's clock is after the call: what it owes after its reply it owes there as here; an empty
        // dequeue, which costs the bridge cpu.poll_overhead (so that a polling program lets time run), costs a
        // scenario nothing, so that time becomes part of the next sleep.
        boolean emptyDequeue = code == Request.EVD_DEQUEUE.code() && DatReturn.type(ret) == DatReturn.QUEUE_EMPTY;
        g.clock = emptyDequeue ? startedAt : now + owedPs;
        if (gap > 0) {
            g.calls.addObject().put("call", "sleep").put("time", gap + "ps");
        }
        if (call == null) {
            unrecorded.add(Protocol.name(code));
            return;
        }
        ObjectNode c = step(g, ctx -> lmrAt(p, ctx), call);
        if (c == null) {
            return;
        }
        // Outputs: the object a call created is the first handle id it introduced (an IA's async EVD the second).
        HandleTable handles = p.handles();
        String out = null;
        if (DatReturn.isSuccess(ret) && handles.size() > before && event == null) {
            DatHandle made = handles.get(before);
            out = objectName(made, g.host);
            g.refs.put(before, "$" + out);
            if (call.request() == Request.IA_OPEN && handles.size() > before + 1) {
                g.refs.put(before + 1, "$" + out + ".async_evd");
            }
        }
        if (event != null) {
            out = "ev" + (++g.events);
            for (int id = before; id < handles.size(); id++) {
                DatHandle h = handles.get(id);
                String field = h == event.cr ? "cr" : h == event.ep ? "ep" : h == event.rmr ? "rmr" : null;
                if (field != null) {
                    g.refs.put(id, "$" + out + "." + field);
                }
            }
        }
        if (out != null) {
            c.put("out", out);
        }
        if (!DatReturn.isSuccess(ret)) {
            c.putObject("expect").put("ret", DatReturn.typeName(ret));
        }
        g.calls.add(c);
    }

    /**
     * Writes a decoded request as a scenario step, its arguments as the scenario's call takes them (handles as the
     * references the recording bound them to): one case per request, no default. Returns null, and notes the call
     * as unrecorded, when the scenario format has no form for it (docs/bridge.md, Recording).
     */
    ObjectNode step(Program g, IntFunction<LmrAt> lmrs, BridgeCall call) {
        Request r = call.request();
        String name = r.call();
        ObjectNode c = JSON.createObjectNode();
        c.put("call", name);
        switch (r) {
            case IA_OPEN -> c.put("async_evd_qlen", ((BridgeCall.IaOpen) call).asyncEvdQlen());
            case IA_CLOSE, EP_DISCONNECT -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, r == Request.IA_CLOSE ? "ia" : "ep", v.handle());
                c.put("flags", v.value());
            }
            case QUERY -> {
                BridgeCall.Query q = (BridgeCall.Query) call;
                String kind = switch (q.type()) {
                    case DatHandle.TYPE_CR -> "cr";
                    case DatHandle.TYPE_EP -> "ep";
                    case DatHandle.TYPE_EVD -> "evd";
                    case DatHandle.TYPE_LMR -> "lmr";
                    case DatHandle.TYPE_PSP -> "psp";
                    case DatHandle.TYPE_PZ -> "pz";
                    case DatHandle.TYPE_RMR -> "rmr";
                    case DatHandle.TYPE_RSP -> "rsp";
                    case DatHandle.TYPE_CNO -> "cno";
                    case DatHandle.TYPE_SRQ -> "srq";
                    default -> null;
                };
                if (kind == null) {
                    unrecorded.add("dat_*_query of handle type " + q.type());
                    return null;
                }
                c.put("call", "dat_" + kind + "_query");
                ref(g, c, kind, q.handle());
            }
            case SET_CTX -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, "handle", v.handle());
                c.put("context", v.value());
            }
            case IA_QUERY, PZ_CREATE -> ref(g, c, "ia", handle(call));
            case CNO_CREATE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, "ia", v.handle());
                if (v.value() != 0) {
                    c.put("agent", "agent"); // the proxy agent the bridge names (BridgeCalls)
                }
            }
            case GET_CTX, HANDLE_TYPE -> ref(g, c, "handle", handle(call));
            case PZ_FREE, RMR_CREATE -> ref(g, c, "pz", handle(call));
            case EVD_FREE, EVD_DEQUEUE -> ref(g, c, "evd", handle(call));
            case CNO_FREE -> ref(g, c, "cno", handle(call));
            case LMR_FREE -> ref(g, c, "lmr", handle(call));
            case RMR_FREE -> ref(g, c, "rmr", handle(call));
            case EP_FREE, EP_RESET, EP_GET_STATUS -> ref(g, c, "ep", handle(call));
            case PSP_FREE -> ref(g, c, "psp", handle(call));
            case RSP_FREE -> ref(g, c, "rsp", handle(call));
            case CR_REJECT -> ref(g, c, "cr", handle(call));
            case EVD_CREATE -> {
                BridgeCall.EvdCreate e = (BridgeCall.EvdCreate) call;
                ref(g, c, "ia", e.ia());
                c.put("evd_min_qlen", e.qlen());
                if (e.cno() != 0) {
                    ref(g, c, "cno", e.cno());
                }
                c.put("evd_flags", e.flags());
            }
            case EVD_WAIT -> {
                BridgeCall.EvdWait w = (BridgeCall.EvdWait) call;
                ref(g, c, "evd", w.evd());
                timeout(c, w.timeoutUs());
                c.put("threshold", w.threshold());
            }
            case CNO_WAIT -> {
                BridgeCall.CnoWait w = (BridgeCall.CnoWait) call;
                ref(g, c, "cno", w.cno());
                timeout(c, w.timeoutUs());
            }
            case LMR_CREATE -> {
                BridgeCall.LmrCreate l = (BridgeCall.LmrCreate) call;
                ref(g, c, "ia", l.ia());
                c.put("address", l.address());
                c.put("length", l.length());
                ref(g, c, "pz", l.pz());
                c.put("privileges", l.privileges());
            }
            case EP_CREATE -> {
                BridgeCall.EpCreate e = (BridgeCall.EpCreate) call;
                ref(g, c, "ia", e.ia());
                ref(g, c, "pz", e.pz());
                ref(g, c, "recv_evd", e.recvEvd());
                ref(g, c, "request_evd", e.requestEvd());
                ref(g, c, "connect_evd", e.connectEvd());
                if (e.srq() != 0) {
                    c.put("call", call.call()); // dat_ep_create_with_srq
                    ref(g, c, "srq", e.srq());
                }
                EpAttributes a = e.attr();
                if (a != null) {
                    c.putObject("ep_attr").put("max_message_size", a.maxMessageSize())
                            .put("max_rdma_size", a.maxRdmaSize()).put("max_recv_dtos", a.maxRecvDtos())
                            .put("max_request_dtos", a.maxRequestDtos()).put("max_recv_iov", a.maxRecvIov())
                            .put("max_request_iov", a.maxRequestIov())
                            .put("request_completion_flags", a.requestCompletionFlags())
                            .put("recv_completion_flags", a.recvCompletionFlags())
                            .put("max_rdma_read_in", a.maxRdmaReadIn()).put("max_rdma_read_out", a.maxRdmaReadOut());
                }
            }
            case EP_CONNECT -> {
                BridgeCall.EpConnect e = (BridgeCall.EpConnect) call;
                ref(g, c, "ep", e.ep());
                c.putObject("remote_ia_address").put("host_index", Protocol.hostOf(e.ip()));
                c.put("remote_conn_qual", e.qual());
                timeout(c, e.timeoutUs());
                privateData(c, e.privateData());
            }
            case POST_SEND, POST_RECV, POST_READ, POST_WRITE, POST_WRITE_IMMED, POST_ATOMIC -> {
                BridgeCall.Post t = (BridgeCall.Post) call;
                ref(g, c, "ep", t.ep());
                c.put("call", t.call());
                switch (t.kind()) {
                    case CMP_AND_SWAP -> {
                        c.put("cmp_value", t.first());
                        c.put("swap_value", t.second());
                    }
                    case FETCH_AND_ADD -> c.put("add_value", t.first());
                    case SEND, RECV, RDMA_READ, RDMA_WRITE, RDMA_WRITE_IMMED -> {
                    }
                }
                if (!iov(lmrs, c, "local_iov", t.iov())) {
                    unrecorded.add(name + " of memory outside the program's LMRs");
                    return null;
                }
                c.put("user_cookie", t.cookie());
                c.put("completion_flags", t.flags());
                if (t.remote() != null) {
                    c.putObject("remote_iov").put("rmr_context", t.remote().rmrContext() & 0xffffffffL)
                            .put("address", t.remote().address()).put("length", t.remote().length());
                }
                if (t.kind() == PostCall.Kind.RDMA_WRITE_IMMED) {
                    c.put("immediate_data", t.immediate() & 0xffffffffL);
                }
            }
            case PSP_CREATE -> {
                BridgeCall.PspCreate s = (BridgeCall.PspCreate) call;
                ref(g, c, "ia", s.ia());
                c.put("conn_qual", s.qual());
                ref(g, c, "evd", s.evd());
                c.put("psp_flags", s.flags());
            }
            case CR_ACCEPT -> {
                BridgeCall.CrAccept a = (BridgeCall.CrAccept) call;
                ref(g, c, "cr", a.cr());
                if (a.ep() == 0) {
                    c.putNull("ep");
                } else {
                    ref(g, c, "ep", a.ep());
                }
                privateData(c, a.privateData());
            }
            case EVD_UNWAITABLE, EVD_ENABLE -> {
                c.put("call", call.call()); // the one of its two calls the program made
                ref(g, c, "evd", ((BridgeCall.Toggle) call).handle());
            }
            case EVD_RESIZE, EVD_POST_SE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, "evd", v.handle());
                if (r == Request.EVD_RESIZE) {
                    c.put("evd_min_qlen", (int) v.value()); // the bridge runs it as an int
                } else {
                    c.put("pointer", v.value());
                }
            }
            case EVD_MODIFY_CNO -> {
                BridgeCall.EvdModifyCno m = (BridgeCall.EvdModifyCno) call;
                ref(g, c, "evd", m.evd());
                ref(g, c, "cno", m.cno());
            }
            case CNO_MODIFY_AGENT -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, "cno", v.handle());
                if (v.value() != 0) {
                    c.put("agent", "agent"); // as CNO_CREATE
                }
            }
            case LMR_SYNC -> {
                BridgeCall.LmrSync s = (BridgeCall.LmrSync) call;
                c.put("call", call.call()); // read or write
                ref(g, c, "ia", s.ia());
                if (!iov(lmrs, c, "local_segments", s.segments())) {
                    unrecorded.add(call.call() + " of memory outside the program's LMRs");
                    return null;
                }
            }
            case RMR_BIND -> {
                if (!rmrBind(g, lmrs, c, (BridgeCall.RmrBind) call)) {
                    unrecorded.add(name + " of a range outside its LMR");
                    return null;
                }
            }
            case EP_DUP_CONNECT -> {
                BridgeCall.EpDupConnect d = (BridgeCall.EpDupConnect) call;
                ref(g, c, "ep", d.ep());
                ref(g, c, "dup_ep", d.dupEp());
                timeout(c, d.timeoutUs());
                privateData(c, d.privateData());
            }
            case PSP_CREATE_ANY -> {
                BridgeCall.PspCreateAny s = (BridgeCall.PspCreateAny) call;
                ref(g, c, "ia", s.ia());
                ref(g, c, "evd", s.evd());
                c.put("psp_flags", s.flags());
            }
            case RSP_CREATE -> {
                BridgeCall.RspCreate s = (BridgeCall.RspCreate) call;
                ref(g, c, "ia", s.ia());
                c.put("conn_qual", s.qual());
                ref(g, c, "ep", s.ep());
                ref(g, c, "evd", s.evd());
            }
            case CR_HANDOFF -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, "cr", v.handle());
                c.put("handoff", v.value());
            }
            case SRQ_CREATE -> {
                BridgeCall.SrqCreate s = (BridgeCall.SrqCreate) call;
                ref(g, c, "ia", s.ia());
                ref(g, c, "pz", s.pz());
                c.putObject("srq_attr").put("max_recv_dtos", s.maxRecvDtos()).put("max_recv_iov", s.maxRecvIov())
                        .put("low_watermark", s.lowWatermark());
            }
            case SRQ_FREE -> ref(g, c, "srq", handle(call));
            case SRQ_RESIZE, SRQ_SET_LW -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) call;
                ref(g, c, "srq", v.handle());
                c.put(r == Request.SRQ_RESIZE ? "srq_max_recv_dto" : "low_watermark", (int) v.value());
            }
            case SRQ_POST_RECV -> {
                BridgeCall.SrqPostRecv s = (BridgeCall.SrqPostRecv) call;
                ref(g, c, "srq", s.srq());
                if (!iov(lmrs, c, "local_iov", s.iov())) {
                    unrecorded.add(name + " of memory outside the program's LMRs");
                    return null;
                }
                c.put("user_cookie", s.cookie());
            }
            case EP_RECV_QUERY -> ref(g, c, "ep", handle(call));
            case EP_SET_WATERMARK -> {
                BridgeCall.Watermark w = (BridgeCall.Watermark) call;
                ref(g, c, "ep", w.ep());
                c.put("soft_high_watermark", w.softHigh());
                c.put("hard_high_watermark", w.hardHigh());
            }
            // no scenario form: frames that are no DAT call, and calls the bridge does not implement (a scenario's
            // call of the same name would run, where the live program got DAT_NOT_IMPLEMENTED)
            case HELLO, SIDE, UNSUPPORTED -> {
                unrecorded.add(name);
                return null;
            }
        }
        return c;
    }

    /** The handle of a request on one handle. */
    private static int handle(BridgeCall call) {
        return call instanceof BridgeCall.OneHandle o ? o.handle() : ((BridgeCall.HandleValue) call).handle();
    }

    private static String objectName(DatHandle h, String host) {
        String n = h.name();
        return n.startsWith(host + "/") ? n.substring(host.length() + 1) : n.replace('/', '_');
    }

    private static void ref(Program g, ObjectNode c, String arg, int id) {
        if (id == 0) {
            c.putNull(arg);
            return;
        }
        String r = g.refs.get(id);
        c.put(arg, r != null ? r : "$unknown_handle_" + id);
    }

    private static void timeout(ObjectNode c, long us) {
        if (us == Dat.TIMEOUT_INFINITE) {
            c.put("timeout", "DAT_TIMEOUT_INFINITE");
        } else {
            c.put("timeout", us);
        }
    }

    private static void privateData(ObjectNode c, byte[] b) {
        if (b.length > 0) {
            c.putObject("private_data").put("hex", HexFormat.of().formatHex(b));
        }
    }

    /**
     * A live LMR of the program as a recording names it.
     *
     * @param ref the reference the recording bound it to ({@code "$lmr1"})
     * @param address its address in the program
     */
    record LmrAt(String ref, long address) {
    }

    /** The program's live LMR of an LMR context (the last created), or null. */
    private static LmrAt lmrAt(BridgeProcess p, int lmrContext) {
        Lmr lmr = null;
        for (Lmr l : p.memory().lmrs()) {
            if (l.lmrContext() == lmrContext && !l.isFreed()) {
                lmr = l;
            }
        }
        return lmr == null ? null : new LmrAt("$" + objectName(lmr, p.host().name()), lmr.address());
    }

    /** Writes an I/O vector (argument {@code arg}) as segments of the program's LMRs; false if a segment is in none. */
    private static boolean iov(IntFunction<LmrAt> lmrs, ObjectNode c, String arg, LmrTriplet[] iov) {
        ArrayNode a = c.putArray(arg);
        boolean ok = true;
        for (LmrTriplet t : iov) {
            LmrAt lmr = lmrs.apply(t.lmrContext());
            if (lmr == null) {
                ok = false;
                continue;
            }
            a.addObject().put("lmr", lmr.ref()).put("offset", t.address() - lmr.address()).put("length", t.length());
        }
        return ok;
    }

    /**
     * Writes dat_rmr_bind's arguments: the range (the request's one segment) as an offset in the bound LMR, as a
     * scenario gives it. Without an LMR (an unbind) the offset is the segment's address, as a scenario's unbind
     * reads it. False when the range cannot be said so: not one segment, or a segment in another LMR than the one
     * bound (or in none) that is not an unbind (an unbind reads no more than the length).
     */
    private static boolean rmrBind(Program g, IntFunction<LmrAt> lmrs, ObjectNode c, BridgeCall.RmrBind b) {
        if (b.iov().length != 1) {
            return false;
        }
        LmrTriplet t = b.iov()[0];
        ref(g, c, "rmr", b.rmr());
        ref(g, c, "lmr", b.lmr());
        long offset;
        if (b.lmr() == 0) {
            offset = t.address();
        } else {
            LmrAt at = lmrs.apply(t.lmrContext());
            if (at != null && at.ref().equals(c.get("lmr").asText())) {
                offset = t.address() - at.address();
            } else if (t.length() == 0) {
                offset = 0;
            } else {
                return false;
            }
        }
        c.put("offset", offset);
        c.put("length", t.length());
        c.put("mem_priv", b.privileges());
        ref(g, c, "ep", b.ep());
        c.put("user_cookie", b.cookie());
        c.put("completion_flags", b.flags());
        return true;
    }

    /**
     * Writes the scenario.
     *
     * @param file where
     * @throws IOException if it cannot be written
     */
    void write(Path file) throws IOException {
        ObjectNode s = JSON.createObjectNode();
        s.put("scenario", scenarioName + "-recorded");
        s.put("description", "Recorded by datsim serve --record: the DAT calls of the programs attached to "
                + scenarioName + ", replayed by datsim run (docs/bridge.md, Recording).");
        if (source.has("seed")) {
            s.set("seed", source.get("seed"));
        }
        if (source.has("vars")) {
            s.set("vars", source.get("vars"));
        }
        s.set("fabric", source.get("fabric"));
        ArrayNode ps = s.putArray("processes");
        for (Program g : programs) {
            ps.addObject().put("name", g.name).put("host", g.host).set("calls", g.calls);
        }
        Files.writeString(file, JSON.writeValueAsString(s) + "\n");
    }
}
