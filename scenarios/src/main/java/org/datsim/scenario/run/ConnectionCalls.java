package org.datsim.scenario.run;

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
import org.datsim.scenario.load.Arg;
import org.datsim.scenario.load.ConnectionCall;
import org.datsim.scenario.load.Step;

/**
 * The calls of endpoints and the connections they make: creating, changing, resetting and freeing endpoints, the
 * service points that listen (PSP, RSP), the connection requests that arrive (accept, reject, hand off), connect
 * and disconnect, and the endpoint's status. Every call here is typed by the loader ({@link ConnectionCall}): the
 * family switches over its kind, every kind a case, and reads no argument by name.
 */
final class ConnectionCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = org.datsim.scenario.load.CallKind.names(ConnectionCall.Kind.values());

    private ConnectionCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        if (!(s.typed() instanceof ConnectionCall)) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        ConnectionCall c = (ConnectionCall) s.typed();
        Args a = p.args();
        DatProvider dat = p.dat();
        return switch (c.kind()) {
            case EP_CREATE, EP_CREATE_WITH_SRQ -> {
                ConnectionCall.EpCreate o = (ConnectionCall.EpCreate) c;
                Out<Ep> ep = new Out<>();
                Ia ia = a.handle(o.ia(), Ia.class);
                Pz pz = a.handle(o.pz(), Pz.class);
                Evd recv = a.handle(o.recvEvd(), Evd.class);
                Evd request = a.handle(o.requestEvd(), Evd.class);
                Evd connect = a.handle(o.connectEvd(), Evd.class);
                int ret = c.kind() == ConnectionCall.Kind.EP_CREATE
                        ? dat.epCreate(ia, pz, recv, request, connect, a.epAttr(o.epAttr(), null), ep)
                        : dat.epCreateWithSrq(ia, pz, recv, request, connect, a.handle(o.srq(), Srq.class),
                                a.epAttr(o.epAttr(), null), ep);
                a.bind(s, ep.value);
                String epName = ep.value != null ? ep.value.name() : null;
                yield Outcome.finish(p, s, ret, epName);
            }
            case EP_FREE -> Outcome.finish(p, s, dat.epFree(a.handle(handle(c), Ep.class)), null);
            case EP_CONNECT -> {
                ConnectionCall.EpConnect o = (ConnectionCall.EpConnect) c;
                Ep ep = a.handle(o.ep(), Ep.class);
                String epName = ep != null ? ep.name() : null;
                int ret = dat.epConnect(ep, a.hostArg(o.remoteIaAddress()), a.number(o.remoteConnQual(), 0),
                        a.timeoutUs(o.timeout()), a.privateData(o.privateData()));
                yield Outcome.finish(p, s, ret, epName);
            }
            case EP_DUP_CONNECT -> {
                ConnectionCall.EpDupConnect o = (ConnectionCall.EpDupConnect) c;
                Ep ep = a.handle(o.ep(), Ep.class);
                String epName = ep != null ? ep.name() : null;
                int ret = dat.epDupConnect(ep, a.handle(o.dupEp(), Ep.class), a.timeoutUs(o.timeout()),
                        a.privateData(o.privateData()));
                yield Outcome.finish(p, s, ret, epName);
            }
            case EP_DISCONNECT -> {
                ConnectionCall.HandleFlags o = (ConnectionCall.HandleFlags) c;
                Ep ep = a.handle(o.handle(), Ep.class);
                String epName = ep != null ? ep.name() : null;
                int ret = dat.epDisconnect(ep, a.flags(o.flags(), Dat.CLOSE_FLAGS));
                yield Outcome.finish(p, s, ret, epName);
            }
            case EP_GET_STATUS -> status(p, s, handle(c));
            case EP_RESET -> {
                Ep ep = a.handle(handle(c), Ep.class);
                String epName = ep != null ? ep.name() : null;
                int ret = dat.epReset(ep);
                yield Outcome.finish(p, s, ret, epName);
            }
            case EP_MODIFY -> {
                ConnectionCall.EpModify o = (ConnectionCall.EpModify) c;
                Ep ep = a.handle(o.ep(), Ep.class);
                String epName = ep != null ? ep.name() : null;
                int ret = dat.epModify(ep, ep == null ? null : a.epAttr(o.epParam(), ep.attributes()));
                yield Outcome.finish(p, s, ret, epName);
            }
            case EP_SET_WATERMARK -> {
                ConnectionCall.EpSetWatermark o = (ConnectionCall.EpSetWatermark) c;
                int ret = dat.epSetWatermark(a.handle(o.ep(), Ep.class),
                        Args.count(a.number(o.softHighWatermark(), -1)),
                        Args.count(a.number(o.hardHighWatermark(), -1)));
                yield Outcome.finish(p, s, ret, null);
            }
            case PSP_CREATE, PSP_CREATE_ANY -> {
                ConnectionCall.PspCreate o = (ConnectionCall.PspCreate) c;
                Out<Psp> psp = new Out<>();
                int ret = c.kind() == ConnectionCall.Kind.PSP_CREATE
                        ? dat.pspCreate(a.handle(o.ia(), Ia.class), a.number(o.connQual(), 0),
                                a.handle(o.evd(), Evd.class), a.flags(o.pspFlags(), Dat.PSP_FLAGS), psp)
                        : dat.pspCreateAny(a.handle(o.ia(), Ia.class), a.handle(o.evd(), Evd.class),
                                a.flags(o.pspFlags(), Dat.PSP_FLAGS), psp);
                a.bind(s, psp.value);
                yield Outcome.finish(p, s, ret, null);
            }
            case PSP_FREE -> Outcome.finish(p, s, dat.pspFree(a.handle(handle(c), Psp.class)), null);
            case RSP_CREATE -> {
                ConnectionCall.RspCreate o = (ConnectionCall.RspCreate) c;
                Out<Rsp> rsp = new Out<>();
                DatHandle ep = a.handle(o.ep());
                int ret = ep != null && !(ep instanceof Ep)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP)
                        : dat.rspCreate(a.handle(o.ia(), Ia.class), a.number(o.connQual(), 0), (Ep) ep,
                                a.handle(o.evd(), Evd.class), rsp);
                a.bind(s, rsp.value);
                yield Outcome.finish(p, s, ret, null);
            }
            case RSP_FREE -> Outcome.finish(p, s, dat.rspFree(a.handle(handle(c), Rsp.class)), null);
            case CR_ACCEPT -> {
                ConnectionCall.CrAccept o = (ConnectionCall.CrAccept) c;
                Ep ep = a.handle(o.ep(), Ep.class);
                String epName = ep != null ? ep.name() : null;
                int ret = dat.crAccept(a.handle(o.cr(), Cr.class), ep, a.privateData(o.privateData()));
                yield Outcome.finish(p, s, ret, epName);
            }
            case CR_HANDOFF -> {
                ConnectionCall.CrHandoff o = (ConnectionCall.CrHandoff) c;
                int ret = dat.crHandoff(a.handle(o.cr(), Cr.class), a.number(o.handoff(), 0));
                yield Outcome.finish(p, s, ret, null);
            }
            case CR_REJECT -> Outcome.finish(p, s, dat.crReject(a.handle(handle(c), Cr.class)), null);
        };
    }

    /** The handle of a call of one handle. */
    private static Arg handle(ConnectionCall c) {
        return ((ConnectionCall.OneHandle) c).handle();
    }

    /** dat_ep_get_status: binds {state, recv_idle, request_idle} and checks each against the step's expectations. */
    private static long status(ConsumerProcess p, Step s, Arg ep) {
        Out<Integer> state = new Out<>();
        Out<Boolean> recvIdle = new Out<>();
        Out<Boolean> requestIdle = new Out<>();
        int ret = p.dat().epGetStatus(p.args().handle(ep, Ep.class), state, recvIdle, requestIdle);
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
