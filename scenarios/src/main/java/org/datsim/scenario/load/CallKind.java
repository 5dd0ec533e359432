package org.datsim.scenario.load;

/**
 * A typed call family's kind: the DAT call (or scenario pseudo-call) it stands for. Each family's {@code Kind} enum
 * implements it, and {@link #of} finds a kind by its call's name for all of them.
 */
interface CallKind {

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
}
