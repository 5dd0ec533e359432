package org.datsim.scenario.run;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.fabric.dat.Dat;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.Ia;
import org.datsim.fabric.dat.Out;
import org.datsim.scenario.load.Arg;
import org.datsim.scenario.load.QueryCall;
import org.datsim.scenario.load.Step;

/**
 * The calls that read rather than change: the {@code dat_*_query} calls, dat_ep_recv_query,
 * dat_registry_list_providers, the consumer context and handle type of any handle, and dat_strerror. Each binds what
 * it read and checks it against the step's expectations. Every call here is typed by the loader ({@link QueryCall}):
 * the family switches over its kind, every kind a case, and reads no argument by name.
 */
final class QueryCalls {

    /** The DAT_HANDLE_TYPE each kind of query asks about, by the kind's ordinal (-1: none); made once. */
    private static final int[] HANDLE_TYPES = handleTypes();

    /** The calls executed here. */
    static final Set<String> CALLS = org.datsim.scenario.load.CallKind.names(QueryCall.Kind.values());

    private QueryCalls() {
    }

    private static int[] handleTypes() {
        int[] out = new int[QueryCall.Kind.values().length];
        for (QueryCall.Kind k : QueryCall.Kind.values()) {
            out[k.ordinal()] = -1;
            if (k.call().equals("dat_" + k.handleArg() + "_query")) {
                out[k.ordinal()] = Dat.HANDLE_TYPES.value("DAT_HANDLE_TYPE_" + k.handleArg().toUpperCase(Locale.ROOT));
            }
        }
        return out;
    }


    /**
     * Executes one call.
     *
     * @return the CPU time the process spends after the call
     */
    static long execute(ConsumerProcess p, Step s) {
        if (!(s.typed() instanceof QueryCall)) {
            throw new IllegalStateException("call " + s.spec().name() + " is in the catalogue but not executed");
        }
        QueryCall c = (QueryCall) s.typed();
        Args a = p.args();
        DatProvider dat = p.dat();
        return switch (c.kind()) {
            case EP_QUERY, EVD_QUERY, LMR_QUERY, RMR_QUERY, PZ_QUERY, PSP_QUERY, CR_QUERY, SRQ_QUERY, CNO_QUERY,
                    RSP_QUERY -> {
                Out<Map<String, Long>> attrs = new Out<>();
                yield Outcome.finishQuery(p, s, dat.query(a.handle(handle(c)), HANDLE_TYPES[c.kind().ordinal()],
                        attrs), attrs.value);
            }
            case IA_QUERY -> {
                Out<Map<String, Long>> attrs = new Out<>();
                yield Outcome.finishQuery(p, s, dat.iaQuery(a.handle(handle(c), Ia.class), attrs), attrs.value);
            }
            case EP_RECV_QUERY -> {
                Out<Integer> n = new Out<>();
                Out<Integer> span = new Out<>();
                int ret = dat.epRecvQuery(a.handle(handle(c), Ep.class), n, span);
                Map<String, Long> info = null;
                if (n.value != null) {
                    info = new LinkedHashMap<>();
                    info.put("nbufs_allocated", (long) n.value);
                    info.put("bufs_alloc_span", (long) span.value);
                }
                yield Outcome.finishQuery(p, s, ret, info);
            }
            case REGISTRY_LIST_PROVIDERS -> {
                Out<Integer> n = new Out<>();
                Out<List<String>> names = new Out<>();
                int ret = dat.registryListProviders(p.host(),
                        Args.count(a.number(((QueryCall.ListProviders) c).maxToReturn(), 0)), n, names);
                Map<String, Long> info = new LinkedHashMap<>();
                info.put("number_entries", (long) n.value);
                TraceEvent e = Outcome.call(p, s, ret, null).attr(TraceKey.NUMBER_ENTRIES, (long) n.value);
                if (names.value != null) {
                    e.attr(TraceKey.IA_NAMES, String.join(",", names.value));
                }
                a.bind(s, info);
                p.runner().trace(e);
                p.result().ret(ret);
                p.result().attrs = info;
                yield 0;
            }
            case SET_CONSUMER_CONTEXT -> {
                QueryCall.SetConsumerContext o = (QueryCall.SetConsumerContext) c;
                yield Outcome.finish(p, s, dat.setConsumerContext(a.handle(o.handle()), a.number(o.context(), 0)),
                        null);
            }
            case GET_CONSUMER_CONTEXT -> {
                Out<Long> ctx = new Out<>();
                int ret = dat.getConsumerContext(a.handle(handle(c)), ctx);
                a.bind(s, ctx.value);
                p.runner().trace(Outcome.call(p, s, ret, null));
                p.result().ret(ret);
                p.result().context = ctx.value;
                yield 0;
            }
            case GET_HANDLE_TYPE -> {
                Out<Integer> type = new Out<>();
                int ret = dat.getHandleType(a.handle(handle(c)), type);
                a.bind(s, type.value == null ? null : (long) type.value);
                p.runner().trace(Outcome.call(p, s, ret, null));
                p.result().ret(ret);
                p.result().handleType = type.value;
                yield 0;
            }
            case STRERROR -> strerror(p, s, ((QueryCall.Strerror) c).value());
        };
    }

    /** The handle of a query of one handle. */
    private static Arg handle(QueryCall c) {
        return ((QueryCall.OneHandle) c).handle();
    }

    private static long strerror(ConsumerProcess p, Step s, Arg arg) {
        String v = arg.node().asText();
        String[] parts = v.split("/", 2);
        Integer type = DatReturn.typeByName(parts[0]);
        Integer sub = parts.length > 1 ? DatReturn.subtypeByName(parts[1]) : Integer.valueOf(0);
        int value;
        if (type != null && sub != null) {
            value = type == DatReturn.SUCCESS && sub == 0 ? DatReturn.SUCCESS : DatReturn.error(type, sub);
        } else {
            try {
                value = (int) Long.decode(v).longValue();
            } catch (NumberFormatException e) {
                value = DatReturn.error(DatReturn.INVALID_PARAMETER, 0);
            }
        }
        String message = DatProvider.strerror(value);
        TraceEvent e = Outcome.call(p, s, DatReturn.SUCCESS, null).attr(TraceKey.MESSAGE, message);
        p.runner().trace(e);
        p.result().ret(DatReturn.SUCCESS);
        p.result().message = message;
        return 0;
    }
}
