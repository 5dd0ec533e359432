/**
 * Topologies as JGraphT graphs of hosts and switches: written out in the scenario or generated
 * ({@link org.datsim.fabric.topology.TopologyBuilder}: back to back, single switch, two- and three-level k-ary
 * fat-trees), validated (every name known, every host attached, the fabric connected) and sealed before the run, then
 * used to compute equal-cost shortest-path routes.
 */
package org.datsim.fabric.topology;
