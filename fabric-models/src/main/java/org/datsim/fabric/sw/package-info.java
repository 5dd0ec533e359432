/**
 * Switches: output-queued, store-and-forward or cut-through, each composed of policies chosen when it is built
 * (open {@link org.datsim.fabric.sw.Switch} first): a {@link org.datsim.fabric.sw.SwitchBuffer} (static per-input
 * shares with PFC or credit, or HPCC's shared buffer), a {@link org.datsim.fabric.sw.RouteTable} (equal-cost multipath
 * routes computed on the topology, or HPCC's hashing), an {@link org.datsim.fabric.sw.EcnMarker}, an
 * {@link org.datsim.fabric.sw.IntStamper}, a {@link org.datsim.fabric.sw.DropFilter} and the
 * {@link org.datsim.fabric.sw.SwitchTrace} that builds their trace records.
 */
package org.datsim.fabric.sw;
