package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.time.DataRate;
import org.datsim.fabric.link.Packet;

/**
 * The HCA's DMA write channel into host memory: writes cross PCIe one after another at its data rate, then its
 * latency. An arrived packet's payload is written as it arrived, in pieces of pcie.max_payload (cut through). The responder, the receive pipeline, the reliable transport (a duplicate's ACK goes after the writes
 * issued so far) and the completions (a CQE written this way lands after the data written before it) schedule
 * through it.
 */
final class DmaWriter {

    private final Simulator sim;
    private final long pcieLatency;
    private final DataRate pcieRate;
    private final HcaContext c;
    private final int hostId;
    private final int piece;
    /** PCIe's time for a whole piece, the usual one (all but a packet's last). */
    private final long pieceTime;
    /** When the writes scheduled so far have all crossed PCIe's data rate. */
    private long dmaWriteFree;
    /**
     * The wire and PCIe times {@link #dmaWriteArrived} needs for a payload of {@link #memoLen} bytes on
     * {@link #memoLink}, kept because a fabric's packets are mostly of one size: [0] the whole payload's wire time,
     * then per piece k the wire time of the payload after it ([2k + 1]) and the piece's PCIe time ([2k + 2]).
     */
    private long[] memo = new long[0];
    private int memoLen = -1;
    private DataRate memoLink;

    DmaWriter(HcaContext c) {
        this.sim = c.sim;
        this.pcieLatency = c.pcieLatency;
        this.pcieRate = c.pcieRate;
        this.c = c;
        this.hostId = c.hostId;
        this.piece = c.writePiece;
        this.pieceTime = pcieRate.transmitTimePs(piece);
    }

    /**
     * Schedules the DMA write of an arrived packet's payload in pieces of pcie.max_payload as its bytes arrived: piece
     * k is writable once its last byte was in (the wire time of the payload after it before now, the packet's
     * arrival, or its dispatch after a stall), and the pieces cross PCIe one after another at its rate after the
     * writes scheduled before; then its latency. A packet no bigger than a piece, or one that came through the
     * internal loopback (all there at once), is written whole.
     *
     * @param p the packet
     * @param len its payload bytes
     * @param stall the MTT stall before its first write
     * @return the delay from now until the payload is in host memory
     */
    long dmaWriteArrived(Packet p, int len, long stall) {
        DataRate link = c.linkRate;
        if (len <= piece || link == null || p.srcHost == hostId) {
            return dmaWriteDelay(len, stall);
        }
        if (len != memoLen || link != memoLink) {
            remember(len, link);
        }
        long[] m = memo;
        long now = sim.now();
        long at = now + stall;
        long free = Math.max(at - m[0], dmaWriteFree);
        int pieces = (len + piece - 1) / piece;
        for (int k = 0; k < pieces; k++) {
            free = Math.max(free, at - m[2 * k + 1]) + m[2 * k + 2];
        }
        dmaWriteFree = free;
        return free + pcieLatency - now;
    }

    /** Computes the times {@link #dmaWriteArrived} needs for a payload of {@code len} bytes ({@link #memo}). */
    private void remember(int len, DataRate link) {
        int pieces = (len + piece - 1) / piece;
        long[] m = memo.length >= 2 * pieces + 1 ? memo : new long[2 * pieces + 1];
        m[0] = link.transmitTimePs(len);
        int done = 0;
        for (int k = 0; k < pieces; k++) {
            int n = Math.min(piece, len - done);
            done += n;
            m[2 * k + 1] = link.transmitTimePs(len - done);
            m[2 * k + 2] = n == piece ? pieceTime : pcieRate.transmitTimePs(n);
        }
        memo = m;
        memoLen = len;
        memoLink = link;
    }

    /**
     * Schedules a DMA write of {@code len} bytes after an MTT stall. A CQE (len 0) written this way lands after the
     * data written before it.
     *
     * @return the delay from now until the bytes are in host memory
     */
    long dmaWriteDelay(int len, long stall) {
        long now = sim.now();
        long done = Math.max(now + stall, dmaWriteFree + stall) + pcieRate.transmitTimePs(len);
        dmaWriteFree = done;
        return done + pcieLatency - now;
    }
}
