package org.datsim.scenario.bridge;

import java.io.IOException;
import java.util.Map;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Cr;
import org.datsim.fabric.dat.DatEvent;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Psp;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.Rmr;
import org.datsim.fabric.dat.Rsp;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.consumer.CpuCosts;
import org.datsim.scenario.consumer.HandleTable;

/**
 * Executes a decoded request ({@link BridgeCall}) on the fabric's {@link DatProvider}, as a scenario process makes
 * the same call, and writes its reply's outputs: one switch over {@link Request}, every request a case and no
 * default. The CPU cost after a call is the consumer core's ({@link CpuCosts#after}); dat_evd_wait and dat_cno_wait
 * go to the program's {@link BridgeWait}; the reply framing, the trace and the recording are the process's.
 */
final class BridgeCalls {

    /** The most wall time a connect waits for the detached program of the host it connects to. */
    private static final long CONNECT_WAITS_FOR_PEER_NS = 100_000_000L;

    private final BridgeProcess p;
    private final BridgeServer server;
    private final DatProvider dat;
    private final HandleTable handles;
    private final CpuCosts costs;

    BridgeCalls(BridgeProcess p, BridgeServer server, HandleTable handles, CpuCosts costs) {
        this.p = p;
        this.server = server;
        this.dat = server.dat();
        this.handles = handles;
        this.costs = costs;
    }

    private <T extends DatHandle> T h(int id, Class<T> type) {
        return handles.get(id, type);
    }

