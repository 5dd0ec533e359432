package org.datsim.core.engine;

/**
 * The outcome of one call to a {@link Simulator} run method.
 *
 * @param reason why the run ended
 * @param endTimePs the simulated time when the run ended, in picoseconds ({@link Simulator#now()})
 * @param events the number of events executed by this call (not the simulator's total, which is
 *     {@link Simulator#eventsExecuted()})
 * @param message a complete human-readable sentence describing why the run ended, suitable for
 *     printing to a user (for the limits, it says how to raise them)
 */
public record RunResult(StopReason reason, long endTimePs, long events, String message) {

    /**
     * Returns true if the run ended because of the event or time limit, which usually indicates a
     * runaway model or a limit set too low.
     *
     * @return true for {@link StopReason#EVENT_LIMIT} and {@link StopReason#TIME_LIMIT}
     */
    public boolean hitLimit() {
        return reason == StopReason.EVENT_LIMIT || reason == StopReason.TIME_LIMIT;
    }
}
