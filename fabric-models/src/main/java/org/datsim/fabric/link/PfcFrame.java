package org.datsim.fabric.link;

/**
 * A PFC (IEEE 802.1Qbb) PAUSE or RESUME frame as it travels on a link: a value, not an object, so that sending one
 * allocates nothing. A switch sends it on its own port of the link towards the upstream port
 * ({@link Port#sendPfc}); it arrives one propagation delay later and the upstream port acts on it then
 * ({@link Port#receivePfc}). It takes no time on the wire (a 64-byte MAC control frame, not charged: the model has
 * always timed PAUSE and RESUME by the propagation delay alone).
 *
 * <p>The frame names a priority (0 to 7) so that per-priority PFC can follow; today every port has one paused class
 * (its data class; control packets, when {@linkplain Port#prioritiseControl prioritised}, are never paused) and acts
 * on every frame whatever its priority.
 */
public final class PfcFrame {

    /** The highest priority a frame can name. */
    public static final int MAX_PRIORITY = 7;

    private PfcFrame() {
    }

    /**
     * A PAUSE of one priority.
     *
     * @param priority 0 to {@link #MAX_PRIORITY}
     * @return the frame
     */
    public static long pause(int priority) {
        return (long) check(priority) << 1 | 1;
    }

    /**
     * A RESUME (a PAUSE of zero quanta) of one priority.
     *
     * @param priority 0 to {@link #MAX_PRIORITY}
     * @return the frame
     */
    public static long resume(int priority) {
        return (long) check(priority) << 1;
    }

    /** Returns true if the frame pauses, false if it resumes. */
    public static boolean isPause(long frame) {
        return (frame & 1) != 0;
    }

    /** Returns the priority the frame names. */
    public static int priority(long frame) {
        return (int) (frame >>> 1);
    }

    private static int check(int priority) {
        if (priority < 0 || priority > MAX_PRIORITY) {
            throw new IllegalArgumentException("a PFC priority is 0 to 7, not " + priority);
        }
        return priority;
    }
}
