package org.datsim.fabric.dat;

/**
 * DAT_RMR_TRIPLET: the remote target of an RDMA operation.
 *
 * @param rmrContext the rmr_context the peer exported
 * @param address the target virtual address
 * @param length the segment_length in bytes
 */
public record RmrTriplet(int rmrContext, long address, long length) {
}
