/**
 * Reading run traces ({@code events.jsonl}, whose schema sim-core owns) and rendering them for people: the
 * per-operation lifecycle table ({@link org.datsim.viz.OperationTable}), the self-contained timeline page
 * ({@link org.datsim.viz.Timeline}, data from {@link org.datsim.viz.TimelineData}), the Chrome Trace Event file for
 * Perfetto ({@link org.datsim.viz.PerfettoTraceWriter}), latency plots ({@link org.datsim.viz.LatencyPlots}), and
 * all views of a run directory at once ({@link org.datsim.viz.RunViews}). Depends on sim-core only, never on the
 * models.
 */
package org.datsim.viz;
