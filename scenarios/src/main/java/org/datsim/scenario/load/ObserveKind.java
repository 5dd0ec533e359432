package org.datsim.scenario.load;

/**
 * What a step's {@code "observe"} records: for {@code mem_read} the bytes read (written as {@code expect.data} is);
 * for dat_evd_wait and dat_evd_dequeue the completion status of the event taken (its event number if it has no
 * status, the DAT_RETURN if no event was taken); for any other call its DAT_RETURN.
 */
public enum ObserveKind {
    /** The bytes a mem_read returned. */
    DATA,
    /** The status (or event number, or DAT_RETURN) of a wait or dequeue. */
    STATUS,
    /** The DAT_RETURN type of the call. */
    RET,
    /**
     * One field of the event a wait or dequeue took ({@code "observe": {"NAME": "cookie"}}): a number (cookie,
     * length, immediate_data) or a name (ep, status, event, operation); the DAT_RETURN if no event was taken.
     */
    FIELD;

    /** The event fields an {@code "observe"} object may name, and whether each is a number. */
    public static final java.util.Map<String, Boolean> FIELDS = fields();

    private static java.util.Map<String, Boolean> fields() {
        java.util.Map<String, Boolean> m = new java.util.LinkedHashMap<>();
        m.put("status", false);
        m.put("event", false);
        m.put("operation", false);
        m.put("ep", false);
        m.put("cookie", true);
        m.put("length", true);
        m.put("immediate_data", true);
        return java.util.Collections.unmodifiableMap(m);
    }

    /**
     * Returns what a call's {@code "observe"} records.
     *
     * @param call the call's name
     * @return the kind of observation
     */
    public static ObserveKind of(String call) {
        switch (call) {
            case "mem_read":
                return DATA;
            case "dat_evd_wait":
            case "dat_evd_dequeue":
                return STATUS;
            default:
                return RET;
        }
    }
}
