package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;

/**
 * The HCA's on-chip caches and what their misses cost: {@code hca.qpc_entries} QP contexts and
 * {@code hca.mtt_entries} memory translation entries (one per {@code hca.mtt_page}), each with its replacement policy
 * and miss penalty. Creating a queue pair or registering memory loads its entries; every miss is traced as
 * {@link Hca#CACHE_MISS}.
 *
 * <p>A part of {@link Hca} that calls no other: the send engine, the responder, the response engine and the receive
 * pipeline ask it what their lookups cost.
 */
final class OnChipCaches {

    private final Simulator sim;
    private final TraceSource<TraceEvent> trace;
    private final String hostName;
    final EntryCache qpc;
    final EntryCache mtt;
    private final long qpcPenalty;
    private final long mttPenalty;
    private final int pageShift;

    OnChipCaches(HcaContext c, Params params) {
        this.sim = c.sim;
        this.trace = c.trace;
        this.hostName = c.hostName;
        this.qpc = new EntryCache((int) params.get(FabricParams.HCA_QPC_ENTRIES),
                (int) params.get(FabricParams.HCA_QPC_POLICY));
        this.mtt = new EntryCache((int) params.get(FabricParams.HCA_MTT_ENTRIES),
                (int) params.get(FabricParams.HCA_MTT_POLICY));
        this.qpcPenalty = params.get(FabricParams.HCA_QPC_MISS_PENALTY);
        this.mttPenalty = params.get(FabricParams.HCA_MTT_MISS_PENALTY);
        this.pageShift = Long.numberOfTrailingZeros(Long.highestOneBit(params.get(FabricParams.HCA_MTT_PAGE)));
    }

    /** The create-QP command writes the queue pair's context through the cache. */
    void preloadContext(QueuePair qp) {
        qpc.preload(qp.cacheKey);
    }

    /**
     * Memory registration: the driver writes the region's translation entries, which leaves them in the MTT cache
     * (the last pages of the region when it has more pages than the cache holds).
     */
    void preloadTranslations(long address, long length) {
        if (mtt.capacity() == 0 || length <= 0) {
            return;
        }
        long first = address >>> pageShift;
        long last = (address + length - 1) >>> pageShift;
        for (long page = Math.max(first, last - mtt.capacity() + 1); page <= last; page++) {
            mtt.preload(page);
        }
    }

    /**
     * Looks up a queue pair's context; on a miss traces {@code cache_miss} and returns the stall.
     *
     * @param qp the queue pair whose context is needed, or null (no lookup)
     * @param wr the operation, for the trace
     * @return the stall in picoseconds, 0 on a hit
     */
    long qpcCost(QueuePair qp, WorkRequest wr) {
        if (qp == null || qpc.access(qp.cacheKey)) {
            return 0;
        }
        if (trace.isEnabled()) {
            trace.fire(TraceEvent.of(sim.now(), Hca.CACHE_MISS, hostName).ep(qp.name).op(wr.opId)
                    .attr("cache", "qpc").attr("key", (long) qp.cacheKey).attr("penalty_ps", qpcPenalty));
        }
        return qpcPenalty;
    }

    /** Looks up every page of {@code [address, address + len)}; returns the stall of the misses. */
    long mttCost(long address, long len, String ep, WorkRequest wr) {
        if (mtt.capacity() == 0 || len <= 0) {
            return 0;
        }
        long cost = 0;
        long last = (address + len - 1) >>> pageShift;
        for (long page = address >>> pageShift; page <= last; page++) {
            if (!mtt.access(page)) {
                cost += mttPenalty;
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), Hca.CACHE_MISS, hostName).ep(ep).op(wr.opId)
                            .attr("cache", "mtt").attr("key", page << pageShift).attr("penalty_ps", mttPenalty));
                }
            }
        }
        return cost;
    }

    /**
     * Looks up the pages of message bytes {@code [off, off + len)} of a work request's local segments, on behalf of
     * the queue pair named {@code ep} (a receive of a shared receive queue belongs to no queue pair of its own).
     */
    long mttCostLocal(WorkRequest wr, long off, long len, String ep) {
        if (mtt.capacity() == 0) {
            return 0;
        }
        long cost = 0;
        long skip = off;
        long left = len;
        for (int s = 0; s < wr.segAddress.length && left > 0; s++) {
            if (skip >= wr.segLength[s]) {
                skip -= wr.segLength[s];
                continue;
            }
            long n = Math.min(wr.segLength[s] - skip, left);
            cost += mttCost(wr.segAddress[s] + skip, n, ep, wr);
            left -= n;
            skip = 0;
        }
        return cost;
    }
}
