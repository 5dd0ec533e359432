/**
 * Topologies as JGraphT graphs of hosts and switches: built from a specification, validated (every name known, every
 * host attached, the fabric connected) and sealed before the run, then used to compute routes.
 */
package org.datsim.fabric.topology;
