package org.datsim.viz;

/**
 * Compares names the way people sort them: runs of digits by their numeric value, so {@code h2} comes before
 * {@code h10}; otherwise character by character. Ties fall back to plain string order, so the order is total.
 */
final class NaturalOrder {

    private NaturalOrder() {
    }

    /**
     * Compares two names.
     *
     * @param a a name
     * @param b another name
     * @return negative, zero or positive as {@code a} sorts before, with or after {@code b}
     */
    static int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int i2 = i;
                int j2 = j;
                while (i2 < a.length() && Character.isDigit(a.charAt(i2))) {
                    i2++;
                }
                while (j2 < b.length() && Character.isDigit(b.charAt(j2))) {
                    j2++;
                }
                String da = a.substring(i, i2).replaceFirst("^0+(?=.)", "");
                String db = b.substring(j, j2).replaceFirst("^0+(?=.)", "");
                int c = da.length() != db.length() ? Integer.compare(da.length(), db.length()) : da.compareTo(db);
                if (c != 0) {
                    return c;
                }
                i = i2;
                j = j2;
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        int c = Integer.compare(a.length() - i, b.length() - j);
        return c != 0 ? c : a.compareTo(b);
    }
}
