package org.datsim.viz.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.viz.TraceReader;

/**
 * Derives the causal story of a run from its trace: for each operation, in posting order, when it was posted, what
 * held it back and why (a barrier fence, an RMR bind's implicit fence, strict read ordering, RDMA Read credits, the
 * HCA's send engine busy with another operation, the link busy with another operation's packets, a receiver not
 * ready), when it went on the wire, was placed and completed (and whether its completion waited for an earlier
 * operation), and when the consumer took the completion. Only what the trace shows is claimed; what it cannot show
 * is listed in {@link Explanation#limits()}.
 *
 * <p>Feed events with {@link #accept(TraceEvent)} in file order, then call {@link #explain()}; or use
 * {@link #explainRun(Path)} on a run directory.
 */
public final class Explainer {

    private static final String[] LIMITS = {
        "ACK, NAK and connection-manager packets are not traced, so a wait behind them on a link does not show.",
        "the HCA's address translation and the CPU's cache misses are not modelled; the only cache effect traced is"
                + " a stale CPU read on non-coherent memory.",
        "switch queues are not traced: the time from a message's last bit leaving its host to its placement"
                + " includes the links' latency, any switch queueing and the receiver's DMA.",
    };

    /** Everything the trace says about one operation. */
    private static final class Op {
        long id;
        String host = "";
        String ep = "";
        String opcode = "?";
        long bytes = -1;
        long cookie;
        boolean hasCookie;
        String flags = "";
        long post = -1;
        final List<Long> starts = new ArrayList<>(1);
        long fenceAt = -1;
        long[] fenceFor;
        String fenceReason = "";
        long creditAt = -1;
        long[] creditFor;
        final List<long[]> tx = new ArrayList<>(1);
        String txHost = "";
        long packets;
        final List<long[]> responseTx = new ArrayList<>(1);
        String responseHost = "";
        final List<Long> rnr = new ArrayList<>(0);
        String rnrHost = "";
        long place = -1;
        String placeHost = "";
        long recvOp = -1;
        long complete = -1;
        String status = "";
        boolean suppressed;
        long heldBehind = -1;
        long finishedPs = -1;
        long dequeue = -1;
        String dequeueProcess = "";
    }

    private final Map<Long, Op> ops = new LinkedHashMap<>();
    private final Map<String, TreeMap<Long, Long>> startsByHost = new HashMap<>();
    private final Map<String, Map<Long, Long>> txEndsByHost = new HashMap<>();
    private final Map<String, long[]> brokenAt = new HashMap<>();
    private final Map<String, List<Op>> readsByEp = new HashMap<>();
    private final Map<String, Long> disconnectAt = new HashMap<>();
    private final Map<String, String> brokenStatus = new HashMap<>();
    private final List<Explanation.Line> others = new ArrayList<>();
    private final List<String> header = new ArrayList<>();
    private long pcieLatency = 150_000;
    private long lastEvent;

    /**
     * Sets the PCIe latency the run used (summary.json's {@code pcie.latency}), by which a start later than the post
     * plus one doorbell is known to have waited for the send engine.
     *
     * @param ps picoseconds
     */
    public void setPcieLatency(long ps) {
        this.pcieLatency = ps;
    }

    /**
     * Adds a line to the header of the explanation.
     *
     * @param line the text
     */
    public void addHeader(String line) {
        header.add(line);
    }

    /**
     * Reads a run directory: its {@code summary.json} (if present: scenario, seed, end time, the PCIe latency) and
     * its {@code events.jsonl}.
     *
     * @param runDir a directory written by {@code datsim run}
     * @return the explanation
     * @throws IOException if the trace cannot be read or is not a trace
     */
    public static Explanation explainRun(Path runDir) throws IOException {
        Explainer x = new Explainer();
        Path summary = runDir.resolve("summary.json");
        if (Files.isRegularFile(summary)) {
            JsonNode s = new ObjectMapper().readTree(summary.toFile());
            if (s != null && s.isObject()) {
                String latency = s.path("params").path("pcie.latency").asText("");
                if (!latency.isEmpty()) {
                    try {
                        x.setPcieLatency(SimTime.parse(latency));
                    } catch (IllegalArgumentException e) {
                        // keep the default; the story only says less precisely why a start was late
                    }
                }
                x.addHeader("Run of scenario " + s.path("scenario").asText("?") + " (seed " + s.path("seed").asText("?")
                        + "): " + Times.human(s.path("end_time_ps").asLong()) + " simulated, stop reason "
                        + s.path("stop_reason").asText("?") + ".");
            }
        }
        TraceReader.read(runDir.resolve("events.jsonl"), x::accept);
        return x.explain();
    }

