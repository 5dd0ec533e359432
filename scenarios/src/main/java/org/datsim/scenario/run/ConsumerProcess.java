package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.SimProcess;
import org.datsim.core.param.Params;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.DataRate;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.dat.Cr;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.EpAttributes;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Psp;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.RmrTriplet;
import org.datsim.scenario.load.ProcessDef;
import org.datsim.scenario.load.Refs;
import org.datsim.scenario.load.Step;

/**
 * One consumer process: executes its calls in order on the DAT provider of its host, spending simulated CPU time
 * per call, blocking in {@code dat_evd_wait} until enough events arrive or the timeout passes, binding outputs to
 * names and checking expectations. It is a state machine resumed by the engine; it owns no thread.
 */
final class ConsumerProcess extends SimProcess {

    /** Thrown when a call cannot be made because a value it names was never bound. */
    private static final class Unbound extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Unbound(String message) {
            super(message, null, false, false);
        }
    }

    private final ScenarioRunner runner;
    private final ProcessDef def;
    private final DatHost host;
    private final DatProvider dat;
    private final MoreCalls more;
    private final Map<String, Object> values = new HashMap<>();
    private final Map<String, Long> loopVars = new HashMap<>();
    /** Open repeat blocks, innermost first: {index of the block's begin step, iteration, count}. */
    private final java.util.ArrayDeque<long[]> loops = new java.util.ArrayDeque<>();
    private static final Map<String, org.datsim.scenario.load.Expr> EXPRESSIONS =
            new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Parsed references and sizes by their scenario text: a call in a loop resolves the same texts over and over,
     * and parsing them (a regex, a decimal unit conversion) cost more than the call. Lookups only, so the order of
     * the maps never reaches an output; bounded by {@link #MAX_CACHED}.
     */
    private static final Map<String, Refs.Ref> REFS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Map<String, Long> SIZES = new java.util.concurrent.ConcurrentHashMap<>();
    private static final int MAX_CACHED = 100_000;
    /** Steps one resume may take without simulated time passing before the process is declared runaway. */
    static final long MAX_STEPS_WITHOUT_TIME = 10_000_000L;
    private final long postOverhead;
    private final long callOverhead;
    private final long pollOverhead;
    private final DataRate memoryRate;
    private int pc;
    private boolean charged;
    private Evd waitEvd;
    private int waitThreshold;
    private long waitDeadline;
    private long waitTimer;

    ConsumerProcess(ScenarioRunner runner, ProcessDef def, DatHost host, Params params) {
        super(runner.sim(), def.name());
        this.runner = runner;
        this.def = def;
        this.host = host;
        this.dat = runner.fabric().provider();
        this.more = new MoreCalls(this, dat);
        this.postOverhead = params.get(FabricParams.CPU_POST_OVERHEAD);
        this.callOverhead = params.get(FabricParams.CPU_CALL_OVERHEAD);
        this.pollOverhead = params.get(FabricParams.CPU_POLL_OVERHEAD);
        this.memoryRate = params.rate(FabricParams.CPU_MEMORY_BANDWIDTH);
        loopVars.putAll(runner.vars());
        loopVars.put("index", (long) def.index());
        loopVars.put("count", (long) def.count());
    }

    /** Returns the current call's description if the process is blocked, else null. */
    String blockedIn() {
        if (isFinished() || pc >= def.steps().size()) {
            return null;
        }
        Step s = def.steps().get(pc);
        return s.spec().name() + " at " + s.path();
    }

    /** Wakes the process after a delay; returns the wake's id for {@link #cancelTimer}. */
    long timer(long delayPs) {
        return wakeAfter(delayPs);
    }

    /** Cancels a wake set by {@link #timer}. */
    void cancelTimer(long id) {
        cancelWake(id);
    }

    /** Returns the CPU time of a poll, the cost of returning from a satisfied wait. */
    long pollOverhead() {
        return pollOverhead;
    }

    /** Resolves a reference such as "$evd" (for expectations checked outside this class). */
    Object resolveRef(String text, String path) {
        return resolve(text, path);
    }

    /** Returns the runner the process belongs to. */
    ScenarioRunner runner() {
        return runner;
    }

    /** Returns the provider state of the host the process runs on. */
    DatHost host() {
        return host;
    }

    /** Returns the name of the host the process runs on. */
    String hostName() {
        return host.name();
    }

    /** Returns when the process starts, in picoseconds. */
    long startPs() {
        return def.startPs();
    }

    /** Returns the value bound to a name, or null. */
    Object value(String name) {
        return values.get(name);
    }

    @Override
    protected void resume() {
        List<Step> steps = def.steps();
        long budget = MAX_STEPS_WITHOUT_TIME;
        while (pc < steps.size()) {
            Step s = steps.get(pc);
            if (--budget < 0) {
                runner.failure(this, s, "more than " + MAX_STEPS_WITHOUT_TIME + " steps ran without simulated time"
                        + " passing (a repeat block of calls that take no time?); the process was stopped");
                finish();
                return;
            }
            if (s.kind() != Step.CALL) {
                repeatStep(s);
                continue;
            }
            if (more.waiting()) {
                boolean done;
                try {
                    done = more.continueWait(s);
                } catch (Unbound e) {
                    runner.failure(this, s, e.getMessage()); // continueWait ends the wait before it can throw
                    done = true;
                }
                if (!done) {
                    return;
                }
                pc++;
                wakeAfter(pollOverhead);
                return;
            }
            if (waitEvd != null) {
                boolean done;
                try {
                    done = continueWait(s);
                } catch (Unbound e) {
                    runner.failure(this, s, e.getMessage()); // continueWait clears waitEvd before it can throw
                    done = true;
                }
                if (!done) {
                    return;
                }
                pc++;
                wakeAfter(pollOverhead);
                return;
            }
            if (!charged) {
                charged = true;
                long before = overheadBefore(s);
                if (before > 0) {
                    wakeAfter(before);
                    return;
                }
            }
            charged = false;
            long after;
            try {
                after = execute(s);
            } catch (Unbound e) {
                runner.failure(this, s, e.getMessage());
                after = 0;
            }
            if (after < 0) {
                return; // blocked in dat_evd_wait
            }
            pc++;
            if (after > 0) {
                wakeAfter(after);
                return;
            }
        }
        finish();
    }

    /** Executes the begin or end of a repeat block; takes no simulated time. */
    private void repeatStep(Step s) {
        if (s.kind() == Step.REPEAT_BEGIN) {
            long n;
            try {
                n = number(s.node().get("repeat"), s.path() + ".repeat");
            } catch (Unbound | ArithmeticException e) {
                runner.failure(this, s, e.getMessage());
                n = 0;
            }
            if (n <= 0) {
                pc = s.partner() + 1;
                return;
            }
            loops.push(new long[] {pc, 0, n});
            if (s.loopVar() != null) {
                loopVars.put(s.loopVar(), 0L);
            }
            pc++;
            return;
        }
        long[] frame = loops.peek();
        frame[1]++;
        if (frame[1] < frame[2]) {
            if (s.loopVar() != null) {
                loopVars.put(s.loopVar(), frame[1]);
            }
            pc = (int) frame[0] + 1;
        } else {
            loops.pop();
            if (s.loopVar() != null) {
                loopVars.remove(s.loopVar());
            }
            pc++;
        }
    }

    private long overheadBefore(Step s) {
        String c = s.spec().name();
        if (c.startsWith("dat_ep_post_") || c.equals("dat_rmr_bind")) {
            return postOverhead;
        }
        if (c.equals("dat_evd_wait") || c.equals("dat_cno_wait") || c.equals("dat_evd_dequeue") || c.startsWith("mem_") || c.equals("sleep")) {
            return 0;
        }
        return callOverhead;
    }

    // ------------------------------------------------------------------ argument access

    private Object resolve(String text, String path) {
        Refs.Ref r = REFS.get(text);
        if (r == null) {
            r = Refs.parse(text);
            if (r != null && REFS.size() < MAX_CACHED) {
                REFS.put(text, r);
            }
        }
        if (r.process() == null && r.field() == null && loopVars.containsKey(r.name())) {
            return loopVars.get(r.name());
        }
        Map<String, Object> scope = r.process() == null ? values : runner.process(r.process()).values;
        Object v = scope.get(r.name());
        if (v == null) {
            throw new Unbound(path + ": \"" + text + "\" is not bound: the call that binds it failed or has not run"
                    + " yet");
        }
        if (r.field() == null) {
            return v;
        }
        Object f = field(v, r.field());
        if (f == null) {
            throw new Unbound(path + ": \"" + text + "\" has no value");
        }
        return f;
    }

    private static Object field(Object v, String field) {
        if (v instanceof Ia) {
            return ((Ia) v).asyncEvd();
        }
        if (v instanceof Psp) {
            return ((Psp) v).connQual();
        }
        if (v instanceof Lmr) {
            Lmr l = (Lmr) v;
            switch (field) {
                case "lmr_context":
                    return (long) l.lmrContext() & 0xffffffffL;
                case "rmr_context":
                    return (long) l.rmrContext() & 0xffffffffL;
                case "address":
                    return l.address();
                default:
                    return l.length();
            }
        }
        if (v instanceof org.datsim.fabric.dat.Rmr) {
            org.datsim.fabric.dat.Rmr r = (org.datsim.fabric.dat.Rmr) v;
            switch (field) {
                case "rmr_context":
                    return (long) r.context() & 0xffffffffL;
                case "address":
                    return r.requestedAddress();
                default:
                    return r.requestedLength();
            }
        }
        if (v instanceof BindResult) {
            BindResult b = (BindResult) v;
            switch (field) {
                case "rmr_context":
                    return b.context();
                case "address":
                    return b.address();
                case "length":
                    return b.length();
                default:
                    return b.op();
            }
        }
        if (v instanceof DatEvent) {
            DatEvent e = (DatEvent) v;
            switch (field) {
                case "cr":
                    return e.cr;
                case "rmr":
                    return e.rmr;
                case "ep":
                    return e.ep;
                case "cookie":
                    return e.cookie;
                case "status":
                    return (long) e.status;
                case "transfered_length":
                    return e.transferredLength;
                case "operation":
                    return (long) e.operation;
                default:
                    return (long) e.number;
            }
        }
        if (v instanceof Integer) {
            return ((Integer) v).longValue();
        }
        if (v instanceof Map) {
            return ((Map<?, ?>) v).get(field);
        }
        return null;
    }

    DatHandle handle(Step s, String arg) {
        JsonNode n = s.node().get(arg);
        if (n == null || n.isNull()) {
            return null;
        }
        Object v = resolve(n.asText(), s.path() + "." + arg);
        return v instanceof DatHandle ? (DatHandle) v : null;
    }

    <T> T handle(Step s, String arg, Class<T> type) {
        DatHandle h = handle(s, arg);
        return type.isInstance(h) ? type.cast(h) : null;
    }

    long number(JsonNode n, String path) {
        if (n.isTextual() && org.datsim.scenario.load.Expr.isExpr(n.asText())) {
            org.datsim.scenario.load.Expr e = EXPRESSIONS.get(n.asText());
            if (e == null) {
                e = org.datsim.scenario.load.Expr.parse(n.asText());
                if (EXPRESSIONS.size() < MAX_CACHED) {
                    EXPRESSIONS.put(n.asText(), e);
                }
            }
            try {
                return e.eval(ref -> {
                    Object v = resolve(ref, path);
                    if (v instanceof Long) {
                        return (Long) v;
                    }
                    throw new Unbound(path + ": \"" + ref + "\" in " + n.asText() + " is not a number");
                });
            } catch (ArithmeticException x) {
                throw new Unbound(path + ": " + n.asText() + ": " + x.getMessage());
            }
        }
        if (n.isTextual()) {
            if (n.asText().startsWith("$")) {
                Object v = resolve(n.asText(), path);
                if (v instanceof Long) {
                    return (Long) v;
                }
                throw new Unbound(path + ": \"" + n.asText() + "\" is not a number");
            }
            Long size = SIZES.get(n.asText());
            if (size == null) {
                size = ByteSize.parse(n.asText());
                if (SIZES.size() < MAX_CACHED) {
                    SIZES.put(n.asText(), size);
                }
            }
            return size;
        }
        return n.asLong();
    }

    long number(Step s, String arg, long dflt) {
        JsonNode n = s.node().get(arg);
        return n == null ? dflt : number(n, s.path() + "." + arg);
    }

    /**
     * Converts a scenario number to a C int argument (DAT_COUNT). Values outside the int range saturate, so a
     * too-large count stays too large and the provider's range check rejects it, instead of wrapping around.
     */
    static int count(long v) {
        return (int) Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, v));
    }

    private static int flags(JsonNode n, NamedValues group) {
        if (n == null) {
            return 0;
        }
        if (n.isNumber()) {
            return n.asInt();
        }
        int bits = 0;
        if (n.isArray()) {
            for (JsonNode e : n) {
                bits |= group.value(e.asText());
            }
        } else {
            for (String name : n.asText().split("\\|")) {
                bits |= group.value(name.trim());
            }
        }
        return bits;
    }

    int flags(Step s, String arg, NamedValues group) {
        return flags(s.node().get(arg), group);
    }

    long timeoutUs(Step s) {
        JsonNode n = s.node().get("timeout");
        if (n == null || (n.isTextual() && !n.asText().startsWith("$"))) {
            return Dat.TIMEOUT_INFINITE;
        }
        return number(n, s.path() + ".timeout");
    }

    private LmrTriplet[] iov(Step s) {
        return iov(s, "local_iov");
    }

    LmrTriplet[] iov(Step s, String arg) {
        JsonNode arr = s.node().get(arg);
        LmrTriplet[] out = new LmrTriplet[arr.size()];
        for (int i = 0; i < arr.size(); i++) {
            JsonNode seg = arr.get(i);
            String p = s.path() + "." + arg + "[" + i + "]";
            Object l = resolve(seg.get("lmr").asText(), p + ".lmr");
            long offset = seg.has("offset") ? number(seg.get("offset"), p + ".offset") : 0;
            long length = number(seg.get("length"), p + ".length");
            if (l instanceof Lmr) {
                Lmr lmr = (Lmr) l;
                out[i] = new LmrTriplet(lmr.lmrContext(), lmr.address() + offset, length);
            } else {
                out[i] = new LmrTriplet(0, offset, length); // not an LMR: a context no LMR has
            }
        }
        return out;
    }

    private RmrTriplet rmr(Step s) {
        JsonNode r = s.node().get("remote_iov");
        String p = s.path() + ".remote_iov";
        long ctx = number(r.get("rmr_context"), p + ".rmr_context");
        long address = number(r.get("address"), p + ".address");
        long offset = r.has("offset") ? number(r.get("offset"), p + ".offset") : 0;
        long length = number(r.get("length"), p + ".length");
        return new RmrTriplet(ctx >= 0 && ctx <= 0xffffffffL ? (int) ctx : 0, address + offset, length);
    }

    /** A host argument: a name, or {"host_index": n} for the fabric's n-th host ("" when out of range). */
    private String hostArg(Step s, String arg) {
        JsonNode n = s.node().get(arg);
        if (n.isTextual()) {
            return n.asText();
        }
        long i = number(n.get("host_index"), s.path() + "." + arg + ".host_index");
        List<String> hosts = runner.fabric().topology().hosts();
        return i >= 0 && i < hosts.size() ? hosts.get((int) i) : "";
    }

    static byte[] privateData(Step s) {
        JsonNode d = s.node().get("private_data");
        if (d == null) {
            return new byte[0];
        }
        if (Bytes.fill(d) >= 0) {
            byte[] b = new byte[(int) Math.min(Bytes.length(d), 4096)];
            java.util.Arrays.fill(b, (byte) Bytes.fill(d));
            return b;
        }
        return Bytes.literal(d);
    }

    EpAttributes epAttr(Step s) {
        return epAttr(s, "ep_attr", null);
    }

    /** An attributes argument: its fields over {@code base} (the defaults when null); null when absent. */
    EpAttributes epAttr(Step s, String arg, EpAttributes base) {
        JsonNode a = s.node().get(arg);
        if (a == null) {
            return base;
        }
        EpAttributes d = base != null ? base : EpAttributes.defaults();
        String p = s.path() + "." + arg;
        return new EpAttributes(a.has("max_message_size") ? number(a.get("max_message_size"), p) : d.maxMessageSize(),
                a.has("max_rdma_size") ? number(a.get("max_rdma_size"), p) : d.maxRdmaSize(),
                count(a.has("max_recv_dtos") ? number(a.get("max_recv_dtos"), p) : d.maxRecvDtos()),
                count(a.has("max_request_dtos") ? number(a.get("max_request_dtos"), p) : d.maxRequestDtos()),
                count(a.has("max_recv_iov") ? number(a.get("max_recv_iov"), p) : d.maxRecvIov()),
                count(a.has("max_request_iov") ? number(a.get("max_request_iov"), p) : d.maxRequestIov()),
                a.has("request_completion_flags") ? flags(a.get("request_completion_flags"), Dat.COMPLETION_FLAGS)
                        : d.requestCompletionFlags(),
                a.has("recv_completion_flags") ? flags(a.get("recv_completion_flags"), Dat.COMPLETION_FLAGS)
                        : d.recvCompletionFlags(),
                count(a.has("max_rdma_read_in") ? number(a.get("max_rdma_read_in"), p) : d.maxRdmaReadIn()),
                count(a.has("max_rdma_read_out") ? number(a.get("max_rdma_read_out"), p) : d.maxRdmaReadOut()));
    }

    void bind(Step s, Object value) {
        JsonNode out = s.node().get("out");
        if (out != null && value != null) {
            values.put(out.asText(), value);
        }
    }

    // ------------------------------------------------------------------ calls

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call, or -1 if it blocked
     */
    private long execute(Step s) {
        String call = s.spec().name();
        int ret;
        String epName = null;
        switch (call) {
            case "dat_ia_open": {
                Out<Ia> ia = new Out<>();
                JsonNode name = s.node().get("ia_name");
                ret = dat.iaOpen(host, name != null ? name.asText() : DatHost.DEFAULT_IA_NAME,
                        count(number(s, "async_evd_qlen", 8)), ia);
                bind(s, ia.value);
                break;
            }
            case "dat_ia_close":
                ret = dat.iaClose(handle(s, "ia", Ia.class), flags(s, "flags", Dat.CLOSE_FLAGS));
                break;
            case "dat_ia_query": {
                Out<Map<String, Long>> attrs = new Out<>();
                return finishQuery(s, dat.iaQuery(handle(s, "ia", Ia.class), attrs), attrs.value);
            }
            case "dat_ep_query":
            case "dat_evd_query":
            case "dat_lmr_query":
            case "dat_rmr_query":
            case "dat_pz_query":
            case "dat_psp_query":
            case "dat_cr_query":
            case "dat_srq_query":
            case "dat_cno_query":
            case "dat_rsp_query": {
                String kind = call.substring(4, call.length() - 6);
                Out<Map<String, Long>> attrs = new Out<>();
                int type = Dat.HANDLE_TYPES.value("DAT_HANDLE_TYPE_" + kind.toUpperCase(java.util.Locale.ROOT));
                return finishQuery(s, dat.query(handle(s, kind), type, attrs), attrs.value);
            }
            case "dat_set_consumer_context":
                ret = dat.setConsumerContext(handle(s, "handle"), number(s, "context", 0));
                break;
            case "dat_get_consumer_context": {
                Out<Long> ctx = new Out<>();
                ret = dat.getConsumerContext(handle(s, "handle"), ctx);
                bind(s, ctx.value);
                runner.trace(call(s, ret, null));
                checkRet(s, ret);
                JsonNode want = expectNode(s, "context");
                if (want != null && ctx.value != null && want.asLong() != ctx.value) {
                    runner.failure(this, s, "expected context " + want.asLong() + ", got " + ctx.value);
                }
                return 0;
            }
            case "dat_get_handle_type": {
                Out<Integer> type = new Out<>();
                ret = dat.getHandleType(handle(s, "handle"), type);
                bind(s, type.value == null ? null : (long) type.value);
                runner.trace(call(s, ret, null));
                checkRet(s, ret);
                if (type.value != null) {
                    expectName(s, "handle_type", Dat.HANDLE_TYPES, type.value);
                }
                return 0;
            }
            case "dat_strerror": {
                String v = s.node().get("value").asText();
                String[] parts = v.split("/", 2);
                Integer type = DatReturn.typeByName(parts[0]);
                Integer sub = parts.length > 1 ? DatReturn.subtypeByName(parts[1]) : Integer.valueOf(0);
                int value;
                if (type != null && sub != null) {
                    value = type == DatReturn.SUCCESS && sub == 0 ? DatReturn.SUCCESS : DatReturn.error(type, sub);
                } else {
                    try {
                        value = (int) Long.decode(v).longValue();
                    } catch (NumberFormatException e) {
                        value = DatReturn.error(DatReturn.INVALID_PARAMETER, 0);
                    }
                }
                String message = DatProvider.strerror(value);
                TraceEvent e = call(s, DatReturn.SUCCESS, null).attr("message", message);
                runner.trace(e);
                JsonNode want = expectNode(s, "message");
                if (want != null && !want.asText().equals(message)) {
                    runner.failure(this, s, "expected message \"" + want.asText() + "\", got \"" + message + "\"");
                }
                return 0;
            }
            case "dat_pz_create": {
                Out<Pz> pz = new Out<>();
                ret = dat.pzCreate(handle(s, "ia", Ia.class), pz);
                bind(s, pz.value);
                break;
            }
            case "dat_pz_free":
                ret = dat.pzFree(handle(s, "pz", Pz.class));
                break;
            case "dat_evd_create": {
                Out<Evd> evd = new Out<>();
                DatHandle cno = handle(s, "cno");
                ret = cno != null && !(cno instanceof org.datsim.fabric.dat.Cno)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO)
                        : dat.evdCreate(handle(s, "ia", Ia.class), count(number(s, "evd_min_qlen", 0)),
                                (org.datsim.fabric.dat.Cno) cno, flags(s, "evd_flags", Dat.EVD_FLAGS), evd);
                bind(s, evd.value);
                break;
            }
            case "dat_evd_free":
                ret = dat.evdFree(handle(s, "evd", Evd.class));
                break;
            case "dat_evd_wait":
                return startWait(s);
            case "dat_evd_set_unwaitable":
                ret = dat.evdSetUnwaitable(handle(s, "evd", Evd.class));
                break;
            case "dat_evd_clear_unwaitable":
                ret = dat.evdClearUnwaitable(handle(s, "evd", Evd.class));
                break;
            case "dat_evd_enable":
            case "dat_evd_disable":
                ret = dat.evdSetEnabled(handle(s, "evd", Evd.class), call.equals("dat_evd_enable"));
                break;
            case "dat_evd_resize":
                ret = dat.evdResize(handle(s, "evd", Evd.class), count(number(s, "evd_min_qlen", 0)));
                break;
            case "dat_evd_post_se":
                ret = dat.evdPostSe(handle(s, "evd", Evd.class), number(s, "pointer", 0));
                break;
            case "dat_evd_dequeue": {
                Evd evd = handle(s, "evd", Evd.class);
                Out<DatEvent> ev = new Out<>();
                ret = dat.evdDequeue(evd, ev);
                finishEventCall(s, ret, ev.value, evd);
                return DatReturn.isSuccess(ret) ? pollOverhead : 0;
            }
            case "dat_lmr_create": {
                Out<Lmr> lmr = new Out<>();
                ret = dat.lmrCreate(handle(s, "ia", Ia.class), number(s, "address", -1), number(s, "length", 0),
                        handle(s, "pz", Pz.class), s.node().has("privileges")
                                ? flags(s, "privileges", Dat.MEM_PRIV) : Dat.MEM_PRIV_ALL, lmr);
                bind(s, lmr.value);
                break;
            }
            case "dat_lmr_free":
                ret = dat.lmrFree(handle(s, "lmr", Lmr.class));
                break;
            case "dat_lmr_sync_rdma_read":
                ret = dat.lmrSyncRdmaRead(handle(s, "ia", Ia.class), iov(s, "local_segments"));
                break;
            case "dat_lmr_sync_rdma_write":
                ret = dat.lmrSyncRdmaWrite(handle(s, "ia", Ia.class), iov(s, "local_segments"));
                break;
            case "dat_rmr_create": {
                Out<org.datsim.fabric.dat.Rmr> rmr = new Out<>();
                ret = dat.rmrCreate(handle(s, "pz", Pz.class), rmr);
                bind(s, rmr.value);
                break;
            }
            case "dat_rmr_free":
                ret = dat.rmrFree(handle(s, "rmr", org.datsim.fabric.dat.Rmr.class));
                break;
            case "dat_rmr_bind":
                return rmrBind(s);
            case "dat_ep_create": {
                Out<Ep> ep = new Out<>();
                ret = dat.epCreate(handle(s, "ia", Ia.class), handle(s, "pz", Pz.class),
                        handle(s, "recv_evd", Evd.class), handle(s, "request_evd", Evd.class),
                        handle(s, "connect_evd", Evd.class), epAttr(s), ep);
                bind(s, ep.value);
                epName = ep.value != null ? ep.value.name() : null;
                break;
            }
            case "dat_ep_free":
                ret = dat.epFree(handle(s, "ep", Ep.class));
                break;
            case "dat_ep_connect": {
                Ep ep = handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epConnect(ep, hostArg(s, "remote_ia_address"),
                        number(s, "remote_conn_qual", 0), timeoutUs(s), privateData(s));
                break;
            }
            case "dat_ep_disconnect": {
                Ep ep = handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epDisconnect(ep, flags(s, "flags", Dat.CLOSE_FLAGS));
                break;
            }
            case "dat_ep_get_status": {
                Out<Integer> state = new Out<>();
                Out<Boolean> recvIdle = new Out<>();
                Out<Boolean> requestIdle = new Out<>();
                ret = dat.epGetStatus(handle(s, "ep", Ep.class), state, recvIdle, requestIdle);
                runner.trace(call(s, ret, null));
                checkRet(s, ret);
                if (state.value != null) {
                    Map<String, Long> status = new java.util.LinkedHashMap<>();
                    status.put("state", (long) state.value);
                    status.put("recv_idle", recvIdle.value ? 1L : 0L);
                    status.put("request_idle", requestIdle.value ? 1L : 0L);
                    bind(s, status);
                    expectName(s, "state", Dat.EP_STATES, state.value);
                    for (String k : new String[] {"recv_idle", "request_idle"}) {
                        JsonNode want = expectNode(s, k);
                        if (want != null && want.asBoolean() != (status.get(k) == 1L)) {
                            runner.failure(this, s, "expected " + k + " " + want.asBoolean() + ", got "
                                    + (status.get(k) == 1L));
                        }
                    }
                }
                return 0;
            }
            case "dat_psp_create": {
                Out<Psp> psp = new Out<>();
                ret = dat.pspCreate(handle(s, "ia", Ia.class), number(s, "conn_qual", 0), handle(s, "evd", Evd.class),
                        flags(s, "psp_flags", Dat.PSP_FLAGS), psp);
                bind(s, psp.value);
                break;
            }
            case "dat_psp_create_any": {
                Out<Psp> psp = new Out<>();
                ret = dat.pspCreateAny(handle(s, "ia", Ia.class), handle(s, "evd", Evd.class),
                        flags(s, "psp_flags", Dat.PSP_FLAGS), psp);
                bind(s, psp.value);
                break;
            }
            case "dat_ep_reset": {
                Ep ep = handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epReset(ep);
                break;
            }
            case "dat_psp_free":
                ret = dat.pspFree(handle(s, "psp", Psp.class));
                break;
            case "dat_cr_accept": {
                Ep ep = handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.crAccept(handle(s, "cr", Cr.class), ep, privateData(s));
                break;
            }
            case "dat_cr_handoff":
                ret = dat.crHandoff(handle(s, "cr", Cr.class), number(s, "handoff", 0));
                break;
            case "dat_cr_reject":
                ret = dat.crReject(handle(s, "cr", Cr.class));
                break;
            case "dat_ep_post_send":
            case "dat_ep_post_recv":
            case "dat_ep_post_rdma_write":
            case "dat_ep_post_rdma_read":
            case "dat_ib_post_fetch_and_add":
            case "dat_ib_post_cmp_and_swap":
                return post(s, call);
            case "mem_write":
                return memWrite(s);
            case "mem_read":
                return memRead(s);
            case "sleep":
                return SimTime.parse(s.node().get("time").asText());
            default:
                return more.execute(s, call);
        }
        return finish(s, ret, epName);
    }

    /** Traces a call that returns nothing but its DAT_RETURN, and checks expect.ret. */
    long finish(Step s, int ret, String epName) {
        TraceEvent e = call(s, ret, null);
        if (epName != null) {
            e.ep(epName);
        }
        runner.trace(e);
        checkRet(s, ret);
        return 0;
    }

    /** Traces a query call, binds its result, and checks expect.attrs against it. */
    long finishQuery(Step s, int ret, Map<String, Long> attrs) {
        bind(s, attrs);
        runner.trace(call(s, ret, null));
        checkRet(s, ret);
        JsonNode want = expectNode(s, "attrs");
        if (want != null && attrs != null) {
            want.fields().forEachRemaining(a -> {
                long w = a.getValue().isBoolean() ? (a.getValue().asBoolean() ? 1 : 0) : a.getValue().asLong();
                if (attrs.get(a.getKey()) != w) {
                    runner.failure(this, s, "expected " + a.getKey() + " " + a.getValue() + ", got "
                            + attrs.get(a.getKey()));
                }
            });
        }
        return 0;
    }

    /** The outputs of one dat_rmr_bind: the context it returned, the range it asked for, its operation id. */
    record BindResult(long context, long address, long length, long op) {
    }

    private long rmrBind(Step s) {
        Ep ep = handle(s, "ep", Ep.class);
        Lmr lmr = handle(s, "lmr", Lmr.class);
        long offset = number(s, "offset", 0);
        long length = number(s, "length", 0);
        LmrTriplet range = lmr != null ? new LmrTriplet(lmr.lmrContext(), lmr.address() + offset, length)
                : new LmrTriplet(0, offset, length);
        long cookie = number(s, "user_cookie", 0);
        Out<Integer> ctx = new Out<>();
        Out<Long> op = new Out<>();
        int ret = dat.rmrBind(handle(s, "rmr", org.datsim.fabric.dat.Rmr.class), lmr, range,
                flags(s, "mem_priv", Dat.MEM_PRIV), ep, cookie, flags(s, "completion_flags", Dat.COMPLETION_FLAGS),
                ctx, op);
        TraceEvent e = call(s, ret, ep).cookie(cookie);
        if (ctx.value != null) {
            long context = (long) ctx.value & 0xffffffffL;
            e.op(op.value).attr("rmr_context", context);
            bind(s, new BindResult(context, range.address(), length, op.value));
        }
        runner.trace(e);
        checkRet(s, ret);
        return 0;
    }

    private long post(Step s, String call) {
        Ep ep = handle(s, "ep", Ep.class);
        LmrTriplet[] iov = iov(s);
        long cookie = number(s, "user_cookie", 0);
        int flags = flags(s, "completion_flags", Dat.COMPLETION_FLAGS);
        Out<Long> op = new Out<>();
        int ret;
        switch (call) {
            case "dat_ep_post_send":
                ret = dat.postSend(ep, iov, cookie, flags, op);
                break;
            case "dat_ep_post_recv":
                ret = dat.postRecv(ep, iov, cookie, flags, op);
                break;
            case "dat_ep_post_rdma_write":
                ret = dat.postRdmaWrite(ep, iov, cookie, rmr(s), flags, op);
                break;
            case "dat_ib_post_fetch_and_add":
                ret = dat.postFetchAndAdd(ep, number(s, "add_value", 0), iov, cookie, rmr(s), flags, op);
                break;
            case "dat_ib_post_cmp_and_swap":
                ret = dat.postCmpAndSwap(ep, number(s, "cmp_value", 0), number(s, "swap_value", 0), iov, cookie,
                        rmr(s), flags, op);
                break;
            default:
                ret = dat.postRdmaRead(ep, iov, cookie, rmr(s), flags, op);
                break;
        }
        TraceEvent e = call(s, ret, ep).cookie(cookie);
        if (op.value != null) {
            e.op(op.value);
            bind(s, op.value);
        }
        runner.trace(e);
        checkRet(s, ret);
        return 0;
    }

    TraceEvent call(Step s, int ret, Ep ep) {
        TraceEvent e = TraceEvent.of(sim().now(), TraceEvent.CALL, host.name()).call(s.spec().name())
                .ret(DatReturn.typeName(ret));
        if (ep != null) {
            e.ep(ep.name());
        }
        String sub = DatReturn.subtypeName(ret);
        if (sub != null) {
            e.attr("subtype", sub);
        }
        e.attr("process", def.name()).attr("step", (long) s.index());
        runner.countCall(ret);
        return e;
    }

    // ------------------------------------------------------------------ dat_evd_wait

    private long startWait(Step s) {
        Evd evd = handle(s, "evd", Evd.class);
        long timeout = timeoutUs(s);
        int threshold = count(number(s, "threshold", 1));
        int ret = dat.evdWaitCheck(evd, timeout, threshold);
        if (!DatReturn.isSuccess(ret)) {
            finishEventCall(s, ret, null, evd);
            return 0;
        }
        if (evd.size() >= threshold) {
            takeEvent(s, evd);
            return pollOverhead;
        }
        waitEvd = evd;
        waitThreshold = threshold;
        dat.evdSetWaiter(evd, this::wake);
        if (timeout != Dat.TIMEOUT_INFINITE) {
            long delay = timeout * SimTime.US;
            waitDeadline = sim().now() + delay;
            waitTimer = wakeAfter(delay);
        } else {
            waitDeadline = Long.MAX_VALUE;
            waitTimer = 0;
        }
        return -1;
    }

    /**
     * Looks again at a blocked dat_evd_wait: it ends when the IA was closed under it (DAT_ABORT), the EVD was made
     * unwaitable (DAT_INVALID_STATE), enough events are queued, or the timeout passed (DAT_TIMEOUT_EXPIRED).
     *
     * @return true if the wait ended
     */
    private boolean continueWait(Step s) {
        Evd evd = waitEvd;
        if (evd.isFreed()) {
            endWait(evd);
            finishEventCall(s, DatReturn.error(DatReturn.ABORT, 0), null, null);
        } else if (!evd.isWaitable()) {
            endWait(evd);
            finishEventCall(s, DatReturn.error(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EVD_UNWAITABLE),
                    null, evd);
        } else if (evd.size() >= waitThreshold) {
            endWait(evd);
            takeEvent(s, evd);
        } else if (sim().now() >= waitDeadline) {
            endWait(evd);
            finishEventCall(s, DatReturn.error(DatReturn.TIMEOUT_EXPIRED, 0), null, evd);
        } else {
            return false;
        }
        return true;
    }

    private void endWait(Evd evd) {
        if (waitTimer != 0) {
            cancelWake(waitTimer);
            waitTimer = 0;
        }
        waitEvd = null;
        if (!evd.isFreed()) {
            dat.evdSetWaiter(evd, null);
        }
    }

    private void takeEvent(Step s, Evd evd) {
        Out<DatEvent> ev = new Out<>();
        int ret = dat.evdDequeue(evd, ev);
        finishEventCall(s, ret, ev.value, evd);
    }

    private void finishEventCall(Step s, int ret, DatEvent ev, Evd evd) {
        TraceEvent c = call(s, ret, null);
        if (evd != null) {
            c.attr("evd", evd.name());
            if (ev != null || DatReturn.type(ret) == DatReturn.TIMEOUT_EXPIRED) {
                c.attr("nmore", (long) evd.size());
            }
        }
        runner.trace(c);
        checkRet(s, ret);
        if (ev == null) {
            return;
        }
        bind(s, ev);
        TraceEvent d = TraceEvent.of(sim().now(), TraceEvent.DEQUEUE, host.name()).attr("event", ev.numberName());
        if (ev.ep != null) {
            d.ep(ev.ep.name());
        }
        if (ev.number == Dat.DTO_COMPLETION_EVENT || ev.number == Dat.IB_DTO_EVENT) {
            d.op(ev.opId).cookie(ev.cookie).status(ev.statusName()).attr("opcode", Dat.DTO_OPS.name(ev.operation))
                    .attr("transfered_length", ev.transferredLength);
        }
        if (ev.cr != null) {
            d.attr("cr", ev.cr.name());
        }
        if (ev.rmr != null) {
            d.op(ev.opId).cookie(ev.cookie).status(ev.statusName()).attr("rmr", ev.rmr.name());
        }
        d.attr("queued_ps", ev.queuedPs).attr("process", def.name());
        runner.trace(d);
        expectName(s, "event", Dat.EVENTS, ev.number);
        if (ev.status >= 0) {
            expectName(s, "status", Dat.DTO_STATUS, ev.status);
            expectName(s, "operation", Dat.DTO_OPS, ev.operation);
        } else {
            for (String k : new String[] {"status", "operation"}) {
                if (expectNode(s, k) != null) {
                    runner.failure(this, s, "expected " + k + " " + expectNode(s, k).asText() + ", but the event is "
                            + ev.numberName() + ", which has none");
                }
            }
        }
        JsonNode cookie = expectNode(s, "cookie");
        if (cookie != null && cookie.asLong() != ev.cookie) {
            runner.failure(this, s, "expected cookie " + cookie.asLong() + ", got " + ev.cookie);
        }
        JsonNode len = expectNode(s, "transfered_length");
        if (len != null && len.asLong() != ev.transferredLength) {
            runner.failure(this, s, "expected transfered_length " + len.asLong() + ", got " + ev.transferredLength);
        }
        JsonNode ep = expectNode(s, "ep");
        if (ep != null) {
            Object want = resolve(ep.asText(), s.path() + ".expect.ep");
            if (want != ev.ep) {
                String wantName = want instanceof DatHandle ? ((DatHandle) want).name() : "not an endpoint";
                runner.failure(this, s, "expected the event of endpoint " + ep.asText() + " (" + wantName
                        + "), got " + (ev.ep == null ? "an event of no endpoint" : ev.ep.name()));
            }
        }
    }

    // ------------------------------------------------------------------ memory

    private long memWrite(Step s) {
        Lmr lmr = handle(s, "lmr", Lmr.class);
        JsonNode data = s.node().get("data");
        long offset = number(s, "offset", 0);
        long length = Bytes.length(data);
        TraceEvent e = TraceEvent.of(sim().now(), TraceEvent.MEM_WRITE, host.name()).attr("process", def.name());
        if (lmr == null || lmr.isFreed() || offset < 0 || length < 0 || offset > lmr.length() - length) {
            runner.failure(this, s, lmr == null || lmr.isFreed() ? "mem_write needs a live LMR"
                    : "mem_write of " + length + " bytes at offset " + offset + " is outside the LMR's "
                            + lmr.length() + " bytes");
            return 0;
        }
        long address = lmr.address() + offset;
        if (Bytes.fill(data) >= 0) {
            host.memory().cpuFill(address, length, (byte) Bytes.fill(data));
        } else {
            host.memory().cpuWrite(address, Bytes.literal(data));
        }
        runner.trace(e.attr("lmr", lmr.name()).attr("address", address).attr("bytes", length));
        return memoryRate.transmitTimePs(length);
    }

    private long memRead(Step s) {
        Lmr lmr = handle(s, "lmr", Lmr.class);
        long offset = number(s, "offset", 0);
        long length = number(s, "length", 0);
        if (lmr == null || lmr.isFreed() || offset < 0 || length < 0 || offset > lmr.length() - length) {
            runner.failure(this, s, lmr == null || lmr.isFreed() ? "mem_read needs a live LMR"
                    : "mem_read of " + length + " bytes at offset " + offset + " is outside the LMR's "
                            + lmr.length() + " bytes");
            return 0;
        }
        if (length > ScenarioRunner.MAX_MEM_READ) {
            runner.failure(this, s, "mem_read of " + ByteSize.format(length) + " is over the limit of "
                    + ByteSize.format(ScenarioRunner.MAX_MEM_READ) + " per call");
            return 0;
        }
        long address = lmr.address() + offset;
        byte[] got = host.memory().cpuRead(address, (int) length);
        boolean stale = host.memory().cpuViewIsStale(address, length);
        TraceEvent e = TraceEvent.of(sim().now(), TraceEvent.MEM_READ, host.name()).attr("process", def.name())
                .attr("lmr", lmr.name()).attr("address", address).attr("bytes", length).attr("stale", stale)
                .attr("data_hex", Bytes.hex(got, 32));
        JsonNode want = expectNode(s, "data");
        if (want != null) {
            String mismatch = compare(want, got);
            e.attr("match", mismatch == null);
            if (mismatch != null) {
                runner.failure(this, s, mismatch);
            }
        }
        JsonNode wantStale = expectNode(s, "stale");
        if (wantStale != null && wantStale.asBoolean() != stale) {
            runner.failure(this, s, "expected stale " + wantStale.asBoolean() + ", got " + stale);
        }
        runner.trace(e);
        return memoryRate.transmitTimePs(length);
    }

    private static String compare(JsonNode want, byte[] got) {
        long n = Bytes.length(want);
        if (n != got.length) {
            return "expected " + n + " bytes of data but the read has " + got.length
                    + " (give mem_read the same length)";
        }
        int fill = Bytes.fill(want);
        byte[] lit = fill >= 0 ? null : Bytes.literal(want);
        for (int i = 0; i < got.length; i++) {
            byte w = lit == null ? (byte) fill : lit[i];
            if (got[i] != w) {
                return String.format("data differs at byte %d: expected 0x%02x, read 0x%02x (read starts %s)", i,
                        w & 0xff, got[i] & 0xff, Bytes.hex(got, 16));
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ expectations

    JsonNode expectNode(Step s, String key) {
        JsonNode e = s.node().get("expect");
        return e == null ? null : e.get(key);
    }

    void checkRet(Step s, int ret) {
        JsonNode want = expectNode(s, "ret");
        String name = want == null ? "DAT_SUCCESS" : want.asText();
        if (name.equals("any")) {
            return;
        }
        boolean ok;
        Integer type = DatReturn.typeByName(name);
        if (type != null) {
            ok = type == DatReturn.SUCCESS ? DatReturn.isSuccess(ret) : DatReturn.type(ret) == type;
        } else {
            ok = DatReturn.subtype(ret) == DatReturn.subtypeByName(name) && !DatReturn.isSuccess(ret);
        }
        if (!ok) {
            runner.failure(this, s, "expected " + name + ", the call returned " + DatReturn.describe(ret)
                    + (want == null ? " (calls are expected to succeed unless \"expect\" says otherwise)" : ""));
        }
    }

    void expectName(Step s, String key, NamedValues group, int actual) {
        JsonNode want = expectNode(s, key);
        if (want != null && group.value(want.asText()) != actual) {
            runner.failure(this, s, "expected " + key + " " + want.asText() + ", got " + group.name(actual));
        }
    }

    /** Returns the names bound so far, for diagnostics. */
    List<String> boundNames() {
        List<String> out = new ArrayList<>(values.keySet());
        java.util.Collections.sort(out);
        return out;
    }
}
