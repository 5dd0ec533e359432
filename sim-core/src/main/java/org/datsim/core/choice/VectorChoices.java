package org.datsim.core.choice;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.commons.math3.random.RandomGenerator;

/**
 * A {@link ChoiceSource} that follows a choice vector: the i-th point reached takes the vector's i-th alternative.
 * Past the vector's end it takes 0 (the timing model's choice) or, given a random generator, a uniformly drawn
 * alternative. It records every point reached with its branching factor and the alternative taken, so that the
 * explorer can extend the vector depth first, and a witness can be replayed. A vector entry that does not fit the
 * point it reaches (too large) is recorded as a mismatch and replaced by 0: the vector was made for another scenario
 * or another version of the models.
 */
public final class VectorChoices implements ChoiceSource {

    /** One point reached: which, where, how many alternatives, and the one taken. */
    public record Taken(ChoicePoint point, String host, int alternatives, int value) {
    }

    private final int[] prefix;
    private final RandomGenerator random;
    private final boolean reduce;
    private final List<Taken> taken = new ArrayList<>();
    private final int maxPoints;
    private Consumer<Taken> listener;
    private int mismatch = -1;
    /** The random search's bias in this execution: the chance of leaving the timing model's alternative. */
    private double bias = -1;
    /** The product of 1 / the chance of each random draw (Knuth's estimator of the tree's size). */
    private double weight = 1;

    /**
     * Creates a source.
     *
     * @param prefix the alternatives of the first points reached
     * @param random draws the alternatives past the prefix, or null to take 0 there
     * @param reduce whether models may skip points whose alternatives are independent ({@link #reduce()})
     * @param maxPoints the most points one execution may reach; later ones take 0 and are not recorded
     */
    public VectorChoices(int[] prefix, RandomGenerator random, boolean reduce, int maxPoints) {
        this.prefix = prefix.clone();
        this.random = random;
        this.reduce = reduce;
        this.maxPoints = maxPoints;
    }

    /**
     * Creates a source that replays a vector exactly (0 past its end), with the reduction on.
     *
     * @param vector the choice vector
     * @return the source
     */
    public static VectorChoices replay(int[] vector) {
        return new VectorChoices(vector, null, true, Integer.MAX_VALUE);
    }

    /**
     * Makes the random draws past the prefix biased (swarm-style): at each point the timing model's alternative is
     * taken with chance {@code 1 - bias} and each other one with chance {@code bias / (alternatives - 1)}. One
     * execution drawing its own bias reaches both nearly-all-timing and nearly-all-other vectors, which uniform draws
     * over many points almost never do.
     *
     * @param chance the bias, in (0, 1)
     */
    public void bias(double chance) {
        this.bias = chance;
    }

    /**
     * Returns the product, over the random draws, of 1 / the chance of the alternative drawn: its mean over random
     * executions estimates the number of leaves of the tree (Knuth's estimator, unbiased for any draw chances).
     *
     * @return the weight of this execution's path
     */
    public double weight() {
        return weight;
    }

    /**
     * Sets what hears each point reached (the runner traces it), or null.
     *
     * @param listener the listener
     */
    public void onChoice(Consumer<Taken> listener) {
        this.listener = listener;
    }

    @Override
    public int choose(ChoicePoint point, int alternatives, String host) {
        int i = taken.size();
        if (i >= maxPoints) {
            return 0;
        }
        int value;
        if (i < prefix.length) {
            value = prefix[i];
            if (value < 0 || value >= alternatives) {
                if (mismatch < 0) {
                    mismatch = i;
                }
                value = 0;
            }
        } else {
            value = random == null ? 0 : draw(alternatives);
        }
        Taken t = new Taken(point, host, alternatives, value);
        taken.add(t);
        if (listener != null) {
            listener.accept(t);
        }
        return value;
    }

    private int draw(int alternatives) {
        if (bias <= 0) {
            weight *= alternatives;
            return random.nextInt(alternatives);
        }
        if (random.nextDouble() >= bias) {
            weight /= 1 - bias;
            return 0;
        }
        weight *= (alternatives - 1) / bias;
        return 1 + random.nextInt(alternatives - 1);
    }

    @Override
    public boolean exploring() {
        return true;
    }

    @Override
    public boolean reduce() {
        return reduce;
    }

    /** Returns the points reached so far, in order. */
    public List<Taken> taken() {
        return taken;
    }

    /** Returns the alternatives taken so far: the execution's full choice vector. */
    public int[] vector() {
        int[] v = new int[taken.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = taken.get(i).value();
        }
        return v;
    }

    /** Returns the index of the first vector entry that did not fit its point, or -1. */
    public int mismatch() {
        return mismatch;
    }

    /** Returns whether the execution reached more points than the vector gave (it ran past the prefix). */
    public boolean pastPrefix() {
        return taken.size() > prefix.length;
    }

    /**
     * Formats a vector as the command line takes it: alternatives separated by dots ({@code 0.2.1}), a run of four
     * or more equal alternatives as {@code value*count} ({@code 0*59.1}), or {@code -} for the empty vector.
     *
     * @param vector the vector
     * @return its text
     */
    public static String format(int[] vector) {
        if (vector.length == 0) {
            return "-";
        }
        StringBuilder b = new StringBuilder();
        int i = 0;
        while (i < vector.length) {
            int j = i;
            while (j < vector.length && vector[j] == vector[i]) {
                j++;
            }
            if (b.length() > 0) {
                b.append('.');
            }
            if (j - i >= 4) {
                b.append(vector[i]).append('*').append(j - i);
            } else {
                for (int k = i; k < j; k++) {
                    b.append(k > i ? "." : "").append(vector[k]);
                }
            }
            i = j;
        }
        return b.toString();
    }

    private static boolean number(String s) {
        return !s.isEmpty() && s.length() <= 7 && s.chars().allMatch(ch -> ch >= '0' && ch <= '9');
    }

    /**
     * Parses a vector written by {@link #format}.
     *
     * @param text the text
     * @return the vector
     * @throws IllegalArgumentException if the text is not a vector
     */
    public static int[] parse(String text) {
        String t = text.trim();
        if (t.equals("-") || t.isEmpty()) {
            return new int[0];
        }
        if (t.length() > 1_000_000) {
            throw new IllegalArgumentException("a choice vector of more than 1000000 characters");
        }
        String[] parts = t.split("\\.", -1);
        int[] v = new int[16];
        int n = 0;
        for (int i = 0; i < parts.length; i++) {
            String p = parts[i];
            int star = p.indexOf('*');
            String value = star < 0 ? p : p.substring(0, star);
            String count = star < 0 ? "1" : p.substring(star + 1);
            if (!number(value) || !number(count) || Integer.parseInt(count) < 1 || n + Integer.parseInt(count) > 10_000_000) {
                throw new IllegalArgumentException("'" + (text.length() > 80 ? text.substring(0, 80) + "..." : text)
                        + "' is not a choice vector (alternatives as numbers separated by dots, value*count for a"
                        + " run, such as 0.2.1 or 0*59.1, or - for none): entry " + (i + 1) + " is '" + p + "'");
            }
            int c = Integer.parseInt(count);
            while (n + c > v.length) {
                v = java.util.Arrays.copyOf(v, v.length * 2);
            }
            java.util.Arrays.fill(v, n, n + c, Integer.parseInt(value));
            n += c;
        }
        return java.util.Arrays.copyOf(v, n);
    }
}
