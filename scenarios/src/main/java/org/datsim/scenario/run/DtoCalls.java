package org.datsim.scenario.run;

import java.util.Set;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.LmrTriplet;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Rmr;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.load.PostCall;
import org.datsim.scenario.load.Step;

/**
 * The data transfer calls: the endpoint posts (Send, receive, RDMA Write and Read, the IB atomics), receives posted
 * to an SRQ, dat_rmr_bind (which rides an endpoint's request queue), and the LMR syncs that make transferred data
 * visible on non-coherent memory. A post binds its operation id.
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
        if (s.post() != null) {
            return post(p, s, s.post()); // the endpoint posts are typed by the loader
        }
        String call = s.spec().name();
        Args a = p.args();
        switch (call) {
            case "dat_srq_post_recv": {
                Out<Long> op = new Out<>();
                long cookie = a.number(s, "user_cookie", 0);
                int ret = p.dat().srqPostRecv(a.handle(s, "srq", Srq.class), a.iov(s, "local_iov"), cookie, op);
                return posted(p, s, ret, null, cookie, op);
            }
            case "dat_rmr_bind":
                return rmrBind(p, s);
            case "dat_lmr_sync_rdma_read":
                return Outcome.finish(p, s, p.dat().lmrSyncRdmaRead(a.handle(s, "ia", Ia.class),
                        a.iov(s, "local_segments")), null);
            case "dat_lmr_sync_rdma_write":
                return Outcome.finish(p, s, p.dat().lmrSyncRdmaWrite(a.handle(s, "ia", Ia.class),
                        a.iov(s, "local_segments")), null);
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
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

    private static long rmrBind(ConsumerProcess p, Step s) {
        Args a = p.args();
        Ep ep = a.handle(s, "ep", Ep.class);
        Lmr lmr = a.handle(s, "lmr", Lmr.class);
        long offset = a.number(s, "offset", 0);
        long length = a.number(s, "length", 0);
        LmrTriplet range = lmr != null ? new LmrTriplet(lmr.lmrContext(), lmr.address() + offset, length)
                : new LmrTriplet(0, offset, length);
        long cookie = a.number(s, "user_cookie", 0);
        Out<Integer> ctx = new Out<>();
        Out<Long> op = new Out<>();
        int ret = p.dat().rmrBind(a.handle(s, "rmr", Rmr.class), lmr, range, a.flags(s, "mem_priv", Dat.MEM_PRIV), ep,
                cookie, a.flags(s, "completion_flags", Dat.COMPLETION_FLAGS), ctx, op);
        TraceEvent e = Outcome.call(p, s, ret, ep).cookie(cookie);
        if (ctx.value != null) {
            long context = (long) ctx.value & 0xffffffffL;
            e.op(op.value).attr("rmr_context", context);
            a.bind(s, new BindResult(context, range.address(), length, op.value));
        }
        p.runner().trace(e);
        p.result().ret(ret);
        return p.costs().after(s.spec().cost(), ctx.value != null); // a bind is a WQE on the send queue
    }
}
