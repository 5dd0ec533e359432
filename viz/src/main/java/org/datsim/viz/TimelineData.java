package org.datsim.viz;

import com.fasterxml.jackson.core.JsonGenerator;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSink;

/**
 * The data of a timeline, gathered from a trace in one pass and written as compact columnar JSON (one array per
 * field, strings interned in one table) for the page {@link Timeline} writes. It holds per operation a handful of
 * numbers, never the trace itself.
 *
 * <p>What it keeps: lanes (one per host for the consumer's CPU, one per endpoint), operations on the lane of the
 * endpoint that posted them (post, start, first and last bit on the wire, placement, completion and dequeue times),
 * spans of an operation's activity on another lane (an RDMA Read's response leaving the responder, data placed at
 * the target), marks (memory reads, stale ones flagged; errors; calls that returned an error; failed expectations;
 * fence and credit waits; RNR NAKs; go-back-N retransmissions, on the lane of the endpoint that sent again and
 * naming the operation it began with; packets a switch dropped, on the lane of the endpoint whose operation the
 * packet belongs to and naming it, or for a connection-management packet the endpoint that sent it (its host's
 * lane for a REJ from a service point); connection
 * events; the connection manager's resends and timeouts of REQ, REP and DREQ, on the lane of the endpoint that sent
 * the message), and arrows from an operation held by a fence or by RDMA Read credits to each operation it waited for.
 *
 * <p>Ports: a lane per port named in a {@code pfc}, {@code port_queue} or {@code port_sample} line (kind
 * {@code port}, in the group of the node it belongs to: a host's after its endpoints, a switch's after every host),
 * with the bytes queued and the pause state as they changed. A Send or RDMA Write whose completion names the RDMA Read
 * it overtook ({@code overtook_read}) gets a {@code stale_payload} mark (bad) where its bytes were placed and one on its
 * own lane; an inline post an {@code inline} mark on its operation. {@link #beginRun} adds a second run's trace to
 * the same page (hazard and fix side by side).
 *
 * <p>The JSON layout ({@code "format": "datsim-timeline/1"}): {@code start_ps}, {@code end_ps},
 * {@code lanes {name, host, kind (host, ep, port), rows}},
 * {@code strings [...]}, {@code ops {id, lane, row, opcode, bytes, cookie, flags, status, post, start, tx_start,
 * tx_end, place, complete, dequeue}} where {@code post} is in picoseconds and every other time is picoseconds after
 * the post or -1 when that step did not happen, {@code spans {lane, op, kind, t0, t1}}, {@code marks {lane, t, kind,
 * op, bad, detail}} and {@code arrows {t, op, to, reason}}, {@code ports {lane, t, queue, paused}} (-1: not given by
 * that line); {@code op}, {@code to} are indexes into {@code ops},
 * string-valued fields are indexes into {@code strings} (-1 for none). Lanes are in natural order of host then
 * endpoint names, so the output depends only on the trace.
 */
public final class TimelineData implements TraceSink<TraceEvent> {

    /** Most sub-rows of one lane; beyond it, bars of concurrent operations share rows. */
    static final int MAX_ROWS = 12;

    private final Map<String, Integer> strings = new LinkedHashMap<>();
    private final List<String> stringList = new ArrayList<>();
    private final Map<String, Integer> laneIndex = new LinkedHashMap<>();
    private final List<String> laneHost = new ArrayList<>();
    private final List<Boolean> laneIsHost = new ArrayList<>();

    private final Map<Long, Integer> opIndex = new HashMap<>();
    private final Columns opId = new Columns();
    private final Columns opLane = new Columns();
    private final Columns opOpcode = new Columns();
    private final Columns opBytes = new Columns();
    private final Columns opCookie = new Columns();
    private final Columns opFlags = new Columns();
    private final Columns opStatus = new Columns();
    private final Columns[] opTimes = new Columns[7];

    private final Map<Long, Integer> spanIndex = new HashMap<>();
    private final Columns spanLane = new Columns();
    private final Columns spanOp = new Columns();
    private final Columns spanKind = new Columns();
    private final Columns spanT0 = new Columns();
    private final Columns spanT1 = new Columns();

    private final Columns markLane = new Columns();
    private final Columns markT = new Columns();
    private final Columns markKind = new Columns();
    private final Columns markOp = new Columns();
    private final Columns markBad = new Columns();
    private final Columns markDetail = new Columns();

