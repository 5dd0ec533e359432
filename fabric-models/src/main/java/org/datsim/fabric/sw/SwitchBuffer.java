package org.datsim.fabric.sw;

/**
 * The buffer policy of a switch: how the bytes of the packets it holds are accounted per input port, when an arriving
 * packet is admitted or dropped, and when an input's upstream port is paused, resumed or given credit. A switch has
 * one, chosen when it is built: a {@link StaticBuffer} (a fixed share per input, PFC thresholds per input, or
 * InfiniBand credits) or a {@link SharedBuffer} (HPCC's shared pool with dynamic PFC thresholds).
 *
 * <p>The buffer decides; the switch acts: {@link #admit} and {@link #release} return what to do (drop, pause the
 * upstream port, resume it, return credit), so the buffer holds no port and sends nothing. The inputs it holds paused
 * are its own state ({@link #pausing}).
 */
public abstract sealed class SwitchBuffer permits StaticBuffer, SharedBuffer {

    /** {@link #admit}: the packet does not fit; drop it. */
    static final int DROP = 0;
    /** {@link #admit}: admitted. */
    static final int ADMIT = 1;
    /** {@link #admit}: admitted, and the input's upstream port is to be paused now. */
    static final int ADMIT_AND_PAUSE = 2;
    /** {@link #release}: nothing to send. */
    static final int KEEP = 0;
    /** {@link #release}: the input's upstream port is to be resumed now. */
    static final int RESUME = 1;
    /** {@link #release}: the freed bytes go back to the upstream port as InfiniBand credit. */
    static final int CREDIT = 2;

    /**
     * Per input port: the bytes held ({@code [2 * in]}) and the most ever held ({@code [2 * in + 1]}), side by side so
     * that an arrival touches one cache line of them.
     */
    final long[] ingress;
    /** The inputs whose upstream port this buffer holds paused. */
    final boolean[] pausing;
    /** How many inputs are paused. */
    int pausingInputs;

    SwitchBuffer(int ports) {
        this.ingress = new long[2 * ports];
        this.pausing = new boolean[ports];
    }

    /** Returns the number of input ports the buffer accounts. */
    public final int ports() {
        return pausing.length;
    }

    /**
     * Accounts an arriving packet on its input, or refuses it.
     *
     * @param in the input port
     * @param wireBytes the packet's wire bytes
     * @return {@link #DROP}, {@link #ADMIT} or {@link #ADMIT_AND_PAUSE} (then the input counts as paused)
     */
    abstract int admit(int in, int wireBytes);

    /**
     * Frees the bytes of a packet that has left the switch.
     *
     * @param in the input port it arrived on
     * @param wireBytes its wire bytes
     * @return {@link #KEEP}, {@link #RESUME} (then the input no longer counts as paused) or {@link #CREDIT}
     */
    abstract int release(int in, int wireBytes);

    /**
     * Whether the switch must hear of each departure at its exact instant (credit to return, or an input paused
     * whose resume depends on it); otherwise its ports may report departures late.
     */
    abstract boolean exactDepartures();

    /** Records the most bytes an input has held (after an admission). */
    final void recordHeld(int in) {
        long held = ingress[2 * in];
        if (held > ingress[2 * in + 1]) {
            ingress[2 * in + 1] = held;
        }
    }

    /** Marks an input paused (true) or resumed (false). */
    final void setPausing(int in, boolean on) {
        pausing[in] = on;
        pausingInputs += on ? 1 : -1;
    }

    /** Returns the bytes an input holds now (as the switch last accounted: settle its departures first). */
    public final long held(int in) {
        return ingress[2 * in];
    }

    /** Returns the most bytes an input ever held. */
    public final long maxHeld(int in) {
        return ingress[2 * in + 1];
    }

    /** Returns true while the buffer holds an input's upstream port paused. */
    public final boolean pausing(int in) {
        return pausing[in];
    }

    /** Forgets every byte held and every pause (a new run on the same switch). */
    public void reset() {
        java.util.Arrays.fill(ingress, 0);
        java.util.Arrays.fill(pausing, false);
        pausingInputs = 0;
    }
}
