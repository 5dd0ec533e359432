package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.HashSet;
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
import org.datsim.scenario.load.Step;

/**
 * The calls that read rather than change: the {@code dat_*_query} calls, dat_ep_recv_query,
 * dat_registry_list_providers, the consumer context and handle type of any handle, and dat_strerror. Each binds what
 * it read and checks it against the step's expectations.
 */
final class QueryCalls {

    /** A {@code dat_<kind>_query} call of a handle: the argument that names the handle and its DAT_HANDLE_TYPE. */
    private record HandleQuery(String arg, int type) {
    }

    /** The {@code dat_<kind>_query} calls of handles, by call name; made once. */
    private static final Map<String, HandleQuery> HANDLE_QUERIES = handleQueries("ep", "evd", "lmr", "rmr", "pz",
            "psp", "cr", "srq", "cno", "rsp");

    /** The calls executed here. */
    static final Set<String> CALLS = calls();

    private QueryCalls() {
    }

    private static Map<String, HandleQuery> handleQueries(String... kinds) {
        Map<String, HandleQuery> out = new HashMap<>();
        for (String kind : kinds) {
            out.put("dat_" + kind + "_query", new HandleQuery(kind,
                    Dat.HANDLE_TYPES.value("DAT_HANDLE_TYPE_" + kind.toUpperCase(Locale.ROOT))));
        }
        return Map.copyOf(out);
    }

    private static Set<String> calls() {
        Set<String> out = new HashSet<>(HANDLE_QUERIES.keySet());
        out.addAll(List.of("dat_ia_query", "dat_ep_recv_query", "dat_registry_list_providers",
                "dat_set_consumer_context", "dat_get_consumer_context", "dat_get_handle_type", "dat_strerror"));
        return Set.copyOf(out);
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
        HandleQuery q = HANDLE_QUERIES.get(call);
        if (q != null) {
            Out<Map<String, Long>> attrs = new Out<>();
            return Outcome.finishQuery(p, s, dat.query(a.handle(s, q.arg()), q.type(), attrs), attrs.value);
        }
        int ret;
        switch (call) {
            case "dat_ia_query": {
                Out<Map<String, Long>> attrs = new Out<>();
                return Outcome.finishQuery(p, s, dat.iaQuery(a.handle(s, "ia", Ia.class), attrs), attrs.value);
            }
            case "dat_ep_recv_query": {
                Out<Integer> n = new Out<>();
                Out<Integer> span = new Out<>();
                ret = dat.epRecvQuery(a.handle(s, "ep", Ep.class), n, span);
                Map<String, Long> info = null;
                if (n.value != null) {
                    info = new LinkedHashMap<>();
                    info.put("nbufs_allocated", (long) n.value);
                    info.put("bufs_alloc_span", (long) span.value);
                }
                return Outcome.finishQuery(p, s, ret, info);
            }
            case "dat_registry_list_providers": {
                Out<Integer> n = new Out<>();
                Out<List<String>> names = new Out<>();
                ret = dat.registryListProviders(p.host(), Args.count(a.number(s, "max_to_return", 0)), n, names);
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
                return 0;
            }
            case "dat_set_consumer_context":
                ret = dat.setConsumerContext(a.handle(s, "handle"), a.number(s, "context", 0));
                return Outcome.finish(p, s, ret, null);
            case "dat_get_consumer_context": {
                Out<Long> ctx = new Out<>();
                ret = dat.getConsumerContext(a.handle(s, "handle"), ctx);
                a.bind(s, ctx.value);
                p.runner().trace(Outcome.call(p, s, ret, null));
                p.result().ret(ret);
                p.result().context = ctx.value;
                return 0;
            }
            case "dat_get_handle_type": {
                Out<Integer> type = new Out<>();
                ret = dat.getHandleType(a.handle(s, "handle"), type);
                a.bind(s, type.value == null ? null : (long) type.value);
                p.runner().trace(Outcome.call(p, s, ret, null));
                p.result().ret(ret);
                p.result().handleType = type.value;
                return 0;
            }
            case "dat_strerror":
                return strerror(p, s);
            default:
                throw new IllegalStateException("call " + call + " is in the catalogue but not executed");
        }
    }

    private static long strerror(ConsumerProcess p, Step s) {
        String v = s.node().get("value").asText();
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