    private final Columns arrowT = new Columns();
    private final Columns arrowOp = new Columns();
    private final Columns arrowTo = new Columns();
    private final Columns arrowReason = new Columns();

    /** Port lanes' series: one row per pfc, port_queue or port_sample line (-1: not given by that line). */
    private final Columns portLane = new Columns();
    private final Columns portT = new Columns();
    private final Columns portQueue = new Columns();
    private final Columns portPaused = new Columns();
    private final Map<String, Integer> portLaneIndex = new HashMap<>();

    /** Lanes of ports: 1 for a port lane ({@code host} is the node it belongs to). */
    private final List<Boolean> laneIsPort = new ArrayList<>();
    /** The run each lane belongs to (0, or 1, 2, ... after {@link #beginRun}). */
    private final List<Integer> laneRun = new ArrayList<>();
    private int run;
    private String runPrefix = "";
    /** Nodes with lines of their own (not an endpoint's, not a port's): hosts, whatever their lanes. */
    private final java.util.Set<String> hostsWithEvents = new java.util.HashSet<>();
    private long opBase;

    private long endPs;
    private long startPs = Long.MAX_VALUE;
    private long staleReads;
    private long staleSends;
    private long errors;

    private static final int POST = 0;
    private static final int START = 1;
    private static final int TX_START = 2;
    private static final int TX_END = 3;
    private static final int PLACE = 4;
    private static final int COMPLETE = 5;
    private static final int DEQUEUE = 6;
    /** The operation time columns of timeline.html's data, named after the trace kinds that set them. */
    private static final String[] TIME_NAMES = {TraceKind.POST, TraceKind.START, TraceKind.TX_START,
        TraceKind.TX_END, TraceKind.PLACE, TraceKind.COMPLETE, TraceKind.DEQUEUE};

    /** Creates an empty timeline. */
    public TimelineData() {
        for (int i = 0; i < opTimes.length; i++) {
            opTimes[i] = new Columns();
        }
    }

    /**
     * Starts the trace of another run shown on the same page and time axis (hazard and fix side by side): its lanes
     * follow the earlier runs' and are named {@code LABEL: NAME}; its operations are its own even where their ids
     * are the earlier runs'.
     *
     * @param label the run's label, the start of its lanes' names
     */
    public void beginRun(String label) {
        run++;
        runPrefix = label + ": ";
        opBase = (long) run << 40;
    }

    private int str(String s) {
        if (s == null) {
            return -1;
        }
        Integer i = strings.get(s);
        if (i == null) {
            i = strings.size();
            strings.put(s, i);
            stringList.add(s);
        }
        return i;
    }

    private int lane(TraceEvent e) {
        String host = runPrefix + (e.host() == null ? "" : e.host());
        boolean isHost = e.ep() == null;
        String name = isHost ? host : runPrefix + e.ep();
        Integer i = laneIndex.get(name);
        if (i == null) {
            if (!isHost) {
                heading(host);
            }
            i = laneIndex.size();
            laneIndex.put(name, i);
            laneHost.add(host);
            laneIsHost.add(isHost);
            laneIsPort.add(false);
            laneRun.add(run);
        }
        return i;
    }

    /**
     * Makes sure a node's group is headed by its own lane, named after it: a host's CPU lane (which a host whose
     * trace has only endpoints or ports would otherwise lack), or a switch's heading lane.
     */
    private void heading(String node) {
        if (!laneIndex.containsKey(node)) {
            laneIndex.put(node, laneIndex.size());
            laneHost.add(node);
            laneIsHost.add(true);
            laneIsPort.add(false);
            laneRun.add(run);
        }
    }

    /** The lane of a port, named {@code FROM->TO}, in the group of the node it belongs to. */
    private int portLane(String node, String port) {
        Integer i = portLaneIndex.get(port);
        if (i == null) {
            heading(runPrefix + node);
            String key = "\u0000port\u0000" + port;
            i = laneIndex.size();
            laneIndex.put(key, i);
            portLaneIndex.put(port, i);
            laneHost.add(runPrefix + node);
            laneIsHost.add(false);
            laneIsPort.add(true);
            laneRun.add(run);
        }
        return i;
    }

