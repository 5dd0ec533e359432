package org.datsim.viz;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.io.SerializedString;
import java.io.BufferedOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.trace.JsonLinesTraceWriter;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSink;
import org.datsim.core.util.LongTable;

/**
 * Streams a run's trace as {@code trace.json} in the Chrome Trace Event format, which ui.perfetto.dev and
 * chrome://tracing open. Subscribe it to the run's trace source (or feed it a finished trace through
 * {@link #write(Path)}); it writes each event as soon as it is complete and keeps only the operations in flight.
 *
 * <p>Mapping: each host is a process ({@code pid}, named by {@code process_name} metadata); its consumer's CPU is
 * thread "cpu" (calls that returned an error, memory reads and writes, completions dequeued), each endpoint is a
 * thread, with extra threads "EP (2)", "EP (3)", ... for operations in flight at the same time (complete events
 * on one thread must nest), and "EP responder" threads for an operation's work on the other side (an RDMA Read's
 * response, data placed at the target). Operations are complete events ({@code "ph":"X"}): "queued" from post to
 * start, then "OPCODE op N" from start to completion with a nested "wire" slice from the first to the last bit
 * sent. Flow events ({@code "s"}/{@code "f"}, category "fence" or "credit") link an operation that waited for a
 * fence or RDMA Read credits to each operation it waited for, and (category "message") a request to the work it
 * caused on the other side and a response back. Counter events ({@code "C"}) track per endpoint the operations
 * outstanding, the RDMA Reads in flight (the read credits in use) and the completions not yet dequeued. Errors,
 * stale reads, failed expectations, RNR NAKs, retransmissions, switch drops, the connection manager's resends and
 * give-ups ({@code cm_retry}, {@code cm_timeout}) and connection events are instant events ({@code "i"}) on their
 * endpoint's thread (else "cpu"), with the trace line's fields as args; CM messages received ({@code cm}) are not.
 * Each switch is a process too: the changes of its ports' queues ({@code port_queue}) and pause states
 * ({@code pfc}), as they happen, are counter tracks per port ({@code queue_bytes}, {@code paused}; a host's port's
 * pauses in the host's process), as are its port samples ({@code port_sample}, {@code trace.port_sample_interval}:
 * bytes queued, pause state, ECN marks, utilisation); its ECN marks ({@code ecn_mark}) are instant events on a thread
 * per port.
 *
 * <p>Times are microseconds with six decimals (picosecond precision); the output is deterministic.
 */
public final class PerfettoTraceWriter implements TraceSink<TraceEvent>, Closeable {

    /** The file name written into the run directory. */
    public static final String FILE = "trace.json";

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final String CPU = "cpu";
    // the keys every event has, encoded once
    private static final SerializableString NAME = new SerializedString("name");
    private static final SerializableString CAT = new SerializedString("cat");
    private static final SerializableString PH = new SerializedString("ph");
    private static final SerializableString TS = new SerializedString("ts");
    private static final SerializableString PID = new SerializedString("pid");
    private static final SerializableString TID = new SerializedString("tid");

    /** An operation in flight. */
    private static final class Op {
        long id;
        int pid;
        String ep;
        int row;
        int tid;
        String opcode = "";
        long bytes = -1;
        long cookie;
        String flags;
        long post = -1;
        long start = -1;
        long txStart = -1;
        long txEnd = -1;
        long place = -1;
        boolean readCounted;
        /** Flows to emit when this operation completes: ids of waits on it. */
        List<long[]> waitedBy;
        /** Flows that end when this operation starts. */
        List<long[]> waits;
        /** The flow from this operation's response back to it, or 0. */
        long back;
        /** Remote work not yet emitted: host of the responder -> [t0, t1, flow, pid]. */
        Map<String, long[]> remote;
        String remoteEp;
        String remoteWhat;
    }

    /** Counters of one endpoint. */
    private static final class EpCounters {
        /** The name of the counter track, "EP queues". */
        final String track;
        long outstanding;
        long readsOut;
        long cqWaiting;
        long[] rowEnd = new long[0];
        long[] remoteRowEnd = new long[0];

        EpCounters(String track) {
            this.track = track;
        }
    }

