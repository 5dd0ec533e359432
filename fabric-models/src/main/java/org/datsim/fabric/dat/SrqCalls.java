package org.datsim.fabric.dat;

import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.fabric.hca.WorkRequest;

/**
 * The shared receive queue calls (DAT 2.0): dat_srq_create, free, post_recv, resize and set_lw, and the taking of
 * an SRQ's receives by the endpoints created with it (dat_ep_create_with_srq), which arms and fires the
 * low-watermark event.
 *
 * <p>The low-watermark event: the DAT 2.0 headers give the reason (DAT_SRQ_LOW_WATERMARK_EVENT = 2 of the SRQ
 * async-error reasons) but no DAT_EVENT_NUMBER of its own, and OFA dapl does not implement dat_srq_set_lw (it
 * returns DAT_MODEL_NOT_SUPPORTED). The parameter {@code provider.srq_low_watermark_event} chooses: posted on the
 * IA's async EVD as DAT_ASYNC_ERROR_PROVIDER_INTERNAL_ERROR (0x08005, the default), or not_supported as dapl.
 */
final class SrqCalls extends ProviderPart {

    /** The event number the low-watermark event is posted with. */
    static final int LOW_WATERMARK_EVENT_NUMBER = 0x08005;

    private final boolean lowWatermarkSupported;

    SrqCalls(ProviderCore core, boolean lowWatermarkSupported) {
        super(core);
        this.lowWatermarkSupported = lowWatermarkSupported;
    }

    /** Returns true when dat_srq_set_lw is supported (provider attribute srq_watermarks_supported). */
    boolean lowWatermarkSupported() {
        return lowWatermarkSupported;
    }

