package org.datsim.fabric.sw;

import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PacketOperation;

/**
 * The trace records of one switch, built in one place: a dropped packet ({@link Switch#DROP}) and an ECN mark
 * ({@link Switch#ECN_MARK}). A record is built only when the trace is on. (The ports trace their own PFC pauses and
 * queue changes: {@link org.datsim.fabric.link.Port#PFC}, {@link org.datsim.fabric.link.Port#PORT_QUEUE}.)
 */
public final class SwitchTrace {

    private final String switchName;
    private final TraceSource<TraceEvent> trace;
    /** The fabric's host names by host id. */
    private final String[] hostNames;

    /**
     * Creates the switch's trace.
     *
     * @param switchName the switch's name
     * @param trace the trace source every model publishes to (null: nowhere)
     * @param hostNames the fabric's host names in host id order
     */
    public SwitchTrace(String switchName, TraceSource<TraceEvent> trace, List<String> hostNames) {
        this.switchName = switchName;
        this.trace = trace;
        this.hostNames = hostNames.toArray(new String[0]);
    }

    /** A switch that traces nothing. */
    static SwitchTrace none(String switchName) {
        return new SwitchTrace(switchName, null, List.of());
    }

    /** Returns true while records are wanted. */
    public boolean enabled() {
        return trace != null && trace.isEnabled();
    }

    /**
     * Traces a packet dropped on arrival (if the trace is on).
     *
     * @param nowPs the time of the drop
     * @param packet the packet
     * @param port the name of the port that sent it
     * @param reason {@link Switch#BUFFER_FULL} or {@link Switch#FILTER}
     */
    public void drop(long nowPs, Packet packet, String port, String reason) {
        if (enabled()) {
            trace.fire(dropEvent(nowPs, packet, port, reason));
        }
    }

    /** The record of a dropped packet (built only for a drop, which is rare). */
    private TraceEvent dropEvent(long nowPs, Packet packet, String port, String reason) {
        String from = hostName(packet.srcHost);
        PacketOperation wr = packet.context instanceof PacketOperation ? (PacketOperation) packet.context : null;
        CmPacketContext cm = packet.kind == Packet.CM && packet.context instanceof CmPacketContext
                ? (CmPacketContext) packet.context : null;
        TraceEvent e;
        if (wr != null) {
            e = TraceEvent.of(nowPs, Switch.DROP, wr.requesterHost()).ep(wr.requesterEndpoint())
                    .op(wr.operationId()).cookie(wr.operationCookie());
        } else if (cm != null && cm.endpoint() != null) {
            e = TraceEvent.of(nowPs, Switch.DROP, from).ep(cm.endpoint()); // on the sending endpoint's lane
        } else {
            e = TraceEvent.of(nowPs, Switch.DROP, from);
        }
        e.attr("switch", switchName).attr("port", port).attr("reason", reason)
                .attr("packet", Packet.kindName(packet.kind)).attr("from", from).attr("to", hostName(packet.dstHost));
        if (wr != null) {
            e.attr("seq", wr.sequence()).attr("index", packet.index).attr("packets", packet.count);
        } else if (cm != null) {
            e.attr("message", cm.type());
            if (cm.commId() > 0) {
                e.attr("comm_id", cm.commId());
            }
        }
        return e.attr("bytes", packet.wireBytes);
    }

    /**
     * Traces an ECN mark (if the trace is on).
     *
     * @param timePs when the packet starts on the wire
     * @param packet the packet
     * @param port the name of the egress port
     * @param queuedBytes the bytes still queued there, on which RED decided
     */
    public void ecnMark(long timePs, Packet packet, String port, long queuedBytes) {
        if (enabled()) {
            trace.fire(TraceEvent.of(timePs, Switch.ECN_MARK, switchName).attr("switch", switchName)
                    .attr("port", port).attr("queue_bytes", queuedBytes)
                    .attr("packet", Packet.kindName(packet.kind)).attr("from", hostName(packet.srcHost))
                    .attr("to", hostName(packet.dstHost)).attr("bytes", packet.wireBytes));
        }
    }

    private String hostName(int id) {
        return id >= 0 && id < hostNames.length ? hostNames[id] : "host " + id;
    }
}
