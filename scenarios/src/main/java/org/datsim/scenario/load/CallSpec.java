package org.datsim.scenario.load;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.fabric.dat.NamedValues;
import org.datsim.scenario.consumer.CallCost;

/**
 * The declaration of one call a scenario can make: its arguments (name, type, whether required, the flag group for
 * flags), what it costs the consumer's CPU, the kind of value its "out" names, and the keys its "expect" accepts.
 */
public final class CallSpec {

    /** One argument. */
    public record Arg(String name, ArgType type, boolean required, NamedValues flags, String handleKind) {
    }

    private final String name;
    private final CallCost cost;
    private final Map<String, Arg> args = new LinkedHashMap<>();
    private final String outKind;
    private final List<String> expectKeys;
    private final String summary;

    CallSpec(String name, CallCost cost, String outKind, List<String> expectKeys, String summary, Arg... args) {
        this.name = name;
        this.cost = cost;
        this.outKind = outKind;
        this.expectKeys = expectKeys;
        this.summary = summary;
        for (Arg a : args) {
            this.args.put(a.name(), a);
        }
    }

    /** Returns the call's name, for example "dat_ep_post_send". */
    public String name() {
        return name;
    }

    /** Returns what the call costs the consumer's CPU. */
    public CallCost cost() {
        return cost;
    }

    /** Returns the arguments by name, in declaration order. */
    public Map<String, Arg> args() {
        return args;
    }

    /** Returns the kind of value bound by "out" ("ia", "ep", "event", ...), or null if the call has no output. */
    public String outKind() {
        return outKind;
    }

    /** Returns the keys "expect" accepts besides "ret". */
    public List<String> expectKeys() {
        return expectKeys;
    }

    /** Returns a one-line description. */
    public String summary() {
        return summary;
    }
}
