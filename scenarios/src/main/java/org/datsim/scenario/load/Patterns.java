package org.datsim.scenario.load;

/**
 * The regular expressions of scenario text, each defined once: the loader judges with them and
 * {@link SchemaGenerator} writes them into the JSON Schema, so the two cannot drift apart. They are anchored
 * ({@code ^...$}) because JSON Schema searches a pattern where Java's {@code matches()} matches it whole; both read
 * them the same way.
 */
final class Patterns {

    /** What a reference starts with: {@code "$name"}, {@code "$name.field"}, {@code "$process/name.field"}. */
    static final String REF_PREFIX = "$";
    /** What an expression starts with: {@code "= $i * 4096"}. */
    static final String EXPR_PREFIX = "=";

    /** The characters of a name, without anchors: letters, digits and _, not starting with a digit. */
    static final String NAME_CHARS = "[A-Za-z_][A-Za-z0-9_]*";
    /** A name: of a process, a host, a variable, a loop variable, or a value bound with {@code "out"}. */
    static final String NAME = "^" + NAME_CHARS + "$";
    /** A reference, by its first character; the loader then parses the rest. */
    static final String REF_START = "^\\" + REF_PREFIX;
    /** A reference or an expression, by its first character; the loader then parses the rest. */
    static final String REF_OR_EXPR_START = "^[" + REF_PREFIX + EXPR_PREFIX + "]";
    /** The index of an indexed name, without the brackets: an expression without "=" ({@code $i + 1}). */
    static final String INDEX_CHARS = "[^\\[\\]]{1,200}";
    /**
     * A whole reference, with groups for the process (or none), the name, the index (or none) and the field (or
     * none): {@code $name}, {@code $name.field}, {@code $process/name[$i].field}.
     */
    static final String REF = REF_START + "(?:([A-Za-z_][A-Za-z0-9_-]*)/)?(" + NAME_CHARS + ")(?:\\[(" + INDEX_CHARS
            + ")\\])?(?:\\.(" + NAME_CHARS + "))?$";
    /** A name with an optional index, as {@code "out"} and {@code "observe"} take it: {@code ep} or {@code ep[$i]}. */
    static final String INDEXED_NAME = "^(" + NAME_CHARS + ")(?:\\[(" + INDEX_CHARS + ")\\])?$";
    /** An {@code "after"}: a process's name, a slash and one of its step names. */
    static final String AFTER = "^[A-Za-z_][A-Za-z0-9_-]*/" + NAME_CHARS + "$";
    /**
     * An observation's name in an outcome, with groups for the process (a template's instance, or none), the name
     * and the index (or none): {@code r1}, {@code r[2]}, {@code client_h1/r1}.
     */
    static final String OUTCOME_KEY = "^(?:([A-Za-z_][A-Za-z0-9_-]*)/)?(" + NAME_CHARS + ")(?:\\[(-?[0-9]{1,18})\\])?$";
    /** An expected number written as a comparison ({@link Comparison}): an operator, then the operand. */
    static final String COMPARISON = "^\\s*(!=|<=|>=|<|>)\\s*\\S";
    /** Bytes written in hexadecimal: an even number of digits. */
    static final String HEX = "^([0-9a-fA-F]{2})*$";

    /**
     * A time such as {@code "1.5us"}, for editors; {@link org.datsim.core.time.SimTime#parse} is the judge (it also
     * takes a bare 0) and the tests check that its units are these.
     */
    static final String TIME = "^[0-9.]+ ?(ps|ns|us|ms|s)$";
    /**
     * A size such as {@code "4KiB"}, for editors; {@link org.datsim.core.time.ByteSize#parse} is the judge and the
     * tests check that its units are these.
     */
    static final String SIZE = "^[0-9.]+ ?(B|KiB|MiB|GiB|TiB|KB|MB|GB|TB)?$";

    private Patterns() {
    }
}
