package org.datsim.core.time;

/**
 * Thrown when a textual quantity (a time, a data rate or a byte size) cannot be parsed or is out of
 * range. The message always names the expected form and quotes the offending text, for example
 * {@code expected a time such as "250ns" or "1.5us", found "abc"}, so it can be shown to a user
 * unchanged.
 */
public class UnitParseException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /**
     * Creates an exception with a complete, user-facing message.
     *
     * @param message the message, which should name the expected form and the text that was found
     */
    public UnitParseException(String message) {
        super(message);
    }

    /**
     * Creates an exception whose message reads {@code expected <expected>, found "<found>"}, optionally
     * followed by a reason.
     *
     * @param expected a description of the accepted form, such as {@code a time such as "250ns"}
     * @param found the text that was rejected (may be {@code null})
     * @param reason an extra explanation appended after a colon, or {@code null} for none
     * @return the new exception (the caller throws it)
     */
    public static UnitParseException expected(String expected, String found, String reason) {
        String msg = "expected " + expected + ", found " + (found == null ? "null" : "\"" + found + "\"");
        if (reason != null) {
            msg += ": " + reason;
        }
        return new UnitParseException(msg);
    }
}
