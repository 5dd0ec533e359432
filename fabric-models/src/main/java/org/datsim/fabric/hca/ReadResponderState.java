package org.datsim.fabric.hca;

/**
 * A queue pair's RDMA Read credits as a target (rule 49: max_rdma_read_in) and the response engine's schedule, owned
 * by the {@link ResponseEngine}: only it writes them (an ArchUnit rule checks), except that the send engine returns
 * a credit through {@link #lastResponseSent} when it hands a Read's last response to the port.
 */
final class ReadResponderState {

    /** Reads (and atomics) served at once as their target; more break the connection. */
    int maxReadsIn = Integer.MAX_VALUE;
    /** The reads being served now. */
    int readsIn;
    /** When the RDMA Read responses scheduled so far have all been handed to the port. */
    long responsesUntil;

    /** Sets the read credits as target (the queue pair's configuration, before it serves reads). */
    void setMaxReadsIn(int in) {
        maxReadsIn = in;
    }

    /** A Read's last response has been handed to the port: its credit comes back. */
    void lastResponseSent() {
        if (readsIn > 0) {
            readsIn--;
        }
    }

    /** The queue pair failed: no read is being served any more. */
    void flush() {
        readsIn = 0;
    }

    /** The queue pair is reset ({@link Hca#reset}). */
    void reset() {
        readsIn = 0;
        responsesUntil = 0;
    }
}
