package org.datsim.fabric.hca;

import org.datsim.fabric.link.Packet;
import org.datsim.fabric.link.PayloadSource;
import org.datsim.fabric.memory.HostMemory;

/**
 * The payload DMA reads of outgoing Sends, RDMA Writes and RDMA Read responses, at the time each packet's DMA read
 * finishes. The bytes read are those in memory then; to avoid holding and filling a buffer per packet, a packet
 * bound for another host (on memory without an I/O cache) keeps its payload by reference
 * ({@link Packet#payloadPending}). A Send's or RDMA Read response's bytes are copied into a buffer when it starts on
 * the wire; an RDMA Write's travel by reference and are copied from this host's memory straight into the target's
 * when the packet is placed ({@link #placeReferenced}), one copy instead of two. Whatever the kind, every payload
 * still held is copied into a buffer just before anything changes the bytes of the referenced range (the memory's
 * write hook). Either way the packet carries the bytes of the moment its DMA read finished. An inline Send or RDMA
 * Write copies its bytes from the WQE (copied from memory at the post) at once. While exploring outcomes, or while
 * the trace notes the bytes an operation carried past an RDMA Read, payloads are copied at the wire as before. On a
 * partitioned fabric ({@link Hca#setPayloadByValue}) an RDMA Write's packet instead holds the memory pages themselves,
 * shared copy-on-write (a write after the DMA read goes to a copy of the page), and the target copies from them.
 *
 * <p>A part of {@link Hca} that calls no other: the send engine hands it each packet whose DMA read finishes, the
 * HCA each packet that starts on the wire, a target's responder each RDMA Write packet it places.
 */
final class PayloadReader implements PayloadSource {

    private final HcaContext c;
    private final HostMemory memory;
    private final int hostId;
    /** The packets holding their payload by reference, in the order they were read (linked by Packet.refNext). */
    private Packet refHead;
    private Packet refTail;
    /** The range of host memory the pending payloads reference (the write hook's range). */
    private long pendingLo = Long.MAX_VALUE;
    private long pendingHi = Long.MIN_VALUE;
    private final Runnable copyPending = this::copyAllPending;

    PayloadReader(HcaContext c) {
        this.c = c;
        this.memory = c.memory;
        this.hostId = c.hostId;
    }

    /** The payload DMA read of a packet whose DMA finishes now: copied, or held by reference until the wire. */
    void readPayload(Packet p) {
        if (((WorkRequest) p.context).payloadFree) {
            p.payloadPending = false;
            return; // no bytes to carry (and no buffer)
        }
        if (c.payloadByValue && p.kind == Packet.RDMA_WRITE && p.dstHost != hostId && memory.dmaReadIsPlain()
                && !isInline(p) && ((WorkRequest) p.context).readSnapshot == null && !c.trace.isEnabled()
                && !c.sim.exploring()) {
            // placed by another thread: the pages as they are now, shared copy-on-write, not a copy
            ((WorkRequest) p.context).shareSegments(memory, p.offset, p.length, p);
            p.payloadPending = false;
            return;
        }
        if (p.dstHost == hostId || c.payloadByValue || !memory.dmaReadIsPlain() || isInline(p)
                || ((WorkRequest) p.context).readSnapshot != null) {
            copyPayload(p);
            return;
        }
        WorkRequest wr = (WorkRequest) p.context;
        long lo;
        long hi;
        if (p.kind == Packet.READ_RESPONSE) {
            lo = wr.remoteAddress + p.offset;
            hi = lo + p.length;
        } else {
            lo = Long.MAX_VALUE;
            hi = Long.MIN_VALUE;
            for (int i = 0; i < wr.segAddress.length; i++) {
                lo = Math.min(lo, wr.segAddress[i]);
                hi = Math.max(hi, wr.segAddress[i] + wr.segLength[i]);
            }
        }
        p.payloadPending = true;
        p.payloadSource = this;
        if (refTail == null) {
            refHead = p;
        } else {
            refTail.refNext = p;
            p.refPrev = refTail;
        }
        refTail = p;
        pendingLo = Math.min(pendingLo, lo);
        pendingHi = Math.max(pendingHi, hi);
        memory.armWriteHook(pendingLo, pendingHi, copyPending);
    }

    /** Whether a packet carries its payload from the WQE (an inline Send or RDMA Write), not from host memory. */
    private static boolean isInline(Packet p) {
        return p.kind != Packet.READ_RESPONSE && ((WorkRequest) p.context).inlineData != null;
    }

    /** Copies a packet's payload from host memory (or from its inline WQE) into a pooled buffer. */
    private void copyPayload(Packet p) {
        WorkRequest wr = (WorkRequest) p.context;
        byte[] data = c.pool.attachBuffer(p, p.length);
        if (p.kind == Packet.READ_RESPONSE && wr.readSnapshot != null) {
            System.arraycopy(wr.readSnapshot, (int) p.offset, data, 0, p.length); // fetched at a choice point
        } else if (p.kind == Packet.READ_RESPONSE) {
            memory.dmaRead(wr.remoteAddress + p.offset, data, 0, p.length);
        } else if (wr.inlineData != null) {
            System.arraycopy(wr.inlineData, (int) p.offset, data, 0, p.length);
        } else {
            wr.copySegments(memory, p.offset, data, p.length, false);
            if (wr.qp.completion.fenceSources > 0 && c.trace.isEnabled() && !p.refOnWire) { // (noted at the wire if at all)
                noteReadsNotLanded(wr, p.offset, data, p.length);
            }
        }
        p.payloadPending = false;
    }

