package org.datsim.viz.explain;

import org.datsim.core.time.SimTime;

/** Simulated times in words: {@code 2310000} becomes {@code "2.31 us"}. */
public final class Times {

    private Times() {
    }

    /**
     * Formats a time or duration with a space between number and unit, e.g. "2.31 us", "812 ns".
     *
     * @param ps picoseconds
     * @return the text
     */
    public static String human(long ps) {
        String s = SimTime.format(ps);
        int i = s.length();
        while (i > 0 && Character.isLetter(s.charAt(i - 1))) {
            i--;
        }
        return s.substring(0, i) + " " + s.substring(i);
    }
}
