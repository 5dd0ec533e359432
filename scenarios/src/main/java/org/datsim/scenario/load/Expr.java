package org.datsim.scenario.load;

import org.datsim.core.util.Text;
import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;
import org.datsim.core.time.ByteSize;

/**
 * An integer expression of a scenario, written as a string that starts with {@code =}: for example
 * {@code "= $i * 4096 + 8"} or {@code "= $b/buf.address + 2KiB"}. Operands are whole numbers, sizes ({@code 4KiB}),
 * references ({@code $name}, {@code $name.field}, {@code $process/name.field}) and loop variables ({@code $i});
 * operators are {@code + - * / %} with the usual precedence, unary minus and parentheses. Arithmetic is on 64-bit
 * integers; overflow and division by zero are errors when the call runs. Parsing is done once, at validation.
 */
public final class Expr {

    private interface Node {
        long eval(ToLongFunction<String> refs);
    }

    /** The most characters of one expression (bounds the evaluation's depth: each operator adds one level). */
    public static final int MAX_LENGTH = 1000;
    /** The deepest nesting of parentheses and unary minus signs in one expression. */
    public static final int MAX_DEPTH = 50;

    private final Node root;
    private final List<String> refs;

    private Expr(Node root, List<String> refs) {
        this.root = root;
        this.refs = List.copyOf(refs);
    }

    /** Returns true if a JSON string is an expression (starts with {@code =}). */
    public static boolean isExpr(String text) {
        return text.startsWith(Patterns.EXPR_PREFIX);
    }

    /**
     * Parses an expression.
     *
     * @param text the string, starting with {@code =}
     * @return the expression
     * @throws IllegalArgumentException with a message saying where and what was expected
     */
    public static Expr parse(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("the expression is " + text.length() + " characters long; expressions"
                    + " are limited to " + MAX_LENGTH + " characters");
        }
        Parser p = new Parser(text.substring(1));
        Node n = p.expr();
        p.skip();
        if (p.pos < p.s.length()) {
            throw new IllegalArgumentException("unexpected \"" + Text.clean(p.s.substring(p.pos), 60) + "\" in"
                    + " expression \"" + Text.clean(text, 100) + "\"");
        }
        return new Expr(n, p.refs);
    }

    /** Returns the references the expression reads, as written (for example {@code "$buf.length"}). */
    public List<String> refs() {
        return refs;
    }

    /**
     * Evaluates the expression.
     *
     * @param resolver gives the value of a reference (as written)
     * @return the value
     * @throws ArithmeticException on overflow or division by zero
     */
    public long eval(ToLongFunction<String> resolver) {
        return root.eval(resolver);
    }

    private static final class Parser {
        final String s;
        int pos;
        final List<String> refs = new ArrayList<>();
        int depth;

        Parser(String s) {
            this.s = s;
        }

        void skip() {
            while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
                pos++;
            }
        }

        boolean eat(char c) {
            skip();
            if (pos < s.length() && s.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        Node expr() {
            Node left = term();
            while (true) {
                if (eat('+')) {
                    Node l = left;
                    Node r = term();
                    left = v -> Math.addExact(l.eval(v), r.eval(v));
                } else if (eat('-')) {
                    Node l = left;
                    Node r = term();
                    left = v -> Math.subtractExact(l.eval(v), r.eval(v));
                } else {
                    return left;
                }
            }
        }

        Node term() {
            Node left = factor();
            while (true) {
                if (eat('*')) {
                    Node l = left;
                    Node r = factor();
                    left = v -> Math.multiplyExact(l.eval(v), r.eval(v));
                } else if (eat('/')) {
                    Node l = left;
                    Node r = factor();
                    left = v -> l.eval(v) / r.eval(v);
                } else if (eat('%')) {
                    Node l = left;
                    Node r = factor();
                    left = v -> l.eval(v) % r.eval(v);
                } else {
                    return left;
                }
            }
        }

        Node factor() {
            if (++depth > MAX_DEPTH) {
                throw new IllegalArgumentException("parentheses and minus signs nested deeper than " + MAX_DEPTH
                        + " levels at position " + (pos + 1) + " of the expression; expressions are limited to "
                        + MAX_DEPTH);
            }
            try {
                return primary();
            } finally {
                depth--;
            }
        }

        Node primary() {
            skip();
            if (eat('(')) {
                Node n = expr();
                if (!eat(')')) {
                    throw error("a closing parenthesis");
                }
                return n;
            }
            if (eat('-')) {
                Node n = factor();
                return v -> Math.negateExact(n.eval(v));
            }
            if (pos < s.length() && s.charAt(pos) == '$') {
                int start = pos++;
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || "_-/.[".indexOf(s.charAt(pos))
                        >= 0)) {
                    if (s.charAt(pos) == '[') {
                        // An indexed name, $ep[$i + 1]: the index runs to the closing bracket (indexes do not nest).
                        int close = s.indexOf(']', pos);
                        if (close < 0) {
                            throw error("a closing bracket \"]\" after the index");
                        }
                        pos = close;
                    }
                    pos++;
                }
                String ref = s.substring(start, pos);
                if (Refs.parse(ref) == null) {
                    throw new IllegalArgumentException("\"" + Text.clean(ref, 60) + "\" is not a reference (expected \"$name\","
                            + " \"$name.field\", \"$name[$i]\" or \"$process/name.field\")");
                }
                refs.add(ref);
                return v -> v.applyAsLong(ref);
            }
            if (pos < s.length() && Character.isDigit(s.charAt(pos))) {
                int start = pos;
                while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '.')) {
                    pos++;
                }
                String lit = s.substring(start, pos);
                long value;
                try {
                    value = ByteSize.parse(lit);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException("\"" + Text.clean(lit, 60) + "\" is not a number or a size");
                }
                return v -> value;
            }
            throw error("a number, a size, a reference or \"(\"");
        }

        IllegalArgumentException error(String expected) {
            return new IllegalArgumentException("expected " + expected + " at position " + (pos + 1)
                    + " of expression \"" + Text.clean("=" + s, 100) + "\"");
        }
    }
}
