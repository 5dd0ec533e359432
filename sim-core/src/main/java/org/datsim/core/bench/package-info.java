/**
 * Benchmarks of the engine. {@link org.datsim.core.bench.Phold} runs the classic PHOLD workload on
 * the datsim {@link org.datsim.core.engine.Simulator} and on a {@link java.util.PriorityQueue}
 * baseline, with identical event sequences, and reports events per second.
 */
package org.datsim.core.bench;
