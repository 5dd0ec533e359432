package org.datsim.fabric.dat;

import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.fabric.hca.WcStatus;

/**
 * The endpoint calls beyond create and free: dat_ep_modify, dat_ep_dup_connect, dat_ep_recv_query and
 * dat_ep_set_watermark, and the EVD sharing checks of rule 9 that dat_ep_create and dat_ep_modify make.
 *
 * <p>The soft high watermark's asynchronous event has, like the SRQ low watermark's, no DAT_EVENT_NUMBER of its own
 * (its reason is DAT_EP_SRQ_SOFT_HIGH_WATERMARK_EVENT = 2): it is posted on the IA's async EVD with the number of
 * {@link SrqCalls#LOW_WATERMARK_EVENT_NUMBER}, DAT_ASYNC_ERROR_PROVIDER_INTERNAL_ERROR.
 */
final class EpExtraCalls extends ProviderPart {

    /** DAT_WATERMARK_INFINITE. */
    static final int WATERMARK_INFINITE = -1;
    private static final int THRESHOLD = 0;
    private static final int UNSIGNALLED = 1;
    private static final int SOLICITED = 2;

    EpExtraCalls(ProviderCore core) {
        super(core);
    }

    private static int model(int completionFlags) {
        if ((completionFlags & Dat.COMPLETION_UNSIGNALLED_FLAG) != 0) {
            return UNSIGNALLED;
        }
        return (completionFlags & Dat.COMPLETION_SOLICITED_WAIT_FLAG) != 0 ? SOLICITED : THRESHOLD;
    }

    /**
     * Rule 9: the DTO streams sharing an EVD use one notification model (UNSIGNALLED, SOLICITED_WAIT or
     * threshold); an EVD that also accepts non-DTO streams allows only the threshold model; an EVD with
     * SOLICITED_WAIT receive streams carries nothing else.
     *
     * @param self the endpoint being modified (its own streams are not compared), or null at creation
     * @return DAT_SUCCESS, or DAT_INVALID_PARAMETER with the subtype {@code arg}
     */
    int checkSharing(Ep self, Evd recvEvd, Evd requestEvd, EpAttributes a, int arg) {
        int recvModel = model(a.recvCompletionFlags());
        int requestModel = model(a.requestCompletionFlags());
        if (recvEvd != null && recvEvd == requestEvd && recvModel != requestModel) {
            return err(DatReturn.INVALID_PARAMETER, arg);
        }
        for (int i = 0; i < 2; i++) {
            Evd evd = i == 0 ? recvEvd : requestEvd;
            int m = i == 0 ? recvModel : requestModel;
            if (evd == null) {
                continue;
            }
            if (m != THRESHOLD && (evd.flags & ~Dat.EVD_DTO_FLAG) != 0) {
                return err(DatReturn.INVALID_PARAMETER, arg);
            }
            for (Ep f : evd.feeders) {
                if (f == self || f.freed) {
                    continue;
                }
                if ((f.recvEvd == evd && model(f.attr.recvCompletionFlags()) != m)
                        || (f.requestEvd == evd && model(f.attr.requestCompletionFlags()) != m)) {
                    return err(DatReturn.INVALID_PARAMETER, arg);
                }
            }
        }
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_modify: replaces the endpoint's attributes (the fields of ep_param_mask; the scenario gives them as an
     * ep_attr object) before a connection: in UNCONNECTED, RESERVED or PASSIVE_CONNECTION_PENDING.
     * recv_completion_flags may change only while no receive is posted.
     *
     * @param ep the endpoint
     * @param attr the new attributes, the unmodified fields copied from the current ones
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER (ARG3) for values beyond the IA's limits or
     *     breaking the EVD sharing rule (rule 9); DAT_INVALID_STATE with the endpoint's state in any other state, or
     *     for new recv_completion_flags with receives posted
     */
    public int epModify(Ep ep, EpAttributes attr) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        int ret = core.ep.checkAttributes(attr, DatReturn.SUB_INVALID_ARG3);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        if (ep.state != Dat.EP_STATE_UNCONNECTED && ep.state != Dat.EP_STATE_RESERVED
                && ep.state != Dat.EP_STATE_PASSIVE_CONNECTION_PENDING) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        if (attr.recvCompletionFlags() != ep.attr.recvCompletionFlags() && ep.receivesPosted > 0) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        ret = checkSharing(ep, ep.recvEvd, ep.requestEvd, attr, DatReturn.SUB_INVALID_ARG3);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        ep.attr = core.ep.clamp(attr);
        ep.qp.setReadCredits(ep.attr.maxRdmaReadIn(), ep.attr.maxRdmaReadOut());
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_dup_connect: connects an endpoint to the same remote service point as a connected one.
     *
     * @param ep the UNCONNECTED endpoint
     * @param dupEp a CONNECTED endpoint whose remote address and connection qualifier are used
     * @param timeoutUs the timeout in microseconds, or {@link Dat#TIMEOUT_INFINITE}
     * @param privateData up to 56 bytes for the peer
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (EP, or the dup EP with subtype DAT_INVALID_HANDLE2);
     *     DAT_INVALID_STATE when the dup endpoint is not connected or the endpoint not UNCONNECTED; else as
     *     dat_ep_connect
     */
    public int epDupConnect(Ep ep, Ep dupEp, long timeoutUs, byte[] privateData) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (bad(dupEp, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE2);
        }
        if (dupEp.state != Dat.EP_STATE_CONNECTED || dupEp.remoteHost < 0) {
            return err(DatReturn.INVALID_STATE, dupEp.stateSubtype());
        }
        return core.cm.epConnect(ep, core.hosts.get(dupEp.remoteHost).name, dupEp.remoteConnQual, timeoutUs,
                privateData);
    }