    private void port(TraceEvent e) {
        Object port = e.attrValue(TraceKey.PORT);
        if (port == null) {
            return;
        }
        long t = e.tPs();
        endPs = Math.max(endPs, t);
        startPs = Math.min(startPs, t);
        portLane.add(portLane(e.host() == null ? "" : e.host(), runPrefix + port));
        portT.add(t);
        // a pfc line's queue_bytes is only a glimpse (a host's port traces no port_queue): not drawn as a level
        portQueue.add(TraceKind.PFC.equals(e.kind()) ? -1 : e.attrLong(TraceKey.QUEUE_BYTES, -1));
        portPaused.add(TraceKind.PORT_QUEUE.equals(e.kind()) ? -1 : e.attrLong(TraceKey.PAUSED, -1));
    }

    private int op(TraceEvent e, int lane) {
        Integer i = opIndex.get(opBase + e.op());
        if (i == null) {
            i = opId.add(e.op());
            opIndex.put(opBase + e.op(), i);
            opLane.add(lane);
            opOpcode.add(-1);
            opBytes.add(-1);
            opCookie.add(0);
            opFlags.add(-1);
            opStatus.add(-1);
            for (Columns c : opTimes) {
                c.add(-1);
            }
        }
        return i;
    }

    private static String text(Object o) {
        return o == null ? null : String.valueOf(o);
    }

    @Override
    public void accept(TraceEvent e) {
        switch (e.kind()) {
            case TraceKind.PORT_SAMPLE:
            case TraceKind.PORT_QUEUE:
            case TraceKind.PFC:
                port(e);
                return;
            case TraceKind.FLOW:
                return; // a workload's flow gets its lane from fct.csv (flows), not from its completion line
            default:
                break;
        }
        long t = e.tPs();
        endPs = Math.max(endPs, t);
        if (!TraceKind.REGISTRY.equals(e.kind())) {
            startPs = Math.min(startPs, t);
        }
        String kind = e.kind();
        int lane = lane(e);
        if (e.ep() == null) {
            hostsWithEvents.add(runPrefix + (e.host() == null ? "" : e.host()));
        }
        Map<String, Object> a = e.attrs();
        if (e.op() >= 0 && isOpPhase(kind)) {
            int i = op(e, lane);
            if (TraceEvent.POST.equals(kind)) {
                opLane.set(i, lane);
                opTimes[POST].set(i, t);
                opOpcode.set(i, str(text(a.get(TraceKey.OPCODE))));
                Object b = a.get(TraceKey.BYTES);
                opBytes.set(i, b instanceof Number ? ((Number) b).longValue() : -1);
                opCookie.set(i, e.hasCookie() ? e.cookie() : 0);
                opFlags.set(i, str(text(a.get(TraceKey.FLAGS))));
                if (Boolean.TRUE.equals(a.get(TraceKey.INLINE))) {
                    addMark(lane, t, "inline", i, false, "inline: the CPU copied the payload into the work request"
                            + " at the post (op " + e.op() + ", " + a.get(TraceKey.BYTES) + " B)");
                }
                return;
            }
            if (opLane.get(i) != lane) {
                remote(e, i, lane, t);
                return;
            }
            switch (kind) {
                case TraceEvent.START:
                    setFirst(START, i, t);
                    if (opOpcode.get(i) < 0) {
                        // a workload's flow has no post line: its start line says what it is
                        opOpcode.set(i, str(text(a.get(TraceKey.OPCODE))));
                        Object b = a.get(TraceKey.BYTES);
                        opBytes.set(i, b instanceof Number ? ((Number) b).longValue() : -1);
                    }
                    break;
                case TraceEvent.TX_START:
                    setFirst(TX_START, i, t);
                    break;
                case TraceEvent.TX_END:
                    opTimes[TX_END].set(i, t);
                    break;
                case TraceEvent.PLACE:
                    opTimes[PLACE].set(i, t);
                    break;
                case TraceEvent.COMPLETE:
                    opTimes[COMPLETE].set(i, t);
                    opStatus.set(i, str(e.status()));
                    if (opOpcode.get(i) < 0) {
                        opOpcode.set(i, str(text(a.get(TraceKey.OPCODE))));
                    }
                    if (e.status() != null && !"DAT_DTO_SUCCESS".equals(e.status())) {
                        errors++;
                    }
                    if (a.get(TraceKey.OVERTOOK_READ) instanceof Number) {
                        overtook(e, i, ((Number) a.get(TraceKey.OVERTOOK_READ)).longValue());
                    }
                    break;
                default:
                    opTimes[DEQUEUE].set(i, t);
                    break;
            }
            return;
        }
        mark(e, kind, lane, t, a);
    }

