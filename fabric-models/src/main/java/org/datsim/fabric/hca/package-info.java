/**
 * The HCA model: doorbells, the send engine that fetches work requests and DMA-reads their payload, segmentation into
 * MTU packets, the responder side (placement, receive matching, RDMA Read responses, ACK and NAK), reliable delivery,
 * and completion reporting in posting order.
 *
 * <p>{@link org.datsim.fabric.hca.Hca} is the public face; inside it is a composition of package-private final parts,
 * each with its own state, wired once by the Hca's constructor (its class comment lists them): ReceivePipeline,
 * ReliableTransport, ResponseEngine, Responder, SendEngine, PayloadReader, OnChipCaches, DmaWriter and Completions,
 * sharing one HcaContext. Calls go one way down that list; a part calls back up only through the small interfaces
 * Transmitter, CompletionSink, AckTimer and SendScheduler.
 *
 * <p>State is owned by the part that writes it: a queue pair's per-part state objects (SendState, TransportState,
 * ResponderState, ReadResponderState, CompletionState, PipelineState) are each written by one part, a work request's
 * posted fields only by WorkRequest, and each field of its progress (RequestProgress) by the parts that advance it;
 * HcaStateOwnershipTest (ArchUnit) checks it, and docs/architecture.md tells it.
 *
 * <p>It knows queue pairs and the transport, not DAT: it reports completions with
 * {@link org.datsim.fabric.hca.WcStatus} (ibverbs' work-completion statuses) and numbers operations as ibverbs does;
 * the DAT provider listens through {@link org.datsim.fabric.hca.QueuePair.Listener} and translates in one table.
 */
package org.datsim.fabric.hca;