    private final JsonGenerator g;
    /** The digits of a time being written. */
    private final char[] digits = new char[32];
    private final Map<String, Integer> pids = new LinkedHashMap<>();
    private final Map<String, Integer> tids = new LinkedHashMap<>();
    private final Map<Integer, Integer> nextTid = new HashMap<>();
    private final LongTable<Op> ops = new LongTable<>();
    private final Map<String, EpCounters> eps = new HashMap<>();
    /** Per port (pid and name): the bytes queued and the pause state last written. */
    private final Map<String, long[]> ports = new HashMap<>();
    private long flowSeq;
    private long lastT;
    private boolean closed;

    /**
     * Creates (or truncates) a file and starts the trace.
     *
     * @param file the trace.json to write
     * @throws IOException if the file cannot be created
     */
    public PerfettoTraceWriter(Path file) throws IOException {
        this(new BufferedOutputStream(RunFiles.create(file), 1 << 16));
    }

    /**
     * Starts the trace on a stream; closing this writer closes the stream.
     *
     * @param out the stream
     * @throws IOException if writing fails
     */
    public PerfettoTraceWriter(OutputStream out) throws IOException {
        g = FACTORY.createGenerator(out, JsonEncoding.UTF8);
        g.writeStartObject();
        g.writeStringField("displayTimeUnit", "ns");
        g.writeArrayFieldStart("traceEvents");
    }

    /**
     * Writes {@code RUN_DIR/trace.json} from {@code RUN_DIR/events.jsonl}.
     *
     * @param runDir a directory written by {@code datsim run}
     * @return the path written
     * @throws IOException if the trace cannot be read (the message names the file and line) or the output written
     */
    public static Path write(Path runDir) throws IOException {
        Path events = runDir.resolve("events.jsonl");
        if (!RunFiles.exists(events)) {
            throw new IOException(events + ": no such file (is " + runDir + " the output directory of `datsim run`?)");
        }
        Path out = runDir.resolve(FILE);
        try (PerfettoTraceWriter w = new PerfettoTraceWriter(out)) {
            TraceReader.read(events, w::accept);
            w.flows(FlowRecords.read(runDir));
        }
        return out;
    }