    /**
     * Adds a workload's flows (from its fct.csv) to the operations their trace lines began: each flow's operation,
     * on its own lane {@code flowN} in its source host's group, gets its post (the flow's start) and its completion
     * (start + FCT), and its details say its destination, FCT and slowdowns. Call after the run's trace.
     *
     * @param flows the flows in flow order
     */
    public void flows(List<FlowRecords.Flow> flows) {
        for (FlowRecords.Flow f : flows) {
            Integer lane = laneIndex.get(runPrefix + "flow" + f.index());
            Integer i = opIndex.get(opBase + f.index());
            if (lane == null || i == null || opLane.get(i) != lane) {
                continue;
            }
            opTimes[POST].set(i, f.startPs());
            if (f.fctPs() >= 0) {
                opTimes[COMPLETE].set(i, f.startPs() + f.fctPs());
                endPs = Math.max(endPs, f.startPs() + f.fctPs());
            }
            if (opBytes.get(i) < 0) {
                opBytes.set(i, f.sizeBytes());
            }
            StringBuilder d = new StringBuilder("flow ").append(f.index()).append(" to ").append(f.dst());
            if (f.fctPs() >= 0) {
                d.append(", FCT ").append(String.format(java.util.Locale.ROOT, "%.3f us", f.fctPs() / 1e6));
            } else {
                d.append(", not completed");
            }
            if (!Double.isNaN(f.slowdown())) {
                d.append(String.format(java.util.Locale.ROOT, ", slowdown %.3f", f.slowdown()));
            }
            if (!Double.isNaN(f.slowdownVsStandalone())) {
                d.append(String.format(java.util.Locale.ROOT, ", vs standalone %.3f", f.slowdownVsStandalone()));
            }
            opFlags.set(i, str(d.toString()));
        }
    }

    private static boolean isOpPhase(String kind) {
        switch (kind) {
            case TraceEvent.POST:
            case TraceEvent.START:
            case TraceEvent.TX_START:
            case TraceEvent.TX_END:
            case TraceEvent.PLACE:
            case TraceEvent.COMPLETE:
            case TraceEvent.DEQUEUE:
                return true;
            default:
                return false;
        }
    }

    private void setFirst(int which, int i, long t) {
        if (opTimes[which].get(i) < 0) {
            opTimes[which].set(i, t);
        }
    }

    private void remote(TraceEvent e, int i, int lane, long t) {
        long key = ((long) i << 20) ^ lane;
        Integer s = spanIndex.get(key);
        String what = TraceEvent.PLACE.equals(e.kind()) ? "place"
                : TraceEvent.DEQUEUE.equals(e.kind()) ? "dequeue" : text(e.attrValue(TraceKey.PACKET));
        if (s == null || spanLane.get(s) != lane || spanOp.get(s) != i) {
            s = spanLane.add(lane);
            spanIndex.put(key, s);
            spanOp.add(i);
            spanKind.add(str(what == null ? e.kind() : what));
            spanT0.add(t);
            spanT1.add(t);
        } else {
            spanT1.set(s, t);
            if ("place".equals(what)) {
                spanKind.set(s, str(stringList.get((int) spanKind.get(s)) + " + place"));
            }
        }
    }

    /**
     * A Send or RDMA Write that overtook an RDMA Read (its payload read before the Read's data landed, and different
     * from it): a red mark where its bytes were placed on the other side (each span of it there, at its end), and one
     * on its own bar at its completion.
     */
    private void overtook(TraceEvent e, int i, long readId) {
        staleSends++;
        String what = "op " + e.op() + " (" + stringList.get((int) Math.max(0, opOpcode.get(i))) + ") carried bytes"
                + " read before rdma_read op " + readId + " landed in its buffer: they differ from what the buffer held"
                + " when the Read completed (a Send after a Read needs DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 17)";
        boolean placed = false;
        for (int s = 0; s < spanOp.size(); s++) {
            if (spanOp.get(s) == i) {
                addMark((int) spanLane.get(s), spanT1.get(s), "stale_payload", i, true, "received stale bytes: "
                        + what);
                placed = true;
            }
        }
        addMark((int) opLane.get(i), e.tPs(), "stale_payload", i, true, (placed ? "sent stale bytes: " : "") + what);
    }

