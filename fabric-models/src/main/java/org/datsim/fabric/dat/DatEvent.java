package org.datsim.fabric.dat;

/**
 * One DAT_EVENT: its number, the EVD it was queued on, and the event data of its kind (the fields that do not apply
 * are null, -1 or 0).
 */
public final class DatEvent {

    /** The DAT_EVENT_NUMBER. */
    public final int number;
    /** The EVD it was queued on. */
    public final Evd evd;
    /** The endpoint of a DTO or connection event, or null. */
    public final Ep ep;
    /** The user cookie of a DTO completion. */
    public final long cookie;
    /** The DAT_DTO_COMPLETION_STATUS of a DTO completion, or -1. */
    public final int status;
    /** The transfered_length of a DTO completion. */
    public final long transferredLength;
    /** The DAT_DTOS operation of a DTO completion, or -1. */
    public final int operation;
    /** The connection request of a DAT_CONNECTION_REQUEST_EVENT, or null. */
    public final Cr cr;
    /** The RMR of an RMR bind completion, or null. */
    public final Rmr rmr;
    /** The run-unique operation id of a DTO completion, or -1. */
    public final long opId;
    /** The simulated time the event was queued, in picoseconds. */
    public final long queuedPs;
    /** True when the event is not a notification (it does not wake a waiter). */
    public final boolean unsignalled;
    /**
     * The DAT_IB_EXT_TYPE of a successful IB extended DTO completion (DAT_IB_DTO_EVENT: DAT_IB_FETCH_AND_ADD = 0,
     * DAT_IB_CMP_AND_SWAP = 1), or -1.
     */
    int extType = -1;
    /**
     * The immediate data (DAT_IB_EXTENSION_EVENT_DATA val.immed.data) of a receive completed by an RDMA Write with
     * immediate ({@link #extType} DAT_IB_RDMA_WRITE_IMMED_DATA); 0 otherwise.
     */
    int immediate;
    /**
     * For a request completion (Send, RDMA Write, RDMA Read, bind, atomic): its place among its endpoint's request
     * completions, from 1 ({@link Ep#requestCompletions} when it completed); reaping it frees the request-queue slots
     * of it and of every request of the endpoint that completed before it (rule 11). 0 for other events.
     */
    long requestSeq;
    /** The SRQ a receive completion's buffer was posted to, or the SRQ of a low-watermark event; else null. */
    Srq srq;

    DatEvent(int number, Evd evd, Ep ep, long cookie, int status, long transferredLength, int operation, Cr cr,
            long opId, long queuedPs, boolean unsignalled) {
        this(number, evd, ep, cookie, status, transferredLength, operation, cr, null, opId, queuedPs, unsignalled);
    }

    DatEvent(int number, Evd evd, Ep ep, long cookie, int status, long transferredLength, int operation, Cr cr,
            Rmr rmr, long opId, long queuedPs, boolean unsignalled) {
        this.rmr = rmr;
        this.number = number;
        this.evd = evd;
        this.ep = ep;
        this.cookie = cookie;
        this.status = status;
        this.transferredLength = transferredLength;
        this.operation = operation;
        this.cr = cr;
        this.opId = opId;
        this.queuedPs = queuedPs;
        this.unsignalled = unsignalled;
    }

    /** Returns the SRQ of the event (see {@link #srq}), or null. */
    public Srq srq() {
        return srq;
    }

    /** Returns the DAT_IB_EXT_TYPE of an IB extended DTO completion (see {@link #extType}), or -1. */
    public int extensionType() {
        return extType;
    }

    /** Returns the immediate data of a receive completed by an RDMA Write with immediate (see {@link #immediate}). */
    public int immediateData() {
        return immediate;
    }

    /** Returns the event number's name, for example "DAT_DTO_COMPLETION_EVENT". */
    public String numberName() {
        return Dat.EVENTS.name(number);
    }

    /** Returns the status name of a DTO completion, or null for other events. */
    public String statusName() {
        return status < 0 ? null : Dat.DTO_STATUS.name(status);
    }
}