    /**
     * dat_ep_recv_query: the receive buffers at the endpoint not yet completed (for an endpoint of an SRQ, those it
     * took from the SRQ) and their span; receives complete in order here, so the span equals the count.
     *
     * @param ep the endpoint
     * @param nbufsAllocated receives nbufs_allocated
     * @param bufsAllocSpan receives bufs_alloc_span
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epRecvQuery(Ep ep, Out<Integer> nbufsAllocated, Out<Integer> bufsAllocSpan) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        int n = buffersAtEp(ep);
        nbufsAllocated.value = n;
        bufsAllocSpan.value = n;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_set_watermark: arms the soft high watermark (one asynchronous event when more receive buffers than it
     * are at the endpoint) and sets the hard one (more buffers than it break the connection). Either may be
     * DAT_WATERMARK_INFINITE (-1). Checked now and whenever the endpoint gets a buffer.
     *
     * @param ep the endpoint
     * @param soft soft_high_watermark
     * @param hard hard_high_watermark
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER (ARG2, ARG3) for a negative value other
     *     than DAT_WATERMARK_INFINITE
     */
    public int epSetWatermark(Ep ep, int soft, int hard) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (soft < 0 && soft != WATERMARK_INFINITE) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (hard < 0 && hard != WATERMARK_INFINITE) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
        }
        ep.softHighWatermark = soft;
        ep.hardHighWatermark = hard;
        ep.softArmed = soft != WATERMARK_INFINITE;
        checkWatermarks(ep);
        return DatReturn.SUCCESS;
    }

    /** The receive buffers at an endpoint: posted to it, or taken from its SRQ, and not yet completed. */
    int buffersAtEp(Ep ep) {
        return ep.srq == null ? ep.receivesPosted : ep.qp.postedReceives();
    }

    /** Called when an endpoint gets a receive buffer: fires the soft event or breaks the connection (hard). */
    void checkWatermarks(Ep ep) {
        checkWatermarks(ep, 0);
    }

    /**
     * Checks the watermarks with {@code extra} buffers on their way to the endpoint (a buffer it is taking from its
     * SRQ).
     */
    void checkWatermarks(Ep ep, int extra) {
        int n = buffersAtEp(ep) + extra;
        if (ep.softArmed && n > ep.softHighWatermark) {
            ep.softArmed = false;
            Evd async = ep.ia.asyncEvd;
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, ep.ia.host.name).ep(ep.name())
                        .attr(TraceKey.EVENT, Dat.EVENTS.name(SrqCalls.LOW_WATERMARK_EVENT_NUMBER))
                        .attr(TraceKey.REASON, "DAT_EP_SRQ_SOFT_HIGH_WATERMARK_EVENT")
                        .attr(TraceKey.BUFFERS, (long) n));
            }
            core.post(async, new DatEvent(SrqCalls.LOW_WATERMARK_EVENT_NUMBER, async, ep, 0, -1, 0, -1, null, -1,
                    sim.now(), false));
        }
        if (ep.hardHighWatermark != WATERMARK_INFINITE && n > ep.hardHighWatermark
                && (ep.state == Dat.EP_STATE_CONNECTED || ep.state == Dat.EP_STATE_DISCONNECT_PENDING)) {
            ep.ia.host.hca.fail(ep.qp, null, WcStatus.LOC_QP_OP_ERR); // the connection breaks (BROKEN event)
        }
    }
}