    /**
     * A Send's or RDMA Write's payload bytes {@code data[0, len)} (message offset {@code off}) were just read from
     * memory: if an earlier RDMA Read of its queue pair still to land targets any of them, keeps those bytes (and
     * where they came from) so that the Read's completion can tell whether the operation carried bytes the Read was
     * about to replace ({@link Completions}). Only while the trace is on, for the trace's {@code overtook_read}.
     */
    private static void noteReadsNotLanded(WorkRequest wr, long off, byte[] data, int len) {
        for (WorkRequest r : wr.qp.completion.outstanding) {
            if (r == wr) {
                return;
            }
            if (r.opcode != WorkRequest.RDMA_READ || r.done) {
                continue;
            }
            long skip = off;
            int done = 0;
            for (int s = 0; s < wr.segAddress.length && done < len; s++) {
                if (skip >= wr.segLength[s]) {
                    skip -= wr.segLength[s];
                    continue;
                }
                int n = (int) Math.min(wr.segLength[s] - skip, len - done);
                long a0 = wr.segAddress[s] + skip;
                for (int t = 0; t < r.segAddress.length; t++) {
                    long lo = Math.max(a0, r.segAddress[t]);
                    long hi = Math.min(a0 + n, r.segAddress[t] + r.segLength[t]);
                    if (lo < hi) {
                        if (wr.capturedAt == null) {
                            wr.capturedAt = new java.util.ArrayList<>();
                            wr.capturedBytes = new java.util.ArrayList<>();
                        }
                        wr.capturedBeforeRead = r;
                        wr.capturedAt.add(new long[] {lo});
                        int from = done + (int) (lo - a0);
                        wr.capturedBytes.add(java.util.Arrays.copyOfRange(data, from, from + (int) (hi - lo)));
                    }
                }
                done += n;
                skip = 0;
            }
        }
    }

    /** Before the referenced bytes change: copies every payload still held by reference. */
    private void copyAllPending() {
        for (Packet q = refHead; q != null; ) {
            Packet next = q.refNext;
            q.refPrev = null;
            q.refNext = null;
            q.payloadSource = null;
            copyPayload(q);
            q.refOnWire = false;
            q = next;
        }
        refHead = null;
        refTail = null;
        pendingLo = Long.MAX_VALUE;
        pendingHi = Long.MIN_VALUE;
    }

    /**
     * A packet holding its payload by reference starts on the wire: an RDMA Write's bytes stay in this memory until
     * the target places them ({@link #placeReferenced}); any other packet's are copied now.
     */
    void payloadOnWire(Packet p) {
        if (p.kind == Packet.RDMA_WRITE && !c.sim.exploring()
                && !(((WorkRequest) p.context).qp.completion.fenceSources > 0 && c.trace.isEnabled())) {
            p.refOnWire = true;
            return;
        }
        unlink(p);
        copyPayload(p);
    }

    /**
     * Places an RDMA Write packet whose payload this memory still holds by reference: its bytes, unchanged since
     * its DMA read, are copied from here straight into the target's memory.
     *
     * @param p the packet (its payload held here)
     * @param dst the target's memory
     * @param dstAddress where the payload lands
     */
    void placeReferenced(Packet p, HostMemory dst, long dstAddress) {
        unlink(p); // first: a write hook the copy sets off elsewhere does not see it
        p.payloadPending = false;
        WorkRequest wr = (WorkRequest) p.context;
        if (dst != memory) {
            wr.copySegmentsTo(memory, p.offset, p.length, dst, dstAddress);
        } else { // one memory at both ends (not made by Fabric today): through a buffer, as any overlap needs
            byte[] buf = new byte[p.length];
            wr.copySegments(memory, p.offset, buf, p.length, false);
            dst.dmaWrite(dstAddress, buf, 0, p.length);
        }
    }

    @Override
    public void released(Packet p) {
        unlink(p);
        p.payloadPending = false;
    }

    /** Stops holding a packet's payload by reference (the last one gone: no range watched). */
    private void unlink(Packet p) {
        Packet prev = p.refPrev;
        Packet next = p.refNext;
        if (prev == null) {
            refHead = next;
        } else {
            prev.refNext = next;
        }
        if (next == null) {
            refTail = prev;
        } else {
            next.refPrev = prev;
        }
        p.refPrev = null;
        p.refNext = null;
        p.payloadSource = null;
        p.refOnWire = false;
        if (refHead == null) {
            pendingLo = Long.MAX_VALUE;
            pendingHi = Long.MIN_VALUE;
            memory.disarmWriteHook();
        }
    }
}