    private void addMark(int lane, long t, String kind, int op, boolean bad, String detail) {
        markLane.add(lane);
        markT.add(t);
        markKind.add(str(kind));
        markOp.add(op);
        markBad.add(bad ? 1 : 0);
        markDetail.add(str(detail));
    }

    private void mark(TraceEvent e, String kind, int lane, long t, Map<String, Object> a) {
        String k;
        boolean bad = false;
        boolean detailed = true;
        switch (kind) {
            case TraceEvent.MEM_READ:
                bad = Boolean.TRUE.equals(a.get(TraceKey.STALE));
                k = bad ? "mem_read_stale" : TraceKind.MEM_READ;
                detailed = bad;
                if (bad) {
                    staleReads++;
                }
                break;
            case TraceEvent.MEM_WRITE:
                k = kind;
                detailed = false;
                break;
            case TraceEvent.CALL:
                if (e.ret() == null || "DAT_SUCCESS".equals(e.ret())) {
                    return;
                }
                k = "call_error";
                bad = true;
                break;
            case TraceEvent.ERROR:
            case TraceKind.EXPECT_FAILED:
                k = kind;
                bad = true;
                errors++;
                break;
            case TraceEvent.FENCE_WAIT:
            case TraceKind.CREDIT_WAIT:
                k = kind;
                arrows(e, t, a);
                break;
            case TraceKind.RNR_NAK:
            case TraceKind.EVENT:
            case TraceKind.RETRANSMIT:
            case TraceKind.DROP:
            case TraceKind.CM_RETRY:
            case TraceKind.CM_TIMEOUT:
                k = kind;
                break;
            default:
                return;
        }
        markLane.add(lane);
        markT.add(t);
        markKind.add(str(k));
        markOp.add(e.op() >= 0 && opIndex.containsKey(opBase + e.op()) ? opIndex.get(opBase + e.op()) : -1);
        markBad.add(bad ? 1 : 0);
        markDetail.add(str(detailed ? detail(e) : brief(a)));
    }

    private void arrows(TraceEvent e, long t, Map<String, Object> a) {
        Object w = a.get(TraceKey.WAITING_FOR);
        Integer from = opIndex.get(opBase + e.op());
        if (!(w instanceof long[]) || from == null) {
            return;
        }
        for (long id : (long[]) w) {
            Integer to = opIndex.get(opBase + id);
            if (to != null) {
                arrowT.add(t);
                arrowOp.add(from);
                arrowTo.add(to);
                arrowReason.add(str(text(a.get(TraceKey.REASON))));
            }
        }
    }

    private static String brief(Map<String, Object> a) {
        return "lmr " + a.get(TraceKey.LMR) + ", " + a.get(TraceKey.BYTES) + " B";
    }

    /** The event's fields other than time, kind, host and endpoint, as "key: value" lines. */
    static String detail(TraceEvent e) {
        StringBuilder sb = new StringBuilder();
        if (e.op() >= 0) {
            sb.append("op: ").append(e.op()).append('\n');
        }
        if (e.hasCookie()) {
            sb.append("cookie: ").append(e.cookie()).append('\n');
        }
        if (e.call() != null) {
            sb.append("call: ").append(e.call()).append('\n');
        }
        if (e.ret() != null) {
            sb.append("ret: ").append(e.ret()).append('\n');
        }
        if (e.status() != null) {
            sb.append("status: ").append(e.status()).append('\n');
        }
        for (Map.Entry<String, Object> f : e.attrs().entrySet()) {
            Object v = f.getValue();
            String s = v instanceof long[] ? Arrays.toString((long[]) v)
                    : v instanceof String[] ? Arrays.toString((String[]) v) : String.valueOf(v);
            sb.append(f.getKey()).append(": ").append(s).append('\n');
        }
        return sb.length() == 0 ? "" : sb.substring(0, sb.length() - 1);
    }

    /** Returns the number of memory reads that returned stale bytes. */
    public long staleReads() {
        return staleReads;
    }

