package org.datsim.scenario.run;

import java.util.Set;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Rmr;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.load.DtoCall;
import org.datsim.scenario.load.LmrSyncCall;
import org.datsim.scenario.load.PostCall;
import org.datsim.scenario.load.RmrBindCall;
import org.datsim.scenario.load.SrqPostRecvCall;
import org.datsim.scenario.load.Step;

/**
 * The data transfer calls: the endpoint posts (Send, receive, RDMA Write and Read, the IB atomics), receives posted
 * to an SRQ, dat_rmr_bind (which rides an endpoint's request queue), and the LMR syncs that make transferred data
 * visible on non-coherent memory. A post binds its operation id. Every call here is typed by the loader
 * ({@link DtoCall}): the family switches over its form, every form a case, and reads no argument by name.
 */
final class DtoCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = Set.of("dat_ep_post_send", "dat_ep_post_recv", "dat_ep_post_rdma_write",
            "dat_ep_post_rdma_read", "dat_ib_post_rdma_write_immed", "dat_ib_post_fetch_and_add",
            "dat_ib_post_cmp_and_swap", "dat_srq_post_recv", "dat_rmr_bind", "dat_lmr_sync_rdma_read", "dat_lmr_sync_rdma_write");

    /** The outputs of one dat_rmr_bind: the context it returned, the range it asked for, its operation id. */
    record BindResult(long context, long address, long length, long op) {
    }

    private DtoCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        DtoCall c = s.dto();
        if (c == null) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        Args a = p.args();
        return switch (c.form()) {
            case POST -> post(p, s, (PostCall) c);
            case SRQ_POST_RECV -> {
                SrqPostRecvCall r = (SrqPostRecvCall) c;
                Out<Long> op = new Out<>();
                long cookie = a.number(r.userCookie(), 0);
                int ret = p.dat().srqPostRecv(a.handle(r.srq(), Srq.class), a.iov(r.localIov()), cookie, op);
                yield posted(p, s, ret, null, cookie, op);
            }
            case RMR_BIND -> rmrBind(p, s, (RmrBindCall) c);
            case LMR_SYNC -> {
                LmrSyncCall l = (LmrSyncCall) c;
                Ia ia = a.handle(l.ia(), Ia.class);
                LmrTriplet[] segments = a.iov(l.localSegments());
                yield Outcome.finish(p, s, l.write() ? p.dat().lmrSyncRdmaWrite(ia, segments)
                        : p.dat().lmrSyncRdmaRead(ia, segments), null);
            }
        };
    }

    /** Executes an endpoint post from its typed call: every kind of post is a case (no default). */
    private static long post(ConsumerProcess p, Step s, PostCall c) {
        Args a = p.args();
        DatProvider dat = p.dat();
        Ep ep = a.handle(c.ep(), Ep.class);
        LmrTriplet[] iov = a.iov(c.localIov());
        long cookie = a.number(c.userCookie(), 0);
        int flags = a.flags(c.completionFlags(), Dat.COMPLETION_FLAGS);
        Out<Long> op = new Out<>();
        int ret = switch (c.kind()) {
            case SEND -> dat.postSend(ep, iov, cookie, flags, op);
            case RECV -> dat.postRecv(ep, iov, cookie, flags, op);
            case RDMA_WRITE -> dat.postRdmaWrite(ep, iov, cookie, a.rmr(c.remoteIov()), flags, op);
            case RDMA_READ -> dat.postRdmaRead(ep, iov, cookie, a.rmr(c.remoteIov()), flags, op);
            case RDMA_WRITE_IMMED -> dat.postRdmaWriteImmed(ep, iov, cookie, a.rmr(c.remoteIov()),
                    (int) a.number(c.immediateData(), 0), flags, op);
            case FETCH_AND_ADD -> dat.postFetchAndAdd(ep, a.number(c.addValue(), 0), iov, cookie,
                    a.rmr(c.remoteIov()), flags, op);
            case CMP_AND_SWAP -> dat.postCmpAndSwap(ep, a.number(c.cmpValue(), 0), a.number(c.swapValue(), 0), iov,
                    cookie, a.rmr(c.remoteIov()), flags, op);
        };
        posted(p, s, ret, ep, cookie, op);
        // A request the provider accepted rang the HCA's doorbell (CallCost): the CPU stays busy while the MMIO
        // write drains. A receive only updates the doorbell record in host memory.
        return p.costs().after(s.spec().cost(), op.value != null);
    }

    /** Traces a post call with its cookie and, if it was accepted, its operation id, which its {@code out} binds. */
    private static long posted(ConsumerProcess p, Step s, int ret, Ep ep, long cookie, Out<Long> op) {
        TraceEvent e = Outcome.call(p, s, ret, ep).cookie(cookie);
        if (op.value != null) {
            e.op(op.value);
            p.args().bind(s, op.value);
        }
        p.runner().trace(e);
        p.result().ret(ret);
        return 0;
    }

    private static long rmrBind(ConsumerProcess p, Step s, RmrBindCall b) {
        Args a = p.args();
        Ep ep = a.handle(b.ep(), Ep.class);
        Lmr lmr = a.handle(b.lmr(), Lmr.class);
        long offset = a.number(b.offset(), 0);
        long length = a.number(b.length(), 0);
        LmrTriplet range = lmr != null ? new LmrTriplet(lmr.lmrContext(), lmr.address() + offset, length)
                : new LmrTriplet(0, offset, length);
        long cookie = a.number(b.userCookie(), 0);
        Out<Integer> ctx = new Out<>();
        Out<Long> op = new Out<>();
        int ret = p.dat().rmrBind(a.handle(b.rmr(), Rmr.class), lmr, range, a.flags(b.memPriv(), Dat.MEM_PRIV), ep,
                cookie, a.flags(b.completionFlags(), Dat.COMPLETION_FLAGS), ctx, op);
        TraceEvent e = Outcome.call(p, s, ret, ep).cookie(cookie);
        if (ctx.value != null) {
            long context = (long) ctx.value & 0xffffffffL;
            e.op(op.value).attr(TraceKey.RMR_CONTEXT, context);
            a.bind(s, new BindResult(context, range.address(), length, op.value));
        }
        p.runner().trace(e);
        p.result().ret(ret);
        return p.costs().after(s.spec().cost(), ctx.value != null); // a bind is a WQE on the send queue
    }
}
