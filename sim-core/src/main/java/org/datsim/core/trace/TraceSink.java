package org.datsim.core.trace;

/**
 * A consumer of trace records, subscribed to a {@link TraceSource}.
 *
 * @param <T> the record type
 */
@FunctionalInterface
public interface TraceSink<T> {

    /**
     * Consumes one record. Called synchronously, on the simulation thread, while the model fires the
     * record; a sink must not keep a reference to a record that the model may reuse.
     *
     * @param record the record
     */
    void accept(T record);
}
