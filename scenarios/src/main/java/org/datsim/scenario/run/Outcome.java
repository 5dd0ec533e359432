package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.datsim.core.trace.TraceEvent;
import org.datsim.fabric.dat.DatReturn;
import org.datsim.fabric.dat.Ep;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.scenario.load.Step;

/**
 * What every call leaves behind: its {@code call} trace event (the DAT_RETURN, process and step) and the checks of
 * what its step expects ({@code expect.ret} and the named results), each miss a failed expectation.
 */
final class Outcome {

    private Outcome() {
    }

    /** Returns the call's trace event (not yet fired) and counts the call. */
    static TraceEvent call(ConsumerProcess p, Step s, int ret, Ep ep) {
        TraceEvent e = TraceEvent.of(p.sim().now(), TraceEvent.CALL, p.hostName()).call(s.spec().name())
                .ret(DatReturn.typeName(ret));
        if (ep != null) {
            e.ep(ep.name());
        }
        String sub = DatReturn.subtypeName(ret);
        if (sub != null) {
            e.attr("subtype", sub);
        }
        e.attr("process", p.name()).attr("step", (long) s.index());
        p.runner().countCall(ret);
        p.runner().observe(p, s, "ret", DatReturn.describe(ret));
        return e;
    }

    /** Traces a call that returns nothing but its DAT_RETURN, and checks expect.ret; returns 0 (no CPU after). */
    static long finish(ConsumerProcess p, Step s, int ret, String epName) {
        TraceEvent e = call(p, s, ret, null);
        if (epName != null) {
            e.ep(epName);
        }
        p.runner().trace(e);
        checkRet(p, s, ret);
        return 0;
    }

    /** Traces a query call, binds its result, and checks expect.attrs against it; returns 0. */
    static long finishQuery(ConsumerProcess p, Step s, int ret, Map<String, Long> attrs) {
        p.args().bind(s, attrs);
        p.runner().trace(call(p, s, ret, null));
        checkRet(p, s, ret);
        JsonNode want = expectNode(s, "attrs");
        if (want != null && attrs != null) {
            want.fields().forEachRemaining(a -> {
                long w = a.getValue().isBoolean() ? (a.getValue().asBoolean() ? 1 : 0) : a.getValue().asLong();
                if (attrs.get(a.getKey()) != w) {
                    p.fail(s, "expected " + a.getKey() + " " + a.getValue() + ", got " + attrs.get(a.getKey()));
                }
            });
        }
        return 0;
    }

    /** Returns what the step expects under a key, or null. */
    static JsonNode expectNode(Step s, String key) {
        JsonNode e = s.node().get("expect");
        return e == null ? null : e.get(key);
    }

    /** Checks the DAT_RETURN against expect.ret (DAT_SUCCESS when the step expects nothing). */
    static void checkRet(ConsumerProcess p, Step s, int ret) {
        JsonNode want = expectNode(s, "ret");
        String name = want == null ? "DAT_SUCCESS" : want.asText();
        if (name.equals("any")) {
            return;
        }
        boolean ok;
        Integer type = DatReturn.typeByName(name);
        if (type != null) {
            ok = type == DatReturn.SUCCESS ? DatReturn.isSuccess(ret) : DatReturn.type(ret) == type;
        } else {
            ok = DatReturn.subtype(ret) == DatReturn.subtypeByName(name) && !DatReturn.isSuccess(ret);
        }
        if (!ok) {
            p.fail(s, "expected " + name + ", the call returned " + DatReturn.describe(ret)
                    + (want == null ? " (calls are expected to succeed unless \"expect\" says otherwise)" : ""));
        }
    }

    /** Checks a named result (an event number, a status, a state) against what the step expects under a key. */
    static void expectName(ConsumerProcess p, Step s, String key, NamedValues group, int actual) {
        JsonNode want = expectNode(s, key);
        if (want != null && group.value(want.asText()) != actual) {
            p.fail(s, "expected " + key + " " + want.asText() + ", got " + group.name(actual));
        }
    }
}
