package org.datsim.viz;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSink;

/**
 * Everything {@code datsim view} writes for a run directory, from one read of its {@code events.jsonl}: the
 * timeline page, the latency histogram and CDF, and {@code trace.json} when the run did not write one.
 */
public final class RunViews {

    /** The files views of a run may write; a new run deletes old ones so none outlives its trace. */
    public static final List<String> OUTPUTS = List.of(Timeline.FILE, LatencyPlots.HISTOGRAM, LatencyPlots.CDF,
            PerfettoTraceWriter.FILE, Timeline.SIDE_BY_SIDE);

    private RunViews() {
    }

    /**
     * Writes the views of a run.
     *
     * @param runDir a directory written by {@code datsim run}
     * @return the files written, in the order timeline, histogram, CDF, and trace.json if it was written
     * @throws IOException if the trace cannot be read (the message names the file and line) or an output written
     */
    public static List<Path> write(Path runDir) throws IOException {
        return write(runDir, e -> { });
    }

    /**
     * Writes the views of a run and hands every event of its trace to {@code also} in the same single read.
     *
     * @param runDir a directory written by {@code datsim run}
     * @param also another reader of the trace (the lab's explainer)
     * @return the files written, as {@link #write(Path)}
     * @throws IOException if the trace cannot be read (the message names the file and line) or an output written
     */
    public static List<Path> write(Path runDir, TraceSink<TraceEvent> also) throws IOException {
        Path events = runDir.resolve("events.jsonl");
        if (!RunFiles.exists(events)) {
            throw new IOException(events + ": no such file (is " + runDir + " the output directory of `datsim run`?)");
        }
        TimelineData timeline = new TimelineData();
        LatencyPlots plots = new LatencyPlots();
        Path chromePath = runDir.resolve(PerfettoTraceWriter.FILE);
        boolean chrome = !RunFiles.exists(chromePath); // a link or a FIFO of that name is refused
        List<Path> out = new ArrayList<>();
        List<FlowRecords.Flow> flows = FlowRecords.read(runDir);
        try (PerfettoTraceWriter w = chrome ? new PerfettoTraceWriter(chromePath) : null) {
            TraceReader.read(events, e -> {
                timeline.accept(e);
                plots.accept(e);
                also.accept(e);
                if (w != null) {
                    w.accept(e);
                }
            });
            if (w != null) {
                w.flows(flows);
            }
        } catch (IOException | RuntimeException e) {
            if (chrome) {
                Files.deleteIfExists(chromePath);
            }
            throw e;
        }
        timeline.flows(flows);
        Path html = runDir.resolve(Timeline.FILE);
        Timeline.write(timeline, Timeline.scenarioName(runDir), html);
        out.add(html);
        out.addAll(List.of(plots.write(runDir)));
        if (chrome) {
            out.add(chromePath);
        }
        return out;
    }
}