    private Op op(TraceEvent e) {
        Op o = ops.get(e.op());
        if (o == null) {
            o = new Op();
            o.id = e.op();
            ops.put(e.op(), o);
        }
        return o;
    }

    private static String text(TraceEvent e, String key) {
        Object v = e.attrs().get(key);
        if (v instanceof String[]) {
            return String.join("|", (String[]) v);
        }
        return v == null ? "" : String.valueOf(v);
    }

    private static long number(TraceEvent e, String key, long dflt) {
        Object v = e.attrs().get(key);
        return v instanceof Number ? ((Number) v).longValue() : dflt;
    }

    private static long[] ids(TraceEvent e, String key) {
        Object v = e.attrs().get(key);
        return v instanceof long[] ? (long[]) v : new long[0];
    }

    /**
     * Takes one trace event, in file order.
     *
     * @param e the event
     */
    public void accept(TraceEvent e) {
        long t = e.tPs();
        lastEvent = Math.max(lastEvent, t);
        switch (e.kind()) {
            case TraceEvent.POST: {
                Op o = op(e);
                o.post = t;
                o.host = e.host();
                o.ep = e.ep() == null ? "" : e.ep();
                o.opcode = text(e, "opcode");
                o.bytes = number(e, "bytes", -1);
                o.hasCookie = e.hasCookie();
                o.cookie = e.cookie();
                o.flags = text(e, "flags");
                if (o.opcode.equals("rdma_read")) {
                    readsByEp.computeIfAbsent(o.ep, k -> new ArrayList<>()).add(o);
                }
                break;
            }
            case TraceEvent.START:
                op(e).starts.add(t);
                startsByHost.computeIfAbsent(e.host(), k -> new TreeMap<>()).put(t, e.op());
                break;
            case TraceEvent.FENCE_WAIT: {
                Op o = op(e);
                if (o.fenceAt < 0) {
                    o.fenceAt = t;
                    o.fenceFor = ids(e, "waiting_for");
                    o.fenceReason = text(e, "reason");
                }
                break;
            }
            case "credit_wait": {
                Op o = op(e);
                if (o.creditAt < 0) {
                    o.creditAt = t;
                    o.creditFor = ids(e, "waiting_for");
                }
                break;
            }
            case TraceEvent.TX_START:
            case TraceEvent.TX_END: {
                if (e.op() < 0) {
                    break;
                }
                Op o = op(e);
                String packet = text(e, "packet");
                boolean response = "read_response".equals(packet) || "atomic_ack".equals(packet);
                List<long[]> list = response ? o.responseTx : o.tx;
                if (e.kind().equals(TraceEvent.TX_START)) {
                    list.add(new long[] {t, -1});
                    if (response) {
                        o.responseHost = e.host();
                    } else {
                        o.txHost = e.host();
                    }
                    o.packets = number(e, "packets", 1);
                } else {
                    if (!list.isEmpty()) {
                        list.get(list.size() - 1)[1] = t;
                    }
                    txEndsByHost.computeIfAbsent(e.host(), k -> new HashMap<>()).put(t, e.op());
                }
                break;
            }
            case "rnr_nak": {
                Op o = op(e);
                o.rnr.add(t);
                o.rnrHost = e.ep() != null ? e.ep() : e.host();
                break;
            }
            case TraceEvent.PLACE: {
                Op o = op(e);
                o.place = t;
                o.placeHost = e.host();
                long recv = number(e, "recv_op", -1);
                if (recv >= 0) {
                    o.recvOp = recv;
                    Op r = ops.get(recv);
                    if (r != null) {
                        r.recvOp = e.op(); // for a receive: the Send whose message filled it
                    }
                }
                break;
            }
            case TraceEvent.COMPLETE: {
                Op o = op(e);
                o.complete = t;
                o.status = e.status() == null ? "" : e.status();
                o.suppressed = Boolean.TRUE.equals(e.attrs().get("suppressed"));
                o.heldBehind = number(e, "held_behind", -1);
                o.finishedPs = number(e, "finished_ps", -1);
                break;
            }
            case TraceEvent.DEQUEUE:
                if (e.op() >= 0) {
                    Op o = op(e);
                    o.dequeue = t;
                    o.dequeueProcess = text(e, "process");
                }
                break;
            case TraceEvent.ERROR:
                if ("connection broken".equals(text(e, "error")) && e.ep() != null) {
                    brokenAt.putIfAbsent(e.ep(), new long[] {t});
                    brokenStatus.putIfAbsent(e.ep(), e.status() == null ? "" : e.status());
                    others.add(new Explanation.Line(t, "the connection of " + e.ep() + " broke ("
                            + (e.status() == null ? "an error" : e.status()) + "): its outstanding operations are"
                            + " flushed and it is DISCONNECTED (rule 44)", true));
                } else {
                    others.add(new Explanation.Line(t, "asynchronous error on " + e.host() + ": " + text(e, "error")
                            + (e.attrs().containsKey("lost_event") ? " (lost " + text(e, "lost_event") + ")" : ""),
                            true));
                }
                break;
            case TraceEvent.MEM_READ:
                if (Boolean.TRUE.equals(e.attrs().get("stale"))) {
                    others.add(new Explanation.Line(t, "process " + text(e, "process") + " on " + e.host()
                            + " read " + number(e, "bytes", 0) + " bytes of " + text(e, "lmr") + " and got stale"
                            + " bytes: its CPU cache still held lines that DMA had since overwritten (without"
                            + " dat_lmr_sync_rdma_write after an incoming RDMA Write, rule 32)", true));
                } else if (Boolean.FALSE.equals(e.attrs().get("match"))) {
                    others.add(new Explanation.Line(t, "process " + text(e, "process") + " on " + e.host()
                            + " read " + number(e, "bytes", 0) + " bytes of " + text(e, "lmr")
                            + " that are not what it expected (" + shortHex(text(e, "data_hex")) + ")", true));
                }
                break;
            case TraceEvent.CALL:
                call(e, t);
                break;
            case "expect_failed":
                others.add(new Explanation.Line(t, "an expectation of process " + text(e, "process") + " failed: "
                        + text(e, "message"), true));
                break;
            default:
                break;
        }
    }