    /**
     * Executes a request.
     *
     * @param c the decoded request
     * @return 0 when it replied, -1 when it blocked in a wait, or a delay after which an empty dequeue replies
     */
    long execute(BridgeCall c) throws IOException {
        Request r = c.request();
        switch (r) {
            case HELLO -> p.reply(DatReturn.SUCCESS);
            case IA_OPEN -> {
                BridgeCall.IaOpen o = (BridgeCall.IaOpen) c;
                Out<Ia> ia = new Out<>();
                int ret = dat.iaOpen(p.host(), server.iaNameFor(o.name()), o.asyncEvdQlen(), ia);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(8).putInt(handles.id(ia.value)).putInt(handles.id(ia.value.asyncEvd()));
                }
                p.finishReply(ret);
            }
            case IA_CLOSE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.iaClose(h(v.handle(), Ia.class), (int) v.value()));
            }
            case IA_QUERY -> {
                Ia ia = h(((BridgeCall.OneHandle) c).handle(), Ia.class);
                Out<Map<String, Long>> a = new Out<>();
                int ret = dat.iaQuery(ia, a);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(4).putInt(handles.id(ia.asyncEvd()));
                    Map<String, Long> attrs = new java.util.TreeMap<>(a.value);
                    attrs.put("hca_mtu", p.mtu());
                    p.putMap(attrs);
                }
                p.finishReply(ret);
            }
            case QUERY -> {
                BridgeCall.Query q = (BridgeCall.Query) c;
                DatHandle hd = handles.get(q.handle());
                Out<Map<String, Long>> a = new Out<>();
                int ret = dat.query(hd, q.type(), a);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.putMap(a.value);
                    if (hd instanceof Ep ep) {
                        p.room(4).putInt(p.remoteIp(ep));
                    }
                    if (hd instanceof Cr cr) {
                        byte[] pd = cr.privateData();
                        p.room(4 + pd.length).putInt(pd.length).put(pd);
                    }
                }
                p.finishReply(ret);
            }
            case SET_CTX -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.setConsumerContext(handles.get(v.handle()), v.value()));
            }
            case GET_CTX -> {
                Out<Long> v = new Out<>();
                int ret = dat.getConsumerContext(handles.get(((BridgeCall.OneHandle) c).handle()), v);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(8).putLong(v.value);
                }
                p.finishReply(ret);
            }
            case HANDLE_TYPE -> {
                Out<Integer> v = new Out<>();
                int ret = dat.getHandleType(handles.get(((BridgeCall.OneHandle) c).handle()), v);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(4).putInt(v.value);
                }
                p.finishReply(ret);
            }
            case PZ_CREATE -> {
                Out<Pz> pz = new Out<>();
                created(dat.pzCreate(h(((BridgeCall.OneHandle) c).handle(), Ia.class), pz), pz.value);
            }
            case PZ_FREE -> p.reply(dat.pzFree(h(((BridgeCall.OneHandle) c).handle(), Pz.class)));
            case EVD_CREATE -> {
                BridgeCall.EvdCreate e = (BridgeCall.EvdCreate) c;
                Ia ia = h(e.ia(), Ia.class);
                Cno cno = h(e.cno(), Cno.class);
                Out<Evd> evd = new Out<>();
                created(cno == null ? dat.evdCreate(ia, e.qlen(), e.flags(), evd)
                        : dat.evdCreate(ia, e.qlen(), cno, e.flags(), evd), evd.value);
            }
            case EVD_FREE -> p.reply(dat.evdFree(h(((BridgeCall.OneHandle) c).handle(), Evd.class)));
            case EVD_WAIT -> {
                BridgeCall.EvdWait w = (BridgeCall.EvdWait) c;
                return p.waits().evdWait(h(w.evd(), Evd.class), w.timeoutUs(), w.threshold());
            }
            case EVD_DEQUEUE -> {
                Evd evd = h(((BridgeCall.OneHandle) c).handle(), Evd.class);
                Out<DatEvent> ev = new Out<>();
                int ret = dat.evdDequeue(evd, ev);
                if (DatReturn.type(ret) == DatReturn.QUEUE_EMPTY) {
                    p.traceCall(ret); // traced when it ran, as a scenario's; the reply after the poll time
                    return p.emptyPollPs();
                }
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.putEvent(ev.value);
                }
                p.finishReply(ret);
            }
            case EVD_UNWAITABLE -> {
                BridgeCall.Toggle t = (BridgeCall.Toggle) c;
                Evd evd = h(t.handle(), Evd.class);
                p.reply(t.on() ? dat.evdSetUnwaitable(evd) : dat.evdClearUnwaitable(evd));
            }
            case EVD_ENABLE -> {
                BridgeCall.Toggle t = (BridgeCall.Toggle) c;
                p.reply(dat.evdSetEnabled(h(t.handle(), Evd.class), t.on()));
            }
            case EVD_RESIZE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.evdResize(h(v.handle(), Evd.class), (int) v.value()));
            }
            case EVD_POST_SE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.evdPostSe(h(v.handle(), Evd.class), v.value()));
            }
            case EVD_MODIFY_CNO -> {
                BridgeCall.EvdModifyCno m = (BridgeCall.EvdModifyCno) c;
                p.reply(dat.evdModifyCno(h(m.evd(), Evd.class), h(m.cno(), Cno.class)));
            }
            case CNO_CREATE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                Out<Cno> cno = new Out<>();
                created(dat.cnoCreate(h(v.handle(), Ia.class), v.value() != 0 ? "agent" : null, cno), cno.value);
            }
            case CNO_FREE -> p.reply(dat.cnoFree(h(((BridgeCall.OneHandle) c).handle(), Cno.class)));
            case CNO_WAIT -> {
                BridgeCall.CnoWait w = (BridgeCall.CnoWait) c;
                return p.waits().cnoWait(h(w.cno(), Cno.class), w.timeoutUs());
            }
            case CNO_MODIFY_AGENT -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.cnoModifyAgent(h(v.handle(), Cno.class), v.value() != 0 ? "agent" : null));
            }
            case LMR_CREATE -> {
                BridgeCall.LmrCreate l = (BridgeCall.LmrCreate) c;
                Out<Lmr> lmr = new Out<>();
                int ret = dat.lmrCreate(h(l.ia(), Ia.class), l.address(), l.length(), h(l.pz(), Pz.class),
                        l.privileges(), lmr);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    Lmr m = lmr.value;
                    p.memory().registered(m);
                    p.room(28).putInt(handles.id(m)).putInt(m.lmrContext()).putInt(m.rmrContext())
                            .putLong(m.length()).putLong(m.address());
                }
                p.finishReply(ret);
            }
            case LMR_FREE -> {
                Lmr l = h(((BridgeCall.OneHandle) c).handle(), Lmr.class);
                int ret = dat.lmrFree(l);
                if (DatReturn.isSuccess(ret)) {
                    p.memory().freed(l);
                }
                p.reply(ret);
            }
            case LMR_SYNC -> {
                BridgeCall.LmrSync s = (BridgeCall.LmrSync) c;
                Ia ia = h(s.ia(), Ia.class);
                p.reply(s.write() ? dat.lmrSyncRdmaWrite(ia, s.segments()) : dat.lmrSyncRdmaRead(ia, s.segments()));
            }
            case RMR_CREATE -> {
                Out<Rmr> rm = new Out<>();
                created(dat.rmrCreate(h(((BridgeCall.OneHandle) c).handle(), Pz.class), rm), rm.value);
            }
            case RMR_FREE -> p.reply(dat.rmrFree(h(((BridgeCall.OneHandle) c).handle(), Rmr.class)));
            case RMR_BIND -> {
                BridgeCall.RmrBind b = (BridgeCall.RmrBind) c;
                LmrTriplet[] t = b.iov();
                Out<Integer> ctx = new Out<>();
                Out<Long> op = new Out<>();
                int ret = dat.rmrBind(h(b.rmr(), Rmr.class), h(b.lmr(), Lmr.class), t.length > 0 ? t[0] : null,
                        b.privileges(), h(b.ep(), Ep.class), b.cookie(), b.flags(), ctx, op);
                p.owe(costs.after(r.cost(), ctx.value != null));
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(4).putInt(ctx.value);
                }
                p.finishReply(ret);
            }
            case EP_CREATE -> {
                BridgeCall.EpCreate e = (BridgeCall.EpCreate) c;
                Ia ia = h(e.ia(), Ia.class);
                Pz pz = h(e.pz(), Pz.class);
                Evd rv = h(e.recvEvd(), Evd.class);
                Evd rq = h(e.requestEvd(), Evd.class);
                Evd cn = h(e.connectEvd(), Evd.class);
                Srq srq = h(e.srq(), Srq.class);
                Out<Ep> ep = new Out<>();
                created(srq == null ? dat.epCreate(ia, pz, rv, rq, cn, e.attr(), ep)
                        : dat.epCreateWithSrq(ia, pz, rv, rq, cn, srq, e.attr(), ep), ep.value);
            }
            case EP_FREE -> p.reply(dat.epFree(h(((BridgeCall.OneHandle) c).handle(), Ep.class)));
            case EP_CONNECT -> {
                BridgeCall.EpConnect e = (BridgeCall.EpConnect) c;
                Ep ep = h(e.ep(), Ep.class);
                int hostId = Protocol.hostOf(e.ip());
                // A program connecting to a host whose program is outside DAT calls (detached) lets that program
                // come back first: dtestx's server sends its address over TCP and then creates its PSP, a race
                // that real hardware's address and route resolution (milliseconds) lets the server win.
                BridgeProcess peer = server.detachedOn(hostId);
                if (peer != null) {
                    peer.poll(Math.min(server.graceNs(), CONNECT_WAITS_FOR_PEER_NS));
                }
                int ret = dat.epConnect(ep, server.hostName(hostId), e.qual(), e.timeoutUs(), e.privateData());
                if (DatReturn.isSuccess(ret)) {
                    p.connected(ep, e.ip());
                }
                p.reply(ret);
            }
            case EP_DUP_CONNECT -> {
                BridgeCall.EpDupConnect d = (BridgeCall.EpDupConnect) c;
                p.reply(dat.epDupConnect(h(d.ep(), Ep.class), h(d.dupEp(), Ep.class), d.timeoutUs(),
                        d.privateData()));
            }
            case EP_DISCONNECT -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.epDisconnect(h(v.handle(), Ep.class), (int) v.value()));
            }
            case EP_RESET -> p.reply(dat.epReset(h(((BridgeCall.OneHandle) c).handle(), Ep.class)));
            case EP_GET_STATUS -> {
                Out<Integer> st = new Out<>();
                Out<Boolean> ri = new Out<>();
                Out<Boolean> qi = new Out<>();
                int ret = dat.epGetStatus(h(((BridgeCall.OneHandle) c).handle(), Ep.class), st, ri, qi);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(12).putInt(st.value).putInt(Boolean.TRUE.equals(ri.value) ? 1 : 0)
                            .putInt(Boolean.TRUE.equals(qi.value) ? 1 : 0);
                }
                p.finishReply(ret);
            }
            case POST_SEND, POST_RECV, POST_READ, POST_WRITE, POST_WRITE_IMMED, POST_ATOMIC -> post((BridgeCall.Post) c);
            case PSP_CREATE -> {
                BridgeCall.PspCreate s = (BridgeCall.PspCreate) c;
                Out<Psp> psp = new Out<>();
                created(dat.pspCreate(h(s.ia(), Ia.class), s.qual(), h(s.evd(), Evd.class), s.flags(), psp),
                        psp.value);
            }
            case PSP_CREATE_ANY -> {
                BridgeCall.PspCreateAny s = (BridgeCall.PspCreateAny) c;
                Out<Psp> psp = new Out<>();
                int ret = dat.pspCreateAny(h(s.ia(), Ia.class), h(s.evd(), Evd.class), s.flags(), psp);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    Out<Map<String, Long>> q = new Out<>();
                    dat.query(psp.value, DatHandle.TYPE_PSP, q);
                    p.room(12).putInt(handles.id(psp.value)).putLong(q.value.get("conn_qual"));
                }
                p.finishReply(ret);
            }
            case PSP_FREE -> p.reply(dat.pspFree(h(((BridgeCall.OneHandle) c).handle(), Psp.class)));
            case RSP_CREATE -> {
                BridgeCall.RspCreate s = (BridgeCall.RspCreate) c;
                Out<Rsp> rsp = new Out<>();
                created(dat.rspCreate(h(s.ia(), Ia.class), s.qual(), h(s.ep(), Ep.class), h(s.evd(), Evd.class),
                        rsp), rsp.value);
            }
            case RSP_FREE -> p.reply(dat.rspFree(h(((BridgeCall.OneHandle) c).handle(), Rsp.class)));
            case CR_ACCEPT -> {
                BridgeCall.CrAccept a = (BridgeCall.CrAccept) c;
                Cr cr = h(a.cr(), Cr.class);
                Ep ep = h(a.ep(), Ep.class);
                int ret = dat.crAccept(cr, ep, a.privateData());
                if (DatReturn.isSuccess(ret)) {
                    p.connected(ep, Protocol.ipOf(cr.remoteHost()));
                }
                p.reply(ret);
            }
            case CR_REJECT -> p.reply(dat.crReject(h(((BridgeCall.OneHandle) c).handle(), Cr.class)));
            case CR_HANDOFF -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.crHandoff(h(v.handle(), Cr.class), v.value()));
            }
            case SRQ_CREATE -> {
                BridgeCall.SrqCreate s = (BridgeCall.SrqCreate) c;
                Out<Srq> srq = new Out<>();
                created(dat.srqCreate(h(s.ia(), Ia.class), h(s.pz(), Pz.class), s.maxRecvDtos(), s.maxRecvIov(),
                        s.lowWatermark(), srq), srq.value);
            }
            case SRQ_FREE -> p.reply(dat.srqFree(h(((BridgeCall.OneHandle) c).handle(), Srq.class)));
            case SRQ_POST_RECV -> {
                BridgeCall.SrqPostRecv s = (BridgeCall.SrqPostRecv) c;
                Out<Long> op = new Out<>();
                int ret = dat.srqPostRecv(h(s.srq(), Srq.class), s.iov(), s.cookie(), op);
                p.owe(costs.after(r.cost(), op.value != null));
                p.reply(ret);
            }
            case SRQ_RESIZE -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.srqResize(h(v.handle(), Srq.class), (int) v.value()));
            }
            case SRQ_SET_LW -> {
                BridgeCall.HandleValue v = (BridgeCall.HandleValue) c;
                p.reply(dat.srqSetLw(h(v.handle(), Srq.class), (int) v.value()));
            }
            case EP_RECV_QUERY -> {
                Out<Integer> a = new Out<>();
                Out<Integer> b = new Out<>();
                int ret = dat.epRecvQuery(h(((BridgeCall.OneHandle) c).handle(), Ep.class), a, b);
                p.start(ret);
                if (DatReturn.isSuccess(ret)) {
                    p.room(8).putInt(a.value).putInt(b.value);
                }
                p.finishReply(ret);
            }
            case EP_SET_WATERMARK -> {
                BridgeCall.Watermark w = (BridgeCall.Watermark) c;
                p.reply(dat.epSetWatermark(h(w.ep(), Ep.class), w.softHigh(), w.hardHigh()));
            }
            case UNSUPPORTED -> {
                p.unsupported(((BridgeCall.Unsupported) c).what());
                p.reply(DatReturn.NOT_IMPLEMENTED);
            }
            case SIDE -> {
                server.message("process on host " + p.host().name() + " sent request " + r.code()
                        + " (a side channel's first frame) on its call connection");
                p.reply(DatReturn.NOT_IMPLEMENTED);
            }
        }
        return 0;
    }

    /** An endpoint post or an IB extension's: every kind of post is a case (no default), as a scenario's. */
    private void post(BridgeCall.Post c) throws IOException {
        Ep ep = h(c.ep(), Ep.class);
        Out<Long> op = new Out<>();
        int ret = switch (c.kind()) {
            case SEND -> dat.postSend(ep, c.iov(), c.cookie(), c.flags(), op);
            case RECV -> dat.postRecv(ep, c.iov(), c.cookie(), c.flags(), op);
            case RDMA_READ -> dat.postRdmaRead(ep, c.iov(), c.cookie(), c.remote(), c.flags(), op);
            case RDMA_WRITE -> dat.postRdmaWrite(ep, c.iov(), c.cookie(), c.remote(), c.flags(), op);
            case RDMA_WRITE_IMMED -> dat.postRdmaWriteImmed(ep, c.iov(), c.cookie(), c.remote(), c.immediate(),
                    c.flags(), op);
            case FETCH_AND_ADD -> dat.postFetchAndAdd(ep, c.first(), c.iov(), c.cookie(), c.remote(), c.flags(), op);
            case CMP_AND_SWAP -> dat.postCmpAndSwap(ep, c.first(), c.second(), c.iov(), c.cookie(), c.remote(),
                    c.flags(), op);
        };
        p.owe(costs.after(c.request().cost(), op.value != null));
        p.reply(ret);
    }

    /** Replies with the handle an Out received (0 when the call failed). */
    private void created(int ret, DatHandle h) throws IOException {
        p.start(ret);
        if (DatReturn.isSuccess(ret)) {
            p.room(4).putInt(handles.id(h));
        }
        p.finishReply(ret);
    }
}
