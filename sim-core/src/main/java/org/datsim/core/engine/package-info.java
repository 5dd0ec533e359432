/**
 * The discrete-event engine: a single-threaded {@link org.datsim.core.engine.Simulator} (the clock, the
 * scheduling API, the run loop and its guards) that runs {@link org.datsim.core.engine.EventHandler events} in
 * (time, scheduling order) order from its event list, a {@link org.datsim.core.engine.CalendarQueue} (contract:
 * {@link org.datsim.core.engine.EventList}), and {@link
 * org.datsim.core.engine.SimProcess}, a base class for consumers that block in simulated time
 * without an operating-system thread.
 *
 * <p>With owners ({@link org.datsim.core.engine.Simulator#Simulator(int)}), events of equal time run in the order of
 * {@link org.datsim.core.engine.EventKeys keys} that name the scheduling owner, not the insertion; the {@link
 * org.datsim.core.engine.PartitionedSimulator} splits the owners over partitions, each a {@code Simulator}, run by
 * several threads in windows of the lookahead, with the same answer as one {@code Simulator(owners)}.
 *
 * <p>A {@code Simulator} is confined to the thread that runs it; none of it is thread-safe. Separate {@code
 * Simulator} instances are fully independent and may run on separate threads. The partitioned simulator's
 * partitions are each run by one worker thread at a time, with a barrier between windows; its run methods are
 * called from one thread.
 */
package org.datsim.core.engine;
