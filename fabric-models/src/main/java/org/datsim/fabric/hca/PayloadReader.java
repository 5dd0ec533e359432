package org.datsim.fabric.hca;

import java.util.ArrayDeque;
import org.datsim.fabric.link.Packet;
import org.datsim.fabric.memory.HostMemory;

/**
 * The payload DMA reads of outgoing Sends, RDMA Writes and RDMA Read responses, at the time each packet's DMA read
 * finishes. The bytes read are those in memory then; to avoid holding a buffer per packet queued at the port, a
 * packet bound for the port (on memory without an I/O cache) keeps its payload by reference
 * ({@link Packet#payloadPending}) and the bytes are copied when it starts on the wire, or all at once just before
 * anything changes the bytes of the referenced range (the memory's write hook), whichever comes first. Either way
 * the packet carries the bytes of that moment. An inline Send or RDMA Write copies its bytes from the WQE (copied
 * from memory at the post) at once.
 *
 * <p>A part of {@link Hca} that calls no other: the send engine hands it each packet whose DMA read finishes, the
 * HCA each packet that starts on the wire.
 */
final class PayloadReader {

    private final HcaContext c;
    private final HostMemory memory;
    private final int hostId;
    /** The packets holding their payload by reference, in the order they were queued at the port. */
    private final ArrayDeque<Packet> pending = new ArrayDeque<>();
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
        if (p.dstHost == hostId || !memory.dmaReadIsPlain() || isInline(p)
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
        pending.addLast(p);
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
            if (wr.qp.fenceSources > 0 && c.trace.isEnabled()) {
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
        for (WorkRequest r : wr.qp.outstanding) {
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
        for (Packet q = pending.pollFirst(); q != null; q = pending.pollFirst()) {
            copyPayload(q);
        }
        pendingLo = Long.MAX_VALUE;
        pendingHi = Long.MIN_VALUE;
    }

    /** A packet holding its payload by reference starts on the wire: its bytes are copied now. */
    void payloadOnWire(Packet p) {
        // Packets leave the port in the order they were queued: p is the oldest payload held by reference.
        if (pending.pollFirst() != p) {
            throw new IllegalStateException("payload references out of order at " + c.hostName);
        }
        copyPayload(p);
        if (pending.isEmpty()) {
            pendingLo = Long.MAX_VALUE;
            pendingHi = Long.MIN_VALUE;
            memory.disarmWriteHook();
        }
    }
}
