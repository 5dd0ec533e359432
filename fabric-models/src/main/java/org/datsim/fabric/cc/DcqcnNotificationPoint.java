package org.datsim.fabric.cc;

/**
 * DCQCN's notification point for one receiving queue pair: the receiver calls {@link #onMarkedPacket(long)} for each
 * ECN-marked data packet of the queue pair, and sends a CNP to its sender when it answers true. At most one CNP per
 * {@code cc.dcqcn.cnp_interval} (the paper's 50 us); with an interval of 0, one per marked packet, which is what HPCC's
 * simulator does (it sets the CNP flag on the ACK of every marked packet; the reaction point acts on them at most once
 * per rate-decrease interval).
 */
public final class DcqcnNotificationPoint {

    private final long intervalPs;
    private long lastCnpPs;
    private boolean sent;

    /**
     * @param intervalPs the shortest time between two CNPs, picoseconds, 0 for one per marked packet
     */
    public DcqcnNotificationPoint(long intervalPs) {
        if (intervalPs < 0) {
            throw new IllegalArgumentException("CNP interval must be at least 0");
        }
        this.intervalPs = intervalPs;
    }

    /**
     * An ECN-marked packet of this queue pair has arrived.
     *
     * @param nowPs the time
     * @return true if the receiver sends a CNP now
     */
    public boolean onMarkedPacket(long nowPs) {
        if (sent && nowPs - lastCnpPs < intervalPs) {
            return false;
        }
        sent = true;
        lastCnpPs = nowPs;
        return true;
    }
}
