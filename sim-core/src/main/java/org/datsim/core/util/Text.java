package org.datsim.core.util;

/**
 * Input quoted in a message, made safe to print: control characters and line or paragraph separators escaped (so
 * that one problem stays on one line), and a long value cut, saying its length.
 */
public final class Text {

    /** The most characters of one message kept before it is cut. */
    public static final int MAX_MESSAGE = 400;

    private Text() {
    }

    /**
     * Escapes and cuts a message (or a quoted value) to {@link #MAX_MESSAGE} characters.
     *
     * @param s the text, may be null
     * @return the safe text
     */
    public static String clean(String s) {
        return clean(s, MAX_MESSAGE);
    }

    /**
     * Escapes the control characters of a text and cuts it to {@code max} characters, ending a cut text with
     * {@code "... (N characters)"}.
     *
     * @param s the text, may be null
     * @param max the most characters kept
     * @return the safe text
     */
    public static String clean(String s, int max) {
        if (s == null) {
            return "null";
        }
        int n = s.length();
        StringBuilder b = new StringBuilder(Math.min(n, max) + 32);
        for (int i = 0; i < n && b.length() <= max; i++) {
            char c = s.charAt(i);
            if (c == '\n') {
                b.append("\\n");
            } else if (c == '\r') {
                b.append("\\r");
            } else if (c == '\t') {
                b.append("\\t");
            } else if (c < 0x20 || c >= 0x7f && c < 0xa0 || c == 0x2028 || c == 0x2029 || c == 0xfeff
                    || c >= 0x202a && c <= 0x202e || c >= 0x2066 && c <= 0x2069) {
                b.append(String.format("\\u%04X", (int) c));
            } else {
                b.append(c);
            }
        }
        if (b.length() > max) {
            b.setLength(Math.max(0, max - 3));
            b.append("... (").append(n).append(" characters)");
        }
        return b.toString();
    }
}
