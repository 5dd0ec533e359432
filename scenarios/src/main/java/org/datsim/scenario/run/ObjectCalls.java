package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import org.datsim.fabric.dat.Cno;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatHandle;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Evd;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Lmr;
import org.datsim.fabric.dat.Out;
import org.datsim.fabric.dat.Pz;
import org.datsim.fabric.dat.Rmr;
import org.datsim.fabric.dat.Srq;
import org.datsim.scenario.load.Step;

/**
 * The calls that create, change and free DAT objects other than endpoints and service points: IAs, PZs, EVDs,
 * LMRs, RMRs, CNOs and SRQs, and the registry's and provider's calls. Each returns only its DAT_RETURN and binds the
 * object it creates.
 */
final class ObjectCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = Set.of("dat_ia_open", "dat_ia_close", "dat_pz_create", "dat_pz_free",
            "dat_evd_create", "dat_evd_free", "dat_evd_set_unwaitable", "dat_evd_clear_unwaitable", "dat_evd_enable",
            "dat_evd_disable", "dat_evd_resize", "dat_evd_post_se", "dat_evd_modify_cno", "dat_lmr_create",
            "dat_lmr_free", "dat_rmr_create", "dat_rmr_free", "dat_cno_create", "dat_cno_free",
            "dat_cno_modify_agent", "dat_srq_create", "dat_srq_free", "dat_srq_resize", "dat_srq_set_lw",
            "dat_registry_add_provider", "dat_registry_remove_provider", "dat_provider_init", "dat_provider_fini");

    private ObjectCalls() {
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
        switch (call) {
            case "dat_ia_open": {
                Out<Ia> ia = new Out<>();
                JsonNode name = s.node().get("ia_name");
                ret = dat.iaOpen(p.host(), name != null ? name.asText() : DatHost.DEFAULT_IA_NAME,
                        Args.count(a.number(s, "async_evd_qlen", 8)), ia);
                a.bind(s, ia.value);
                break;
            }
            case "dat_ia_close":
                ret = dat.iaClose(a.handle(s, "ia", Ia.class), a.flags(s, "flags", Dat.CLOSE_FLAGS));
                break;
            case "dat_pz_create": {
                Out<Pz> pz = new Out<>();
                ret = dat.pzCreate(a.handle(s, "ia", Ia.class), pz);
                a.bind(s, pz.value);
                break;
            }
            case "dat_pz_free":
                ret = dat.pzFree(a.handle(s, "pz", Pz.class));
                break;
            case "dat_evd_create": {
                Out<Evd> evd = new Out<>();
                DatHandle cno = a.handle(s, "cno");
                ret = cno != null && !(cno instanceof Cno)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO)
                        : dat.evdCreate(a.handle(s, "ia", Ia.class), Args.count(a.number(s, "evd_min_qlen", 0)),
                                (Cno) cno, a.flags(s, "evd_flags", Dat.EVD_FLAGS), evd);
                a.bind(s, evd.value);
                break;
            }
            case "dat_evd_free":
                ret = dat.evdFree(a.handle(s, "evd", Evd.class));
                break;
            case "dat_evd_set_unwaitable":
                ret = dat.evdSetUnwaitable(a.handle(s, "evd", Evd.class));
                break;
            case "dat_evd_clear_unwaitable":
                ret = dat.evdClearUnwaitable(a.handle(s, "evd", Evd.class));
                break;
            case "dat_evd_enable":
            case "dat_evd_disable":
                ret = dat.evdSetEnabled(a.handle(s, "evd", Evd.class), call.equals("dat_evd_enable"));
                break;
            case "dat_evd_resize":
                ret = dat.evdResize(a.handle(s, "evd", Evd.class), Args.count(a.number(s, "evd_min_qlen", 0)));
                break;
            case "dat_evd_post_se":
                ret = dat.evdPostSe(a.handle(s, "evd", Evd.class), a.number(s, "pointer", 0));
                break;
            case "dat_evd_modify_cno": {
                DatHandle cno = a.handle(s, "cno");
                ret = cno != null && !(cno instanceof Cno)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO)
                        : dat.evdModifyCno(a.handle(s, "evd", Evd.class), (Cno) cno);
                break;
            }
            case "dat_lmr_create": {
                Out<Lmr> lmr = new Out<>();
                ret = dat.lmrCreate(a.handle(s, "ia", Ia.class), a.number(s, "address", -1),
                        a.number(s, "length", 0), a.handle(s, "pz", Pz.class), s.node().has("privileges")
                                ? a.flags(s, "privileges", Dat.MEM_PRIV) : Dat.MEM_PRIV_ALL, lmr);
                a.bind(s, lmr.value);
                break;
            }
            case "dat_lmr_free":
                ret = dat.lmrFree(a.handle(s, "lmr", Lmr.class));
                break;
            case "dat_rmr_create": {
                Out<Rmr> rmr = new Out<>();
                ret = dat.rmrCreate(a.handle(s, "pz", Pz.class), rmr);
                a.bind(s, rmr.value);
                break;
            }
            case "dat_rmr_free":
                ret = dat.rmrFree(a.handle(s, "rmr", Rmr.class));
                break;
            case "dat_cno_create": {
                Out<Cno> cno = new Out<>();
                ret = dat.cnoCreate(a.handle(s, "ia", Ia.class), agent(s), cno);
                a.bind(s, cno.value);
                break;
            }
            case "dat_cno_free":
                ret = dat.cnoFree(a.handle(s, "cno", Cno.class));
                break;
            case "dat_cno_modify_agent":
                ret = dat.cnoModifyAgent(a.handle(s, "cno", Cno.class), agent(s));
                break;
            case "dat_srq_create": {
                Out<Srq> srq = new Out<>();
                JsonNode attr = s.node().get("srq_attr");
                String path = s.path() + ".srq_attr";
                ret = dat.srqCreate(a.handle(s, "ia", Ia.class), a.handle(s, "pz", Pz.class),
                        srqAttr(a, attr, "max_recv_dtos", path), srqAttr(a, attr, "max_recv_iov", path),
                        srqAttr(a, attr, "low_watermark", path), srq);
                a.bind(s, srq.value);
                break;
            }
            case "dat_srq_free":
                ret = dat.srqFree(a.handle(s, "srq", Srq.class));
                break;
            case "dat_srq_resize":
                ret = dat.srqResize(a.handle(s, "srq", Srq.class), Args.count(a.number(s, "srq_max_recv_dto", 0)));
                break;
            case "dat_srq_set_lw":
                ret = dat.srqSetLw(a.handle(s, "srq", Srq.class), Args.count(a.number(s, "low_watermark", 0)));
                break;
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
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
        return Outcome.finish(p, s, ret, null);
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

    /** A field of an attribute object (DAT_SRQ_ATTR): absent fields are 0, as a zeroed C structure. */
    private static int srqAttr(Args a, JsonNode attr, String field, String path) {
        JsonNode n = attr == null ? null : attr.get(field);
        return n == null ? 0 : Args.count(a.number(n, path + "." + field));
    }
}
