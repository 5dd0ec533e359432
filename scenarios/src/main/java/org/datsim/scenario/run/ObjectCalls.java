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
import org.datsim.scenario.load.Arg;
import org.datsim.scenario.load.ObjectCall;
import org.datsim.scenario.load.Step;

/**
 * The calls that create, change and free DAT objects other than endpoints and service points: IAs, PZs, EVDs,
 * LMRs, RMRs, CNOs and SRQs, and the registry's and provider's calls. Each returns only its DAT_RETURN and binds the
 * object it creates. Every call here is typed by the loader ({@link ObjectCall}): the family switches over its kind,
 * every kind a case, and reads no argument by name.
 */
final class ObjectCalls {

    /** The calls executed here. */
    static final Set<String> CALLS = org.datsim.scenario.load.CallKind.names(ObjectCall.Kind.values());

    private ObjectCalls() {
    }

    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        if (!(s.typed() instanceof ObjectCall)) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        ObjectCall c = (ObjectCall) s.typed();
        Args a = p.args();
        DatProvider dat = p.dat();
        int ret = switch (c.kind()) {
            case IA_OPEN -> {
                ObjectCall.IaOpen o = (ObjectCall.IaOpen) c;
                Out<Ia> ia = new Out<>();
                String name = o.iaName().present() ? o.iaName().node().asText() : DatHost.DEFAULT_IA_NAME;
                int r = dat.iaOpen(p.host(), name,
                        Args.count(a.number(o.asyncEvdQlen(), 8)), ia);
                a.bind(s, ia.value);
                yield r;
            }
            case IA_CLOSE -> {
                ObjectCall.IaClose o = (ObjectCall.IaClose) c;
                yield dat.iaClose(a.handle(o.ia(), Ia.class), a.flags(o.flags(), Dat.CLOSE_FLAGS));
            }
            case PZ_CREATE -> {
                Out<Pz> pz = new Out<>();
                int r = dat.pzCreate(a.handle(handle(c), Ia.class), pz);
                a.bind(s, pz.value);
                yield r;
            }
            case PZ_FREE -> dat.pzFree(a.handle(handle(c), Pz.class));
            case EVD_CREATE -> {
                ObjectCall.EvdCreate o = (ObjectCall.EvdCreate) c;
                Out<Evd> evd = new Out<>();
                DatHandle cno = a.handle(o.cno());
                int r = cno != null && !(cno instanceof Cno)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO)
                        : dat.evdCreate(a.handle(o.ia(), Ia.class), Args.count(a.number(o.evdMinQlen(), 0)),
                                (Cno) cno, a.flags(o.evdFlags(), Dat.EVD_FLAGS), evd);
                a.bind(s, evd.value);
                yield r;
            }
            case EVD_FREE -> dat.evdFree(a.handle(handle(c), Evd.class));
            case EVD_SET_UNWAITABLE -> dat.evdSetUnwaitable(a.handle(handle(c), Evd.class));
            case EVD_CLEAR_UNWAITABLE -> dat.evdClearUnwaitable(a.handle(handle(c), Evd.class));
            case EVD_ENABLE -> dat.evdSetEnabled(a.handle(handle(c), Evd.class), true);
            case EVD_DISABLE -> dat.evdSetEnabled(a.handle(handle(c), Evd.class), false);
            case EVD_RESIZE -> {
                ObjectCall.HandleNumber o = (ObjectCall.HandleNumber) c;
                yield dat.evdResize(a.handle(o.handle(), Evd.class), Args.count(a.number(o.number(), 0)));
            }
            case EVD_POST_SE -> {
                ObjectCall.HandleNumber o = (ObjectCall.HandleNumber) c;
                yield dat.evdPostSe(a.handle(o.handle(), Evd.class), a.number(o.number(), 0));
            }
            case EVD_MODIFY_CNO -> {
                ObjectCall.EvdModifyCno o = (ObjectCall.EvdModifyCno) c;
                DatHandle cno = a.handle(o.cno());
                yield cno != null && !(cno instanceof Cno)
                        ? DatReturn.error(DatReturn.INVALID_HANDLE, DatReturn.SUB_INVALID_HANDLE_CNO)
                        : dat.evdModifyCno(a.handle(o.evd(), Evd.class), (Cno) cno);
            }
            case LMR_CREATE -> {
                ObjectCall.LmrCreate o = (ObjectCall.LmrCreate) c;
                Out<Lmr> lmr = new Out<>();
                int r = dat.lmrCreate(a.handle(o.ia(), Ia.class), a.number(o.address(), -1),
                        a.number(o.length(), 0), a.handle(o.pz(), Pz.class), o.privileges().present()
                                ? a.flags(o.privileges(), Dat.MEM_PRIV) : Dat.MEM_PRIV_ALL, lmr);
                a.bind(s, lmr.value);
                yield r;
            }
            case LMR_FREE -> dat.lmrFree(a.handle(handle(c), Lmr.class));
            case RMR_CREATE -> {
                Out<Rmr> rmr = new Out<>();
                int r = dat.rmrCreate(a.handle(handle(c), Pz.class), rmr);
                a.bind(s, rmr.value);
                yield r;
            }
            case RMR_FREE -> dat.rmrFree(a.handle(handle(c), Rmr.class));
            case CNO_CREATE -> {
                ObjectCall.CnoAgent o = (ObjectCall.CnoAgent) c;
                Out<Cno> cno = new Out<>();
                int r = dat.cnoCreate(a.handle(o.handle(), Ia.class), agent(o.agent()), cno);
                a.bind(s, cno.value);
                yield r;
            }
            case CNO_FREE -> dat.cnoFree(a.handle(handle(c), Cno.class));
            case CNO_MODIFY_AGENT -> {
                ObjectCall.CnoAgent o = (ObjectCall.CnoAgent) c;
                yield dat.cnoModifyAgent(a.handle(o.handle(), Cno.class), agent(o.agent()));
            }
            case SRQ_CREATE -> {
                ObjectCall.SrqCreate o = (ObjectCall.SrqCreate) c;
                Out<Srq> srq = new Out<>();
                JsonNode attr = o.srqAttr().node();
                String path = o.srqAttr().path();
                int r = dat.srqCreate(a.handle(o.ia(), Ia.class), a.handle(o.pz(), Pz.class),
                        srqAttr(a, attr, "max_recv_dtos", path), srqAttr(a, attr, "max_recv_iov", path),
                        srqAttr(a, attr, "low_watermark", path), srq);
                a.bind(s, srq.value);
                yield r;
            }
            case SRQ_FREE -> dat.srqFree(a.handle(handle(c), Srq.class));
            case SRQ_RESIZE -> {
                ObjectCall.HandleNumber o = (ObjectCall.HandleNumber) c;
                yield dat.srqResize(a.handle(o.handle(), Srq.class), Args.count(a.number(o.number(), 0)));
            }
            case SRQ_SET_LW -> {
                ObjectCall.HandleNumber o = (ObjectCall.HandleNumber) c;
                yield dat.srqSetLw(a.handle(o.handle(), Srq.class), Args.count(a.number(o.number(), 0)));
            }
            case REGISTRY_ADD_PROVIDER -> dat.registryAddProvider(p.host(), iaName(c));
            case REGISTRY_REMOVE_PROVIDER -> dat.registryRemoveProvider(p.host(), iaName(c));
            case PROVIDER_INIT -> dat.providerInit(p.host(), iaName(c));
            case PROVIDER_FINI -> dat.providerFini(p.host(), iaName(c));
        };
        return Outcome.finish(p, s, ret, null);
    }

    /** The handle of a call of one handle. */
    private static Arg handle(ObjectCall c) {
        return ((ObjectCall.OneHandle) c).handle();
    }

    /** The IA name of a registry or provider call. */
    private static String iaName(ObjectCall c) {
        return Args.text(((ObjectCall.Provider) c).iaName());
    }

    /** The agent argument: a proxy agent's name, or null for DAT_OS_WAIT_PROXY_AGENT_NULL (or absent). */
    private static String agent(Arg agent) {
        JsonNode a = agent.node();
        return a == null || a.isNull() || "DAT_OS_WAIT_PROXY_AGENT_NULL".equals(a.asText()) ? null : a.asText();
    }

    /** A field of an attribute object (DAT_SRQ_ATTR): absent fields are 0, as a zeroed C structure. */
    private static int srqAttr(Args a, JsonNode attr, String field, String path) {
        JsonNode n = attr == null ? null : attr.get(field);
        return n == null ? 0 : Args.count(a.number(n, path + "." + field));
    }
}
