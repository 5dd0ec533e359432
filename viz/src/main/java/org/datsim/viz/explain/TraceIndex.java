package org.datsim.viz.explain;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;

/**
 * Reads a trace, event by event in file order, into what the writers of causes look up: each operation's
 * {@link OpRecord} (in order of first sighting, which is posting order), and per host or endpoint the indexes that
 * name the competitor of a wait (the send engine's starts, the link's last bits, the Reads posted, disconnects and
 * broken connections). Happenings that belong to no operation go to {@link OtherHappenings}.
 */
final class TraceIndex {

    /** A bit of {@link #readLikeKinds}: RDMA Reads. */
    static final int READS = 1;
    /** A bit of {@link #readLikeKinds}: IB atomics. */
    static final int ATOMICS = 2;
    final Map<Long, OpRecord> ops = new LinkedHashMap<>();
    /** Per host: start time to the operation its send engine started then (lookups only, never iterated). */
    final Map<String, TreeMap<Long, Long>> startsByHost = new HashMap<>();
    /** Per host: the time a message's last bit left it to that operation. */
    final Map<String, Map<Long, Long>> txEndsByHost = new HashMap<>();
    /** Per endpoint: when its connection broke (first break only), and the status it broke with. */
    final Map<String, long[]> brokenAt = new HashMap<>();
    final Map<String, String> brokenStatus = new HashMap<>();
    /** Per endpoint: its RDMA Reads and atomics in posting order. */
    final Map<String, List<OpRecord>> readsByEp = new HashMap<>();
    /** Per endpoint: when dat_ep_disconnect was first called on it. */
    final Map<String, Long> disconnectAt = new HashMap<>();
    /** Per endpoint: completion time to the operation whose completion was a notification then. */
    final Map<String, TreeMap<Long, Long>> notifiedByEp = new HashMap<>();
    /**
     * Per requester endpoint: when a go-back-N retransmission began, to the operation it began with (the last one
     * traced at that time).
     */
    final Map<String, TreeMap<Long, Long>> retransmitsByEp = new HashMap<>();
    /** Per requester endpoint: when a responder refused one of its operations with an RNR NAK, to that operation. */
    final Map<String, TreeMap<Long, Long>> rnrByEp = new HashMap<>();
    /** Whether the trace has a {@code retransmit} line. */
    boolean anyRetransmit;
    /** Every {@code drop} line, in trace order. */
    final List<OpRecord.Drop> drops = new ArrayList<>();
    /** Per requester endpoint: the drops of its operations' packets, in trace (so time) order. */
    final Map<String, List<OpRecord.Drop>> dropsByEp = new HashMap<>();
    /** Per process: when its dat_evd_waits returned DAT_TIMEOUT_EXPIRED. */
    final Map<String, TreeMap<Long, String>> waitTimeouts = new HashMap<>();
    final OtherHappenings others = new OtherHappenings();
    /** The connection manager's resends and timeouts ({@code cm_retry}, {@code cm_timeout}). */
    final CmResends cm = new CmResends();
    long lastEvent;
    /** The last call traced: a dequeue event follows the dat_evd_wait or dat_evd_dequeue that took it. */
    private String lastCall = "";
    private String lastCallProcess = "";
    private long lastCallAt = -1;

    private OpRecord op(TraceEvent e) {
        OpRecord o = ops.get(e.op());
        if (o == null) {
            o = new OpRecord();
            o.id = e.op();
            ops.put(e.op(), o);
        }
        return o;
    }

    static String text(TraceEvent e, String key) {
        Object v = e.attrValue(key);
        if (v instanceof String[]) {
            return String.join("|", (String[]) v);
        }
        return v == null ? "" : String.valueOf(v);
    }

    static long number(TraceEvent e, String key, long dflt) {
        return e.attrLong(key, dflt);
    }

    private static long[] ids(TraceEvent e, String key) {
        Object v = e.attrValue(key);
        return v instanceof long[] ? (long[]) v : new long[0];
    }

