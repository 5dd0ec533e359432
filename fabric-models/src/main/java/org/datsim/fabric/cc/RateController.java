package org.datsim.fabric.cc;

/**
 * The congestion-control state of one sending queue pair: its current rate, its window, and when its next packet may
 * leave. The HCA's send engine owns one per queue pair and tells it what happens, in simulated time ({@code nowPs}):
 * <ul>
 * <li>{@link #start(long)} once, when the queue pair starts sending (HPCC's {@code NewQp});</li>
 * <li>{@link #onPacketSent(long, int)} for every data packet it starts to put on the wire;</li>
 * <li>{@link #onAck(long, long, long, boolean, IntHops, long)} for every ACK that arrives;</li>
 * <li>{@link #onCnp(long)} for every CNP that arrives (DCQCN);</li>
 * <li>{@link #onTimer(long, int)} when a timer armed through {@link CcTimers} fires;</li>
 * <li>{@link #stop()} when the queue pair is finished or destroyed (cancels its timers).</li>
 * </ul>
 * A queue pair may send a data packet when the time is at or after {@link #nextSendTimePs()} and its bytes in flight
 * are below {@link #windowBytes()}. Both may change on any event: the engine re-reads them after each (as HPCC's NIC
 * re-examines its queue pairs after every ACK). No method allocates.
 */
public abstract class RateController {

    /** Returned by {@link #windowBytes()} when the algorithm has no window. */
    public static final long NO_WINDOW = Long.MAX_VALUE;
    /** Passed to {@link #onAck} as the echoed send time when the ACK echoes none (any negative value means that). */
    public static final long NO_TIMESTAMP = -1;

    /** The NIC's line rate: the highest rate, and the rate a queue pair starts at. */
    protected final long lineRateBps;
    /** The current sending rate. */
    protected long rateBps;
    private long nextSendPs;
    /** Whether {@link #changeRateShiftingNextSend} ran since {@link #takeNextSendShift} was last asked. */
    private boolean nextSendShifted;
    private int lastPacketBytes;
    private long resolutionPs;

    /**
     * @param lineRateBps the NIC's line rate, bits per second
     */
    protected RateController(long lineRateBps) {
        if (lineRateBps <= 0) {
            throw new IllegalArgumentException("line rate must be positive: " + lineRateBps);
        }
        this.lineRateBps = lineRateBps;
        this.rateBps = lineRateBps;
    }

    /** Returns the current sending rate in bits per second. */
    public final long rateBps() {
        return rateBps;
    }

    /** Returns the line rate in bits per second. */
    public final long lineRateBps() {
        return lineRateBps;
    }

    /** Returns the window in bytes (payload bytes sent and not yet acknowledged), or {@link #NO_WINDOW}. */
    public long windowBytes() {
        return NO_WINDOW;
    }

    /** Returns the earliest time, in picoseconds, at which the next data packet may start to leave. */
    public final long nextSendTimePs() {
        return nextSendPs;
    }

    /** Returns the number of timer ids this controller uses (0 if none). */
    public int timerCount() {
        return 0;
    }

    /**
     * The queue pair starts sending: its first packet may leave now.
     *
     * @param nowPs the time
     */
    public void start(long nowPs) {
        nextSendPs = nowPs;
    }

    /**
     * A data packet of this queue pair starts to leave (HPCC's {@code PktSent}): the next may leave one packet time
     * at the current rate later.
     *
     * @param nowPs the time its first bit leaves
     * @param wireBytes its size on the wire, headers included
     */
    public final void onPacketSent(long nowPs, int wireBytes) {
        lastPacketBytes = wireBytes;
        nextSendPs = nowPs + interval(wireBytes, rateBps);
        bytesSent(nowPs, wireBytes);
    }

    /**
     * Hook for algorithms that count bytes sent (DCQCN's byte counter).
     *
     * @param nowPs the time
     * @param wireBytes the packet's size on the wire
     */
    protected void bytesSent(long nowPs, int wireBytes) {
    }

