package org.datsim.scenario.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A progress line on standard error, rewritten every second and cleared at the end, for long commands (run,
 * perftest -a): only when standard error is a terminal and {@code --quiet} was not given, so it never reaches a
 * file, a pipe or key=value output, and outputs stay byte-identical. The line is what the command's supplier says
 * (read from another thread: the simulation is not stopped for it), after the wall time so far.
 */
final class TerminalProgress implements AutoCloseable {

    private final Thread thread;
    private final PrintWriter err;

    private TerminalProgress(Thread thread, PrintWriter err) {
        this.thread = thread;
        this.err = err;
    }

    /**
     * Whether standard error is a terminal: the console's, or on Linux a terminal device behind file descriptor 2
     * (elsewhere: false).
     *
     * @return true on a terminal
     */
    static boolean stderrIsTerminal() {
        if (System.console() != null) {
            return true;
        }
        Path fd2 = Path.of("/proc/self/fd/2");
        if (!Files.isSymbolicLink(fd2)) {
            return false;
        }
        try {
            String target = Files.readSymbolicLink(fd2).toString();
            return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /**
     * Starts the line if standard error is a terminal and not quiet.
     *
     * @param quiet true for no line
     * @param err standard error
     * @param line what to say, asked every second
     * @return the display, or null when there is none
     */
    static TerminalProgress start(boolean quiet, PrintWriter err, Supplier<String> line) {
        return start(quiet, err, line, null);
    }

    /**
     * Starts the line with an estimate of the time left if standard error is a terminal and not quiet.
     *
     * @param quiet true for no line
     * @param err standard error
     * @param line what to say, asked every second
     * @param share the share of the work done, 0 to 1, asked every second (null: no estimate)
     * @return the display, or null when there is none
     */
    static TerminalProgress start(boolean quiet, PrintWriter err, Supplier<String> line, Share share) {
        if (quiet || !stderrIsTerminal()) {
            return null;
        }
        return show(err, line, share);
    }

    /** The share of a command's work done so far, and whether the estimate it gives is an upper bound. */
    interface Share {
        /**
         * The share done.
         *
         * @return 0 to 1 (NaN when unknown)
         */
        double done();

        /**
         * Whether the work may end sooner than the share says (a search that stops when its tree is smaller than its
         * bound): the estimate is then "at most".
         *
         * @return true for an upper bound
         */
        default boolean upperBound() {
            return false;
        }
    }

    /**
     * The words for the time left, from the share done and the wall time so far: ", about 1 min 20 s left", or
     * "" while nothing is known (under 1% done, or under 2 s of wall time: too little to extrapolate).
     *
     * @param done the share done, 0 to 1
     * @param elapsedS the wall time so far, in seconds
     * @param atMost true when the work may end sooner
     * @return the words, starting with a comma, or ""
     */
    static String eta(double done, double elapsedS, boolean atMost) {
        if (!(done >= 0.01) || done >= 1 || elapsedS < 2) {
            return "";
        }
        long left = Math.round(elapsedS * (1 - done) / done);
        String t = left >= 3600 ? String.format(Locale.ROOT, "%d h %d min", left / 3600, left % 3600 / 60)
                : left >= 60 ? String.format(Locale.ROOT, "%d min %d s", left / 60, left % 60) : left + " s";
        return (atMost ? ", at most about " : ", about ") + t + " left";
    }

    /**
     * Starts the line whatever standard error is (a command's option asked for it).
     *
     * @param err standard error
     * @param line what to say, asked every second
     * @return the display
     */
    static TerminalProgress show(PrintWriter err, Supplier<String> line) {
        return show(err, line, null);
    }

    /**
     * Starts the line, with an estimate of the time left, whatever standard error is.
     *
     * @param err standard error
     * @param line what to say, asked every second
     * @param share the share of the work done (null: no estimate)
     * @return the display
     */
    static TerminalProgress show(PrintWriter err, Supplier<String> line, Share share) {
        long start = System.nanoTime();
        Thread t = new Thread(() -> {
            try {
                while (true) {
                    Thread.sleep(1000);
                    double elapsed = (System.nanoTime() - start) / 1e9;
                    String text = String.format(Locale.ROOT, "datsim: %4.0f s: %s", elapsed, line.get())
                            + (share == null ? "" : eta(share.done(), elapsed, share.upperBound()));
                    err.print("\r\033[K" + text);
                    err.flush();
                }
            } catch (InterruptedException e) {
                err.print("\r\033[K");
                err.flush();
            }
        }, "datsim-progress");
        t.setDaemon(true);
        t.start();
        return new TerminalProgress(t, err);
    }

    /**
     * A supplier of "simulated T, N events (R/s)[, EXTRA]" from the simulated time and event count.
     *
     * @param simulatedPs the simulated time reached
     * @param events the events executed
     * @param extra more to say (may return an empty string)
     * @return the supplier
     */
    static Supplier<String> simulation(java.util.function.LongSupplier simulatedPs,
            java.util.function.LongSupplier events, Supplier<String> extra) {
        long[] last = {0, System.nanoTime()};
        return () -> {
            long n = events.getAsLong();
            long now = System.nanoTime();
            double rate = (n - last[0]) / Math.max(1e-9, (now - last[1]) / 1e9);
            last[0] = n;
            last[1] = now;
            String x = extra.get();
            return "simulated " + org.datsim.core.time.SimTime.format(simulatedPs.getAsLong()) + ", "
                    + String.format(Locale.ROOT, "%,d events (%,.0f/s)", n, rate) + (x.isEmpty() ? "" : ", " + x);
        };
    }

    @Override
    public void close() {
        thread.interrupt();
        try {
            thread.join(2000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        err.flush();
    }
}
