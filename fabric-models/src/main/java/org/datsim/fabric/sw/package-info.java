/**
 * Switches: output-queued, store-and-forward or cut-through forwarding, per-input buffer accounting that drives
 * credit return or PFC pause and resume, and equal-cost multipath routes computed on the topology.
 */
package org.datsim.fabric.sw;
