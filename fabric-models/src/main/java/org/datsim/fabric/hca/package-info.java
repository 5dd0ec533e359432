/**
 * The HCA model: doorbells, the send engine that fetches work requests and DMA-reads their payload, segmentation into
 * MTU packets, the responder side (placement, receive matching, RDMA Read responses, ACK and NAK), and completion
 * reporting in posting order. It knows queue pairs, not DAT objects: the DAT provider listens through
 * {@link org.datsim.fabric.hca.QueuePair.Listener}.
 */
package org.datsim.fabric.hca;
