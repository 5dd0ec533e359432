package org.datsim.core.engine;

/**
 * The pending events of a simulation, taken earliest first: a priority queue of (time, handler, argument)
 * ordered by time, then by insertion order. {@link CalendarQueue} is the engine's implementation; {@link
 * Simulator} owns the clock, the scheduling checks and the run loop around it.
 *
 * <p>Reading the earliest event is split into {@link #peek()}, which finds it, and the {@code head*} accessors and
 * {@link #pollMin()}, which read and remove what {@code peek()} found, so that the run loop can check its guards
 * against the event's time before taking it, without allocating.
 *
 * <p>Implementations are not thread-safe.
 */
public interface EventList {

    /**
     * Adds an event. Events with equal times are taken in insertion order.
     *
     * @param timePs the event's time in picoseconds, {@code >= 0}
     * @param handler the handler to call, not null
     * @param arg the argument for the handler
     * @return the event's id: positive, never reused by this list, increasing with insertion order
     * @throws NullPointerException if {@code handler} is null
     * @throws IllegalStateException if the list cannot hold more events
     */
    long insert(long timePs, EventHandler handler, long arg);

    /**
     * Cancels a pending event.
     *
     * @param eventId an id returned by {@link #insert}
     * @return true if the event was pending and is now cancelled; false if it was already taken or
     *     cancelled, or the id is unknown
     */
    boolean cancel(long eventId);

    /**
     * Tells whether an event is pending.
     *
     * @param eventId an id returned by {@link #insert}
     * @return true if the event was inserted and has been neither taken nor cancelled
     */
    boolean isPending(long eventId);

    /**
     * Returns the number of pending events (cancelled events excluded).
     *
     * @return the number of pending events
     */
    int size();

    /**
     * Finds the earliest pending event and makes it the head.
     *
     * @return the head's handler, or null if no event is pending
     */
    EventHandler peek();

    /**
     * Returns the time of the earliest pending event.
     *
     * @return its time in picoseconds, or {@code Long.MAX_VALUE} if no event is pending
     */
    long peekTime();

    /**
     * Returns the time of the head. Precondition: {@link #peek()} returned non-null and the list has not changed
     * since.
     *
     * @return the head's time in picoseconds
     */
    long headTime();

    /**
     * Returns the argument of the head. Precondition as for {@link #headTime()}.
     *
     * @return the head's argument
     */
    long headArg();

    /**
     * Returns the id of the head. Precondition as for {@link #headTime()}.
     *
     * @return the head's id
     */
    long headId();

    /**
     * Removes the head. Precondition as for {@link #headTime()}: read what you need of it first.
     */
    void pollMin();
}
