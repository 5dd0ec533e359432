package org.datsim.fabric.dat;

import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceKind;

/**
 * The reserved service point calls: dat_rsp_create and dat_rsp_free, and the arrival of the one connection request
 * an RSP generates (a CR for its endpoint, which moves from RESERVED to PASSIVE_CONNECTION_PENDING).
 */
final class RspCalls extends ProviderPart {

    RspCalls(ProviderCore core) {
        super(core);
    }

    /**
     * dat_rsp_create: reserves a connection qualifier for one endpoint, which goes to DAT_EP_STATE_RESERVED.
     *
     * @param ia the IA
     * @param connQual the connection qualifier
     * @param ep the endpoint, UNCONNECTED; null (DAT_HANDLE_NULL, a provider-created endpoint) is not supported
     * @param evd an EVD accepting the CR stream
     * @param rsp receives the reserved service point
     * @return DAT_SUCCESS; DAT_INVALID_HANDLE (IA, EP or EVD_CR); DAT_MODEL_NOT_SUPPORTED for a null endpoint;
     *     DAT_INVALID_STATE with the endpoint's state when it is not UNCONNECTED; DAT_CONN_QUAL_IN_USE when a PSP
     *     or RSP of the host listens there
     */
    public int rspCreate(Ia ia, long connQual, Ep ep, Evd evd, Out<Rsp> rsp) {
        if (bad(ia, Ia.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_IA);
        }
        if (ep == null) {
            return err(DatReturn.MODEL_NOT_SUPPORTED, 0); // no provider-created endpoints, as DAT_PSP_PROVIDER_FLAG
        }
        if (bad(ep, Ep.class) || ep.ia != ia) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP);
        }
        if (bad(evd, Evd.class) || evd.ia != ia || (evd.flags & Dat.EVD_CR_FLAG) == 0) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EVD_CR);
        }
        if (ep.state != Dat.EP_STATE_UNCONNECTED) {
            return err(DatReturn.INVALID_STATE, ep.stateSubtype());
        }
        if (ia.host.psps.containsKey(connQual) || ia.host.rsps.containsKey(connQual)) {
            return err(DatReturn.CONN_QUAL_IN_USE, 0);
        }
        Rsp created = new Rsp(ia.host.nextName("rsp"), ia, connQual, ep, evd);
        ia.host.rsps.put(connQual, created);
        ep.state = Dat.EP_STATE_RESERVED;
        evd.users++;
        ia.children.add(created);
        rsp.value = created;
        return DatReturn.SUCCESS;
    }

    /**
     * dat_rsp_free: stops listening; an endpoint still RESERVED returns to UNCONNECTED.
     *
     * @param rsp the reserved service point
     * @return DAT_SUCCESS or DAT_INVALID_HANDLE/RSP
     */
    public int rspFree(Rsp rsp) {
        if (bad(rsp, Rsp.class)) {
            return err(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_RSP);
        }
        rsp.freed = true;
        if (rsp.ia.host.rsps.get(rsp.connQual) == rsp) {
            rsp.ia.host.rsps.remove(rsp.connQual);
        }
        if (!rsp.ep.freed && rsp.ep.state == Dat.EP_STATE_RESERVED) {
            rsp.ep.state = Dat.EP_STATE_UNCONNECTED;
        }
        rsp.evd.users--;
        return DatReturn.SUCCESS;
    }

    /**
     * A connection request arrived for an RSP: the first one becomes a CR for its endpoint; the RSP then stops
     * listening, and a later request to its qualifier is rejected by the connection manager.
     *
     * @return true if the RSP took the request
     */
    boolean request(DatHost host, Rsp rsp, CmMessage m) {
        if (rsp.used || rsp.ep.freed || rsp.ep.state != Dat.EP_STATE_RESERVED) {
            return false;
        }
        rsp.used = true;
        host.rsps.remove(rsp.connQual);
        rsp.ep.state = Dat.EP_STATE_PASSIVE_CONNECTION_PENDING;
        Cr cr = new Cr(host.nextName("cr"), rsp.ia, null, m.from(), m.srcHost(), m.privateData());
        cr.rsp = rsp;
        cr.commId = m.commId();
        rsp.ia.children.add(cr);
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), TraceKind.EVENT, host.name).ep(rsp.ep.name())
                    .attr(TraceKey.EVENT, "DAT_CONNECTION_REQUEST_EVENT").attr(TraceKey.CR, cr.name())
                    .attr(TraceKey.CONN_QUAL, rsp.connQual).attr(TraceKey.RSP, rsp.name()));
        }
        core.post(rsp.evd, new DatEvent(Dat.CONNECTION_REQUEST_EVENT, rsp.evd, rsp.ep, 0, -1, 0, -1, cr, -1,
                sim.now(), false));
        return true;
    }
}
