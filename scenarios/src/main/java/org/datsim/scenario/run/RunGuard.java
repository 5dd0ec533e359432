package org.datsim.scenario.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.datsim.core.time.SimTime;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKind;
import org.datsim.core.trace.TraceSink;

/**
 * The guards of a run's output, watching the trace as it is written: the size of the trace files (a limit, and the
 * free space left on their disk) and runs that make no progress (a sender retrying a receiver-not-ready NAK for ever:
 * only retries for a long simulated time). A guard that trips stops the run after the current event, and says which
 * guard and how to raise it. The checks of sizes are made once every {@value #CHECK_EVERY} trace events; per event
 * the guard compares the event's kind only.
 */
final class RunGuard implements TraceSink<TraceEvent> {

    /** The default limit on the bytes of a run's trace files (events.jsonl and trace.json together). */
    static final long DEFAULT_MAX_OUTPUT = 4L << 30;
    /** The default simulated time a run may spend only retrying before it is stopped. */
    static final long DEFAULT_NO_PROGRESS_PS = SimTime.parse("100ms");
    /** The free space below which a run stops rather than fill its disk. */
    static final long MIN_FREE_BYTES = 64L << 20;
    /** How many trace events pass between two checks of the files' sizes. */
    static final int CHECK_EVERY = 4096;
    /** The fewest retries in a stretch without progress before it counts as a livelock. */
    static final int MIN_RETRIES = 100;

    private final Runnable stop;
    private final List<Path> files;
    private final long maxOutput;
    private final long noProgressPs;
    private int sinceCheck;
    private long lastProgressPs;
    private long retriesSinceProgress;
    private String tripped;

    /**
     * Watches a run.
     *
     * @param stop stops the run when a guard trips (a simulator's {@code stop}: after the executing event; a
     *     partitioned engine's {@code stopAfterWindow}: at the end of the window whose trace tripped it)
     * @param files the trace files written (their sizes count)
     * @param maxOutput the most bytes of those files together
     * @param noProgressPs the most simulated time of retries only; 0 for no such guard
     */
    RunGuard(Runnable stop, List<Path> files, long maxOutput, long noProgressPs) {
        this.stop = stop;
        this.files = files;
        this.maxOutput = maxOutput;
        this.noProgressPs = noProgressPs;
    }

    /** Returns the message of the guard that stopped the run, or null. */
    String tripped() {
        return tripped;
    }

    @Override
    public void accept(TraceEvent e) {
        if (tripped != null) {
            return;
        }
        if (noProgressPs > 0) {
            switch (e.kind()) {
                case TraceKind.RNR_NAK -> {
                    retriesSinceProgress++;
                    if (retriesSinceProgress >= MIN_RETRIES && e.tPs() - lastProgressPs >= noProgressPs) {
                        trip("the no-progress guard: for " + SimTime.format(e.tPs() - lastProgressPs) + " of simulated"
                                + " time the only activity was " + retriesSinceProgress + " receiver-not-ready retries"
                                + " (a receive that is never posted?); raise the guard with --max-stall TIME, or 0"
                                + " to turn it off");
                    }
                }
                case TraceKind.START, TraceKind.TX_START, TraceKind.TX_END -> {
                    // the retried operation starting and sending again: not progress
                }
                default -> {
                    lastProgressPs = e.tPs();
                    retriesSinceProgress = 0;
                }
            }
        }
        if (++sinceCheck >= CHECK_EVERY) {
            sinceCheck = 0;
            checkOutput();
        }
    }

    private void checkOutput() {
        long bytes = 0;
        Path any = null;
        for (Path f : files) {
            try {
                bytes += Files.size(f);
                any = f;
            } catch (IOException ex) {
                // not written yet, or gone: counts nothing
            }
        }
        if (bytes > maxOutput) {
            trip("the output guard: the trace files hold " + bytes + " bytes, over the limit of " + maxOutput
                    + " bytes; raise it with --max-output SIZE, or write less (--no-perfetto, fewer events)");
            return;
        }
        if (any != null) {
            try {
                long free = Files.getFileStore(any).getUsableSpace();
                if (free < MIN_FREE_BYTES) {
                    trip("the free-space guard: the disk holding " + any.getParent() + " has " + free + " bytes free,"
                            + " under " + MIN_FREE_BYTES + "; free some space or write the outputs elsewhere (--out)");
                }
            } catch (IOException ex) {
                // the file store cannot be asked: the output limit still holds
            }
        }
    }

    private void trip(String message) {
        tripped = "stopped by " + message;
        stop.run();
    }
}