    /** Returns the number of Sends and RDMA Writes that carried bytes an earlier RDMA Read was to replace. */
    public long staleSends() {
        return staleSends;
    }

    /** Returns the number of error events, failed expectations and completions with an error status. */
    public long errors() {
        return errors;
    }

    /** Returns the lane names in display order (a port lane is named by its port, {@code FROM->TO}). */
    public List<String> laneNames() {
        String[] names = displayNames();
        List<String> out = new ArrayList<>();
        for (int i : laneOrder()) {
            out.add(names[i]);
        }
        return out;
    }

    private String[] displayNames() {
        String[] names = laneIndex.keySet().toArray(new String[0]);
        for (int i = 0; i < names.length; i++) {
            if (laneIsPort.get(i)) {
                names[i] = names[i].substring(names[i].indexOf('\u0000', 1) + 1);
            }
        }
        return names;
    }

    /** The nodes that are hosts: those with an endpoint lane or a line of their own (not only ports). */
    private java.util.Set<String> consumers() {
        java.util.Set<String> consumers = new java.util.HashSet<>(hostsWithEvents);
        for (int i = 0; i < laneHost.size(); i++) {
            if (!laneIsPort.get(i) && !laneIsHost.get(i)) {
                consumers.add(laneHost.get(i));
            }
        }
        return consumers;
    }

    /**
     * Lanes in display order: per node, its host lane, its endpoints, then its ports; nodes with lanes of the
     * consumer (hosts) first, then those with only ports (switches), each in natural order of names.
     */
    private int[] laneOrder() {
        String[] names = displayNames();
        Integer[] idx = new Integer[names.length];
        java.util.Set<String> consumers = consumers();
        for (int i = 0; i < idx.length; i++) {
            idx[i] = i;
        }
        Comparator<Integer> bySection = Comparator.comparing(x -> consumers.contains(laneHost.get(x)) ? 0 : 1);
        Comparator<Integer> byHost = (x, y) -> NaturalOrder.compare(laneHost.get(x), laneHost.get(y));
        // a host's own lanes first: its CPU, its endpoints (a workload's flows it sends), then the strips of flows it
        // receives (flowN_r), then its ports
        Comparator<Integer> byKind = Comparator.comparing(x -> laneIsHost.get(x) ? 0 : laneIsPort.get(x) ? 3
                : names[x].matches(".*flow[0-9]+_r") ? 2 : 1);
        Comparator<Integer> byRun = Comparator.comparing(laneRun::get);
        Arrays.sort(idx, byRun.thenComparing(bySection).thenComparing(byHost).thenComparing(byKind)
                .thenComparing((x, y) -> NaturalOrder.compare(names[x], names[y])));
        int[] out = new int[idx.length];
        for (int i = 0; i < idx.length; i++) {
            out[i] = idx[i];
        }
        return out;
    }

