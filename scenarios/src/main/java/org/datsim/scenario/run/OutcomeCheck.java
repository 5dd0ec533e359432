package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.datsim.scenario.load.Outcomes;

/**
 * Compares a run's {@link Observations} with the outcomes a scenario allows and forbids ({@code "outcomes"}): the
 * vector must match at least one allowed entry (when the scenario lists any) and no forbidden one. An entry matches
 * when every name it gives was observed with its value (or one of its {@code one_of} values); names it does not give
 * may have any value. Bytes compare byte for byte, names as the step's expectation would (a DAT_RETURN by type or
 * subtype).
 */
public final class OutcomeCheck {

    private OutcomeCheck() {
    }

    /**
     * Checks a vector against a scenario's outcomes.
     *
     * @param observed what the run observed
     * @param outcomes the scenario's outcomes
     * @return one message per problem, empty when the outcome is allowed and not forbidden
     */
    public static List<String> check(Observations observed, Outcomes outcomes) {
        return check(observed, outcomes.allowed(), outcomes.forbidden());
    }

    /**
     * Checks a vector against allowed and forbidden outcomes.
     *
     * @param observed what the run observed
     * @param allowed the allowed outcomes, or null when any outcome is allowed
     * @param forbidden the forbidden outcomes
     * @return one message per problem ({@code $.outcomes.allowed: ...}, {@code $.outcomes.forbidden[1]: ...}),
     *     each naming the observed vector; empty when the outcome is allowed and not forbidden
     */
    public static List<String> check(Observations observed, List<ObjectNode> allowed, List<ObjectNode> forbidden) {
        List<String> out = new ArrayList<>();
        if (allowed != null && allowed.stream().noneMatch(e -> matches(observed, e))) {
            out.add("$.outcomes.allowed: the observed outcome " + observed + " is none of the " + allowed.size()
                    + " allowed");
        }
        for (int i = 0; i < forbidden.size(); i++) {
            if (matches(observed, forbidden.get(i))) {
                out.add("$.outcomes.forbidden[" + i + "]: the observed outcome " + observed + " is forbidden ("
                        + forbidden.get(i) + ")");
            }
        }
        return out;
    }

    /**
     * Returns true if the vector matches one outcome entry: every name it gives was observed with its value, or one
     * of its {@code one_of} values.
     */
    public static boolean matches(Observations observed, ObjectNode entry) {
        Iterator<Map.Entry<String, JsonNode>> it = entry.fields();
        while (it.hasNext()) {
            Map.Entry<String, JsonNode> f = it.next();
            Observations.Observation o = observed.get(f.getKey());
            if (o == null) {
                return false;
            }
            JsonNode want = f.getValue();
            boolean any = false;
            for (JsonNode alt : want.isObject() && want.has("one_of") ? want.get("one_of") : List.of(want)) {
                any |= value(o, alt);
            }
            if (!any) {
                return false;
            }
        }
        return true;
    }

    private static boolean value(Observations.Observation o, JsonNode want) {
        switch (o.kind()) {
            case DATA:
                return sameBytes(o.bytes(), want);
            case FIELD:
                if (o.isRet()) {
                    return want.isTextual() && Expectations.retMatches(want.asText(), o.ret());
                }
                if (want.isTextual() && want.asText().equals("any_error")) {
                    return o.value().asText().startsWith("DAT_DTO_ERR") || o.value().asText().startsWith("DAT_RMR");
                }
                return o.value().isNumber() ? want.isIntegralNumber() && want.asLong() == o.value().asLong()
                        : want.isTextual() && want.asText().equals(o.value().asText());
            case STATUS:
                if (o.isRet()) {
                    return Expectations.retMatches(want.asText(), o.ret());
                }
                if (want.asText().equals("any_error")) { // an error status; an event without one is no error
                    return o.value().asText().startsWith("DAT_DTO_ERR") || o.value().asText().startsWith("DAT_RMR");
                }
                return want.asText().equals(o.value().asText());
            default:
                return Expectations.retMatches(want.asText(), o.ret());
        }
    }

    /** Returns true if bytes equal a validated plain data object's. */
    private static boolean sameBytes(byte[] got, JsonNode d) {
        if (!d.has("fill")) {
            return java.util.Arrays.equals(got, Bytes.literal(d));
        }
        JsonNode l = d.get("length");
        long n = l.isNumber() ? l.asLong() : org.datsim.core.time.ByteSize.parse(l.asText());
        if (n != got.length) {
            return false;
        }
        byte fill = (byte) d.get("fill").asInt();
        for (byte b : got) {
            if (b != fill) {
                return false;
            }
        }
        return true;
    }
}
