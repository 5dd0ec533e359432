package org.datsim.viz.explain;

import java.io.PrintWriter;
import java.util.List;

/**
 * The causal story of a run, built by {@link Explainer}: one {@link Story} per operation in posting order, and the
 * other happenings worth a reader's attention (stale CPU reads, broken connections, connection-management messages
 * lost and resent, failed expectations).
 *
 * @param header lines that introduce the run (scenario, seed, end time), possibly empty
 * @param stories one per posted operation, in posting order
 * @param others notable happenings that belong to no operation, in time order
 * @param limits what the trace cannot tell, in words
 * @param legend the line under the printed explanation that says what its stars mark
 */
public record Explanation(List<String> header, List<Story> stories, List<Line> others, List<String> limits,
        String legend) {

    /**
     * An explanation with the legend of a run without connection-manager resends or timeouts.
     *
     * @param header lines that introduce the run
     * @param stories one per posted operation, in posting order
     * @param others notable happenings that belong to no operation, in time order
     * @param limits what the trace cannot tell, in words
     */
    public Explanation(List<String> header, List<Story> stories, List<Line> others, List<String> limits) {
        this(header, stories, others, limits, Wording.STAR_LEGEND);
    }

    /**
     * One step of a story.
     *
     * @param tPs when it happened, in picoseconds
     * @param text a verb phrase that reads after the operation's name ("was held by the barrier fence ...")
     * @param notable true for what a lesson would point at, starred when printed (the printed legend lists what)
     */
    public record Line(long tPs, String text, boolean notable) {
    }

    /**
     * The life of one operation.
     *
     * @param op the operation id
     * @param title e.g. "op 3 (send, BARRIER_FENCE)"
     * @param heading the first line: opcode, size, endpoint, cookie and flags
     * @param lines its steps in time order
     */
    public record Story(long op, String title, String heading, List<Line> lines) {
    }

    /**
     * Returns every notable step as a sentence, "at 10.471 us op 3 (send, BARRIER_FENCE) was held ...", in time
     * order (ties in posting order), followed by nothing else.
     *
     * @return the sentences
     */
    public List<String> notableSentences() {
        java.util.ArrayList<long[]> keys = new java.util.ArrayList<>();
        java.util.ArrayList<String> texts = new java.util.ArrayList<>();
        for (Story s : stories) {
            for (Line l : s.lines()) {
                if (l.notable()) {
                    keys.add(new long[] {l.tPs(), keys.size()});
                    texts.add("at " + Times.human(l.tPs()) + " " + s.title() + " " + l.text());
                }
            }
        }
        for (Line l : others) {
            if (l.notable()) {
                keys.add(new long[] {l.tPs(), keys.size()});
                texts.add("at " + Times.human(l.tPs()) + " " + l.text());
            }
        }
        keys.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        java.util.ArrayList<String> out = new java.util.ArrayList<>(keys.size());
        for (long[] k : keys) {
            out.add(texts.get((int) k[1]));
        }
        return out;
    }

    /**
     * Prints the explanation: the header, each operation's story, the other happenings and the limits.
     *
     * @param out where to print
     */
    public void print(PrintWriter out) {
        for (String h : header) {
            out.println(h);
        }
        if (!header.isEmpty()) {
            out.println();
        }
        for (Story s : stories) {
            out.println(s.heading());
            for (Line l : s.lines()) {
                out.printf("  %12s  %s%s%n", Times.human(l.tPs()), l.notable() ? "* " : "", l.text());
            }
        }
        if (stories.isEmpty()) {
            out.println("No consumer process posted an operation.");
        }
        if (!others.isEmpty()) {
            out.println();
            out.println("Other happenings:");
            for (Line l : others) {
                out.printf("  %12s  %s%s%n", Times.human(l.tPs()), l.notable() ? "* " : "", l.text());
            }
        }
        out.println();
        out.println(legend);
        for (String l : limits) {
            out.println("Not in the trace: " + l);
        }
        out.flush();
    }
}