    /**
     * Takes one trace event, in file order.
     *
     * @param e the event
     */
    void accept(TraceEvent e) {
        long t = e.tPs();
        lastEvent = Math.max(lastEvent, t);
        switch (e.kind()) {
            case TraceEvent.POST: {
                OpRecord o = op(e);
                o.post = t;
                o.host = e.host();
                o.ep = e.ep() == null ? "" : e.ep();
                o.opcode = text(e, TraceKey.OPCODE);
                o.bytes = number(e, TraceKey.BYTES, -1);
                o.hasCookie = e.hasCookie();
                o.cookie = e.cookie();
                o.flags = text(e, TraceKey.FLAGS);
                o.inline = Boolean.TRUE.equals(e.attrValue(TraceKey.INLINE));
                if (o.isReadLike()) {
                    readsByEp.computeIfAbsent(o.ep, k -> new ArrayList<>()).add(o);
                }
                break;
            }
            case TraceEvent.START:
                op(e).starts.add(t);
                startsByHost.computeIfAbsent(e.host(), k -> new TreeMap<>()).put(t, e.op());
                break;
            case TraceEvent.FENCE_WAIT: {
                OpRecord o = op(e);
                if (o.fenceAt < 0) {
                    o.fenceAt = t;
                    o.fenceFor = ids(e, TraceKey.WAITING_FOR);
                    o.fenceReason = text(e, TraceKey.REASON);
                }
                break;
            }
            case TraceKind.CREDIT_WAIT: {
                OpRecord o = op(e);
                if (o.creditAt < 0) {
                    o.creditAt = t;
                    o.creditFor = ids(e, TraceKey.WAITING_FOR);
                }
                break;
            }
            case TraceEvent.TX_START:
            case TraceEvent.TX_END:
                wire(e, t);
                break;
            case TraceKind.CACHE_MISS:
                if (e.op() >= 0) {
                    OpRecord o = op(e);
                    if (o.cacheMisses == null) {
                        o.cacheMisses = new ArrayList<>(2);
                    }
                    o.cacheMisses.add(new OpRecord.CacheMiss(t, e.host(), "mtt".equals(text(e, TraceKey.CACHE)),
                            number(e, TraceKey.PENALTY_PS, 0)));
                }
                break;
            case TraceKind.RNR_NAK: {
                OpRecord o = op(e);
                o.rnr.add(t);
                o.rnrHost = e.ep() != null ? e.ep() : e.host();
                if (o.post >= 0) { // the requester's endpoint, from the post (the line names the responder's)
                    rnrByEp.computeIfAbsent(o.ep, k -> new TreeMap<>()).put(t, o.id);
                }
                break;
            }
            case TraceKind.RETRANSMIT:
                if (e.op() >= 0) {
                    OpRecord o = op(e);
                    if (o.retransmits == null) {
                        o.retransmits = new ArrayList<>(2);
                    }
                    o.retransmits.add(new OpRecord.Retransmit(t, text(e, TraceKey.REASON),
                            number(e, TraceKey.ATTEMPT, 0)));
                    if (e.ep() != null) {
                        retransmitsByEp.computeIfAbsent(e.ep(), k -> new TreeMap<>()).put(t, o.id);
                    }
                    anyRetransmit = true;
                }
                break;
            case TraceKind.DROP:
                drop(e, t);
                break;
            case TraceKind.CM_RETRY:
            case TraceKind.CM_TIMEOUT:
                cm.accept(e, t);
                break;
            case TraceKind.EVENT:
                if (e.ep() != null) {
                    cm.event(e, t);
                }
                break;
            case TraceEvent.PLACE: {
                OpRecord o = op(e);
                o.place = t;
                o.placeHost = e.host();
                long recv = number(e, TraceKey.RECV_OP, -1);
                if (recv >= 0) {
                    o.recvOp = recv;
                    OpRecord r = ops.get(recv);
                    if (r != null) {
                        r.recvOp = e.op(); // for a receive: the Send whose message filled it
                    }
                }
                break;
            }
            case TraceEvent.COMPLETE: {
                OpRecord o = op(e);
                o.complete = t;
                o.status = e.status() == null ? "" : e.status();
                o.suppressed = Boolean.TRUE.equals(e.attrValue(TraceKey.SUPPRESSED));
                o.heldBehind = number(e, TraceKey.HELD_BEHIND, -1);
                o.finishedPs = number(e, TraceKey.FINISHED_PS, -1);
                if (!o.suppressed && !o.isUnsignalled()) {
                    notifiedByEp.computeIfAbsent(o.ep, k -> new TreeMap<>()).putIfAbsent(t, o.id);
                }
                break;
            }
            case TraceEvent.DEQUEUE:
                if (e.op() >= 0) {
                    OpRecord o = op(e);
                    o.dequeue = t;
                    o.dequeueProcess = text(e, TraceKey.PROCESS);
                    o.dequeuedByWait = lastCall.equals("dat_evd_wait") && lastCallAt == t
                            && lastCallProcess.equals(o.dequeueProcess);
                }
                break;
            case TraceEvent.ERROR:
                if ("connection broken".equals(text(e, TraceKey.ERROR)) && e.ep() != null) {
                    brokenAt.putIfAbsent(e.ep(), new long[] {t});
                    brokenStatus.putIfAbsent(e.ep(), e.status() == null ? "" : e.status());
                }
                others.error(e, t);
                break;
            case TraceEvent.MEM_READ:
                others.memRead(e, t);
                break;
            case TraceEvent.CALL:
                String c = e.call() == null ? "" : e.call();
                lastCall = c;
                lastCallProcess = text(e, TraceKey.PROCESS);
                lastCallAt = t;
                if (c.equals("dat_evd_wait") && e.ret() != null && e.ret().startsWith("DAT_TIMEOUT_EXPIRED")) {
                    waitTimeouts.computeIfAbsent(lastCallProcess, k -> new TreeMap<>()).put(t, text(e, TraceKey.EVD));
                }
                if (c.equals("dat_ep_disconnect") && "DAT_SUCCESS".equals(e.ret()) && e.ep() != null) {
                    disconnectAt.putIfAbsent(e.ep(), t);
                }
                others.call(e, t);
                break;
            case TraceKind.EXPECT_FAILED:
                others.expectFailed(e, t);
                break;
            default:
                break;
        }
    }