    private void call(TraceEvent e, long t) {
        String c = e.call() == null ? "" : e.call();
        boolean ok = "DAT_SUCCESS".equals(e.ret());
        if (c.equals("dat_ep_disconnect") && ok && e.ep() != null) {
            disconnectAt.putIfAbsent(e.ep(), t);
            others.add(new Explanation.Line(t, "process " + text(e, "process") + " called dat_ep_disconnect on "
                    + e.ep(), false));
        } else if (!ok && (c.startsWith("dat_ep_post_") || c.equals("dat_rmr_bind"))) {
            String sub = text(e, "subtype");
            String hint = "DAT_INSUFFICIENT_RESOURCES".equals(e.ret()) ? ": max_request_dtos operations of the"
                    + " endpoint still hold their slots (a suppressed completion keeps its slot until a later"
                    + " signalled one is reaped, rule 11)" : "";
            others.add(new Explanation.Line(t, "process " + text(e, "process") + "'s " + c + " on "
                    + (e.ep() != null ? e.ep() : e.host()) + (e.hasCookie() ? " (cookie " + e.cookie() + ")" : "")
                    + " returned " + e.ret() + (sub.isEmpty() ? "" : " (" + sub + ")") + ", so nothing was posted"
                    + hint, true));
        }
    }

    private static String shortHex(String hex) {
        return hex.length() > 16 ? hex.substring(0, 16) + "..." : hex;
    }

    /**
     * Returns the short form of completion flags: "BARRIER_FENCE", "SUPPRESS|UNSIGNALLED", or "".
     *
     * @param flags the flag names joined by |
     * @return the short form
     */
    static String shortFlags(String flags) {
        if (flags.isEmpty()) {
            return "";
        }
        StringBuilder sb = new StringBuilder();
        for (String f : flags.split("\\|")) {
            String s = f.trim();
            if (s.startsWith("DAT_COMPLETION_")) {
                s = s.substring("DAT_COMPLETION_".length());
            }
            if (s.endsWith("_FLAG")) {
                s = s.substring(0, s.length() - "_FLAG".length());
            }
            if (sb.length() > 0) {
                sb.append('|');
            }
            sb.append(s);
        }
        return sb.toString();
    }

    private String name(long id) {
        Op o = ops.get(id);
        return "op " + id + (o != null ? " (" + o.opcode + ")" : "");
    }

