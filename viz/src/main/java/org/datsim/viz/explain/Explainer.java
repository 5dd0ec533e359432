package org.datsim.viz.explain;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.viz.TraceReader;

/**
 * Derives the causal story of a run from its trace: for each operation, in posting order, when it was posted, what
 * held it back and why (a barrier fence, an RMR bind's implicit fence, strict read ordering, RDMA Read credits, the
 * HCA's send engine busy with another operation, the link busy with another operation's packets, a receiver not
 * ready), the HCA cache misses that stalled it, when it went on the wire, which of its packets switches dropped
 * (where and why), the retransmissions that recovered lost packets (and why each began: an ACK timeout, a
 * sequence-error NAK, a missing response; and the first drop behind it), was placed and completed
 * (and whether its completion waited for an earlier operation), and when the consumer took the completion. Among the
 * other happenings: connection-management packets the switches dropped, and how the connection manager sent each
 * lost REQ, REP or DREQ again and when it gave one up. Only what the trace shows is claimed; what
 * it cannot show is listed in {@link Explanation#limits()}.
 *
 * <p>Feed events with {@link #accept(TraceEvent)} in file order, then call {@link #explain()}; or use
 * {@link #explainRun(Path)} on a run directory.
 */
public final class Explainer {

    private static final String[] LIMITS = {
        "ACK, NAK and connection-manager packets are not traced, so a wait behind them on a link does not show.",
        "the CPU's cache misses are not modelled; the only CPU cache effect traced is a stale read on non-coherent"
                + " memory.",
    };

    /** Told when the run traced no port queue (trace.port_events false, or nothing queued). */
    private static final String UNTRACED_QUEUES_LIMIT = "switch queues: this run traced no port_queue or port_sample"
            + " line (trace.port_events false, trace.port_sample_interval 0, or nothing queued), so the time from a"
            + " message's last bit leaving its host to its placement includes the links' latency, any switch"
            + " queueing and the receiver's DMA.";

    /** Kinds of the fabric's own lines seen, counted: port_queue, port_sample, pfc pauses, ecn_mark, flows. */
    private long portQueueLines;
    private long portSamples;
    /** Lines per kind, for the kinds explain only counts ({@link KindsTold#alsoInTheTrace}). */
    private final Map<String, Long> kindCounts = new java.util.HashMap<>();
    private long pauses;
    private long ecnMarks;
    private final java.util.Set<String> flowEps = new java.util.HashSet<>();
    private final java.util.Set<String> queuedPorts = new java.util.TreeSet<>();

    /**
     * Told only for a run whose summary.json counts drops while its trace has no {@code drop} line: a run written
     * before switches traced their drops.
     */
    private static final String UNTRACED_DROPS_LIMIT = "the packets the switches dropped: summary.json's ports count"
            + " them, but this trace has none of the drop lines that name them (it was written before switches"
            + " traced their drops), so a retransmission tells what showed the loss to the requester, not which"
            + " packet was lost or where.";

