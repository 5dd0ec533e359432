/**
 * Simple statistics collected during a run: {@link org.datsim.core.stats.Counter counters}, {@link
 * org.datsim.core.stats.Tally tallies} of sample values, {@link
 * org.datsim.core.stats.LatencyRecorder latency histograms} in picoseconds, and a {@link
 * org.datsim.core.stats.StatsRegistry registry} that lists them by name in registration order for
 * reports. None of these classes is thread-safe.
 */
package org.datsim.core.stats;
