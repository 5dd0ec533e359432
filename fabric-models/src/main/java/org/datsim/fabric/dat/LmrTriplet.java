package org.datsim.fabric.dat;

/**
 * DAT_LMR_TRIPLET: one local segment of an IOV.
 *
 * @param lmrContext the lmr_context of the LMR holding the segment
 * @param address the segment's virtual address
 * @param length the segment_length in bytes (0 is legal and the other fields are then ignored)
 */
public record LmrTriplet(int lmrContext, long address, long length) {
}
