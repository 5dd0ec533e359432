package org.datsim.scenario.load;

/**
 * What a step's {@code "expect"} can say about its call, one constant per key (issue 26's typed steps): the
 * interpreter switches over these, every key a case and no default. Which keys a call accepts is its declaration's
 * ({@link CallSpec#expectKeys()}, checked by the loader).
 */
public enum ExpectKey {
    /** The DAT_RETURN: a type or subtype name, "any" or "any_error". */
    RET("ret"),
    /** The event's number name. */
    EVENT("event"),
    /** The completion status of a DTO event, or "any_error". */
    STATUS("status"),
    /** The completed operation of a DTO event. */
    OPERATION("operation"),
    /** The event's cookie (a number or a comparison). */
    COOKIE("cookie"),
    /** The event's transferred length (a number or a comparison). */
    TRANSFERED_LENGTH("transfered_length"),
    /** The event's immediate data (a number or a comparison). */
    IMMEDIATE_DATA("immediate_data"),
    /** The endpoint of the event (a reference). */
    EP("ep"),
    /** The EVD a dat_cno_wait returned (a reference, or null). */
    EVD("evd"),
    /** An endpoint's state. */
    STATE("state"),
    /** A handle's type. */
    HANDLE_TYPE("handle_type"),
    /** A consumer context (a number or a comparison). */
    CONTEXT("context"),
    /** dat_strerror's message. */
    MESSAGE("message"),
    /** dat_ep_get_status's receive queue idle. */
    RECV_IDLE("recv_idle"),
    /** dat_ep_get_status's request queue idle. */
    REQUEST_IDLE("request_idle"),
    /** Whether mem_read saw stale bytes. */
    STALE("stale"),
    /** The bytes mem_read read. */
    DATA("data"),
    /** A query's attributes (an object of names and values). */
    ATTRS("attrs");

    private final String key;

    ExpectKey(String key) {
        this.key = key;
    }

    /** Returns the key as a step spells it. */
    public String key() {
        return key;
    }

    /**
     * Returns the constant of a key.
     *
     * @param key the key as a step spells it
     * @return the constant, or null if there is none
     */
    public static ExpectKey of(String key) {
        for (ExpectKey k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        return null;
    }
}
