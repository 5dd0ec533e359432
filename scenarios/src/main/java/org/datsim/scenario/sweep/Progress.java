package org.datsim.scenario.sweep;

import java.io.PrintWriter;

/**
 * Reports a sweep's progress: on a terminal, one line redrawn in place with a bar, the count, the percentage, the
 * elapsed time and an estimate of the time left; otherwise plain lines (one per finished run for up to 200 runs,
 * else at most one every 5 seconds), so logs of batch jobs stay readable. Wall-clock time is used for the display
 * only, never for results.
 */
public final class Progress {

    private static final int BAR = 30;

    private final PrintWriter out;
    private final boolean terminal;
    private int total;
    private int done;
    private int failed;
    private long startNs;
    private long lastPrintNs;

    /**
     * Creates a progress reporter.
     *
     * @param out where to print (standard error, normally)
     * @param terminal true to redraw one line in place (a console), false for plain lines
     */
    public Progress(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** A reporter that prints nothing. */
    public static Progress silent() {
        return new Progress(new PrintWriter(java.io.OutputStream.nullOutputStream()), false);
    }

    synchronized void start(int runs, int skipped) {
        total = runs;
        startNs = System.nanoTime();
        lastPrintNs = startNs;
        out.println("sweep: " + runs + " run(s) to do" + (skipped > 0 ? ", " + skipped + " finished already" : ""));
        out.flush();
    }

    synchronized void done(Point p, int exitCode) {
        done++;
        if (exitCode != 0) {
            failed++;
        }
        long now = System.nanoTime();
        double elapsed = (now - startNs) / 1e9;
        double eta = done == 0 ? 0 : elapsed / done * (total - done);
        if (terminal) {
            int fill = total == 0 ? BAR : (int) ((long) BAR * done / total);
            out.print("\r[" + "#".repeat(fill) + ".".repeat(BAR - fill) + "] " + done + "/" + total + " "
                    + (total == 0 ? 100 : 100L * done / total) + "%  elapsed " + clock(elapsed) + "  ETA "
                    + clock(eta) + (failed > 0 ? "  (" + failed + " not OK)" : "") + "   ");
            out.flush();
        } else if (total <= 200 || now - lastPrintNs >= 5_000_000_000L || done == total) {
            out.println("sweep: " + done + "/" + total + " done, " + p.describe() + " exit "
                    + (exitCode < 0 ? "error" : exitCode) + ", elapsed " + clock(elapsed) + ", ETA " + clock(eta));
            out.flush();
            lastPrintNs = now;
        }
    }

    synchronized void finish() {
        if (terminal && total > 0) {
            out.println();
        }
        out.flush();
    }

    static String clock(double seconds) {
        long s = Math.round(seconds);
        return s >= 3600 ? String.format("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
                : String.format("%d:%02d", s / 60, s % 60);
    }
}
