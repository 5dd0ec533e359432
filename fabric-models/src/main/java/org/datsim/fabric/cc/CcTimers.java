package org.datsim.fabric.cc;

/**
 * The timers a {@link RateController} asks its owner (the HCA's send engine) for. Each controller uses a few small
 * timer ids of its own; the owner keeps at most one pending timer per id and, when it fires, calls {@link
 * RateController#onTimer(long, int)} with that id.
 */
public interface CcTimers {

    /**
     * Arms timer {@code timerId} to fire {@code delayPs} picoseconds from now, replacing any pending timer of that id.
     *
     * @param timerId the controller's timer id (0 to {@link RateController#timerCount()} - 1)
     * @param delayPs the delay in picoseconds, at least 0
     */
    void schedule(int timerId, long delayPs);

    /**
     * Disarms timer {@code timerId} if it is pending.
     *
     * @param timerId the controller's timer id
     */
    void cancel(int timerId);

    /** Timers for a controller that never asks for one ({@code none}, {@code hpcc}, {@code dctcp}, {@code timely}). */
    CcTimers NONE = new CcTimers() {
        @Override
        public void schedule(int timerId, long delayPs) {
            throw new IllegalStateException("this congestion control has no timers");
        }

        @Override
        public void cancel(int timerId) {
        }
    };
}
