package org.datsim.fabric.sw;

/**
 * A buffer shared by every input with dynamic PFC thresholds, as HPCC's switch-mmu.cc ({@code switch.buffer_mode
 * shared}): an input's first {@code reserve} bytes are its own; beyond, its bytes come from the shared pool while
 * they stay under the threshold alpha x (buffer - headrooms - reserves - shared bytes in use), alpha = 2^-shift of
 * the input, and from its headroom beyond that. An input is paused once it holds headroom bytes or its shared bytes
 * reach the threshold, and resumed once it holds no headroom bytes and its shared bytes are 0 or at least
 * {@code resumeOffset} below the threshold. A packet that fits neither the headroom nor under the threshold is
 * dropped. Used with PFC only.
 */
public final class SharedBuffer extends SwitchBuffer {

    private final long buffer;
    private final long reserve;
    private final long resumeOffset;
    private final long[] headroom;
    private final int[] alphaShift;
    private final long totalHeadroom;
    private final long totalReserve;
    private final long[] headroomBytes;
    private long sharedUsed;
    private long pauses;

    /**
     * Creates the buffer.
     *
     * @param bufferBytes the switch's buffer in bytes
     * @param reserve the bytes reserved per input
     * @param resumeOffset the resume hysteresis in bytes
     * @param headroom the headroom of each input in bytes, by port index
     * @param alphaShift the alpha shift of each input, by port index
     */
    public SharedBuffer(long bufferBytes, long reserve, long resumeOffset, long[] headroom, int[] alphaShift) {
        super(headroom.length);
        if (alphaShift.length != headroom.length) {
            throw new IllegalArgumentException("a headroom and an alpha shift for every input");
        }
        this.buffer = bufferBytes;
        this.reserve = reserve;
        this.resumeOffset = resumeOffset;
        this.headroom = headroom.clone();
        this.alphaShift = alphaShift.clone();
        this.headroomBytes = new long[headroom.length];
        long h = 0;
        for (long x : headroom) {
            h += x;
        }
        this.totalHeadroom = h;
        this.totalReserve = reserve * headroom.length;
    }

    /**
     * An input's headroom as HPCC's third.cc derives it, 3 x rate x propagation delay of its link (in bytes), at least
     * {@code minimum}; or {@code fixed} when it is more than 0 ({@code pfc.headroom}).
     *
     * @param fixed the configured headroom, or 0 to derive it
     * @param minimum the least derived headroom (two of the largest packets)
     * @param bps the link's rate
     * @param propagationPs the link's propagation delay
     * @return the headroom in bytes
     */
    public static long headroomOf(long fixed, long minimum, long bps, long propagationPs) {
        long derived = java.math.BigInteger.valueOf(bps).multiply(java.math.BigInteger.valueOf(propagationPs))
                .multiply(java.math.BigInteger.valueOf(3)).divide(java.math.BigInteger.valueOf(8_000_000_000_000L))
                .longValue();
        return fixed > 0 ? fixed : Math.max(derived, minimum);
    }

    /**
     * An input's alpha shift as HPCC's third.cc sets it: alpha doubles (the shift falls by one) with each doubling
     * of the port's rate over the hosts' rate.
     *
     * @param shift the configured shift ({@code pfc.alpha_shift})
     * @param bps the port's rate
     * @param hostBps the slowest host link's rate
     * @return the shift
     */
    public static int alphaShiftOf(int shift, long bps, long hostBps) {
        int a = shift;
        for (long r = bps; r > hostBps && a > 0; r /= 2) {
            a--;
        }
        return a;
    }

    /** The dynamic PFC threshold of an input: alpha x the free shared pool, in bytes. */
    private long threshold(int in) {
        long free = buffer - totalHeadroom - totalReserve - sharedUsed;
        return free <= 0 ? 0 : free >> alphaShift[in];
    }

    /** The shared-pool bytes an input holds (its bytes outside headroom, beyond its reserve). */
    private long sharedOf(int in) {
        long used = ingress[2 * in] - headroomBytes[in];
        return used > reserve ? used - reserve : 0;
    }

    /** HPCC's CheckIngressAdmission, UpdateIngressAdmission and CheckAndSendPfc. */
    @Override
    int admit(int in, int psize) {
        long thresh = threshold(in);
        long sharedNow = sharedOf(in);
        if (psize + headroomBytes[in] > headroom[in] && psize + sharedNow > thresh) {
            return DROP;
        }
        long newBytes = ingress[2 * in] - headroomBytes[in] + psize;
        if (newBytes > reserve) {
            if (newBytes - reserve > thresh) {
                headroomBytes[in] += psize;
            } else {
                sharedUsed += Math.min(psize, newBytes - reserve);
            }
        }
        ingress[2 * in] += psize;
        recordHeld(in);
        if (!pausing[in] && (headroomBytes[in] > 0 || sharedOf(in) >= threshold(in))) {
            setPausing(in, true);
            pauses++;
            return ADMIT_AND_PAUSE;
        }
        return ADMIT;
    }

    /** HPCC's RemoveFromIngressAdmission and CheckAndSendResume. */
    @Override
    int release(int in, int wireBytes) {
        long before = ingress[2 * in];
        ingress[2 * in] = before - wireBytes;
        long fromHeadroom = Math.min(headroomBytes[in], wireBytes);
        long used = before - headroomBytes[in];
        long fromShared = Math.min(wireBytes - fromHeadroom, used > reserve ? used - reserve : 0);
        headroomBytes[in] -= fromHeadroom;
        sharedUsed -= fromShared;
        if (pausing[in] && headroomBytes[in] == 0) {
            long sh = sharedOf(in);
            if (sh == 0 || sh + resumeOffset <= threshold(in)) {
                setPausing(in, false);
                return RESUME;
            }
        }
        return KEEP;
    }

    @Override
    boolean exactDepartures() {
        return pausingInputs != 0;
    }

    /** Returns the shared-pool bytes in use. */
    public long sharedUsed() {
        return sharedUsed;
    }

    /** Returns the headroom an input was given, bytes. */
    public long headroom(int in) {
        return headroom[in];
    }

    /** Returns the alpha shift of an input's dynamic threshold. */
    public int alphaShift(int in) {
        return alphaShift[in];
    }

    /** Returns the headroom bytes an input holds. */
    public long headroomBytes(int in) {
        return headroomBytes[in];
    }

    /** Returns the dynamic PFC threshold of an input now, bytes. */
    public long dynamicThreshold(int in) {
        return threshold(in);
    }

    /** Returns the PAUSE frames this buffer asked for. */
    public long pauses() {
        return pauses;
    }

    @Override
    public void reset() {
        super.reset();
        java.util.Arrays.fill(headroomBytes, 0);
        sharedUsed = 0;
        pauses = 0;
    }
}
