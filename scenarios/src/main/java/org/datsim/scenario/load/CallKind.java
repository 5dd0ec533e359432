package org.datsim.scenario.load;

/**
 * A typed call family's kind: the DAT call (or scenario pseudo-call) it stands for. Each family's {@code Kind} enum
 * implements it, and {@link #of} finds a kind by its call's name for all of them.
 */
public interface CallKind {

    /**
     * Returns the call's name.
     *
     * @return the name, as a scenario step spells it
     */
    String call();

    /**
     * Returns the kind among {@code kinds} whose call is named {@code call}.
     *
     * @param kinds a family's kinds
     * @param call the call's name
     * @param <K> the family's kind
     * @return the kind, or null if none of them is that call
     */
    static <K extends CallKind> K of(K[] kinds, String call) {
        for (K k : kinds) {
            if (k.call().equals(call)) {
                return k;
            }
        }
        return null;
    }

    /**
     * Returns the names of the calls of {@code kinds}: the calls a family's interpreter executes.
     *
     * @param kinds a family's kinds
     * @return their call names
     */
    static java.util.Set<String> names(CallKind[] kinds) {
        java.util.Set<String> out = new java.util.HashSet<>();
        for (CallKind k : kinds) {
            out.add(k.call());
        }
        return java.util.Set.copyOf(out);
    }
}
