package org.datsim.scenario.load;

import java.util.HashMap;
import java.util.Map;
import org.datsim.core.time.ByteSize;
import org.datsim.core.time.SimTime;

/**
 * The operands of a scenario's calls, parsed: references ({@code "$buf.address"}), expressions ({@code "= $i *
 * 4096"}), sizes ({@code "4KiB"}) and durations ({@code "250ns"}), by their text as written. The loader parses each
 * text once, when it validates the calls, and keeps the result here, so that a call in a repeat block does not parse
 * the same texts each time it runs. Immutable once built; lookups only, so the order of the tables never reaches an
 * output. A text the loader did not see (a scenario put together without it) is parsed on each lookup.
 */
public final class Operands {

    /** No parsed operands: every lookup parses. */
    public static final Operands NONE = new Operands(new Builder());

    private final Map<String, Refs.Ref> refs;
    private final Map<String, Expr> exprs;
    private final Map<String, Long> sizes;
    private final Map<String, Long> durations;

    private Operands(Builder b) {
        this.refs = new HashMap<>(b.refs);
        this.exprs = new HashMap<>(b.exprs);
        this.sizes = new HashMap<>(b.sizes);
        this.durations = new HashMap<>(b.durations);
    }

    /**
     * Returns a parsed reference.
     *
     * @param text the reference as written, for example {@code "$peer/buf.address"}
     * @return the reference, or null if the text is not one
     */
    public Refs.Ref ref(String text) {
        Refs.Ref r = refs.get(text);
        return r != null ? r : Refs.parse(text);
    }

    /**
     * Returns a parsed expression.
     *
     * @param text the expression as written, starting with {@code =}
     * @return the expression
     * @throws IllegalArgumentException if the text does not parse (the loader reports that before any run)
     */
    public Expr expr(String text) {
        Expr e = exprs.get(text);
        return e != null ? e : Expr.parse(text);
    }

    /**
     * Returns a parsed size.
     *
     * @param text the size as written, for example {@code "4KiB"}
     * @return the size in bytes
     * @throws IllegalArgumentException if the text does not parse (the loader reports that before any run)
     */
    public long size(String text) {
        Long v = sizes.get(text);
        return v != null ? v : ByteSize.parse(text);
    }

    /**
     * Returns a parsed duration.
     *
     * @param text the duration as written, for example {@code "1.5us"}
     * @return the duration in picoseconds
     * @throws IllegalArgumentException if the text does not parse (the loader reports that before any run)
     */
    public long duration(String text) {
        Long v = durations.get(text);
        return v != null ? v : SimTime.parse(text);
    }

    /** Collects what the loader parses; {@link #build} makes the immutable table. */
    static final class Builder {
        private final Map<String, Refs.Ref> refs = new HashMap<>();
        private final Map<String, Expr> exprs = new HashMap<>();
        private final Map<String, Long> sizes = new HashMap<>();
        private final Map<String, Long> durations = new HashMap<>();

        void ref(String text, Refs.Ref r) {
            refs.put(text, r);
        }

        void expr(String text, Expr e) {
            exprs.put(text, e);
        }

        void size(String text, long bytes) {
            sizes.put(text, bytes);
        }

        void duration(String text, long ps) {
            durations.put(text, ps);
        }

        Operands build() {
            return new Operands(this);
        }
    }
}
