package org.datsim.fabric.hca;

/**
 * A queue pair's state in the {@link ReceivePipeline}, which owns it (an ArchUnit rule checks): DCQCN's
 * notification point for this receiving queue pair.
 */
final class PipelineState {

    /** DCQCN's notification point for this receiving queue pair, made at its first ECN-marked packet, or null. */
    org.datsim.fabric.cc.DcqcnNotificationPoint np;
}
