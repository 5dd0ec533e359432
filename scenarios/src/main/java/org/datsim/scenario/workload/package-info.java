/**
 * Generated and imported workloads: flow size distributions, Poisson arrivals at a target load, HPCC's topology and
 * flow files, running flows on the HCAs, flow completion times (fct.csv) and their slowdown statistics.
 */
package org.datsim.scenario.workload;
