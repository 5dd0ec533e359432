package org.datsim.fabric.dat;

import java.util.TreeMap;
import org.datsim.core.param.Params;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;
import org.datsim.fabric.FabricParams;

/**
 * Connection management: dat_ep_connect, dat_ep_disconnect, dat_ep_reset, the PSP and CR calls, and the
 * connection manager's messages between hosts.
 *
 * <p>CM messages travel as datagrams that a lossy fabric may drop, so the connection manager recovers them as IB CM
 * does (IBTA vol. 1 ch. 12): a REQ, a REP and a DREQ are sent again when their answer (REP or REJ, RTU, DREP) has
 * not come {@code cm.response_timeout} after the last sending, up to {@code cm.max_retries} times; then it gives
 * up: the active side's connection times out, a passive side's accept fails, a DREQ disconnects locally all the
 * same. Each message carries its connection's communication id, so a message sent again is told from a new one:
 * a REQ already answered is answered again with the same REP or REJ (not a second connection request), a REQ whose
 * connection request the consumer has not yet decided is dropped, a REP already answered gets the RTU again, a
 * DREQ the DREP again. An RTU, REJ or DREP is never resent on its own: the message it answers comes again.
 */
final class ConnectionCalls extends ProviderPart {

    /** The trace kind of a CM message sent again after {@code cm.response_timeout} without its answer. */
    static final String CM_RETRY = TraceKind.CM_RETRY;
    /** The trace kind of a CM message given up after {@code cm.max_retries} resends without its answer. */
    static final String CM_TIMEOUT = TraceKind.CM_TIMEOUT;

    private final long responseTimeout;
    private final int maxRetries;
    private final boolean timeoutUnreachable;
    /** The last communication id handed out (ids are unique across the fabric's hosts). */
    private long lastCommId;
    /**
     * Passive side: the REQs received, by communication id, with the REP or REJ that answered them (null while the
     * consumer decides), until the RTU comes or the REP is given up; tells a REQ sent again from a new one. (A REQ
     * rejected, or whose connection is torn down before its RTU, stays: a REQ sent again still gets the same answer.)
     */
    private final TreeMap<Long, CmMessage> received = new TreeMap<>();

    ConnectionCalls(ProviderCore core, Params params) {
        super(core);
        this.responseTimeout = params.get(FabricParams.CM_RESPONSE_TIMEOUT);
        this.maxRetries = (int) params.get(FabricParams.CM_MAX_RETRIES);
        this.timeoutUnreachable = "unreachable".equals(params.choice(FabricParams.PROVIDER_CM_TIMEOUT_EVENT));
    }

