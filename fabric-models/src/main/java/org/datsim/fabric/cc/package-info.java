/**
 * Congestion control as pure per-queue-pair logic, with no dependency on the HCA or the DAT provider: a
 * {@link org.datsim.fabric.cc.CongestionControl} built from the {@code cc.*} parameters ({@link
 * org.datsim.fabric.cc.CcParams}) makes one {@link org.datsim.fabric.cc.RateController} per sending queue pair
 * ({@code none}, {@code dcqcn}, {@code hpcc}, {@code dctcp}, {@code timely}) and one {@link
 * org.datsim.fabric.cc.DcqcnNotificationPoint} per receiving queue pair. The algorithms mirror HPCC's ns-3 simulator
 * ({@code simulation/src/point-to-point/model/rdma-hw.cc} of alibaba-edu/High-Precision-Congestion-Control), the
 * reference datsim's loaded-fabric results are compared with. Time is integer picoseconds and rates bits per second
 * throughout; no event allocates.
 */
package org.datsim.fabric.cc;
