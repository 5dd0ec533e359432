package org.datsim.fabric.hca;

/**
 * How a part of an {@link Hca} reports that an operation has finished or a queue pair has failed. Implemented by
 * {@link Completions}; the send engine, the responder, the response engine, the reliable transport and the receive
 * pipeline report through it (statuses are {@link WcStatus} values).
 */
interface CompletionSink {

    /** A request operation is posted (its doorbell is being written): it is outstanding until reported. */
    void posted(WorkRequest wr);

    /** A request operation has finished on the transport with a status. */
    void transportDone(WorkRequest wr, int status);

    /** Puts a queue pair into the error state (see {@link Hca#fail}). */
    void fail(QueuePair qp, WorkRequest failing, int status);

    /**
     * A receive has been filled (its message's last byte placed): it completes successfully and its owner hears it
     * now.
     */
    void receivePlaced(QueuePair qp, WorkRequest recv);

    /** A receive fails and its queue pair with it. */
    void failReceive(QueuePair qp, WorkRequest recv, int status);
}