    /**
     * Writes the data as one JSON object.
     *
     * @param g the generator
     * @param scenario the scenario's name, shown in the page title
     * @throws IOException if writing fails
     */
    public void write(JsonGenerator g, String scenario) throws IOException {
        int[] order = laneOrder();
        int[] newIndex = new int[order.length];
        for (int k = 0; k < order.length; k++) {
            newIndex[order[k]] = k;
        }
        int nOps = opId.size();
        int[] rows = new int[nOps];
        int[] laneRows = packRows(rows);
        g.writeStartObject();
        g.writeStringField("format", "datsim-timeline/1");
        g.writeStringField("scenario", scenario);
        g.writeNumberField("end_ps", endPs);
        g.writeNumberField("start_ps", startPs == Long.MAX_VALUE ? 0 : startPs);
        g.writeObjectFieldStart("lanes");
        String[] names = displayNames();
        g.writeArrayFieldStart("name");
        for (int i : order) {
            g.writeString(names[i]);
        }
        g.writeEndArray();
        g.writeArrayFieldStart("host");
        for (int i : order) {
            g.writeString(laneHost.get(i));
        }
        g.writeEndArray();
        g.writeArrayFieldStart("kind");
        java.util.Set<String> consumers = consumers();
        for (int i : order) {
            g.writeString(laneIsHost.get(i) ? consumers.contains(laneHost.get(i)) ? "host" : "switch"
                    : laneIsPort.get(i) ? "port" : "ep");
        }
        g.writeEndArray();
        g.writeArrayFieldStart("rows");
        for (int i : order) {
            g.writeNumber(laneRows[i]);
        }
        g.writeEndArray();
        g.writeEndObject();
        g.writeArrayFieldStart("strings");
        for (String s : strings.keySet()) {
            g.writeString(s);
        }
        g.writeEndArray();

        g.writeObjectFieldStart("ops");
        opId.write(g, "id", null);
        writeRemapped(g, "lane", opLane, newIndex);
        g.writeArrayFieldStart("row");
        for (int r : rows) {
            g.writeNumber(r);
        }
        g.writeEndArray();
        opOpcode.write(g, "opcode", null);
        opBytes.write(g, "bytes", null);
        opCookie.write(g, "cookie", null);
        opFlags.write(g, "flags", null);
        opStatus.write(g, "status", null);
        opTimes[POST].write(g, "post", null);
        for (int k = START; k <= DEQUEUE; k++) {
            g.writeArrayFieldStart(TIME_NAMES[k]);
            for (int i = 0; i < nOps; i++) {
                long v = opTimes[k].get(i);
                long p = opTimes[POST].get(i);
                g.writeNumber(v < 0 ? -1 : p < 0 ? v : v - p);
            }
            g.writeEndArray();
        }
        g.writeEndObject();

        g.writeObjectFieldStart("spans");
        writeRemapped(g, "lane", spanLane, newIndex);
        spanOp.write(g, "op", null);
        spanKind.write(g, "kind", null);
        spanT0.write(g, "t0", null);
        spanT1.write(g, "t1", null);
        g.writeEndObject();

        g.writeObjectFieldStart("marks");
        writeRemapped(g, "lane", markLane, newIndex);
        markT.write(g, "t", null);
        markKind.write(g, "kind", null);
        markOp.write(g, "op", null);
        markBad.write(g, "bad", null);
        markDetail.write(g, "detail", null);
        g.writeEndObject();

        g.writeObjectFieldStart("ports");
        writeRemapped(g, "lane", portLane, newIndex);
        portT.write(g, "t", null);
        portQueue.write(g, "queue", null);
        portPaused.write(g, "paused", null);
        g.writeEndObject();

        g.writeObjectFieldStart("arrows");
        arrowT.write(g, "t", null);
        arrowOp.write(g, "op", null);
        arrowTo.write(g, "to", null);
        arrowReason.write(g, "reason", null);
        g.writeEndObject();
        g.writeEndObject();
    }

    private static void writeRemapped(JsonGenerator g, String name, Columns c, int[] map) throws IOException {
        g.writeArrayFieldStart(name);
        for (int i = 0; i < c.size(); i++) {
            g.writeNumber(map[(int) c.get(i)]);
        }
        g.writeEndArray();
    }

    /**
     * Packs each lane's operations into sub-rows so that bars overlapping in time are drawn on different rows
     * (first row free at the post time; past {@link #MAX_ROWS}, the row that frees first).
     *
     * @param rows receives each operation's row
     * @return the number of rows per lane (by lane index of first appearance)
     */
    private int[] packRows(int[] rows) {
        int lanes = laneIndex.size();
        int[] used = new int[lanes];
        long[][] ends = new long[lanes][MAX_ROWS];
        for (int i = 0; i < rows.length; i++) {
            int l = (int) opLane.get(i);
            long start = opTimes[POST].get(i);
            long end = start;
            for (Columns c : opTimes) {
                end = Math.max(end, c.get(i));
            }
            if (start < 0) {
                start = end;
            }
            int pick = -1;
            for (int r = 0; r < used[l]; r++) {
                if (ends[l][r] < start) {
                    pick = r;
                    break;
                }
            }
            if (pick < 0 && used[l] < MAX_ROWS) {
                pick = used[l]++;
            }
            if (pick < 0) {
                pick = 0;
                for (int r = 1; r < MAX_ROWS; r++) {
                    if (ends[l][r] < ends[l][pick]) {
                        pick = r;
                    }
                }
            }
            rows[i] = pick;
            ends[l][pick] = Math.max(ends[l][pick], end);
        }
        int[] out = new int[lanes];
        for (int l = 0; l < lanes; l++) {
            out[l] = laneIsHost.get(l) || laneIsPort.get(l) ? 0 : Math.max(1, used[l]);
        }
        return out;
    }
}