    /**
     * An ACK (or NAK) of this queue pair arrives.
     *
     * @param nowPs the time
     * @param ackSeq the cumulative acknowledged payload bytes the ACK carries (HPCC's {@code ack.seq})
     * @param sndNxt the payload bytes this queue pair has sent so far (HPCC's {@code snd_nxt}), at least ackSeq
     * @param ecnEcho whether the ACK echoes an ECN mark (DCTCP); ignored by the others
     * @param hops the INT records the ACK echoes (HPCC), or null
     * @param echoedSentPs when the data packet this ACK acknowledges started to leave this queue pair, as the ACK
     *        echoes it (TIMELY's RTT sample is {@code nowPs - echoedSentPs}; HPCC's {@code SeqTsHeader} ts), or
     *        negative ({@link #NO_TIMESTAMP}) if it echoes none (an ACK of a duplicate); ignored by the others
     */
    public void onAck(long nowPs, long ackSeq, long sndNxt, boolean ecnEcho, IntHops hops, long echoedSentPs) {
    }

    /**
     * A congestion notification packet for this queue pair arrives (DCQCN); ignored by the others.
     *
     * @param nowPs the time
     */
    public void onCnp(long nowPs) {
    }

    /**
     * A timer this controller armed fires.
     *
     * @param nowPs the time
     * @param timerId the id it was armed with
     */
    public void onTimer(long nowPs, int timerId) {
    }

    /** The queue pair is finished: the controller cancels its timers. */
    public void stop() {
    }

    /**
     * Changes the rate and moves the next send time by the difference the new rate makes to the last packet's time
     * on the wire (HPCC's {@code ChangeRate}).
     *
     * @param newRateBps the new rate
     */
    protected final void changeRateShiftingNextSend(long newRateBps) {
        if (lastPacketBytes > 0) {
            nextSendPs += interval(lastPacketBytes, newRateBps) - interval(lastPacketBytes, rateBps);
        }
        rateBps = newRateBps;
        nextSendShifted = true;
    }

    /**
     * Returns whether the rate changed through {@link #changeRateShiftingNextSend} (HPCC's {@code ChangeRate}, which
     * tells the NIC the queue pair's new next-available time) since the last call, and forgets it. An NIC that keeps
     * one pending look ({@code hca.arbiter_wake one_pending}) moves that look only then.
     *
     * @return whether the next send time was shifted by a rate change
     */
    public final boolean takeNextSendShift() {
        boolean s = nextSendShifted;
        nextSendShifted = false;
        return s;
    }

    /**
     * HPCC's variable window: the base window scaled by the current rate over the line rate, at least 1 byte.
     *
     * @param baseWindowBytes the window at line rate (the bandwidth-delay product)
     * @return the window in bytes
     */
    protected final long scaledWindow(long baseWindowBytes) {
        long w;
        if (Math.multiplyHigh(baseWindowBytes, rateBps) == 0 && baseWindowBytes * rateBps >= 0) {
            w = baseWindowBytes * rateBps / lineRateBps;
        } else {
            w = (long) ((double) baseWindowBytes * rateBps / lineRateBps);
        }
        return Math.max(1, w);
    }

    /**
     * Makes the interval between two packets a whole number of {@code resolutionPs}, rounded down, as ns-3's
     * nanosecond clock truncates HPCC's {@code m_nextAvail} ({@code link.time_resolution}); 0 or 1 keeps it exact.
     *
     * @param resolutionPs the unit, ps
     */
    public final void setTimeResolution(long resolutionPs) {
        this.resolutionPs = resolutionPs > 1 ? resolutionPs : 0;
    }

    private long interval(long bytes, long bps) {
        long t = txTimePs(bytes, bps);
        return resolutionPs == 0 ? t : t - t % resolutionPs;
    }

    /**
     * Returns the time {@code bytes} take on the wire at {@code bps}, in picoseconds, rounded up.
     *
     * @param bytes the size
     * @param bps the rate, positive
     * @return the time in picoseconds
     */
    public static long txTimePs(long bytes, long bps) {
        long bits = bytes * 8;
        if (bits <= 9_000_000L) {
            long num = bits * 1_000_000_000_000L;
            return (num + bps - 1) / bps;
        }
        return (long) Math.ceil(bits * 1e12 / bps);
    }
}
