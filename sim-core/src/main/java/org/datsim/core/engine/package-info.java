/**
 * The discrete-event engine: a single-threaded {@link org.datsim.core.engine.Simulator} (the clock, the
 * scheduling API, the run loop and its guards) that runs {@link org.datsim.core.engine.EventHandler events} in
 * (time, scheduling order) order from its event list, a {@link org.datsim.core.engine.CalendarQueue} (contract:
 * {@link org.datsim.core.engine.EventList}), and {@link
 * org.datsim.core.engine.SimProcess}, a base class for consumers that block in simulated time
 * without an operating-system thread.
 *
 * <p>Everything in this package is confined to the thread that runs the simulator; none of it is
 * thread-safe. Separate {@code Simulator} instances are fully independent and may run on separate
 * threads.
 */
package org.datsim.core.engine;