    /**
     * dat_ep_connect: starts an active connection to a service point on another host. The outcome arrives on the
     * endpoint's connect EVD: ESTABLISHED, PEER_REJECTED, NON_PEER_REJECTED or TIMED_OUT (the consumer's timeout, or
     * the connection manager's after {@code cm.max_retries} REQs without an answer).
     *
     * @param ep the endpoint, which must be UNCONNECTED
     * @param remoteHost the remote IA address (a host name)
     * @param connQual the remote connection qualifier
     * @param timeoutUs the timeout in microseconds, or {@link Dat#TIMEOUT_INFINITE}
     * @param privateData up to 56 bytes for the peer
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, DAT_INVALID_STATE (with the state's subtype),
     *     DAT_INVALID_ADDRESS/UNREACHABLE for an unknown host, or DAT_INVALID_PARAMETER
     */
    public int epConnect(Ep ep, String remoteHost, long connQual, long timeoutUs, byte[] privateData) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (ep.state != Dat.EP_STATE_UNCONNECTED) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        if (ep.connectEvd == null) {
            return err(DatReturn.INVALID_STATE, DatReturn.SUB_INVALID_STATE_EP_EVD_CONNECT);
        }
        DatHost target = core.host(remoteHost);
        if (target == null) {
            return err(DatReturn.INVALID_ADDRESS, DatReturn.SUB_INVALID_ADDRESS_UNREACHABLE);
        }
        if (timeoutUs < 0 || timeoutUs > Dat.TIMEOUT_INFINITE) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        if (privateData.length > ProviderCore.MAX_PRIVATE_DATA) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG5);
        }
        ep.state = Dat.EP_STATE_ACTIVE_CONNECTION_PENDING;
        ep.remoteHost = target.id;
        ep.remoteConnQual = connQual;
        ep.disconnectSent = false;
        ep.commId = ++lastCommId;
        sendAwaiting(ep, target.id, new CmMessage("REQ", ep.ia.host.id, ep, null, connQual, privateData, false,
                ep.commId));
        if (timeoutUs != Dat.TIMEOUT_INFINITE) {
            ep.connectTimer = sim.schedule(timeoutUs * SimTime.US, () -> {
                if (ep.state == Dat.EP_STATE_ACTIVE_CONNECTION_PENDING) {
                    stopAwaiting(ep);
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    ep.ia.host.hca.flush(ep.qp);
                    core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_TIMED_OUT);
                }
            });
        }
        return DatReturn.SUCCESS;
    }

    /**
     * dat_psp_create: listens on a connection qualifier; requests arrive as DAT_CONNECTION_REQUEST_EVENT on
     * {@code evd}.
     *
     * @param ia the IA
     * @param connQual the connection qualifier
     * @param evd an EVD accepting the CR stream
     * @param flags DAT_PSP_CONSUMER_FLAG (0); DAT_PSP_PROVIDER_FLAG is not supported by this provider
     * @param psp receives the service point
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (IA or EVD_CR), DAT_CONN_QUAL_IN_USE, or DAT_INVALID_PARAMETER
     */
    public int pspCreate(Ia ia, long connQual, Evd evd, int flags, Out<Psp> psp) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (bad(evd, Evd.class) || evd.ia != ia || (evd.flags & Dat.EVD_CR_FLAG) == 0) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_CR);
        }
        if (flags == 1) {
            return err(DatReturn.MODEL_NOT_SUPPORTED, 0); // DAT_PSP_PROVIDER_FLAG: no provider-created endpoints
        }
        if (flags != 0) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG4);
        }
        if (ia.host.psps.containsKey(connQual) || ia.host.rsps.containsKey(connQual)) {
            return err(DatReturn.CONN_QUAL_IN_USE, 0);
        }
        Psp created = new Psp(ia.host.nextName("psp"), ia, connQual, evd, flags);
        ia.host.psps.put(connQual, created);
        evd.users++;
        ia.children.add(created);
        psp.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_psp_create_any: like dat_psp_create on a connection qualifier the provider picks, the lowest unused one
     * from {@link DatProvider#FIRST_ANY_CONN_QUAL}.
     *
     * @param ia the IA
     * @param evd an EVD accepting the CR stream
     * @param flags DAT_PSP_CONSUMER_FLAG (0)
     * @param psp receives the service point; its connection qualifier is {@link Psp#connQual()}
     * @return as dat_psp_create, or DAT_CONN_QUAL_UNAVAILABLE when none is left
     */
    public int pspCreateAny(Ia ia, Evd evd, int flags, Out<Psp> psp) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        long q = DatProvider.FIRST_ANY_CONN_QUAL;
        while (ia.host.psps.containsKey(q) || ia.host.rsps.containsKey(q)) {
            q++;
            if (q > 0xFFFFFFFFL) {
                return err(DatReturn.CONN_QUAL_UNAVAILABLE, 0);
            }
        }
        return pspCreate(ia, q, evd, flags, psp);
    }

    /**
     * dat_ep_reset: from DISCONNECTED back to UNCONNECTED, ready for another connection; a no-op in UNCONNECTED
     * (pre-posted receives stay). Completions not yet dequeued may be lost, as the man page allows.
     *
     * @param ep the endpoint
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_STATE in any other state
     */
    public int epReset(Ep ep) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (ep.state == Dat.EP_STATE_UNCONNECTED) {
            return DatReturn.SUCCESS;
        }
        if (ep.state != Dat.EP_STATE_DISCONNECTED) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        ep.ia.host.hca.reset(ep.qp);
        ep.state = Dat.EP_STATE_UNCONNECTED;
        ep.peer = null;
        ep.remoteHost = -1;
        ep.disconnectSent = false;
        ep.requestsInFlight = 0;
        ep.requestsReaped = ep.requestCompletions; // completions of the old connection free nothing more
        ep.receivesPosted = 0;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_psp_free: stops listening.
     *
     * @param psp the service point
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int pspFree(Psp psp) {
        if (bad(psp, Psp.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_PSP);
        }
        psp.freed = true;
        psp.ia.host.psps.remove(psp.connQual);
        psp.evd.users--;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cr_accept: accepts a connection request on a local endpoint. The endpoint becomes CONNECTED, with
     * DAT_CONNECTION_EVENT_ESTABLISHED, when the requester's RTU arrives.
     *
     * @param cr the connection request
     * @param ep an UNCONNECTED endpoint; for a request to an RSP, the RSP's endpoint, or null for it
     * @param privateData up to 56 bytes for the requester
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE (CR or EP), DAT_INVALID_STATE, or DAT_INVALID_PARAMETER
     */
    public int crAccept(Cr cr, Ep ep, byte[] privateData) {
        if (bad(cr, Cr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR);
        }
        if (cr.rsp != null && ep == null) {
            ep = cr.rsp.ep; // a request to an RSP already has its endpoint
        }
        if (bad(ep, Ep.class) || ep.ia.host != cr.ia.host || (cr.rsp != null && ep != cr.rsp.ep)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        int expected = cr.rsp != null ? Dat.EP_STATE_PASSIVE_CONNECTION_PENDING : Dat.EP_STATE_UNCONNECTED;
        if (ep.state != expected) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        if (privateData.length > ProviderCore.MAX_PRIVATE_DATA) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG3);
        }
        cr.freed = true;
        ep.state = Dat.EP_STATE_COMPLETION_PENDING;
        ep.peer = cr.remoteEp;
        ep.remoteHost = cr.remoteHost;
        ep.disconnectSent = false;
        ep.commId = cr.commId;
        ep.qp.connect(cr.remoteEp.qp);
        CmMessage rep = new CmMessage("REP", ep.ia.host.id, ep, cr.remoteEp, 0, privateData, false, cr.commId);
        received.replace(cr.commId, rep); // a REQ sent again gets this REP again
        sendAwaiting(ep, cr.remoteHost, rep);
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cr_handoff: hands a connection request to the service point listening on another connection qualifier of
     * the same IA, which receives it as a new DAT_CONNECTION_REQUEST_EVENT; the original request is destroyed.
     *
     * @param cr the connection request
     * @param handoff the other connection qualifier
     * @return DAT_SUCCESS, DAT_INVALID_HANDLE, or DAT_INVALID_PARAMETER (ARG2) when no PSP of the IA listens there
     */
    public int crHandoff(Cr cr, long handoff) {
        if (bad(cr, Cr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR);
        }
        Psp target = cr.ia.host.psps.get(handoff);
        if (cr.rsp != null || target == null || target.freed || target.ia != cr.ia || target == cr.psp) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        cr.freed = true;
        DatHost host = cr.ia.host;
        Cr moved = new Cr(host.nextName("cr"), cr.ia, target, cr.remoteEp, cr.remoteHost, cr.privateData);
        moved.commId = cr.commId;
        cr.ia.children.add(moved);
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, host.name)
                    .attr(TraceKey.EVENT, "DAT_CONNECTION_REQUEST_EVENT")
                    .attr(TraceKey.CR, moved.name()).attr(TraceKey.CONN_QUAL, handoff)
                    .attr(TraceKey.HANDED_OFF_FROM, cr.name()));
        }
        core.post(target.evd, new DatEvent(Dat.CONNECTION_REQUEST_EVENT, target.evd, null, 0, -1, 0, -1, moved, -1,
                sim.now(), false));
        return DatReturn.SUCCESS;
    }

    /**
     * dat_cr_reject: refuses a connection request; the requester gets DAT_CONNECTION_EVENT_PEER_REJECTED.
     *
     * @param cr the connection request
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE
     */
    public int crReject(Cr cr) {
        if (bad(cr, Cr.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CR);
        }
        cr.freed = true;
        if (cr.rsp != null && !cr.rsp.ep.freed && cr.rsp.ep.state == Dat.EP_STATE_PASSIVE_CONNECTION_PENDING) {
            cr.rsp.ep.state = Dat.EP_STATE_UNCONNECTED; // the reserved endpoint may be reused
        }
        CmMessage rej = new CmMessage("REJ", cr.ia.host.id, null, cr.remoteEp, 0, new byte[0], true, cr.commId);
        received.replace(cr.commId, rej); // a REQ sent again gets this REJ again
        cr.ia.host.hca.sendCm(cr.remoteHost, rej);
        return DatReturn.SUCCESS;
    }

    /**
     * dat_ep_disconnect (rules 43, 45, 46). Graceful: the endpoint enters DISCONNECT_PENDING and lets outstanding
     * requests complete before it disconnects. Abrupt: outstanding operations are flushed now. Both end with
     * DAT_CONNECTION_EVENT_DISCONNECTED on each side's connect EVD.
     *
     * @param ep the endpoint
     * @param flags DAT_CLOSE_ABRUPT_FLAG or DAT_CLOSE_GRACEFUL_FLAG
     * @return DAT_SUCCESS (also a no-op in DISCONNECTED), DAT_INVALID_HANDLE, DAT_INVALID_PARAMETER, or
     *     DAT_INVALID_STATE in UNCONNECTED
     */
    public int epDisconnect(Ep ep, int flags) {
        if (bad(ep, Ep.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (flags != Dat.CLOSE_ABRUPT_FLAG && flags != Dat.CLOSE_GRACEFUL_FLAG) {
            return err(DatReturn.INVALID_PARAMETER, DatReturn.SUB_INVALID_ARG2);
        }
        switch (ep.state) {
            case Dat.EP_STATE_DISCONNECTED:
                return DatReturn.SUCCESS;
            case Dat.EP_STATE_ACTIVE_CONNECTION_PENDING:
            case Dat.EP_STATE_COMPLETION_PENDING:
                sim.cancel(ep.connectTimer);
                sendDisconnect(ep);
                ep.state = Dat.EP_STATE_DISCONNECTED;
                ep.ia.host.hca.flush(ep.qp);
                core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                return DatReturn.SUCCESS;
            case Dat.EP_STATE_CONNECTED:
            case Dat.EP_STATE_DISCONNECT_PENDING:
                if (flags == Dat.CLOSE_GRACEFUL_FLAG) {
                    if (ep.state == Dat.EP_STATE_CONNECTED) {
                        ep.state = Dat.EP_STATE_DISCONNECT_PENDING;
                        maybeFinishGracefulDisconnect(ep);
                    }
                } else {
                    // Rules 43, 45: abrupt disconnect flushes and forces DISCONNECTED at once, also during a
                    // graceful one; the DREP that follows changes nothing.
                    sendDisconnect(ep);
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    ep.ia.host.hca.flush(ep.qp);
                    core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
                return DatReturn.SUCCESS;
            default:
                return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
    }

    void maybeFinishGracefulDisconnect(Ep ep) {
        if (ep.state == Dat.EP_STATE_DISCONNECT_PENDING && !ep.disconnectSent && ep.qp.outstandingRequests() == 0) {
            sendDisconnect(ep);
            ep.ia.host.hca.flush(ep.qp);
        }
    }

    void sendDisconnect(Ep ep) {
        if (!ep.disconnectSent && ep.remoteHost >= 0) {
            ep.disconnectSent = true;
            CmMessage dreq = new CmMessage("DREQ", ep.ia.host.id, ep, ep.peer, 0, new byte[0], false, ep.commId);
            if (ep.peer != null) {
                sendAwaiting(ep, ep.remoteHost, dreq);
            } else {
                // Setup aborted before a REP named the peer's endpoint: nobody there to disconnect or to answer.
                stopAwaiting(ep);
                ep.ia.host.hca.sendCm(ep.remoteHost, dreq);
            }
        }
    }

    /**
     * The endpoint is being destroyed (dat_ep_free, an abrupt dat_ia_close): as IB CM when its id is destroyed, the
     * message it waits to see answered is not sent again.
     */
    void endpointDestroyed(Ep ep) {
        stopAwaiting(ep);
    }

    /**
     * Data arrived at a passive endpoint before the RTU (IB's communication-established event): the active side has
     * the REP, which is not sent again. The REQ stays known until the RTU comes: the data may have overtaken, on
     * another path, a REQ the active side sent again before the REP reached it.
     */
    void communicationEstablished(Ep ep) {
        answered(ep, "REP", ep.commId);
    }

    /** Sends a REQ, REP or DREQ and waits for its answer, sending it again on {@code cm.response_timeout}. */
    private void sendAwaiting(Ep ep, int dstHost, CmMessage m) {
        stopAwaiting(ep);
        ep.ia.host.hca.sendCm(dstHost, m);
        ep.cmAwaiting = m;
        ep.cmAwaitingHost = dstHost;
        ep.cmResends = 0;
        ep.cmTimer = sim.schedule(responseTimeout, () -> responseTimedOut(ep, m));
    }

    /** The answer came, or no longer matters: no more resends. */
    private void stopAwaiting(Ep ep) {
        if (ep.cmAwaiting != null) {
            sim.cancel(ep.cmTimer);
            ep.cmAwaiting = null;
        }
    }

    /** Stops waiting if the endpoint waits for the answer to a message of this type and connection. */
    private void answered(Ep ep, String type, long commId) {
        if (ep.cmAwaiting != null && ep.cmAwaiting.type().equals(type) && ep.cmAwaiting.commId() == commId) {
            stopAwaiting(ep);
        }
    }

    private void responseTimedOut(Ep ep, CmMessage m) {
        if (ep.cmAwaiting != m) {
            return;
        }
        DatHost host = ep.ia.host;
        String to = core.hosts.get(ep.cmAwaitingHost).name;
        if (ep.cmResends < maxRetries) {
            ep.cmResends++;
            if (trace.isEnabled()) {
                trace.fire(TraceEvent.of(sim.now(), CM_RETRY, host.name).ep(ep.name()).attr(TraceKey.MESSAGE, m.type())
                        .attr(TraceKey.ATTEMPT, ep.cmResends).attr(TraceKey.TO, to).attr(TraceKey.COMM_ID, m.commId()));
            }
            host.hca.sendCm(ep.cmAwaitingHost, m);
            ep.cmTimer = sim.schedule(responseTimeout, () -> responseTimedOut(ep, m));
            return;
        }
        ep.cmAwaiting = null;
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), CM_TIMEOUT, host.name).ep(ep.name()).attr(TraceKey.MESSAGE, m.type())
                    .attr(TraceKey.RESENDS, maxRetries).attr(TraceKey.TO, to).attr(TraceKey.COMM_ID, m.commId()));
        }
        boolean current = !ep.freed && ep.commId == m.commId();
        switch (m.type()) {
            case "REQ":
                if (current && ep.state == Dat.EP_STATE_ACTIVE_CONNECTION_PENDING) {
                    sim.cancel(ep.connectTimer);
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    host.hca.flush(ep.qp);
                    core.postConnectionEvent(ep, timeoutUnreachable ? Dat.CONNECTION_EVENT_UNREACHABLE
                            : Dat.CONNECTION_EVENT_TIMED_OUT);
                }
                return;
            case "REP":
                received.remove(m.commId());
                if (current && ep.state == Dat.EP_STATE_COMPLETION_PENDING) {
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    host.hca.flush(ep.qp);
                    core.postConnectionEvent(ep, timeoutUnreachable ? Dat.CONNECTION_EVENT_UNREACHABLE
                            : Dat.CONNECTION_EVENT_ACCEPT_COMPLETION_ERROR);
                }
                return;
            default: // DREQ: no DREP came; the endpoint disconnects locally all the same
                if (current && ep.state == Dat.EP_STATE_DISCONNECT_PENDING) {
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
        }
    }

    /** Tells whether a REQ or REP that arrives is one sent again, whose first sending was already answered. */
    private boolean duplicate(CmMessage m) {
        if (m.type().equals("REQ")) {
            return received.containsKey(m.commId());
        }
        if (m.type().equals("REP")) {
            Ep ep = m.to();
            return !ep.freed && ep.commId == m.commId() && ep.peer == m.from()
                    && (ep.state == Dat.EP_STATE_CONNECTED || ep.state == Dat.EP_STATE_DISCONNECT_PENDING);
        }
        return false;
    }

    void onCm(DatHost host, CmMessage m) {
        boolean duplicate = duplicate(m);
        if (trace.isEnabled()) {
            TraceEvent e = TraceEvent.of(sim.now(), TraceKind.CM, host.name).ep(m.to() != null ? m.to().name() : null)
                    .attr(TraceKey.MESSAGE, m.type()).attr(TraceKey.FROM, core.hosts.get(m.srcHost()).name);
            trace.fire(duplicate ? e.attr(TraceKey.DUPLICATE, true) : e);
        }
        switch (m.type()) {
            case "REQ": {
                if (duplicate) {
                    // Sent again: answer it again as the first time; while the consumer decides, IB CM drops it.
                    CmMessage reply = received.get(m.commId());
                    if (reply != null) {
                        host.hca.sendCm(m.srcHost(), reply);
                    }
                    return;
                }
                Rsp rsp = host.rsps.get(m.connQual());
                if (rsp != null && core.rsp.request(host, rsp, m)) {
                    received.put(m.commId(), null);
                    return;
                }
                Psp psp = host.psps.get(m.connQual());
                if (psp == null || psp.freed) {
                    host.hca.sendCm(m.srcHost(), new CmMessage("REJ", host.id, null, m.from(), 0, new byte[0],
                            false, m.commId()));
                    return;
                }
                Cr cr = new Cr(host.nextName("cr"), psp.ia, psp, m.from(), m.srcHost(), m.privateData());
                cr.commId = m.commId();
                received.put(m.commId(), null);
                psp.ia.children.add(cr);
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, host.name)
                            .attr(TraceKey.EVENT, "DAT_CONNECTION_REQUEST_EVENT").attr(TraceKey.CR, cr.name())
                            .attr(TraceKey.CONN_QUAL, m.connQual()));
                }
                core.post(psp.evd, new DatEvent(Dat.CONNECTION_REQUEST_EVENT, psp.evd, null, 0, -1, 0, -1, cr, -1,
                        sim.now(), false));
                return;
            }
            case "REP": {
                Ep ep = m.to();
                CmMessage rtu = new CmMessage("RTU", host.id, ep, m.from(), 0, new byte[0], false, m.commId());
                if (duplicate) {
                    host.hca.sendCm(m.srcHost(), rtu); // our RTU was lost: the passive side sent its REP again
                    return;
                }
                if (ep.freed || ep.state != Dat.EP_STATE_ACTIVE_CONNECTION_PENDING || ep.commId != m.commId()) {
                    host.hca.sendCm(m.srcHost(), new CmMessage("DREQ", host.id, ep, m.from(), 0, new byte[0],
                            false, m.commId()));
                    return;
                }
                stopAwaiting(ep);
                sim.cancel(ep.connectTimer);
                ep.peer = m.from();
                ep.peerPrivateData = m.privateData();
                ep.qp.connect(m.from().qp);
                ep.state = Dat.EP_STATE_CONNECTED;
                host.hca.sendCm(m.srcHost(), rtu);
                core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_ESTABLISHED);
                return;
            }
            case "RTU": {
                Ep ep = m.to();
                // The active side sent every REQ before this RTU, on the same path: none can come after it.
                received.remove(m.commId());
                if (!ep.freed && ep.state == Dat.EP_STATE_COMPLETION_PENDING && ep.commId == m.commId()) {
                    answered(ep, "REP", m.commId());
                    ep.state = Dat.EP_STATE_CONNECTED;
                    core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_ESTABLISHED);
                }
                return;
            }
            case "REJ": {
                Ep ep = m.to();
                if (!ep.freed && ep.state == Dat.EP_STATE_ACTIVE_CONNECTION_PENDING && ep.commId == m.commId()) {
                    stopAwaiting(ep);
                    sim.cancel(ep.connectTimer);
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    host.hca.flush(ep.qp);
                    core.postConnectionEvent(ep, m.consumerReject() ? Dat.CONNECTION_EVENT_PEER_REJECTED
                            : Dat.CONNECTION_EVENT_NON_PEER_REJECTED);
                }
                return;
            }
            case "DREQ": {
                Ep ep = m.to();
                if (ep == null) {
                    return;
                }
                host.hca.sendCm(m.srcHost(), new CmMessage("DREP", host.id, ep, m.from(), 0, new byte[0], false,
                        m.commId()));
                if (ep.freed || ep.commId != m.commId()) {
                    return; // a DREQ of an earlier connection of this endpoint, sent again: the DREP is all it needs
                }
                // Whatever the endpoint waited for (the RTU of its REP, the DREP of its own DREQ) no longer matters.
                stopAwaiting(ep);
                if (ep.state != Dat.EP_STATE_DISCONNECTED && ep.state != Dat.EP_STATE_UNCONNECTED) {
                    ep.disconnectSent = true;
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    host.hca.flush(ep.qp);
                    core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
                return;
            }
            case "DREP": {
                Ep ep = m.to();
                answered(ep, "DREQ", m.commId());
                if (!ep.freed && ep.state == Dat.EP_STATE_DISCONNECT_PENDING && ep.commId == m.commId()) {
                    ep.state = Dat.EP_STATE_DISCONNECTED;
                    core.postConnectionEvent(ep, Dat.CONNECTION_EVENT_DISCONNECTED);
                }
                return;
            }
            default:
                throw new IllegalStateException("unknown CM message " + m.type());
        }
    }
}
