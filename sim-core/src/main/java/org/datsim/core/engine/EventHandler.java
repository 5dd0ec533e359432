package org.datsim.core.engine;

/**
 * The action of a scheduled event. A model usually keeps one handler object per kind of event and
 * passes the event-specific datum (a packet index, a queue-pair number, an object-pool slot) as the
 * {@code long} argument, so scheduling and dispatching an event allocate nothing.
 */
@FunctionalInterface
public interface EventHandler {

    /**
     * Runs the event. It is called by the {@link Simulator} at the event's time, with {@link
     * Simulator#now()} already advanced to that time. Exceptions propagate out of the run method
     * unchanged.
     *
     * @param arg the argument given when the event was scheduled
     */
    void handle(long arg);
}
