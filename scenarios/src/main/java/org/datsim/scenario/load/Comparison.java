package org.datsim.scenario.load;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An expected number written as a comparison: {@code "!= 0"}, {@code "< 5"}, {@code "<= $n"}, {@code "> 0"},
 * {@code ">= $e.evd_qlen"}: the observed value compared with an operand, which is an expression (a number, a
 * reference, or arithmetic of them, as after {@code "="}).
 *
 * @param op the operator: {@code !=}, {@code <}, {@code <=}, {@code >} or {@code >=}
 * @param operand the operand as an expression ({@code "= ..."}), to evaluate like any other
 */
public record Comparison(String op, JsonNode operand) {

    private static final Pattern FORM = Pattern.compile("\\s*(!=|<=|>=|<|>)\\s*(\\S.*)");

    /**
     * Reads a comparison.
     *
     * @param v an expected value
     * @return the comparison, or null if the value is not written as one
     */
    public static Comparison parse(JsonNode v) {
        if (v == null || !v.isTextual()) {
            return null;
        }
        Matcher m = FORM.matcher(v.asText());
        if (!m.matches()) {
            return null;
        }
        return new Comparison(m.group(1), TextNode.valueOf(Patterns.EXPR_PREFIX + " " + m.group(2).trim()));
    }

    /** Returns true if a value is written as a comparison (whatever its operand). */
    public static boolean looksLikeOne(JsonNode v) {
        return v != null && v.isTextual() && v.asText().matches("\\s*(!=|<=|>=|<|>).*");
    }

    /**
     * Compares an observed value with the operand's value.
     *
     * @param got the observed value
     * @param want the operand's value
     * @return whether {@code got op want} holds
     */
    public boolean holds(long got, long want) {
        switch (op) {
            case "!=":
                return got != want;
            case "<":
                return got < want;
            case "<=":
                return got <= want;
            case ">":
                return got > want;
            default:
                return got >= want;
        }
    }
}
