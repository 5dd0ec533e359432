package org.datsim.viz;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;

/**
 * The life of every posted operation, one row each, built from a trace: when it was posted, when the HCA started it,
 * when its first and last packet were on the wire, when its data was placed, when its completion was queued and
 * when the consumer dequeued it, with its status and its latency from post to completion. Feed it events with
 * {@link #accept(TraceEvent)}, then {@link #print(PrintWriter)}.
 */
public final class OperationTable {

    /** One operation's row; times are picoseconds, -1 when the step did not happen. */
    public static final class Row {
        long op;
        String host = "";
        String ep = "";
        String opcode = "";
        long bytes = -1;
        long cookie;
        long post = -1;
        long start = -1;
        long txStart = -1;
        long txEnd = -1;
        long place = -1;
        long complete = -1;
        long dequeue = -1;
        String status = "";

        /** Returns the operation id. */
        public long op() {
            return op;
        }

        /** Returns when the operation was posted, in picoseconds. */
        public long post() {
            return post;
        }

        /** Returns when the HCA started it, or -1. */
        public long start() {
            return start;
        }

        /** Returns when its data was placed, or -1. */
        public long place() {
            return place;
        }

        /** Returns when its completion was queued, or -1. */
        public long complete() {
            return complete;
        }

        /** Returns when the consumer dequeued its completion, or -1. */
        public long dequeue() {
            return dequeue;
        }

        /** Returns its completion status name, or "" if it did not complete. */
        public String status() {
            return status;
        }

        /** Returns the operation kind, for example "rdma_write". */
        public String opcode() {
            return opcode;
        }
    }

    private final Map<Long, Row> rows = new TreeMap<>();

    /**
     * Takes one trace event; events without an operation id are ignored.
     *
     * @param e the event
     */
    public void accept(TraceEvent e) {
        if (e.op() < 0) {
            return;
        }
        Row r = rows.computeIfAbsent(e.op(), k -> new Row());
        r.op = e.op();
        long t = e.tPs();
        switch (e.kind()) {
            case TraceEvent.POST:
                r.post = t;
                r.host = e.host();
                r.ep = e.ep() == null ? "" : e.ep();
                r.opcode = String.valueOf(e.attrValue(TraceKey.OPCODE));
                Object b = e.attrValue(TraceKey.BYTES);
                r.bytes = b instanceof Number ? ((Number) b).longValue() : -1;
                r.cookie = e.hasCookie() ? e.cookie() : 0;
                break;
            case TraceEvent.START:
                r.start = r.start < 0 ? t : r.start;
                break;
            case TraceEvent.TX_START:
                r.txStart = r.txStart < 0 ? t : r.txStart;
                break;
            case TraceEvent.TX_END:
                r.txEnd = t;
                break;
            case TraceEvent.PLACE:
                r.place = t;
                break;
            case TraceEvent.COMPLETE:
                r.complete = t;
                r.status = e.status() == null ? "" : e.status();
                break;
            case TraceEvent.DEQUEUE:
                r.dequeue = t;
                break;
            default:
                break;
        }
    }

    /** Returns the rows in operation-id order. */
    public List<Row> rows() {
        return new ArrayList<>(rows.values());
    }

    private static String time(long ps) {
        return ps < 0 ? "-" : SimTime.format(ps);
    }

    /**
     * Prints the table, one line per operation.
     *
     * @param out where to print
     */
    public void print(PrintWriter out) {
        String fmt = "%-5s %-5s %-8s %-10s %8s %10s %10s %10s %10s %10s %10s %10s %10s  %s%n";
        out.printf(fmt, "op", "host", "ep", "opcode", "bytes", "post", "start", "tx_start", "tx_end", "place",
                "complete", "dequeue", "latency", "status");
        for (Row r : rows.values()) {
            String latency = r.post >= 0 && r.complete >= 0 ? SimTime.format(r.complete - r.post) : "-";
            out.printf(fmt, r.op, r.host, r.ep.substring(r.ep.indexOf('/') + 1), r.opcode,
                    r.bytes < 0 ? "-" : Long.toString(r.bytes), time(r.post), time(r.start), time(r.txStart),
                    time(r.txEnd), time(r.place), time(r.complete), time(r.dequeue), latency, r.status);
        }
        out.flush();
    }
}
