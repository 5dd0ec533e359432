package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.datsim.fabric.dat.Cr;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Psp;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.Rsp;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.load.Step;

/**
 * The calls of endpoints and the connections they make: creating, changing, resetting and freeing endpoints, the
 * service points that listen (PSP, RSP), the connection requests that arrive (accept, reject, hand off), connect
 * and disconnect, and the endpoint's status.
 */
final class ConnectionCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = Set.of("dat_ep_create", "dat_ep_create_with_srq", "dat_ep_free",
            "dat_ep_connect", "dat_ep_dup_connect", "dat_ep_disconnect", "dat_ep_get_status", "dat_ep_reset",
            "dat_ep_modify", "dat_ep_set_watermark", "dat_psp_create", "dat_psp_create_any", "dat_psp_free",
            "dat_rsp_create", "dat_rsp_free", "dat_cr_accept", "dat_cr_handoff", "dat_cr_reject");

    private ConnectionCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        String call = s.spec().name();
        Args a = p.args();
        DatProvider dat = p.dat();
        int ret;
        String epName = null;
        switch (call) {
            case "dat_ep_create": {
                Out<Ep> ep = new Out<>();
                ret = dat.epCreate(a.handle(s, "ia", Ia.class), a.handle(s, "pz", Pz.class),
                        a.handle(s, "recv_evd", Evd.class), a.handle(s, "request_evd", Evd.class),
                        a.handle(s, "connect_evd", Evd.class), a.epAttr(s), ep);
                a.bind(s, ep.value);
                epName = ep.value != null ? ep.value.name() : null;
                break;
            }
            case "dat_ep_create_with_srq": {
                Out<Ep> ep = new Out<>();
                ret = dat.epCreateWithSrq(a.handle(s, "ia", Ia.class), a.handle(s, "pz", Pz.class),
                        a.handle(s, "recv_evd", Evd.class), a.handle(s, "request_evd", Evd.class),
                        a.handle(s, "connect_evd", Evd.class), a.handle(s, "srq", Srq.class), a.epAttr(s), ep);
                a.bind(s, ep.value);
                epName = ep.value != null ? ep.value.name() : null;
                break;
            }
            case "dat_ep_free":
                ret = dat.epFree(a.handle(s, "ep", Ep.class));
                break;
            case "dat_ep_connect": {
                Ep ep = a.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epConnect(ep, a.hostArg(s, "remote_ia_address"), a.number(s, "remote_conn_qual", 0),
                        a.timeoutUs(s), a.privateData(s));
                break;
            }
            case "dat_ep_dup_connect": {
                Ep ep = a.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epDupConnect(ep, a.handle(s, "dup_ep", Ep.class), a.timeoutUs(s), a.privateData(s));
                break;
            }
            case "dat_ep_disconnect": {
                Ep ep = a.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epDisconnect(ep, a.flags(s, "flags", Dat.CLOSE_FLAGS));
                break;
            }
            case "dat_ep_get_status":
                return status(p, s);
            case "dat_ep_reset": {
                Ep ep = a.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epReset(ep);
                break;
            }
            case "dat_ep_modify": {
                Ep ep = a.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epModify(ep, ep == null ? null : a.epAttr(s, "ep_param", ep.attributes()));
                break;
            }
            case "dat_ep_set_watermark":
                ret = dat.epSetWatermark(a.handle(s, "ep", Ep.class),
                        Args.count(a.number(s, "soft_high_watermark", -1)),
                        Args.count(a.number(s, "hard_high_watermark", -1)));
                break;
            case "dat_psp_create": {
                Out<Psp> psp = new Out<>();
                ret = dat.pspCreate(a.handle(s, "ia", Ia.class), a.number(s, "conn_qual", 0),
                        a.handle(s, "evd", Evd.class), a.flags(s, "psp_flags", Dat.PSP_FLAGS), psp);
                a.bind(s, psp.value);
                break;
            }
            case "dat_psp_create_any": {
                Out<Psp> psp = new Out<>();
                ret = dat.pspCreateAny(a.handle(s, "ia", Ia.class), a.handle(s, "evd", Evd.class),
                        a.flags(s, "psp_flags", Dat.PSP_FLAGS), psp);
                a.bind(s, psp.value);
                break;
            }
            case "dat_psp_free":
                ret = dat.pspFree(a.handle(s, "psp", Psp.class));
                break;
            case "dat_rsp_create": {
                Out<Rsp> rsp = new Out<>();
                DatHandle ep = a.handle(s, "ep");
                ret = ep != null && !(ep instanceof Ep)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP)
                        : dat.rspCreate(a.handle(s, "ia", Ia.class), a.number(s, "conn_qual", 0), (Ep) ep,
                                a.handle(s, "evd", Evd.class), rsp);
                a.bind(s, rsp.value);
                break;
            }
            case "dat_rsp_free":
                ret = dat.rspFree(a.handle(s, "rsp", Rsp.class));
                break;
            case "dat_cr_accept": {
                Ep ep = a.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.crAccept(a.handle(s, "cr", Cr.class), ep, a.privateData(s));
                break;
            }
            case "dat_cr_handoff":
                ret = dat.crHandoff(a.handle(s, "cr", Cr.class), a.number(s, "handoff", 0));
                break;
            case "dat_cr_reject":
                ret = dat.crReject(a.handle(s, "cr", Cr.class));
                break;
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
        return Outcome.finish(p, s, ret, epName);
    }

    /** dat_ep_get_status: binds {state, recv_idle, request_idle} and checks each against the step's expectations. */
    private static long status(ConsumerProcess p, Step s) {
        Out<Integer> state = new Out<>();
        Out<Boolean> recvIdle = new Out<>();
        Out<Boolean> requestIdle = new Out<>();
        int ret = p.dat().epGetStatus(p.args().handle(s, "ep", Ep.class), state, recvIdle, requestIdle);
        p.runner().trace(Outcome.call(p, s, ret, null));
        CallResult r = p.result();
        r.ret(ret);
        if (state.value != null) {
            Map<String, Long> status = new LinkedHashMap<>();
            status.put("state", (long) state.value);
            status.put("recv_idle", recvIdle.value ? 1L : 0L);
            status.put("request_idle", requestIdle.value ? 1L : 0L);
            p.args().bind(s, status);
            r.state = state.value;
            r.recvIdle = recvIdle.value;
            r.requestIdle = requestIdle.value;
        }
        return 0;
    }
}
