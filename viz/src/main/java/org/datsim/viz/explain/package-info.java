/**
 * The causal story of a run ({@code datsim explain}): for each operation, what held it back and why, derived from
 * the trace alone; also the notable sentences the fencing lab prints.
 */
package org.datsim.viz.explain;
