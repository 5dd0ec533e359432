package org.datsim.fabric.sw;

import org.datsim.fabric.link.FlowControl;

/**
 * A fixed share of the buffer per input port ({@code switch.buffer}), kept from overflowing by the link-level flow
 * control of the links into the switch: InfiniBand credit (every departure returns its bytes to the upstream port),
 * PFC (the upstream port is paused when the input holds {@code pfc.xoff} bytes and resumed when it is back to
 * {@code pfc.xon}, thresholds per input; a packet that finds the share full, the headroom having been too small for
 * what was in flight, is dropped), or none (an unbounded buffer).
 */
public final class StaticBuffer extends SwitchBuffer {

    private final FlowControl flowControl;
    private final long[] share;
    private final long[] xoff;
    private final long[] xon;

    /**
     * Creates the buffer.
     *
     * @param flowControl the flow control of the links into the switch
     * @param share each input's share in bytes, by port index
     * @param xoff PFC: the bytes of each input at which its upstream port is paused
     * @param xon PFC: the bytes at or below which a paused upstream port is resumed
     */
    public StaticBuffer(FlowControl flowControl, long[] share, long[] xoff, long[] xon) {
        super(share.length);
        if (xoff.length != share.length || xon.length != share.length) {
            throw new IllegalArgumentException("a share and PFC thresholds for every input");
        }
        this.flowControl = flowControl;
        this.share = share.clone();
        this.xoff = xoff.clone();
        this.xon = xon.clone();
    }

    /**
     * The same share and thresholds for every input.
     *
     * @param flowControl the flow control of the links into the switch
     * @param ports the number of inputs
     * @param share each input's share in bytes
     * @param xoff PFC: the pause threshold in bytes
     * @param xon PFC: the resume threshold in bytes
     * @return the buffer
     */
    public static StaticBuffer uniform(FlowControl flowControl, int ports, long share, long xoff, long xon) {
        long[] s = new long[ports];
        long[] off = new long[ports];
        long[] on = new long[ports];
        java.util.Arrays.fill(s, share);
        java.util.Arrays.fill(off, xoff);
        java.util.Arrays.fill(on, xon);
        return new StaticBuffer(flowControl, s, off, on);
    }

    /** Returns the flow control of the links into the switch. */
    public FlowControl flowControl() {
        return flowControl;
    }

    @Override
    int admit(int in, int wireBytes) {
        long held = ingress[2 * in] + wireBytes;
        int r = ADMIT;
        if (flowControl == FlowControl.PFC) {
            if (held > share[in]) {
                return DROP;
            }
            if (!pausing[in] && held >= xoff[in]) {
                setPausing(in, true);
                r = ADMIT_AND_PAUSE;
            }
        }
        ingress[2 * in] = held;
        recordHeld(in);
        return r;
    }

    @Override
    int release(int in, int wireBytes) {
        long held = ingress[2 * in] - wireBytes;
        ingress[2 * in] = held;
        if (flowControl == FlowControl.IB_CREDITS) {
            return CREDIT;
        }
        if (flowControl == FlowControl.PFC && pausing[in] && held <= xon[in]) {
            setPausing(in, false);
            return RESUME;
        }
        return KEEP;
    }

    @Override
    boolean exactDepartures() {
        return pausingInputs != 0 || flowControl == FlowControl.IB_CREDITS;
    }
}
