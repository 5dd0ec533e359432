/**
 * Trace plumbing: typed {@link org.datsim.core.trace.TraceSource sources} that models fire records
 * into, {@link org.datsim.core.trace.TraceSink sinks} that consume them, the {@link
 * org.datsim.core.trace.TraceEvent} record of the run trace {@code events.jsonl}, and {@link
 * org.datsim.core.trace.JsonLinesTraceWriter}, which streams trace events to disk as JSON Lines.
 *
 * <p>The trace format's schema: every kind ({@link org.datsim.core.trace.TraceKind}) and every attribute key
 * ({@link org.datsim.core.trace.TraceKey}) declared once, with its meaning; {@link
 * org.datsim.core.trace.TraceSchema} says which kind carries which key, with each key's type and unit, and checks a
 * line. Models and viz use these constants, never literals (scripts/trace-literals.py rewrites literals into them).
 *
 * <p>A source with no sinks costs one field read per potential record: models test {@link
 * org.datsim.core.trace.TraceSource#isEnabled()} before building a record.
 */
package org.datsim.core.trace;