    private String names(long[] ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.length; i++) {
            if (i > 0) {
                sb.append(i == ids.length - 1 ? " and " : ", ");
            }
            sb.append(name(ids[i]));
        }
        return sb.length() == 0 ? "earlier operations" : sb.toString();
    }

    private static String fenceRule(String reason) {
        switch (reason) {
            case "barrier fence":
                return "the barrier fence (DAT_COMPLETION_BARRIER_FENCE_FLAG, rule 17), which waits for earlier RDMA"
                        + " Reads";
            case "rmr_bind implicit fence":
                return "the implicit fence of an earlier dat_rmr_bind (rule 23)";
            case "strict read ordering":
                return "strict read ordering (transport.read_ordering strict, rule 19), as if fenced";
            default:
                return reason.isEmpty() ? "a fence" : reason;
        }
    }

    private static String statusReason(String status) {
        switch (status) {
            case "DAT_DTO_ERR_REMOTE_ACCESS":
                return ": the responder refused the remote access (an rmr_context not (yet or any longer) bound,"
                        + " rules 24 and 25, or missing privileges, rules 47 and 48); the connection breaks";
            case "DAT_DTO_ERR_RECEIVER_NOT_READY":
                return ": the RNR retries ran out with no receive posted (rule 39); the connection breaks";
            case "DAT_DTO_ERR_LOCAL_LENGTH":
                return ": the message was longer than the receive buffer (rule 37); the connection breaks";
            case "DAT_DTO_ERR_REMOTE_RESPONDER":
                return ": the responder got more RDMA Reads than its max_rdma_read_in (rule 49); the connection"
                        + " breaks";
            case "DAT_RMR_OPERATION_FAILED":
                return ": the bind failed after dat_rmr_bind returned (rule 26); the connection breaks";
            default:
                return "";
        }
    }

    /**
     * Builds the explanation from the events taken so far.
     *
     * @return the explanation
     */
    public Explanation explain() {
        List<Explanation.Story> stories = new ArrayList<>(ops.size());
        for (Op o : ops.values()) {
            if (o.post < 0) {
                continue; // an id seen without its post (a truncated trace): nothing to tell from the start
            }
            stories.add(story(o));
        }
        List<Explanation.Line> sortedOthers = new ArrayList<>(others);
        sortedOthers.sort((a, b) -> Long.compare(a.tPs(), b.tPs()));
        return new Explanation(List.copyOf(header), stories, sortedOthers, List.of(LIMITS));
    }

    private Explanation.Story story(Op o) {
        String fl = shortFlags(o.flags);
        String title = "op " + o.id + " (" + o.opcode + (fl.isEmpty() ? "" : ", " + fl) + ")";
        StringBuilder heading = new StringBuilder("op ").append(o.id).append("  ").append(o.opcode);
        if (o.bytes >= 0 && !o.opcode.equals("rmr_bind")) {
            heading.append(' ').append(o.bytes).append(" B");
        }
        heading.append(" on ").append(o.ep);
        if (o.hasCookie) {
            heading.append(", cookie ").append(o.cookie);
        }
        if (!o.flags.isEmpty()) {
            heading.append(", ").append(o.flags);
        }
        List<Explanation.Line> lines = new ArrayList<>();
        lines.add(new Explanation.Line(o.post, "was posted", false));
        boolean recv = "recv".equals(o.opcode);
        if (!recv) {
            requesterSteps(o, lines);
        } else if (o.recvOp >= 0 && ops.containsKey(o.recvOp) && ops.get(o.recvOp).place >= 0) {
            lines.add(new Explanation.Line(ops.get(o.recvOp).place, "was filled by " + name(o.recvOp)
                    + "'s message", false));
        }
        if (!recv && o.place >= 0) {
            String where = o.opcode.equals("rdma_read") ? "had its data placed in " + o.placeHost + "'s memory"
                    : o.recvOp >= 0 ? "had its message placed on " + o.placeHost + ", in receive op " + o.recvOp
                            : "had its data placed in " + o.placeHost + "'s memory";
            List<long[]> wire = o.opcode.equals("rdma_read") ? o.responseTx : o.tx;
            long lastBit = wire.isEmpty() ? -1 : wire.get(wire.size() - 1)[1];
            if (lastBit >= 0 && lastBit <= o.place) {
                where += ", " + Times.human(o.place - lastBit) + " after its last bit left "
                        + (o.opcode.equals("rdma_read") ? o.responseHost : o.txHost);
            }
            lines.add(new Explanation.Line(o.place, where, false));
        }
        completion(o, lines);
        lines.sort((a, b) -> Long.compare(a.tPs(), b.tPs()));
        return new Explanation.Story(o.id, title, heading.toString(), lines);
    }

    private void requesterSteps(Op o, List<Explanation.Line> lines) {
        long hold = -1;
        long first = o.starts.isEmpty() ? -1 : o.starts.get(0);
        String until = first >= 0 ? " had finished, at " + Times.human(first) + " (held " : " had finished; it never"
                + " started";
        if (o.fenceAt >= 0) {
            hold = o.fenceAt;
            lines.add(new Explanation.Line(o.fenceAt, "was held by " + fenceRule(o.fenceReason) + ", until "
                    + names(o.fenceFor) + until + (first >= 0 ? Times.human(first - o.fenceAt) + ")" : ""), true));
        }
        if (o.creditAt >= 0) {
            hold = hold < 0 ? o.creditAt : hold;
            lines.add(new Explanation.Line(o.creditAt, "was held for an RDMA Read credit: max_rdma_read_out Reads of"
                    + " its endpoint are outstanding, and a Read beyond the limit waits rather than fails (rule 49);"
                    + " held until one of " + names(o.creditFor) + until
                    + (first >= 0 ? Times.human(first - o.creditAt) + ")" : ""), true));
        }
        for (int i = 0; i < o.starts.size(); i++) {
            long s = o.starts.get(i);
            String why;
            if (i > 0) {
                why = "started again (the retry after the RNR NAK, transport.rnr_timer later)";
            } else if (hold >= 0) {
                why = "started, released by the hold above";
            } else if (s - o.post > pcieLatency) {
                Map.Entry<Long, Long> before = startsByHost.getOrDefault(o.host, new TreeMap<>()).lowerEntry(s);
                why = "started " + Times.human(s - o.post) + " after the post: the doorbell takes "
                        + Times.human(pcieLatency) + " over PCIe";
                if (before != null && before.getKey() >= o.post) {
                    why += ", then it waited for " + o.host + "'s send engine, busy with " + name(before.getValue())
                            + " since " + Times.human(before.getKey());
                } else {
                    why += ", then it waited for " + o.host + "'s send engine";
                }
            } else {
                why = "was started by " + o.host + "'s send engine (the doorbell takes " + Times.human(pcieLatency)
                        + " over PCIe)";
            }
            lines.add(new Explanation.Line(s, why, false));
            if (i == 0 && hold < 0) {
                overtook(o, s, lines);
            }
        }
        for (int i = 0; i < o.tx.size(); i++) {
            long[] w = o.tx.get(i);
            String what = o.opcode.equals("rdma_read") ? "its request" : o.packets > 1 ? "its " + o.packets
                    + " packets" : "its packet";
            String text = "put " + what + " on " + o.txHost + "'s link" + (w[1] >= 0 && w[1] != w[0]
                    ? ", the last bit out at " + Times.human(w[1]) : "");
            Long before = txEndsByHost.getOrDefault(o.txHost, Map.of()).get(w[0]);
            boolean queued = before != null && before != o.id;
            if (queued) {
                text += " (it queued behind " + name(before) + "'s last packet, which left just then)";
            }
            if (i > 0) {
                text += " (again)";
            }
            lines.add(new Explanation.Line(w[0], text, false));
        }
        for (long[] w : o.responseTx) {
            String text = "had its response sent by " + o.responseHost + (w[1] >= 0 && w[1] != w[0]
                    ? ", the last bit out at " + Times.human(w[1]) : "");
            Long before = txEndsByHost.getOrDefault(o.responseHost, Map.of()).get(w[0]);
            if (before != null && before != o.id) {
                text += " (it queued behind " + name(before) + "'s last packet)";
            }
            lines.add(new Explanation.Line(w[0], text, false));
        }
        for (long t : o.rnr) {
            lines.add(new Explanation.Line(t, "was refused by " + o.rnrHost + " with an RNR NAK: no receive was"
                    + " posted there (receiver not ready, rule 39); the requester retries after transport.rnr_timer",
                    true));
        }
    }

    /** Rule 19: an operation that started while an RDMA Read posted before it on its endpoint had not finished. */
    private void overtook(Op o, long start, List<Explanation.Line> lines) {
        if (o.opcode.equals("rdma_read")) {
            return;
        }
        List<Op> reads = readsByEp.get(o.ep);
        if (reads == null) {
            return;
        }
        int lo = 0;
        int hi = reads.size(); // reads are in posting order: find the last one posted before o
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (reads.get(mid).id < o.id) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo - 1, seen = 0; i >= 0 && seen < 256; i--, seen++) {
            Op r = reads.get(i);
            long done = r.place >= 0 ? r.place : r.complete;
            if (done < 0 || done > start) {
                lines.add(new Explanation.Line(start, "started while " + name(r.id) + ", posted before it on "
                        + o.ep + ", had not finished" + (done >= 0 ? " (it finished at " + Times.human(done) + ")"
                                : "") + ": nothing holds it behind the Read without a fence (rule 19)", true));
                return;
            }
        }
    }

    private void completion(Op o, List<Explanation.Line> lines) {
        if (o.complete < 0) {
            lines.add(new Explanation.Line(Math.max(lastEvent, lastTime(lines)), "never completed: the trace ends"
                    + " here", true));
            return;
        }
        String latency = Times.human(o.complete - o.post) + " after the post";
        if (o.heldBehind >= 0 && o.finishedPs >= 0) {
            lines.add(new Explanation.Line(o.complete, "completed " + o.status + " only now, " + latency + ": the"
                    + " transport had finished it at " + Times.human(o.finishedPs) + ", but its completion waited "
                    + Times.human(o.complete - o.finishedPs) + " behind " + name(o.heldBehind) + ", posted before"
                    + " it on " + o.ep + " (rule 2: completions in posting order)", true));
        } else if (o.suppressed) {
            lines.add(new Explanation.Line(o.complete, "completed DAT_DTO_SUCCESS with no event (SUPPRESS, rule"
                    + " 10); its request slot stays taken until a later signalled completion is reaped (rule 11)",
                    false));
        } else if ("DAT_DTO_ERR_FLUSHED".equals(o.status)) {
            long[] b = brokenAt.get(o.ep);
            String why = b != null && b[0] <= o.complete ? "the connection of " + o.ep + " broke at "
                    + Times.human(b[0]) + " (" + brokenStatus.get(o.ep) + "), and the operations it still had"
                    + " outstanding are flushed (rule 44)"
                    : disconnectAt.containsKey(o.ep) && disconnectAt.get(o.ep) <= o.post
                            ? "it was posted after dat_ep_disconnect (at " + Times.human(disconnectAt.get(o.ep))
                                    + "): a post on a DISCONNECTED endpoint is flushed at once (rule 42)"
                    : disconnectAt.containsKey(o.ep) && disconnectAt.get(o.ep) <= o.complete
                            ? "dat_ep_disconnect was called on " + o.ep + " at " + Times.human(disconnectAt.get(o.ep))
                                    + ", before it could finish (rules 42 and 43)"
                            : "its endpoint was disconnected before it could finish (rules 42 and 43)";
            lines.add(new Explanation.Line(o.complete, "was flushed, DAT_DTO_ERR_FLUSHED: " + why + notStarted(o),
                    true));
        } else if (!o.status.isEmpty() && !"DAT_DTO_SUCCESS".equals(o.status)) {
            lines.add(new Explanation.Line(o.complete, "failed with " + o.status + statusReason(o.status), true));
        } else {
            lines.add(new Explanation.Line(o.complete, "completed " + o.status + ", " + latency, false));
        }
        if (o.dequeue >= 0) {
            lines.add(new Explanation.Line(o.dequeue, "was dequeued by process " + o.dequeueProcess
                    + (o.dequeue > o.complete ? ", " + Times.human(o.dequeue - o.complete) + " after it was queued"
                            : ""), false));
        }
    }

    /** For a request flushed before it started: what it was still waiting for, as far as the trace shows. */
    private String notStarted(Op o) {
        Long disconnected = disconnectAt.get(o.ep);
        if (!o.starts.isEmpty() || "recv".equals(o.opcode) || (disconnected != null && disconnected <= o.post)) {
            return "";
        }
        if (o.fenceAt >= 0) {
            return "; it had not started, still held by the fence";
        }
        if (o.creditAt >= 0) {
            return "; it had not started, still waiting for a read credit";
        }
        Map.Entry<Long, Long> busy = startsByHost.getOrDefault(o.host, new TreeMap<>()).lowerEntry(o.complete);
        if (busy != null) {
            return "; it had not started (the last operation " + o.host + "'s send engine had started was "
                    + name(busy.getValue()) + ", at " + Times.human(busy.getKey()) + ")";
        }
        return "; it had not started";
    }

    private static long lastTime(List<Explanation.Line> lines) {
        long t = -1;
        for (Explanation.Line l : lines) {
            t = Math.max(t, l.tPs());
        }
        return t;
    }
}
