package org.datsim.fabric.link;

/**
 * The link-level flow control of the links into switches ({@code link.flow_control}).
 */
public enum FlowControl {
    /**
     * InfiniBand credit-based flow control with one virtual lane: a port may start a packet only while the receiving
     * switch port has buffer credit for all its bytes; credit comes back one propagation delay after the packet has
     * left the switch.
     */
    IB_CREDITS("ib_credits"),
    /**
     * RoCE priority flow control (one priority): a switch port whose buffered bytes reach {@code pfc.xoff} pauses
     * the upstream port (which finishes the packet it is sending), and resumes it when they fall to {@code pfc.xon};
     * PAUSE and RESUME take one propagation delay.
     */
    PFC("pfc"),
    /** No back-pressure: switch buffers are unbounded (an ideal lossless fabric). */
    NONE("none");

    private final String text;

    FlowControl(String text) {
        this.text = text;
    }

    /**
     * Returns the mode a parameter value names.
     *
     * @param text {@code ib_credits}, {@code pfc} or {@code none}
     * @return the mode
     * @throws IllegalArgumentException for any other text
     */
    public static FlowControl of(String text) {
        for (FlowControl f : values()) {
            if (f.text.equals(text)) {
                return f;
            }
        }
        throw new IllegalArgumentException("unknown flow control \"" + text + "\"");
    }
}
