package org.datsim.scenario.bridge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Lmr;

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
    private static final class Program {
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
     * @param req its arguments, from the start
     * @param ret what it returned
     * @param startedAt the simulated time at which the program made the call
     * @param before the number of handle ids the process knew before the call (new ones are its outputs)
     * @param event the event it returned, or null
     * @param now the simulated time of the reply
     * @param owedPs what the call costs after its reply, before the next call, in both runs (cpu.poll_overhead after
     *     an event taken or a blocked wait that ended)
     */
    void record(BridgeProcess p, int code, ByteBuffer req, int ret, long startedAt, int before, DatEvent event,
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
        ObjectNode c = JSON.createObjectNode();
        String name = Protocol.name(code);
        c.put("call", name);
        String out = null;
        Request r = Request.of(code);
        if (r == null) {
            unrecorded.add(name);
            return;
        }
        switch (r) {
            case IA_OPEN -> {
                int n = req.getInt();
                req.position(req.position() + n);
                c.put("async_evd_qlen", req.getInt());
            }
            case IA_CLOSE -> {
                ref(g, c, "ia", req.getInt());
                c.put("flags", req.getLong());
            }
            case IA_QUERY -> ref(g, c, "ia", req.getInt());
            case QUERY -> {
                int h = req.getInt();
                int type = req.getInt();
                String kind = switch (type) {
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
                    unrecorded.add("dat_*_query of handle type " + type);
                    return;
                }
                c.put("call", "dat_" + kind + "_query");
                ref(g, c, kind, h);
            }
            case SET_CTX -> {
                ref(g, c, "handle", req.getInt());
                c.put("context", req.getLong());
            }
            case GET_CTX, HANDLE_TYPE -> ref(g, c, "handle", req.getInt());
            case PZ_CREATE -> ref(g, c, "ia", req.getInt());
            case PZ_FREE -> ref(g, c, "pz", req.getInt());
            case EVD_CREATE -> {
                ref(g, c, "ia", req.getInt());
                c.put("evd_min_qlen", req.getInt());
                int cno = req.getInt();
                if (cno != 0) {
                    ref(g, c, "cno", cno);
                }
                c.put("evd_flags", req.getInt());
            }
            case EVD_FREE -> ref(g, c, "evd", req.getInt());
            case EVD_WAIT -> {
                ref(g, c, "evd", req.getInt());
                timeout(c, req.getLong());
                c.put("threshold", req.getInt());
            }
            case EVD_DEQUEUE -> ref(g, c, "evd", req.getInt());
            case CNO_CREATE -> ref(g, c, "ia", req.getInt());
            case CNO_FREE -> ref(g, c, "cno", req.getInt());
            case CNO_WAIT -> {
                ref(g, c, "cno", req.getInt());
                timeout(c, req.getLong());
            }
            case LMR_CREATE -> {
                ref(g, c, "ia", req.getInt());
                c.put("address", req.getLong());
                c.put("length", req.getLong());
                ref(g, c, "pz", req.getInt());
                c.put("privileges", req.getInt());
            }
            case LMR_FREE -> ref(g, c, "lmr", req.getInt());
            case RMR_CREATE -> ref(g, c, "pz", req.getInt());
            case RMR_FREE -> ref(g, c, "rmr", req.getInt());
            case EP_CREATE -> {
                ref(g, c, "ia", req.getInt());
                ref(g, c, "pz", req.getInt());
                ref(g, c, "recv_evd", req.getInt());
                ref(g, c, "request_evd", req.getInt());
                ref(g, c, "connect_evd", req.getInt());
                int srq = req.getInt();
                if (srq != 0) {
                    c.put("call", "dat_ep_create_with_srq");
                    ref(g, c, "srq", srq);
                }
                if (req.getInt() != 0) {
                    ObjectNode a = c.putObject("ep_attr");
                    // As the bridge gives it (BridgeProcess): at least datsim's default sizes.
                    EpAttributes d = EpAttributes.defaults();
                    a.put("max_message_size", Math.max(req.getLong(), d.maxMessageSize()))
                            .put("max_rdma_size", Math.max(req.getLong(), d.maxRdmaSize()))
                            .put("max_recv_dtos", req.getInt()).put("max_request_dtos", req.getInt())
                            .put("max_recv_iov", req.getInt()).put("max_request_iov", req.getInt())
                            .put("request_completion_flags", req.getInt())
                            .put("recv_completion_flags", req.getInt()).put("max_rdma_read_in", req.getInt())
                            .put("max_rdma_read_out", req.getInt());
                }
            }
            case EP_FREE -> ref(g, c, "ep", req.getInt());
            case EP_CONNECT -> {
                ref(g, c, "ep", req.getInt());
                int host = Protocol.hostOf(req.getInt());
                c.putObject("remote_ia_address").put("host_index", host);
                c.put("remote_conn_qual", req.getLong());
                timeout(c, req.getLong());
                privateData(c, req);
            }
            case EP_DISCONNECT -> {
                ref(g, c, "ep", req.getInt());
                c.put("flags", req.getLong());
            }
            case EP_RESET, EP_GET_STATUS -> ref(g, c, "ep", req.getInt());
            case POST_SEND, POST_RECV, POST_READ, POST_WRITE -> {
                ref(g, c, "ep", req.getInt());
                if (!iov(p, c, req)) {
                    unrecorded.add(name + " of memory outside the program's LMRs");
                    return;
                }
                c.put("user_cookie", req.getLong());
                c.put("completion_flags", req.getInt());
                if (r == Request.POST_READ || r == Request.POST_WRITE) {
                    remoteIov(c, req);
                }
            }
            case POST_WRITE_IMMED -> {
                ref(g, c, "ep", req.getInt());
                if (!iov(p, c, req)) {
                    unrecorded.add(name + " of memory outside the program's LMRs");
                    return;
                }
                c.put("user_cookie", req.getLong());
                c.put("completion_flags", req.getInt());
                remoteIov(c, req);
                c.put("immediate_data", req.getInt() & 0xffffffffL);
            }
            case POST_ATOMIC -> {
                ref(g, c, "ep", req.getInt());
                boolean cmpSwap = req.getInt() != 0;
                c.put("call", cmpSwap ? "dat_ib_post_cmp_and_swap" : "dat_ib_post_fetch_and_add");
                if (cmpSwap) {
                    c.put("cmp_value", req.getLong());
                    c.put("swap_value", req.getLong());
                } else {
                    c.put("add_value", req.getLong());
                    req.getLong();
                }
                if (!iov(p, c, req)) {
                    unrecorded.add(name + " of memory outside the program's LMRs");
                    return;
                }
                c.put("user_cookie", req.getLong());
                c.put("completion_flags", req.getInt());
                remoteIov(c, req);
            }
            case PSP_CREATE -> {
                ref(g, c, "ia", req.getInt());
                c.put("conn_qual", req.getLong());
                ref(g, c, "evd", req.getInt());
                c.put("psp_flags", req.getInt());
            }
            case PSP_FREE -> ref(g, c, "psp", req.getInt());
            case RSP_FREE -> ref(g, c, "rsp", req.getInt());
            case CR_ACCEPT -> {
                ref(g, c, "cr", req.getInt());
                int ep = req.getInt();
                if (ep == 0) {
                    c.putNull("ep");
                } else {
                    ref(g, c, "ep", ep);
                }
                privateData(c, req);
            }
            case CR_REJECT -> ref(g, c, "cr", req.getInt());
            // no scenario form for these (docs/bridge.md, Recording)
            case HELLO, EVD_UNWAITABLE, EVD_ENABLE, EVD_RESIZE, EVD_POST_SE, EVD_MODIFY_CNO, CNO_MODIFY_AGENT,
                LMR_SYNC, RMR_BIND, EP_DUP_CONNECT, PSP_CREATE_ANY, RSP_CREATE, CR_HANDOFF, SRQ_CREATE, SRQ_FREE,
                SRQ_POST_RECV, SRQ_RESIZE, SRQ_SET_LW, EP_RECV_QUERY, EP_SET_WATERMARK, UNSUPPORTED, SIDE -> {
                unrecorded.add(name);
                return;
            }
        }
        // Outputs: the object a call created is the first handle id it introduced (an IA's async EVD the second).
        List<DatHandle> handles = p.handles();
        if (DatReturn.isSuccess(ret) && handles.size() > before && event == null) {
            DatHandle made = handles.get(before);
            out = objectName(made, g.host);
            g.refs.put(before, "$" + out);
            if (r == Request.IA_OPEN && handles.size() > before + 1) {
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

    private static void privateData(ObjectNode c, ByteBuffer req) {
        int n = req.getInt();
        byte[] b = new byte[Math.max(0, n)];
        req.get(b);
        if (b.length > 0) {
            c.putObject("private_data").put("hex", HexFormat.of().formatHex(b));
        }
    }

    /** Writes the local IOV as segments of the program's LMRs; false when a segment is in none. */
    /** A post's remote buffer: u32 RMR context, u64 address, u64 length. */
    private static void remoteIov(ObjectNode c, ByteBuffer req) {
        c.putObject("remote_iov").put("rmr_context", req.getInt() & 0xffffffffL).put("address", req.getLong())
                .put("length", req.getLong());
    }

    private static boolean iov(BridgeProcess p, ObjectNode c, ByteBuffer req) {
        int n = req.getInt();
        ArrayNode a = c.putArray("local_iov");
        boolean ok = true;
        for (int i = 0; i < n; i++) {
            int ctx = req.getInt();
            long address = req.getLong();
            long length = req.getLong();
            Lmr lmr = null;
            for (Lmr l : p.lmrList()) {
                if (l.lmrContext() == ctx && !l.isFreed()) {
                    lmr = l;
                }
            }
            if (lmr == null) {
                ok = false;
                continue;
            }
            a.addObject().put("lmr", "$" + objectName(lmr, p.host().name()))
                    .put("offset", address - lmr.address()).put("length", length);
        }
        return ok;
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