    /**
     * A packet a switch dropped: charged to its operation (host, endpoint and op are the requester's), or, for a
     * packet of no operation, told among the other happenings.
     */
    private void drop(TraceEvent e, long t) {
        OpRecord o = e.op() >= 0 ? op(e) : null;
        OpRecord.Drop d = new OpRecord.Drop(t, e.op(), text(e, TraceKey.SWITCH), text(e, TraceKey.PORT),
                text(e, TraceKey.REASON), text(e, TraceKey.PACKET), text(e, TraceKey.FROM), text(e, TraceKey.TO),
                number(e, TraceKey.SEQ, -1), number(e, TraceKey.INDEX, -1),
                number(e, TraceKey.PACKETS, -1), text(e, TraceKey.MESSAGE), number(e, TraceKey.COMM_ID, -1));
        drops.add(d);
        if (o == null) {
            others.drop(d);
            return;
        }
        if (o.drops == null) {
            o.drops = new ArrayList<>(4);
        }
        o.drops.add(d);
        if (e.ep() != null) {
            dropsByEp.computeIfAbsent(e.ep(), k -> new ArrayList<>()).add(d);
        }
    }

    /** tx_start / tx_end: a message of the operation on the wire (its request, or a response coming back). */
    private void wire(TraceEvent e, long t) {
        if (e.op() < 0) {
            return;
        }
        OpRecord o = op(e);
        String packet = text(e, TraceKey.PACKET);
        boolean response = "read_response".equals(packet) || "atomic_ack".equals(packet);
        List<long[]> list = response ? o.responseTx : o.tx;
        if (e.kind().equals(TraceEvent.TX_START)) {
            list.add(new long[] {t, -1});
            if (response) {
                o.responseHost = e.host();
            } else {
                o.txHost = e.host();
            }
            o.packets = number(e, TraceKey.PACKETS, 1);
        } else {
            if (!list.isEmpty()) {
                list.get(list.size() - 1)[1] = t;
            }
            txEndsByHost.computeIfAbsent(e.host(), k -> new HashMap<>()).put(t, e.op());
        }
    }

    /** Returns "op N (opcode)", or "op N" for an id the trace never posted. */
    String name(long id) {
        OpRecord o = ops.get(id);
        return "op " + id + (o != null ? " (" + o.opcode + ")" : "");
    }

    /**
     * Tells which kinds of response-engine requests are among some operations.
     *
     * @param ids operation ids
     * @return {@link #READS} if an RDMA Read is among them, plus {@link #ATOMICS} if an atomic is
     */
    int readLikeKinds(long[] ids) {
        int kinds = 0;
        for (long id : ids == null ? new long[0] : ids) {
            OpRecord o = ops.get(id);
            if (o != null && o.isAtomic()) {
                kinds |= ATOMICS;
            } else if (o != null && "rdma_read".equals(o.opcode)) {
                kinds |= READS;
            }
        }
        return kinds;
    }

    /** Returns "op 1 (rdma_read), op 2 (rdma_read) and op 4 (fetch_add)", or "earlier operations" for none. */
    String names(long[] ids) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.length; i++) {
            if (i > 0) {
                sb.append(i == ids.length - 1 ? " and " : ", ");
            }
            sb.append(name(ids[i]));
        }
        return sb.length() == 0 ? "earlier operations" : sb.toString();
    }
}
