/**
 * Benchmark workloads of the fabric models ({@code datsim bench stream}, {@code datsim bench fattree}): they drive
 * the HCAs directly (queue pairs and work requests, no DAT calls), so that they measure the packet path, and check
 * their own results (the predicted arrival time, every write completed).
 */
package org.datsim.fabric.bench;
