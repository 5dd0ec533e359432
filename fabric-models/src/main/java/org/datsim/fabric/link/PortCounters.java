package org.datsim.fabric.link;

/**
 * The counters of one port (one direction of a link), as registered in the run's statistics: packets and wire bytes
 * sent, the deepest its output queue got (packets and bytes waiting behind the one on the wire), and how long a
 * waiting packet was held back by flow control (no credit, or paused).
 */
public final class PortCounters {

    /** The port whose packets, bytes and deepest queue these are (kept there, beside the state a decision touches). */
    private final Port port;
    long stallPs;
    long drops;
    long ecnMarks;
    long pausedPs;

    PortCounters(Port port) {
        this.port = port;
    }

    /** Returns the packets fully transmitted. */
    public long packets() {
        return port.sentPackets;
    }

    /** Returns the wire bytes fully transmitted. */
    public long bytes() {
        return port.sentBytes;
    }

    /** Returns the most packets that waited in the output queue at once. */
    public int maxQueuePackets() {
        return port.maxQueuePackets;
    }

    /** Returns the most bytes that waited in the output queue at once. */
    public long maxQueueBytes() {
        return port.maxQueueBytes;
    }

    /**
     * Returns the picoseconds during which a packet was waiting and the port was idle because flow control held it
     * back (InfiniBand: not enough credit; PFC: paused). Counts up to the last stall's end.
     */
    public long stallPs() {
        return stallPs;
    }

    /** Returns the packets dropped on arrival at the far end because its buffer overflowed (PFC headroom too small). */
    public long drops() {
        return drops;
    }

    /** Returns the packets the switch owning this port marked Congestion Experienced (ECN) as they left it. */
    public long ecnMarks() {
        return ecnMarks;
    }

    /**
     * Returns the picoseconds PFC held this port paused, up to the last resume (see {@link Port#pausedPs()} for the
     * time including a pause still in force).
     */
    public long pausedPs() {
        return pausedPs;
    }

    @Override
    public String toString() {
        return "packets=" + port.sentPackets + " bytes=" + port.sentBytes + " max_queue_packets="
                + port.maxQueuePackets + " max_queue_bytes=" + port.maxQueueBytes + " stall_ps=" + stallPs + " drops=" + drops;
    }
}
