package org.datsim.fabric.dat;

import org.datsim.fabric.hca.QueuePair;

/**
 * An endpoint: a reliable-connected queue pair with its protection zone, its three EVDs (request completions,
 * receive completions, connection events), its attributes and its DAT_EP_STATE.
 */
public final class Ep extends DatHandle {

    final Pz pz;
    final Evd recvEvd;
    final Evd requestEvd;
    final Evd connectEvd;
    EpAttributes attr;
    final QueuePair qp;
    int state = Dat.EP_STATE_UNCONNECTED;
    Ep peer;
    int remoteHost = -1;
    long remoteConnQual;
    /** The private data of the peer's accept (its REP), on the active side; empty before. */
    byte[] peerPrivateData = new byte[0];
    long connectTimer;
    boolean disconnectSent;
    /** The communication id of the endpoint's current (or last) connection, shared by both ends; 0 for none. */
    long commId;
    /** The CM message this endpoint waits to see answered (REQ, REP or DREQ), or null. */
    CmMessage cmAwaiting;
    /** The host {@link #cmAwaiting} went to. */
    int cmAwaitingHost = -1;
    /** How many times {@link #cmAwaiting} has been resent. */
    int cmResends;
    /** The pending resend timer of {@link #cmAwaiting}. */
    long cmTimer;
    /**
     * Request-queue slots in use (rule 11): requests posted whose completion, or a later one of this endpoint's
     * request queue, has not yet been reaped by dat_evd_wait or dat_evd_dequeue (dapl's cookie ring; the HCA's
     * send-queue entries are freed the same way, when a completion is polled).
     */
    int requestsInFlight;
    /** How many requests of this endpoint have completed (signalled, suppressed or failed), in completion order. */
    long requestCompletions;
    /** The {@link DatEvent#requestSeq} of the last request completion whose reaping freed slots. */
    long requestsReaped;
    int receivesPosted;
    /** dat_ep_set_watermark: the soft and hard high watermarks (-1 is DAT_WATERMARK_INFINITE). */
    int softHighWatermark = -1;
    int hardHighWatermark = -1;
    boolean softArmed;
    /** The shared receive queue of an endpoint made by dat_ep_create_with_srq, else null. */
    Srq srq;

    Ep(String name, Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, EpAttributes attr, QueuePair qp) {
        super(TYPE_EP, name, ia);
        this.pz = pz;
        this.recvEvd = recvEvd;
        this.requestEvd = requestEvd;
        this.connectEvd = connectEvd;
        this.attr = attr;
        this.qp = qp;
    }

    /** Returns the private data the peer's dat_cr_accept sent (the REP's), on the active side of a connection. */
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    /** Returns the DAT_EP_STATE value. */
    public int state() {
        return state;
    }

    /** Returns the state's name, for example "DAT_EP_STATE_CONNECTED". */
    public String stateName() {
        return Dat.EP_STATES.name(state);
    }

    /** Returns the endpoint's attributes. */
    public EpAttributes attributes() {
        return attr;
    }

    /**
     * Returns the request-queue slots in use: requests posted whose completion (or a later one of the same request
     * queue) has not been reaped yet (rule 11).
     */
    public int requestsInFlight() {
        return requestsInFlight;
    }

    /** Returns the receives posted and not yet completed. */
    public int receivesPosted() {
        return receivesPosted;
    }

    /** Returns the DAT_INVALID_STATE subtype that names this endpoint's current state. */
    int stateSubtype() {
        switch (state) {
            case Dat.EP_STATE_UNCONNECTED:
                return DatReturn.SUB_INVALID_STATE_EP_UNCONNECTED;
            case Dat.EP_STATE_ACTIVE_CONNECTION_PENDING:
                return DatReturn.SUB_INVALID_STATE_EP_ACTCONNPENDING;
            case Dat.EP_STATE_RESERVED:
                return DatReturn.SUB_INVALID_STATE_EP_RESERVED;
            case Dat.EP_STATE_PASSIVE_CONNECTION_PENDING:
                return DatReturn.SUB_INVALID_STATE_EP_PASSCONNPENDING;
            case Dat.EP_STATE_TENTATIVE_CONNECTION_PENDING:
                return DatReturn.SUB_INVALID_STATE_EP_TENTCONNPENDING;
            case Dat.EP_STATE_CONNECTED:
                return DatReturn.SUB_INVALID_STATE_EP_CONNECTED;
            case Dat.EP_STATE_DISCONNECT_PENDING:
                return DatReturn.SUB_INVALID_STATE_EP_DISCPENDING;
            case Dat.EP_STATE_DISCONNECTED:
                return DatReturn.SUB_INVALID_STATE_EP_DISCONNECTED;
            case Dat.EP_STATE_COMPLETION_PENDING:
                return DatReturn.SUB_INVALID_STATE_EP_COMPLPENDING;
            default:
                return DatReturn.SUB_INVALID_STATE_EP_NOTREADY;
        }
    }
}
