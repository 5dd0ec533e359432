package org.datsim.scenario.load;

import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * References to named values: {@code "$name"}, {@code "$name.field"} and {@code "$process/name.field"}, and the
 * fields each kind of named value has.
 */
public final class Refs {

    private static final Pattern REF = Pattern.compile(
            "^\\$(?:([A-Za-z_][A-Za-z0-9_-]*)/)?([A-Za-z_][A-Za-z0-9_]*)(?:\\.([A-Za-z_][A-Za-z0-9_]*))?$");
    private static final Pattern NAME = Pattern.compile("^[A-Za-z_][A-Za-z0-9_]*$");

    /** The fields of each kind of named value; the bare name is the handle or value itself. */
    public static final Map<String, List<String>> FIELDS = Map.of(
            "ia", List.of("async_evd"),
            "pz", List.of(),
            "evd", List.of(),
            "ep", List.of(),
            "psp", List.of(),
            "lmr", List.of("lmr_context", "rmr_context", "address", "length"),
            "event", List.of("cr", "ep", "cookie", "status", "transfered_length", "event", "operation"),
            "op", List.of(),
            "status", List.of("state"));

    private Refs() {
    }

    /**
     * A parsed reference.
     *
     * @param process the process named, or null for the current one
     * @param name the value's name
     * @param field the field, or null for the value itself
     */
    public record Ref(String process, String name, String field) {
    }

    /**
     * Parses a reference.
     *
     * @param text a string from the scenario
     * @return the reference, or null if the text is not one
     */
    public static Ref parse(String text) {
        Matcher m = REF.matcher(text);
        if (!m.matches()) {
            return null;
        }
        return new Ref(m.group(1), m.group(2), m.group(3));
    }

    /** Returns true if the text may name a value bound by "out". */
    public static boolean isName(String text) {
        return NAME.matcher(text).matches();
    }
}
