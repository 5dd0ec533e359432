package org.datsim.fabric.dat;

/** The endpoint calls that neither move data nor connect: create, free and get_status. */
final class EpCalls extends ProviderPart {

    EpCalls(ProviderCore core) {
        super(core);
    }

    /**
     * dat_ep_create.
     *
     * @param ia the IA
     * @param pz the protection zone
     * @param recvEvd the EVD for receive completions (DTO stream), or null
     * @param requestEvd the EVD for request completions (DTO stream), or null
     * @param connectEvd the EVD for connection events, or null
     * @param attr the attributes, or null for the defaults
     * @param ep receives the endpoint
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE with the subtype of the bad handle, or DAT_INVALID_PARAMETER for
     *     attributes beyond the IA's limits (ARG6)
     */
    public int epCreate(Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, EpAttributes attr, Out<Ep> ep) {
        return create(ia, pz, recvEvd, requestEvd, connectEvd, null, attr, ep);
    }

    /**
     * dat_ep_create_with_srq: an endpoint whose incoming Sends take their receives from a shared receive queue
     * (rule 36); receives cannot be posted to it (dat_ep_post_recv returns DAT_INVALID_STATE). The SRQ stays
     * attached across dat_ep_reset until the endpoint is freed.
     *
     * @param ia the IA
     * @param pz the protection zone, which must be the SRQ's (srq_ep_pz_difference_supported is false)
     * @param recvEvd the EVD for receive completions, or null
     * @param requestEvd the EVD for request completions, or null
     * @param connectEvd the EVD for connection events, or null
     * @param srq the shared receive queue
     * @param attr the attributes (max_recv_dtos and max_recv_iov are not used), or null for the defaults
     * @param ep receives the endpoint
     * @return as dat_ep_create; also DAT_INVALID_HANDLE/SRQ for a bad SRQ and DAT_INVALID_PARAMETER (ARG2) when
     *     the PZ is not the SRQ's
     */
    public int epCreateWithSrq(Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, Srq srq,
            EpAttributes attr, Out<Ep> ep) {
        if (!bad(ia, Ia.class) && (bad(srq, Srq.class) || srq.ia != ia)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_SRQ);
        }
        return create(ia, pz, recvEvd, requestEvd, connectEvd, srq, attr, ep);
    }

    private int create(Ia ia, Pz pz, Evd recvEvd, Evd requestEvd, Evd connectEvd, Srq srq, EpAttributes attr,
            Out<Ep> ep) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (bad(pz, Pz.class) || pz.ia != ia) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PZ);
        }
        if (recvEvd != null && (recvEvd.freed || recvEvd.ia != ia || (recvEvd.flags & Dat.EVD_DTO_FLAG) == 0)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_RECV);
        }
        if (requestEvd != null && (requestEvd.freed || requestEvd.ia != ia
                || (requestEvd.flags & Dat.EVD_DTO_FLAG) == 0)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_REQUEST);
        }
        if (connectEvd != null && (connectEvd.freed || connectEvd.ia != ia
                || (connectEvd.flags & Dat.EVD_CONNECTION_FLAG) == 0)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_CONN);
        }
        if (srq != null && srq.pz != pz) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        EpAttributes a = attr != null ? attr : EpAttributes.defaults();
        int ret = checkAttributes(a, DatReturn.SUB_INVALID_ARG6);
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        ret = core.epx.checkSharing(null, recvEvd, requestEvd, a, DatReturn.SUB_INVALID_ARG6); // rule 9
        if (ret != DatReturn.SUCCESS) {
            return ret;
        }
        a = clamp(a);
        DatHost h = ia.host;
        String name = h.nextName("ep");
        Ep created = new Ep(name, ia, pz, recvEvd, requestEvd, connectEvd, a, h.hca.createQueuePair(name));
        created.qp.setReadCredits(a.maxRdmaReadIn(), a.maxRdmaReadOut());
        created.qp.setListener(core.dto.listener(created));
        if (srq != null) {
            created.srq = srq;
            srq.users++;
            srq.eps.add(created);
            created.qp.setSharedReceiveQueue(qp -> core.srq.take(srq, created));
        }
        pz.users++;
        for (Evd e : new Evd[] {recvEvd, requestEvd, connectEvd}) {
            if (e != null) {
                e.users++;
            }
        }
        if (recvEvd != null) {
            recvEvd.feeders.add(created);
        }
        if (requestEvd != null && requestEvd != recvEvd) {
            requestEvd.feeders.add(created);
        }
        ia.children.add(created);
        ep.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * The checks of endpoint attributes against the IA's limits and the completion-flag rules (12, 14, 16).
     *
     * @param a the attributes
     * @param arg the DAT_INVALID_PARAMETER subtype naming the attribute argument
     * @return DAT_SUCCESS or the error
     */
    int checkAttributes(EpAttributes a, int arg) {
        if (a.maxRecvDtos() < 1 || a.maxRecvDtos() > core.maxDtoPerEp || a.maxRequestDtos() < 1
                || a.maxRequestDtos() > core.maxDtoPerEp || a.maxRecvIov() < 1 || a.maxRecvIov() > core.maxIov
                || a.maxRequestIov() < 1 || a.maxRequestIov() > core.maxIov || a.maxMessageSize() > core.maxMessageSize
                || a.maxRdmaSize() > core.maxMessageSize) {
            return err(DatReturn.INVALID_PARAMETER, arg);
        }
        if ((a.recvCompletionFlags() & Dat.COMPLETION_SUPPRESS_FLAG) != 0) {
            return err(DatReturn.INVALID_PARAMETER, arg); // rule 16, as dapl
        }
        int requestFlags = Dat.COMPLETION_UNSIGNALLED_FLAG | Dat.COMPLETION_EVD_THRESHOLD_FLAG
                | Dat.COMPLETION_SUPPRESS_FLAG;
        int recvFlags = Dat.COMPLETION_UNSIGNALLED_FLAG | Dat.COMPLETION_EVD_THRESHOLD_FLAG
                | Dat.COMPLETION_SOLICITED_WAIT_FLAG;
        if ((a.requestCompletionFlags() & ~requestFlags) != 0 || (a.recvCompletionFlags() & ~recvFlags) != 0) {
            return err(DatReturn.INVALID_PARAMETER, arg);
        }
        if (a.maxRdmaReadIn() < 0 || a.maxRdmaReadOut() < 0) {
            return err(DatReturn.INVALID_PARAMETER, arg);
        }
        return DatReturn.SUCCESS;
    }

    /** Rule 49: requested read limits are clamped to the IA's, as dapl does (DAPL_MIN). */
    EpAttributes clamp(EpAttributes a) {
        return new EpAttributes(a.maxMessageSize(), a.maxRdmaSize(), a.maxRecvDtos(), a.maxRequestDtos(),
                a.maxRecvIov(), a.maxRequestIov(), a.requestCompletionFlags(), a.recvCompletionFlags(),
                Math.min(a.maxRdmaReadIn(), core.maxReadsIn), Math.min(a.maxRdmaReadOut(), core.maxReadsOut));
    }

    /**
     * dat_ep_free. A connected endpoint is disconnected abruptly first; its outstanding operations are flushed. An
     * endpoint that an RSP holds (RESERVED), or whose connection request awaits the consumer's decision
     * (PASSIVE_CONNECTION_PENDING, TENTATIVE_CONNECTION_PENDING), is refused (dat_ep_free(3DAT); dapl_ep_free.c
     * checks the same three states and names the state in the subtype, dapls_ep_state_subtype).
     *
     * @param ep the endpoint
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE with the subtype of the endpoint's state
     *     (DAT_INVALID_STATE_EP_RESERVED, _EP_PASSCONNPENDING or _EP_TENTCONNPENDING)
     */
    public int epFree(Ep ep) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (ep.state == Dat.EP_STATE_RESERVED || ep.state == Dat.EP_STATE_PASSIVE_CONNECTION_PENDING
                || ep.state == Dat.EP_STATE_TENTATIVE_CONNECTION_PENDING) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        abortEndpoint(ep);
        ep.freed = true;
        ep.pz.users--;
        if (ep.srq != null) {
            ep.srq.users--;
            ep.srq.eps.remove(ep);
        }
        for (Evd e : new Evd[] {ep.recvEvd, ep.requestEvd, ep.connectEvd}) {
            if (e != null) {
                e.users--;
                e.feeders.remove(ep);
            }
        }
        return DatReturn.SUCCESS;
    }

    void abortEndpoint(Ep ep) {
        if (ep.state == Dat.EP_STATE_CONNECTED || ep.state == Dat.EP_STATE_DISCONNECT_PENDING
                || ep.state == Dat.EP_STATE_COMPLETION_PENDING) {
            core.cm.sendDisconnect(ep);
        }
        ep.state = Dat.EP_STATE_DISCONNECTED;
        ep.ia.host.hca.flush(ep.qp);
        core.cm.endpointDestroyed(ep);
    }

    /**
     * dat_ep_get_status.
     *
     * @param ep the endpoint
     * @param state receives the DAT_EP_STATE
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epGetStatus(Ep ep, Out<Integer> state) {
        return epGetStatus(ep, state, new Out<>(), new Out<>());
    }

    /**
     * dat_ep_get_status with its idle flags (DAT 2.0 signature).
     *
     * @param ep the endpoint
     * @param state receives the DAT_EP_STATE
     * @param recvIdle receives true when no posted receive is in progress (none posted and not yet completed)
     * @param requestIdle receives true when no request operation or bind is outstanding
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int epGetStatus(Ep ep, Out<Integer> state, Out<Boolean> recvIdle, Out<Boolean> requestIdle) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        state.value = ep.state;
        recvIdle.value = ep.receivesPosted == 0;
        requestIdle.value = ep.qp.outstandingRequests() == 0;
        return DatReturn.SUCCESS;
    }
}