    private final TraceIndex index = new TraceIndex();
    private final List<String> header = new ArrayList<>();
    private long pcieLatency = 150_000;
    /** cm.response_timeout of the run (summary.json), or -1 if not known. */
    private long cmResponseTimeout = -1;
    /** summary.json's count of dropped packets, in words ("" if none or no summary), told if the trace has none. */
    private String untracedDrops = "";

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
     * Sets the connection manager's response timeout the run used (summary.json's {@code cm.response_timeout}): how
     * long after each sending a REQ, REP or DREQ without its answer was sent again. Without it the explanation tells
     * the time between resends when they were evenly spaced.
     *
     * @param ps picoseconds
     */
    public void setCmResponseTimeout(long ps) {
        this.cmResponseTimeout = ps;
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
        if (org.datsim.viz.RunFiles.exists(summary)) {
            JsonNode s = org.datsim.viz.RunFiles.readJson(summary, org.datsim.viz.RunFiles.MAX_JSON_BYTES);
            if (s != null && s.isObject()) {
                String latency = s.path("params").path("pcie.latency").asText("");
                if (!latency.isEmpty()) {
                    try {
                        x.setPcieLatency(SimTime.parse(latency));
                    } catch (IllegalArgumentException e) {
                        // keep the default; the story only says less precisely why a start was late
                    }
                }
                String cmTimeout = s.path("params").path("cm.response_timeout").asText("");
                if (!cmTimeout.isEmpty()) {
                    try {
                        x.setCmResponseTimeout(SimTime.parse(cmTimeout));
                    } catch (IllegalArgumentException e) {
                        // unknown: resends are told with the time between them, when even
                    }
                }
                x.addHeader("Run of scenario " + s.path("scenario").asText("?") + " (seed " + s.path("seed").asText("?")
                        + "): " + Times.human(s.path("end_time_ps").asLong()) + " simulated, stop reason "
                        + s.path("stop_reason").asText("?") + ".");
                x.untracedDrops = drops(s.path("ports"));
            }
        }
        TraceReader.read(runDir.resolve("events.jsonl"), x::accept);
        return x.explain();
    }

    /**
     * Returns the sentence on the packets the fabric dropped, from summary.json's {@code ports} (in their order
     * there), or "" when none was dropped: told only for a trace without {@code drop} lines (an older run's).
     */
    static String drops(JsonNode ports) {
        List<String> parts = new ArrayList<>();
        long total = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = ports.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> p = it.next();
            long n = p.getValue().path("drops").asLong(0);
            if (n > 0) {
                parts.add(n + (parts.isEmpty() ? " sent on " : " on ") + p.getKey());
                total += n;
            }
        }
        if (total == 0) {
            return "";
        }
        StringBuilder sb = new StringBuilder("Packets lost (summary.json's ports): ");
        for (int i = 0; i < parts.size(); i++) {
            sb.append(i == 0 ? "" : i == parts.size() - 1 ? " and " : ", ").append(parts.get(i));
        }
        return sb.append(total == 1 ? " was" : " were").append(" dropped by the switch at the link's end, its"
                + " buffer share for that input being full (PFC headroom too small); the requesters recover lost"
                + " packets by the retransmissions below.").toString();
    }

    /**
     * Takes one trace event, in file order.
     *
     * @param e the event
     */
    public void accept(TraceEvent e) {
        index.accept(e);
        switch (e.kind()) {
            case TraceKind.PORT_QUEUE:
            case TraceKind.PORT_SAMPLE:
                if (TraceKind.PORT_QUEUE.equals(e.kind())) {
                    portQueueLines++;
                } else {
                    portSamples++;
                }
                if (e.attrLong(TraceKey.QUEUE_BYTES, 0) > 0 && e.attrValue(TraceKey.PORT) != null) {
                    queuedPorts.add(String.valueOf(e.attrValue(TraceKey.PORT)));
                }
                break;
            case TraceKind.PFC:
                pauses += e.attrLong(TraceKey.PAUSED, 0) == 1 ? 1 : 0;
                break;
            case TraceKind.ECN_MARK:
                ecnMarks++;
                break;
            case TraceEvent.START:
                if (e.ep() != null && e.ep().startsWith("flow") && e.ep().indexOf('/') < 0) {
                    flowEps.add(e.ep());
                }
                break;
            case TraceKind.SRQ_TAKE:
            case TraceKind.CNO_NOTIFY:
            case TraceKind.CHOICE:
            case TraceKind.FLOW:
                kindCounts.merge(e.kind(), 1L, Long::sum);
                break;
            default:
                break;
        }
    }

    /**
     * Builds the explanation from the events taken so far.
     *
     * @return the explanation
     */
    public Explanation explain() {
        Losses losses = new Losses(index);
        StartCauses starts = new StartCauses(index, pcieLatency, losses);
        CacheCauses caches = new CacheCauses();
        CompletionCauses ends = new CompletionCauses(index);
        List<Explanation.Story> stories = new ArrayList<>(index.ops.size());
        for (OpRecord o : index.ops.values()) {
            if (o.post < 0) {
                continue; // an id seen without its post (a truncated trace): nothing to tell from the start
            }
            stories.add(story(o, starts, caches, losses, ends));
        }
        List<String> head = new ArrayList<>(header);
        List<String> limits = new ArrayList<>(List.of(LIMITS));
        if (!flowEps.isEmpty()) {
            head.add("Workload: " + flowEps.size() + " flows, run on the HCAs without DAT calls (not told below):"
                    + " their FCTs and slowdowns are in fct.csv (datsim fct), their lanes in timeline.html.");
        }
        if (portQueueLines + portSamples > 0) {
            String kinds = portQueueLines == 0 ? "port_sample: " + portSamples + " samples"
                    : portSamples == 0 ? "port_queue" : "port_queue; port_sample: " + portSamples + " samples";
            head.add("Switch and host port queues are traced (" + kinds + "): " + queuedPorts.size()
                    + (queuedPorts.size() == 1 ? " port" : " ports") + " queued bytes; the timeline's port lanes"
                    + " show them.");
        } else {
            limits.add(UNTRACED_QUEUES_LIMIT);
        }
        if (pauses > 0) {
            head.add("PFC: " + pauses + " pauses traced (pfc lines; orange on the timeline's port lanes).");
        }
        if (ecnMarks > 0) {
            head.add("ECN: " + ecnMarks + " packets marked (ecn_mark lines).");
        }
        String also = KindsTold.alsoInTheTrace(kindCounts);
        if (also != null) {
            head.add(also);
        }
        if (!index.drops.isEmpty()) {
            head.add(Losses.summary(index.drops));
        } else if (!untracedDrops.isEmpty()) {
            head.add(untracedDrops);
            limits.add(UNTRACED_DROPS_LIMIT);
        }
        List<Explanation.Line> cm = index.cm.lines(index.drops, cmResponseTimeout);
        return new Explanation(List.copyOf(head), stories, index.others.sorted(cm), List.copyOf(limits),
                Wording.legend(index.cm.any(), inlineFenced()));
    }

    /** Whether a story tells an inline request that a fence held ({@link Wording#inlineFenced}). */
    private boolean inlineFenced() {
        for (OpRecord o : index.ops.values()) {
            if (o.inline && o.fenceAt >= 0 && o.post >= 0) {
                return true;
            }
        }
        return false;
    }

    private Explanation.Story story(OpRecord o, StartCauses starts, CacheCauses caches, Losses losses,
            CompletionCauses ends) {
        String fl = Wording.shortFlags(o.flags);
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
        lines.add(new Explanation.Line(o.post, o.inline ? Wording.POSTED_INLINE : "was posted", false));
        boolean recv = "recv".equals(o.opcode);
        if (!recv) {
            starts.write(o, lines);
        } else if (o.recvOp >= 0 && index.ops.containsKey(o.recvOp) && index.ops.get(o.recvOp).place >= 0) {
            lines.add(new Explanation.Line(index.ops.get(o.recvOp).place, "was filled by " + index.name(o.recvOp)
                    + "'s message", false));
        }
        if (!recv && o.place >= 0) {
            lines.add(new Explanation.Line(o.place, placed(o), false));
        }
        caches.write(o, lines);
        losses.write(o, lines);
        ends.write(o, lines);
        lines.sort((a, b) -> Long.compare(a.tPs(), b.tPs()));
        return new Explanation.Story(o.id, title, heading.toString(), lines);
    }

    /** Where a request's data (or message) was placed, and how long after its last bit left. */
    private static String placed(OpRecord o) {
        boolean read = o.isReadLike();
        String where = o.isAtomic() ? "had the original value placed in " + o.placeHost + "'s memory"
                : read ? "had its data placed in " + o.placeHost + "'s memory"
                : o.recvOp >= 0 ? "had its message placed on " + o.placeHost + ", in receive op " + o.recvOp
                        : "had its data placed in " + o.placeHost + "'s memory";
        List<long[]> wire = read ? o.responseTx : o.tx;
        long lastBit = wire.isEmpty() ? -1 : wire.get(wire.size() - 1)[1];
        if (lastBit >= 0 && lastBit <= o.place) {
            where += ", " + Times.human(o.place - lastBit) + " after its last bit left "
                    + (read ? o.responseHost : o.txHost);
        }
        return where;
    }
}
