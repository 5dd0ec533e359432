package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.load.Step;

/**
 * The calls of a consumer process for the SRQ, CNO, RSP and registry objects and the endpoint extras (the calls of
 * the first version are executed by {@link ConsumerProcess} itself), including the blocking dat_cno_wait.
 */
final class MoreCalls {

    private final ConsumerProcess p;
    private final DatProvider dat;
    private final Runnable wake;
    private Cno waitCno;
    private long waitDeadline;
    private long waitTimer;

    MoreCalls(ConsumerProcess p, DatProvider dat) {
        this.p = p;
        this.dat = dat;
        this.wake = p::wake;
    }

    /** Returns true while the process is blocked in dat_cno_wait. */
    boolean waiting() {
        return waitCno != null;
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
            case "dat_cno_create": {
                Out<Cno> cno = new Out<>();
                ret = dat.cnoCreate(p.handle(s, "ia", Ia.class), agent(s), cno);
                p.bind(s, cno.value);
                break;
            }
            case "dat_cno_free":
                ret = dat.cnoFree(p.handle(s, "cno", Cno.class));
                break;
            case "dat_cno_modify_agent":
                ret = dat.cnoModifyAgent(p.handle(s, "cno", Cno.class), agent(s));
                break;
            case "dat_evd_modify_cno": {
                DatHandle cno = p.handle(s, "cno");
                ret = cno != null && !(cno instanceof Cno)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO)
                        : dat.evdModifyCno(p.handle(s, "evd", Evd.class), (Cno) cno);
                break;
            }
            case "dat_rsp_create": {
                Out<org.datsim.fabric.dat.Rsp> rsp = new Out<>();
                DatHandle ep = p.handle(s, "ep");
                ret = ep != null && !(ep instanceof Ep)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_EP)
                        : dat.rspCreate(p.handle(s, "ia", Ia.class), p.number(s, "conn_qual", 0), (Ep) ep,
                                p.handle(s, "evd", Evd.class), rsp);
                p.bind(s, rsp.value);
                break;
            }
            case "dat_rsp_free":
                ret = dat.rspFree(p.handle(s, "rsp", org.datsim.fabric.dat.Rsp.class));
                break;
            case "dat_ep_modify": {
                Ep ep = p.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epModify(ep, ep == null ? null : p.epAttr(s, "ep_param", ep.attributes()));
                break;
            }
            case "dat_ep_dup_connect": {
                Ep ep = p.handle(s, "ep", Ep.class);
                epName = ep != null ? ep.name() : null;
                ret = dat.epDupConnect(ep, p.handle(s, "dup_ep", Ep.class), p.timeoutUs(s),
                        ConsumerProcess.privateData(s));
                break;
            }
            case "dat_ep_recv_query": {
                Out<Integer> n = new Out<>();
                Out<Integer> span = new Out<>();
                ret = dat.epRecvQuery(p.handle(s, "ep", Ep.class), n, span);
                java.util.Map<String, Long> info = null;
                if (n.value != null) {
                    info = new java.util.LinkedHashMap<>();
                    info.put("nbufs_allocated", (long) n.value);
                    info.put("bufs_alloc_span", (long) span.value);
                }
                return p.finishQuery(s, ret, info);
            }
            case "dat_ep_set_watermark":
                ret = dat.epSetWatermark(p.handle(s, "ep", Ep.class),
                        ConsumerProcess.count(p.number(s, "soft_high_watermark", -1)),
                        ConsumerProcess.count(p.number(s, "hard_high_watermark", -1)));
                break;
            case "dat_registry_list_providers": {
                Out<Integer> n = new Out<>();
                Out<java.util.List<String>> names = new Out<>();
                ret = dat.registryListProviders(p.host(), ConsumerProcess.count(p.number(s, "max_to_return", 0)),
                        n, names);
                java.util.Map<String, Long> info = new java.util.LinkedHashMap<>();
                info.put("number_entries", (long) n.value);
                TraceEvent e = p.call(s, ret, null).attr("number_entries", (long) n.value);
                if (names.value != null) {
                    e.attr("ia_names", String.join(",", names.value));
                }
                p.bind(s, info);
                p.runner().trace(e);
                p.checkRet(s, ret);
                JsonNode want = p.expectNode(s, "attrs");
                if (want != null && want.has("number_entries") && want.get("number_entries").asLong() != n.value) {
                    p.runner().failure(p, s, "expected number_entries " + want.get("number_entries").asLong()
                            + ", got " + n.value);
                }
                return 0;
            }
            case "dat_registry_add_provider":
                ret = dat.registryAddProvider(p.host(), text(s, "ia_name"));
                break;
            case "dat_registry_remove_provider":
                ret = dat.registryRemoveProvider(p.host(), text(s, "ia_name"));
                break;
            case "dat_provider_init":
                ret = dat.providerInit(p.host(), text(s, "ia_name"));
                break;
            case "dat_provider_fini":
                ret = dat.providerFini(p.host(), text(s, "ia_name"));
                break;
            case "dat_cno_wait":
                return startCnoWait(s);
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
        return p.finish(s, ret, epName);
    }

    private static String text(Step s, String arg) {
        JsonNode n = s.node().get(arg);
        return n == null || n.isNull() ? null : n.asText();
    }

    /** The agent argument: a proxy agent's name, or null for DAT_OS_WAIT_PROXY_AGENT_NULL (or absent). */
    private static String agent(Step s) {
        JsonNode a = s.node().get("agent");
        return a == null || a.isNull() || "DAT_OS_WAIT_PROXY_AGENT_NULL".equals(a.asText()) ? null : a.asText();
    }

    private long startCnoWait(Step s) {
        Cno cno = p.handle(s, "cno", Cno.class);
        long timeout = p.timeoutUs(s);
        int ret = dat.cnoWaitCheck(cno, timeout);
        if (!DatReturn.isSuccess(ret)) {
            finishCnoWait(s, ret, null);
            return 0;
        }
        if (cno.pending() != null) {
            finishCnoWait(s, ret, dat.cnoTake(cno));
            return p.pollOverhead();
        }
        waitCno = cno;
        dat.cnoWaiter(cno, wake, true);
        if (timeout != Dat.TIMEOUT_INFINITE) {
            waitDeadline = p.sim().now() + timeout * SimTime.US;
            waitTimer = p.timer(timeout * SimTime.US);
        } else {
            waitDeadline = Long.MAX_VALUE;
            waitTimer = 0;
        }
        return -1;
    }

    /**
     * Looks again at a blocked dat_cno_wait: it ends with the notifying EVD, with no EVD when the IA was closed or
     * the CNO's last EVD freed, or with DAT_QUEUE_EMPTY at the timeout.
     *
     * @return true if the wait ended
     */
    boolean continueWait(Step s) {
        Cno cno = waitCno;
        if (cno.pending() != null) {
            endCnoWait();
            finishCnoWait(s, DatReturn.SUCCESS, dat.cnoTake(cno));
        } else if (cno.isFreed() || cno.evdCount() == 0) {
            endCnoWait();
            finishCnoWait(s, DatReturn.SUCCESS, null);
        } else if (p.sim().now() >= waitDeadline) {
            endCnoWait();
            finishCnoWait(s, DatReturn.error(DatReturn.QUEUE_EMPTY, 0), null);
        } else {
            return false;
        }
        return true;
    }

    private void endCnoWait() {
        if (waitTimer != 0) {
            p.cancelTimer(waitTimer);
            waitTimer = 0;
        }
        dat.cnoWaiter(waitCno, wake, false);
        waitCno = null;
    }

    private void finishCnoWait(Step s, int ret, Evd evd) {
        TraceEvent e = p.call(s, ret, null);
        if (evd != null) {
            e.attr("evd", evd.name());
        }
        p.runner().trace(e);
        p.checkRet(s, ret);
        p.bind(s, evd);
        JsonNode want = p.expectNode(s, "evd");
        if (want != null && DatReturn.isSuccess(ret)) {
            Object w = want.isNull() ? null : p.resolveRef(want.asText(), s.path() + ".expect.evd");
            if (w != evd) {
                p.runner().failure(p, s, "expected the EVD " + (want.isNull() ? "null" : want.asText()) + ", got "
                        + (evd == null ? "none" : evd.name()));
            }
        }
    }

    /** A field of an attribute object (DAT_SRQ_ATTR): absent fields are 0, as a zeroed C structure. */
    private int attr(JsonNode a, String field, String path) {
        JsonNode n = a == null ? null : a.get(field);
        return n == null ? 0 : ConsumerProcess.count(p.number(n, path + "." + field));
    }
}
