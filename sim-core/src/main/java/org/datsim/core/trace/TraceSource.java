package org.datsim.core.trace;

import java.util.Arrays;

/**
 * A named point in a model where trace records of type {@code T} may be observed.
 *
 * <p>The source keeps its sinks in an array that is replaced on every (rare) subscription change,
 * so {@link #fire(Object)} iterates a plain array without allocation, and {@link #isEnabled()} is a
 * plain field read. Models use it to skip building records nobody wants:
 *
 * <pre>{@code
 * if (trace.isEnabled()) {
 *   trace.fire(TraceEvent.of(sim.now(), TraceEvent.POST, host).op(op));
 * }
 * }</pre>
 *
 * <p>Not thread-safe: subscribe and fire on the simulation thread.
 *
 * @param <T> the record type
 */
public final class TraceSource<T> {

    private static final TraceSink<?>[] NONE = new TraceSink<?>[0];

    private final String name;
    private TraceSink<? super T>[] sinks = none();
    private boolean enabled;

    /**
     * Creates a source with no sinks.
     *
     * @param name the name, for example {@code "host1.nic.tx"}
     */
    public TraceSource(String name) {
        this.name = name;
    }

    @SuppressWarnings("unchecked")
    private static <T> TraceSink<? super T>[] none() {
        return (TraceSink<? super T>[]) NONE;
    }

    /**
     * Returns the name.
     *
     * @return the name
     */
    public String name() {
        return name;
    }

    /**
     * Tells whether at least one sink is subscribed. A plain field read.
     *
     * @return true if records fired now would be delivered somewhere
     */
    public boolean isEnabled() {
        return enabled;
    }

    /**
     * Delivers a record to every sink, in subscription order. Does nothing, and allocates nothing,
     * when there are no sinks. Exceptions thrown by a sink propagate (later sinks are then skipped).
     *
     * @param record the record
     */
    public void fire(T record) {
        for (TraceSink<? super T> sink : sinks) {
            sink.accept(record);
        }
    }

    /**
     * Adds a sink after the existing ones. A sink subscribed twice receives each record twice. Costs
     * O(number of sinks).
     *
     * @param sink the sink
     * @throws NullPointerException if {@code sink} is null
     */
    public void subscribe(TraceSink<? super T> sink) {
        if (sink == null) {
            throw new NullPointerException("cannot subscribe a null sink to " + name);
        }
        TraceSink<? super T>[] next = Arrays.copyOf(sinks, sinks.length + 1);
        next[sinks.length] = sink;
        sinks = next;
        enabled = true;
    }

    /**
     * Removes the first subscription of a sink (compared by identity). Does nothing if the sink is
     * not subscribed. Costs O(number of sinks).
     *
     * @param sink the sink
     */
    public void unsubscribe(TraceSink<? super T> sink) {
        for (int i = 0; i < sinks.length; i++) {
            if (sinks[i] == sink) {
                if (sinks.length == 1) {
                    sinks = none();
                } else {
                    TraceSink<? super T>[] next = Arrays.copyOf(sinks, sinks.length - 1);
                    System.arraycopy(sinks, i + 1, next, i, sinks.length - i - 1);
                    sinks = next;
                }
                enabled = sinks.length > 0;
                return;
            }
        }
    }

    /**
     * Returns the number of subscribed sinks.
     *
     * @return the number of sinks
     */
    public int sinkCount() {
        return sinks.length;
    }
}
