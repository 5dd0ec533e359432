package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.load.Step;

/**
 * The calls of a consumer process added with the DAT 2.0 objects: the SRQ calls and dat_ep_create_with_srq (the
 * calls of the first version are executed by {@link ConsumerProcess} itself).
 */
final class MoreCalls {

    private final ConsumerProcess p;
    private final DatProvider dat;

    MoreCalls(ConsumerProcess p, DatProvider dat) {
        this.p = p;
        this.dat = dat;
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call, or -1 if it blocked
     */
    long execute(Step s, String call) {
        int ret;
        String epName = null;
        switch (call) {
            case "dat_ep_create_with_srq": {
                Out<Ep> ep = new Out<>();
                ret = dat.epCreateWithSrq(p.handle(s, "ia", Ia.class), p.handle(s, "pz", Pz.class),
                        p.handle(s, "recv_evd", Evd.class), p.handle(s, "request_evd", Evd.class),
                        p.handle(s, "connect_evd", Evd.class), p.handle(s, "srq", Srq.class), p.epAttr(s), ep);
                p.bind(s, ep.value);
                epName = ep.value != null ? ep.value.name() : null;
                break;
            }
            case "dat_srq_create": {
                Out<Srq> srq = new Out<>();
                JsonNode a = s.node().get("srq_attr");
                String path = s.path() + ".srq_attr";
                ret = dat.srqCreate(p.handle(s, "ia", Ia.class), p.handle(s, "pz", Pz.class),
                        attr(a, "max_recv_dtos", path), attr(a, "max_recv_iov", path),
                        attr(a, "low_watermark", path), srq);
                p.bind(s, srq.value);
                break;
            }
            case "dat_srq_free":
                ret = dat.srqFree(p.handle(s, "srq", Srq.class));
                break;
            case "dat_srq_post_recv": {
                Out<Long> op = new Out<>();
                long cookie = p.number(s, "user_cookie", 0);
                ret = dat.srqPostRecv(p.handle(s, "srq", Srq.class), p.iov(s, "local_iov"), cookie, op);
                org.datsim.core.trace.TraceEvent e = p.call(s, ret, null).cookie(cookie);
                if (op.value != null) {
                    e.op(op.value);
                    p.bind(s, op.value);
                }
                p.runner().trace(e);
                p.checkRet(s, ret);
                return 0;
            }
            case "dat_srq_resize":
                ret = dat.srqResize(p.handle(s, "srq", Srq.class),
                        ConsumerProcess.count(p.number(s, "srq_max_recv_dto", 0)));
                break;
            case "dat_srq_set_lw":
                ret = dat.srqSetLw(p.handle(s, "srq", Srq.class),
                        ConsumerProcess.count(p.number(s, "low_watermark", 0)));
                break;
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
        return p.finish(s, ret, epName);
    }

    /** A field of an attribute object (DAT_SRQ_ATTR): absent fields are 0, as a zeroed C structure. */
    private int attr(JsonNode a, String field, String path) {
        JsonNode n = a == null ? null : a.get(field);
        return n == null ? 0 : ConsumerProcess.count(p.number(n, path + "." + field));
    }
}