    /**
     * dat_srq_create: an SRQ unattached to any endpoint, in a protection zone.
     *
     * @param ia the IA
     * @param pz the protection zone the posted receive buffers must belong to
     * @param maxRecvDtos srq_attr.max_recv_dtos: most receives outstanding at once
     * @param maxRecvIov srq_attr.max_recv_iov: most segments in one posted receive
     * @param lowWatermark srq_attr.low_watermark, which must be DAT_SRQ_LW_DEFAULT (0)
     * @param srq receives the SRQ
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (IA or PZ); DAT_INVALID_PARAMETER (ARG3) for attributes of 0, above
     *     the IA's limits (max_dto_per_ep, max_iov_segments), or a low_watermark other than DAT_SRQ_LW_DEFAULT
     */
    public int srqCreate(Ia ia, Pz pz, int maxRecvDtos, int maxRecvIov, int lowWatermark, Out<Srq> srq) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (bad(pz, Pz.class) || pz.ia != ia) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ);
        }
        if (maxRecvDtos < 1 || maxRecvIov < 1 || lowWatermark != Srq.LW_DEFAULT || maxRecvDtos > core.maxDtoPerEp
                || maxRecvIov > core.maxIov) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3); // as dapl_srq_create
        }
        Srq created = new Srq(ia.host.nextName("srq"), ia, pz, maxRecvDtos, maxRecvIov);
        pz.users++;
        ia.children.add(created);
        srq.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_srq_free. Receives still posted to it are discarded.
     *
     * @param srq the SRQ
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE/SRQ_IN_USE while an endpoint uses it
     */
    public int srqFree(Srq srq) {
        if (bad(srq, Srq.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_SRQ);
        }
        if (srq.users > 0) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_SRQ_IN_USE);
        }
        srq.freed = true;
        srq.queue.clear();
        srq.pz.users--;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_srq_post_recv: posts a receive any endpoint of the SRQ may take. Its completion is reported on the recv
     * EVD of the endpoint that takes it, always signalled.
     *
     * @param srq the SRQ
     * @param iov the local sink segments, in LMRs of the SRQ's protection zone with LOCAL_WRITE
     * @param cookie the user cookie
     * @param opId receives the operation id used in the trace
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER for too many segments (ARG2) or a segment
     *     outside its LMR; DAT_PRIVILEGES_VIOLATION; DAT_PROTECTION_VIOLATION for an LMR of another PZ;
     *     DAT_INSUFFICIENT_RESOURCES/RESOURCE_SRQ when max_recv_dtos receives are outstanding
     */
    public int srqPostRecv(Srq srq, LmrTriplet[] iov, long cookie, Out<Long> opId) {
        if (bad(srq, Srq.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_SRQ);
        }
        int ret = core.dto.checkIov(srq.ia.host, srq.pz, iov, srq.maxRecvIov, Dat.MEM_PRIV_LOCAL_WRITE);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        if (srq.outstanding >= srq.maxRecvDtos) {
            return err(DatReturn.INSUFFICIENT_RESOURCES, DatReturn.SUB_RESOURCE_SRQ);
        }
        WorkRequest wr = core.dto.newWorkRequest(null, WorkRequest.RECV, iov, cookie, 0, null);
        srq.queue.addLast(wr);
        srq.outstanding++;
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceEvent.POST, srq.ia.host.name).attr(TraceKey.SRQ, srq.name())
                    .op(wr.opId).cookie(wr.cookie).attr(TraceKey.OPCODE, wr.opName()).attr(TraceKey.BYTES, wr.length));
        }
        opId.value = wr.opId;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_srq_resize: changes max_recv_dtos without losing receives.
     *
     * @param srq the SRQ
     * @param maxRecvDtos srq_max_recv_dto, the new limit
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER (ARG2) below 1 or above the IA's limit;
     *     DAT_INVALID_STATE when more receives are outstanding (posted and not reaped) or it is below the low
     *     watermark
     */
    public int srqResize(Srq srq, int maxRecvDtos) {
        if (bad(srq, Srq.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_SRQ);
        }
        if (maxRecvDtos < 1 || maxRecvDtos > core.maxDtoPerEp) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        if (maxRecvDtos < srq.outstanding || maxRecvDtos < srq.lowWatermark) {
            return err(DatReturn.INVALID_STATE, 0);
        }
        srq.maxRecvDtos = maxRecvDtos;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_srq_set_lw: sets the low watermark and arms the event, which fires once, when fewer receives than the
     * watermark wait on the SRQ: at once if that is already so, or when an endpoint takes one.
     *
     * @param srq the SRQ
     * @param lowWatermark the watermark (0, DAT_SRQ_LW_DEFAULT, never fires)
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE; DAT_INVALID_PARAMETER (ARG2) when negative or above max_recv_dtos;
     *     DAT_MODEL_NOT_SUPPORTED when provider.srq_low_watermark_event is not_supported (OFA dapl)
     */
    public int srqSetLw(Srq srq, int lowWatermark) {
        if (bad(srq, Srq.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_SRQ);
        }
        if (!lowWatermarkSupported) {
            return err(DatReturn.MODEL_NOT_SUPPORTED, 0);
        }
        if (lowWatermark < 0 || lowWatermark > srq.maxRecvDtos) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        srq.lowWatermark = lowWatermark;
        srq.lwArmed = true;
        checkLowWatermark(srq);
        return DatReturn.SUCCESS;
    }

    /**
     * Hands the oldest receive of an SRQ to one of its endpoints for an arriving message (called by the HCA).
     *
     * @param srq the SRQ
     * @param ep the endpoint
     * @return the receive, or null if none waits (the sender gets RNR)
     */
    WorkRequest take(Srq srq, Ep ep) {
        if (srq.freed) {
            return null;
        }
        WorkRequest wr = sim.exploring() ? DatChoices.srqTake(sim.choices(), srq, ep) : srq.queue.pollFirst();
        if (wr != null && trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceKind.SRQ_TAKE, srq.ia.host.name).ep(ep.name())
                    .attr(TraceKey.SRQ, srq.name())
                    .op(wr.opId).attr(TraceKey.AVAILABLE, (long) srq.queue.size()));
        }
        if (wr != null) {
            checkLowWatermark(srq);
            if (ep.softArmed || ep.hardHighWatermark >= 0) {
                core.epx.checkWatermarks(ep, 1);
            }
        }
        return wr;
    }

    /** A receive of the SRQ has been reaped (or its completion lost): it no longer counts as outstanding. */
    void reaped(Srq srq) {
        srq.outstanding--;
    }

    private void checkLowWatermark(Srq srq) {
        if (!srq.lwArmed || srq.queue.size() >= srq.lowWatermark) {
            return;
        }
        srq.lwArmed = false;
        Evd async = srq.ia.asyncEvd;
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, srq.ia.host.name).attr(TraceKey.EVENT,
                    Dat.EVENTS.name(LOW_WATERMARK_EVENT_NUMBER)).attr(TraceKey.SRQ, srq.name())
                    .attr(TraceKey.REASON, "DAT_SRQ_LOW_WATERMARK_EVENT")
                    .attr(TraceKey.AVAILABLE, (long) srq.queue.size()));
        }
        DatEvent e = new DatEvent(LOW_WATERMARK_EVENT_NUMBER, async, null, 0, -1, 0, -1, null, -1, sim.now(),
                false);
        e.srq = srq;
        core.post(async, e);
    }
}
