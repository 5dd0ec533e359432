package org.datsim.core.engine;

/** Why a {@link Simulator} run method returned. */
public enum StopReason {
    /** No events remained (for {@code runUntil}: none remained when the bound was reached). */
    NO_EVENTS,
    /** {@code runUntil} reached its time bound with events still pending after it. */
    UNTIL_TIME,
    /** {@link Simulator#stop()} was called, or the {@code runWhile} condition became false. */
    STOPPED,
    /** The next event would have exceeded the event limit ({@link Simulator#setMaxEvents(long)}). */
    EVENT_LIMIT,
    /** The next event lies beyond the time limit ({@link Simulator#setMaxTimePs(long)}). */
    TIME_LIMIT
}
