package org.datsim.core.param;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.commons.text.similarity.LevenshteinDistance;

/**
 * "Did you mean": the known names closest to a misspelt one, by Levenshtein distance (commons-text's, rather than a
 * hand-written one). A word of two letters or more gets suggestions; a name is suggested when it is at most a third of the misspelt word's length away (at least 1,
 * at most 3 edits), or when the misspelt word is a segment of it ({@code mtu} for {@code hca.mtu}); the nearest come
 * first, ties in the order the candidates were given, so the answer is deterministic.
 */
public final class Suggestions {

    private Suggestions() {
    }

    /**
     * Returns up to three known names close to a word, nearest first.
     *
     * @param word the misspelt word
     * @param known the names it may have meant, in a fixed order
     * @return the suggestions, possibly none
     */
    public static List<String> closest(String word, Collection<String> known) {
        if (word.length() < 2) {
            return List.of(); // one letter is one edit from every other: no suggestion is worth making
        }
        int limit = Math.max(1, Math.min(3, word.length() / 3));
        LevenshteinDistance distance = new LevenshteinDistance(limit);
        List<String> out = new ArrayList<>();
        List<Integer> dist = new ArrayList<>();
        for (String k : known) {
            int d = distance.apply(word.toLowerCase(java.util.Locale.ROOT), k.toLowerCase(java.util.Locale.ROOT));
            if (d < 0 && word.length() >= 3 && (k.endsWith("." + word) || k.startsWith(word + "."))) {
                d = limit; // a segment of a dotted name
            }
            if (d < 0 || k.equals(word)) {
                continue;
            }
            int at = 0;
            while (at < dist.size() && dist.get(at) <= d) {
                at++;
            }
            out.add(at, k);
            dist.add(at, d);
        }
        return out.size() > 3 ? List.copyOf(out.subList(0, 3)) : out;
    }

    /**
     * Returns {@code "; did you mean X?"} (or {@code "X or Y"}) for a misspelt word, or the empty string.
     *
     * @param word the misspelt word
     * @param known the names it may have meant
     * @return the hint to append to a message
     */
    public static String hint(String word, Collection<String> known) {
        List<String> c = closest(word, known);
        if (c.isEmpty()) {
            return "";
        }
        return "; did you mean " + String.join(" or ", c) + "?";
    }
}