    @Override
    public void accept(TraceEvent e) {
        try {
            handle(e);
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    /** The operation of a workload's flows, from the first flow's start line. */
    private String flowOpcode;

    private void handle(TraceEvent e) throws IOException {
        long t = e.tPs();
        lastT = Math.max(lastT, t);
        String host = e.host() == null ? "" : e.host();
        String kind = e.kind();
        int pid = TraceKind.PORT_SAMPLE.equals(kind) || TraceKind.ECN_MARK.equals(kind)
                || TraceKind.PORT_QUEUE.equals(kind)
                || TraceKind.PFC.equals(kind) && !pids.containsKey(host) ? switchPid(host) : pid(host);
        Op op = e.op() >= 0 ? ops.get(e.op()) : null;
        switch (kind) {
            case TraceEvent.POST:
                post(e, pid, t);
                return;
            case TraceEvent.START:
                if (op == null && flowOpcode == null && e.ep() != null && e.ep().startsWith("flow")) {
                    flowOpcode = String.valueOf(e.attrValue(TraceKey.OPCODE));
                }
                if (op != null && op.start < 0 && op.pid == pid) {
                    op.start = t;
                    if ("rdma_read".equals(op.opcode)) {
                        op.readCounted = true;
                        EpCounters c = ep(op.ep);
                        c.readsOut++;
                        counters(op.pid, t, c);
                    }
                    if (op.waits != null) {
                        for (long[] f : op.waits) {
                            f[2] = t + 1_000;
                            flowAt("f", f[0], f[1] == 1 ? "credit" : "fence", op.pid, op.tid, f[2]);
                        }
                        op.waits = null;
                    }
                }
                return;
            case TraceEvent.TX_START:
            case TraceEvent.TX_END:
            case TraceEvent.PLACE:
                if (op != null) {
                    if (op.pid == pid && op.ep.equals(e.ep() == null ? host + "/?" : e.ep())) {
                        own(op, kind, t);
                    } else {
                        remote(op, e, host, pid, kind, t);
                    }
                }
                return;
            case TraceEvent.COMPLETE:
                if (op != null) {
                    complete(op, e, t);
                } else {
                    instant(pid, e.ep() == null ? CPU : e.ep(), t, "complete", e);
                }
                return;
            case TraceEvent.DEQUEUE:
                if (e.op() >= 0 && e.ep() != null) {
                    EpCounters c = ep(e.ep());
                    if (c.cqWaiting > 0) {
                        c.cqWaiting--;
                        counters(pid, t, c);
                    }
                }
                instant(pid, CPU, t, "dequeue" + (e.op() >= 0 ? " op " + e.op() : ""), e);
                return;
            case TraceEvent.FENCE_WAIT:
            case TraceKind.CREDIT_WAIT:
                waits(op, e, kind);
                instant(pid, e.ep() == null ? CPU : e.ep(), t, kind.replace('_', ' '), e);
                return;
            case TraceEvent.CALL:
                if (e.ret() != null && !"DAT_SUCCESS".equals(e.ret())) {
                    instant(pid, CPU, t, e.call() + " -> " + e.ret(), e);
                }
                return;
            case TraceEvent.MEM_READ:
                instant(pid, CPU, t, Boolean.TRUE.equals(e.attrValue(TraceKey.STALE)) ? "STALE mem_read" : "mem_read",
                        e);
                return;
            case TraceKind.CM:
                return;
            case TraceKind.FLOW:
                return; // a workload's flow is drawn whole, as a slice from fct.csv (flows)
            case TraceKind.PORT_SAMPLE:
                portSample(e, pid, t);
                return;
            case TraceKind.PORT_QUEUE:
            case TraceKind.PFC:
                portChange(e, pid, t);
                return;
            case TraceKind.ECN_MARK:
                instant(pid, String.valueOf(e.attrValue(TraceKey.PORT)), t, kind, e);
                return;
            default:
                // errors, rnr_nak, retransmit, drop, cm_retry, cm_timeout, event, ...: on the endpoint's thread
                instant(pid, e.ep() == null ? CPU : e.ep(), t, kind, e);
        }
    }

    /**
     * Writes a workload's flows: each a complete event on its source host's process, on thread "flows" (and "flows
     * (2)", ... for flows in flight at the same time, as complete events on one thread must nest), from its post to
     * its completion (a flow that did not complete: to the last time seen, named "(not completed)"), named by its
     * operation, size and destination, with its size, destination, FCT, ideal FCT, slowdown and slowdown against
     * HPCC's standalone FCT as args. Call before {@link #close()}.
     *
     * @param flows the flows in flow order
     * @throws IOException if writing fails
     */
    public void flows(List<FlowRecords.Flow> flows) throws IOException {
        Map<String, long[]> lanes = new HashMap<>();
        String opcode = flowOpcode == null ? "rdma_write" : flowOpcode;
        for (FlowRecords.Flow f : flows) {
            long end = f.fctPs() >= 0 ? f.startPs() + f.fctPs() : Math.max(lastT, f.startPs());
            long[] l = lanes.computeIfAbsent(f.src(), k -> new long[0]);
            int r = 0;
            while (r < l.length && l[r] > f.startPs()) {
                r++;
            }
            if (r == l.length) {
                l = Arrays.copyOf(l, r + 1);
                lanes.put(f.src(), l);
            }
            l[r] = end;
            int pid = pid(f.src());
            int tid = tid(pid, rowName("flows", r));
            begin("X", opcode + " " + FlowRecords.size(f.sizeBytes()) + " to " + f.dst()
                    + (f.fctPs() >= 0 ? "" : " (not completed)"), "flow", pid, tid, f.startPs());
            g.writeFieldName("dur");
            writeUs(end - f.startPs());
            g.writeObjectFieldStart("args");
            g.writeNumberField("flow", f.index());
            g.writeStringField("operation", opcode);
            g.writeNumberField("size_bytes", f.sizeBytes());
            g.writeStringField("dst", f.dst());
            g.writeNumberField("fct_ps", f.fctPs());
            if (f.fctPs() >= 0) {
                g.writeFieldName("fct");
                writeUsString(f.fctPs());
            }
            if (f.idealPs() >= 0) {
                g.writeNumberField("ideal_fct_ps", f.idealPs());
            }
            if (!Double.isNaN(f.slowdown())) {
                g.writeNumberField("slowdown", Math.round(f.slowdown() * 1e6) / 1e6);
            }
            if (!Double.isNaN(f.slowdownVsStandalone())) {
                g.writeNumberField("slowdown_vs_standalone", Math.round(f.slowdownVsStandalone() * 1e6) / 1e6);
            }
            g.writeEndObject();
            g.writeEndObject();
        }
    }

    private void post(TraceEvent e, int pid, long t) throws IOException {
        Op op = new Op();
        op.id = e.op();
        op.pid = pid;
        op.ep = e.ep() == null ? e.host() + "/?" : e.ep();
        op.opcode = String.valueOf(e.attrValue(TraceKey.OPCODE));
        op.bytes = e.attrLong(TraceKey.BYTES, -1);
        op.cookie = e.hasCookie() ? e.cookie() : 0;
        Object flags = e.attrValue(TraceKey.FLAGS);
        op.flags = flags == null ? null : String.valueOf(flags);
        op.post = t;
        EpCounters c = ep(op.ep);
        int r = 0;
        while (r < c.rowEnd.length && c.rowEnd[r] > t) {
            r++;
        }
        if (r == c.rowEnd.length) {
            c.rowEnd = Arrays.copyOf(c.rowEnd, r + 1);
        }
        c.rowEnd[r] = Long.MAX_VALUE;
        op.row = r;
        ops.put(op.id, op);
        op.tid = tid(pid, rowName(op.ep, r));
        c.outstanding++;
        counters(pid, t, c);
    }

    private void own(Op op, String kind, long t) {
        switch (kind) {
            case TraceEvent.TX_START:
                if (op.txStart < 0) {
                    op.txStart = t;
                }
                break;
            case TraceEvent.TX_END:
                op.txEnd = t;
                break;
            default:
                op.place = t;
                break;
        }
    }

    private void remote(Op op, TraceEvent e, String host, int pid, String kind, long t) throws IOException {
        if (op.remote == null) {
            op.remote = new LinkedHashMap<>();
        }
        long[] r = op.remote.get(host);
        if (r == null) {
            // [t0, t1, id of the flow from the requester, pid]
            long from = TraceEvent.PLACE.equals(kind) && op.txEnd >= 0 ? op.txEnd : t;
            r = new long[] {from, t, ++flowSeq, pid};
            op.remote.put(host, r);
            op.remoteEp = e.ep() == null ? host + "/?" : e.ep();
            long src = op.txStart >= 0 ? op.txStart : op.start >= 0 ? op.start : op.post;
            flowAt("s", r[2], "message", op.pid, op.tid, src + 1_000);
        }
        r[1] = t;
        op.remoteWhat = TraceEvent.PLACE.equals(kind) ? "place" : String.valueOf(e.attrValue(TraceKey.PACKET));
        if (TraceEvent.TX_END.equals(kind) || TraceEvent.PLACE.equals(kind)) {
            emitRemote(op, host);
        }
    }

    /** Writes an operation's work on another host as a slice of that endpoint's responder thread. */
    private void emitRemote(Op op, String host) throws IOException {
        long[] r = op.remote.remove(host);
        if (op.remote.isEmpty()) {
            op.remote = null;
        }
        int pid = (int) r[3];
        EpCounters c = ep(op.remoteEp);
        int row = 0;
        while (row < c.remoteRowEnd.length && c.remoteRowEnd[row] > r[0]) {
            row++;
        }
        if (row == c.remoteRowEnd.length) {
            c.remoteRowEnd = Arrays.copyOf(c.remoteRowEnd, row + 1);
        }
        c.remoteRowEnd[row] = r[1];
        int tid = tid(pid, op.remoteEp + " responder" + (row == 0 ? "" : " (" + (row + 1) + ")"));
        complete(pid, tid, r[0], r[1] - r[0], op.remoteWhat + " op " + op.id, "remote", op, null);
        flowAt("f", r[2], "message", pid, tid, inside(r[0], r[1]));
        if ("read_response".equals(op.remoteWhat) || "atomic_ack".equals(op.remoteWhat)) {
            // the response travels back: a flow to the requester, which ends when the operation completes
            op.back = ++flowSeq;
            flowAt("s", op.back, "message", pid, tid, inside(r[0], r[1]));
        }
    }

    private void waits(Op op, TraceEvent e, String kind) throws IOException {
        Object w = e.attrValue(TraceKey.WAITING_FOR);
        if (op == null || !(w instanceof long[])) {
            return;
        }
        for (long id : (long[]) w) {
            Op target = ops.get(id);
            if (target == null) {
                continue;
            }
            long flow = ++flowSeq;
            long type = TraceKind.CREDIT_WAIT.equals(kind) ? 1 : 0;
            if (target.waitedBy == null) {
                target.waitedBy = new ArrayList<>();
            }
            long[] f = {flow, type, -1};
            target.waitedBy.add(f);
            if (op.waits == null) {
                op.waits = new ArrayList<>();
            }
            op.waits.add(f);
        }
    }

    private void complete(Op op, TraceEvent e, long t) throws IOException {
        int tid = op.tid;
        long execStart = op.start >= 0 ? op.start : op.post;
        if (op.start > op.post) {
            complete(op.pid, tid, op.post, op.start - op.post, "queued", "queue", op, null);
        }
        String status = e.status() == null ? "" : e.status();
        String name = op.opcode + " op " + op.id + ("DAT_DTO_SUCCESS".equals(status) || status.isEmpty() ? ""
                : " " + status);
        complete(op.pid, tid, execStart, t - execStart, name, "op", op, e);
        if (op.txStart >= 0 && op.txEnd >= op.txStart && op.txStart >= execStart && op.txEnd <= t) {
            complete(op.pid, tid, op.txStart, op.txEnd - op.txStart, "wire", "wire", op, null);
        }
        if (op.back != 0) {
            flowAt("f", op.back, "message", op.pid, tid, op.place >= execStart ? op.place : t);
        }
        if (op.waitedBy != null) {
            for (long[] f : op.waitedBy) {
                // the waiter may start before this completion is queued (a fence releases on placement)
                long at = inside(execStart, t);
                if (f[2] >= 0) {
                    at = Math.max(execStart, Math.min(at, f[2] - 1_000));
                }
                flowAt("s", f[0], f[1] == 1 ? "credit" : "fence", op.pid, tid, at);
            }
        }
        if (op.remote != null) {
            for (String h : new ArrayList<>(op.remote.keySet())) {
                emitRemote(op, h);
            }
        }
        EpCounters c = ep(op.ep);
        c.rowEnd[op.row] = t;
        c.outstanding--;
        if (op.readCounted) {
            c.readsOut--;
        }
        if (!Boolean.TRUE.equals(e.attrValue(TraceKey.SUPPRESSED))) {
            c.cqWaiting++;
        }
        counters(op.pid, t, c);
        ops.remove(op.id);
    }

    /** A time strictly inside [t0, t1] when the slice is long enough, so a flow binds to it (Perfetto: ns). */
    private static long inside(long t0, long t1) {
        long d = t1 - t0;
        return d > 2_000 ? t1 - 1_000 : t0 + d / 2;
    }

    private void complete(int pid, int tid, long ts, long dur, String name, String cat, Op op, TraceEvent e)
            throws IOException {
        begin("X", name, cat, pid, tid, ts);
        g.writeFieldName("dur");
        writeUs(Math.max(0, dur));
        g.writeObjectFieldStart("args");
        g.writeNumberField("op", op.id);
        if ("op".equals(cat)) {
            g.writeStringField("opcode", op.opcode);
            if (op.bytes >= 0) {
                g.writeNumberField("bytes", op.bytes);
            }
            g.writeNumberField("cookie", op.cookie);
            if (op.flags != null) {
                g.writeStringField("flags", op.flags);
            }
            if (e != null && e.status() != null) {
                g.writeStringField("status", e.status());
            }
            g.writeFieldName("post");
            writeUsString(op.post);
            if (op.place >= 0) {
                g.writeFieldName("place");
                writeUsString(op.place);
            }
            g.writeNumberField("latency_ps", e == null ? -1 : e.tPs() - op.post);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private void flowAt(String ph, long id, String cat, int pid, int tid, long ts) throws IOException {
        begin(ph, cat.equals("message") ? "message" : cat + " wait", cat, pid, tid, ts);
        g.writeNumberField("id", id);
        if ("f".equals(ph)) {
            g.writeStringField("bp", "e");
        }
        g.writeEndObject();
    }

    private void instant(int pid, String thread, long t, String name, TraceEvent e) throws IOException {
        int tid = tid(pid, thread);
        begin("i", name, e.kind(), pid, tid, t);
        g.writeStringField("s", "t");
        g.writeObjectFieldStart("args");
        JsonLinesTraceWriter.writeFields(g, e); // the event's fields as in events.jsonl
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * Writes a switch port's sample (trace kind {@code port_sample}) as a counter event of the port's track in the
     * switch's process: one series each for the bytes queued, the pause state (paused by the peer, pausing the peer),
     * the ECN marks so far and the utilisation over the interval.
     */
    private void portSample(TraceEvent e, int pid, long t) throws IOException {
        begin("C", String.valueOf(e.attrValue(TraceKey.PORT)), "port", pid, 0, t);
        g.writeObjectFieldStart("args");
        g.writeNumberField("queue_bytes", e.attrLong(TraceKey.QUEUE_BYTES, 0));
        g.writeNumberField("paused", e.attrLong(TraceKey.PAUSED, 0));
        g.writeNumberField("pausing", e.attrLong(TraceKey.PAUSING, 0));
        g.writeNumberField("ecn_marks", e.attrLong(TraceKey.ECN_MARKS, 0));
        Object u = e.attrValue(TraceKey.UTILISATION);
        g.writeNumberField("utilisation", u instanceof Number n ? n.doubleValue() : 0.0);
        g.writeEndObject();
        g.writeEndObject();
    }

    /**
     * Writes a change of a port's queue ({@code port_queue}) or pause state ({@code pfc}) as a counter event of the
     * port's track in its node's process (a switch's, or a host's for a host's port): the bytes queued (from
     * {@code port_queue} lines only) and the pause state (1 paused) after the change, both on every event.
     */
    private void portChange(TraceEvent e, int pid, long t) throws IOException {
        String port = String.valueOf(e.attrValue(TraceKey.PORT));
        long[] st = ports.computeIfAbsent(pid + "\u0000" + port, k -> new long[2]);
        if (TraceKind.PFC.equals(e.kind())) {
            st[1] = e.attrLong(TraceKey.PAUSED, st[1]);
        } else {
            st[0] = e.attrLong(TraceKey.QUEUE_BYTES, st[0]);
        }
        begin("C", port, "port", pid, 0, t);
        g.writeObjectFieldStart("args");
        g.writeNumberField("queue_bytes", st[0]);
        g.writeNumberField("paused", st[1]);
        g.writeEndObject();
        g.writeEndObject();
    }

    private void counters(int pid, long t, EpCounters c) throws IOException {
        begin("C", c.track, "counters", pid, 0, t);
        g.writeObjectFieldStart("args");
        g.writeNumberField("outstanding", c.outstanding);
        g.writeNumberField("rdma_reads_out", c.readsOut);
        g.writeNumberField("completions_waiting", c.cqWaiting);
        g.writeEndObject();
        g.writeEndObject();
    }

    /** Starts an event object with the fields every event has: name, cat, ph, ts, pid, tid. */
    private void begin(String ph, String name, String cat, int pid, int tid, long ts) throws IOException {
        g.writeStartObject();
        g.writeFieldName(NAME);
        g.writeString(name);
        g.writeFieldName(CAT);
        g.writeString(cat);
        g.writeFieldName(PH);
        g.writeString(ph);
        g.writeFieldName(TS);
        writeUs(ts);
        g.writeFieldName(PID);
        g.writeNumber(pid);
        g.writeFieldName(TID);
        g.writeNumber(tid);
    }

    /** Writes picoseconds as a number of microseconds ({@link #us(long)}) without building a string. */
    private void writeUs(long ps) throws IOException {
        g.writeNumber(digits, 0, us(ps, digits));
    }

    /** Writes picoseconds as the string "{@link #us(long)} us". */
    private void writeUsString(long ps) throws IOException {
        int n = us(ps, digits);
        digits[n] = ' ';
        digits[n + 1] = 'u';
        digits[n + 2] = 's';
        g.writeString(digits, 0, n + 3);
    }

    /**
     * Writes {@link #us(long)} into a buffer of at least 32 chars.
     *
     * @return the number of chars written
     */
    static int us(long ps, char[] out) {
        if (ps == Long.MIN_VALUE) {
            String s = us(ps);
            s.getChars(0, s.length(), out, 0);
            return s.length();
        }
        int n = 0;
        if (ps < 0) {
            out[n++] = '-';
        }
        long a = Math.abs(ps);
        long whole = a / 1_000_000;
        int frac = (int) (a % 1_000_000);
        n = digits(whole, out, n);
        if (frac == 0) {
            return n;
        }
        int width = 6;
        while (frac % 10 == 0) {
            frac /= 10;
            width--;
        }
        out[n++] = '.';
        for (int i = n + width - 1; i >= n; i--) {
            out[i] = (char) ('0' + frac % 10);
            frac /= 10;
        }
        return n + width;
    }

    /** Writes the decimal digits of {@code v >= 0} at {@code at}; returns the position after them. */
    private static int digits(long v, char[] out, int at) {
        int len = 1;
        for (long x = v; x >= 10; x /= 10) {
            len++;
        }
        for (int i = at + len - 1; i >= at; i--) {
            out[i] = (char) ('0' + v % 10);
            v /= 10;
        }
        return at + len;
    }

    /** Picoseconds as microseconds with six decimals, exactly. */
    static String us(long ps) {
        String sign = ps < 0 ? "-" : "";
        long a = Math.abs(ps);
        long whole = a / 1_000_000;
        long frac = a % 1_000_000;
        if (frac == 0) {
            return sign + whole;
        }
        int digits = 6;
        while (frac % 10 == 0) {
            frac /= 10;
            digits--;
        }
        StringBuilder sb = new StringBuilder(24).append(sign).append(whole).append('.');
        String f = Long.toString(frac);
        for (int i = f.length(); i < digits; i++) {
            sb.append('0');
        }
        return sb.append(f).toString();
    }

    private int pid(String host) throws IOException {
        Integer p = pids.get(host);
        if (p == null) {
            p = pids.size() + 1;
            pids.put(host, p);
            metadata("process_name", p, 0, "host " + host);
            metadata("process_sort_index", p, 0, null);
            tid(p, CPU);
        }
        return p;
    }

    /** The process of a switch (its port counters and marks), named "switch NAME", without a cpu thread. */
    private int switchPid(String name) throws IOException {
        Integer p = pids.get(name);
        if (p == null) {
            p = pids.size() + 1;
            pids.put(name, p);
            metadata("process_name", p, 0, "switch " + name);
            metadata("process_sort_index", p, 0, null);
        }
        return p;
    }

    private int tid(int pid, String thread) throws IOException {
        String key = pid + "\u0000" + thread;
        Integer t = tids.get(key);
        if (t == null) {
            t = nextTid.merge(pid, 1, Integer::sum);
            tids.put(key, t);
            metadata("thread_name", pid, t, thread);
            metadata("thread_sort_index", pid, t, null);
        }
        return t;
    }

    private void metadata(String name, int pid, int tid, String value) throws IOException {
        g.writeStartObject();
        g.writeStringField("name", name);
        g.writeStringField("ph", "M");
        g.writeNumberField("ts", 0);
        g.writeNumberField("pid", pid);
        g.writeNumberField("tid", tid);
        g.writeObjectFieldStart("args");
        if (value != null) {
            g.writeStringField("name", value);
        } else {
            g.writeNumberField("sort_index", name.startsWith("process") ? pid : tid);
        }
        g.writeEndObject();
        g.writeEndObject();
    }

    private static String rowName(String ep, int row) {
        return row == 0 ? ep : ep + " (" + (row + 1) + ")";
    }

    private EpCounters ep(String name) {
        EpCounters c = eps.get(name);
        if (c == null) {
            c = new EpCounters(name + " queues");
            eps.put(name, c);
        }
        return c;
    }

    /**
     * Ends the trace: operations still in flight are drawn up to the last time seen, named "(not completed)".
     *
     * @throws IOException if writing fails
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            for (Op op : ops.valuesByKey()) {
                int tid = op.tid;
                long s = op.start >= 0 ? op.start : op.post;
                complete(op.pid, tid, s, lastT - s, op.opcode + " op " + op.id + " (not completed)", "op", op, null);
            }
            ops.clear();
            g.writeEndArray();
            g.writeObjectFieldStart("otherData");
            g.writeStringField("generator", "datsim");
            g.writeStringField("time_unit", "ts and dur in microseconds with picosecond precision");
            g.writeEndObject();
            g.writeEndObject();
        } finally {
            g.close();
        }
    }
}
