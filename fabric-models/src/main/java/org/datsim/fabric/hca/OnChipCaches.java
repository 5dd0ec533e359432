package org.datsim.fabric.hca;

import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceKey;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.FabricParams;

/**
 * The HCA's on-chip caches and what their misses cost: {@code hca.qpc_entries} QP contexts and
 * {@code hca.mtt_entries} memory translation entries (one per {@code hca.mtt_page}), each with its replacement policy
 * and miss penalty. Creating a queue pair or registering memory loads its entries; every miss is traced as
 * {@link Hca#CACHE_MISS}.
 *
 * <p>Translations are read as a ConnectX HCA reads them: a miss reads the aligned block of
 * {@code hca.mtt_fetch_entries} consecutive entries holding the missed page in one PCIe read (one
 * {@code hca.mtt_miss_penalty}) and caches them all; and a DMA walking its buffer in order has the next
 * {@code hca.mtt_prefetch_blocks} blocks read ahead when it misses or enters a block, so their reads overlap the data
 * transfer and a sequential transfer stalls only on its first block. A prefetched entry is usable
 * {@code hca.mtt_miss_penalty} after the lookup that asked for it; a DMA that gets there sooner waits for the rest.
 * A random page touched alone misses as before: no prefetch goes past the DMA's own buffer.
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
    /** Entries one translation read returns (a block). */
    private final long fetchEntries;
    /** Entries a block read caches besides the missed one: no more than the cache holds besides it. */
    private final int blockFill;
    /**
     * Blocks read ahead: no more than the cache holds besides the block in use and the one used before it (under LRU,
     * the entries read ahead are older than those used since, so a cache with less room would evict them unused).
     */
    private final long prefetchBlocks;

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
        int cap = mtt.capacity();
        int n = (int) params.get(FabricParams.HCA_MTT_FETCH_ENTRIES);
        this.fetchEntries = n;
        this.blockFill = Math.max(0, Math.min(n - 1, cap - 1));
        this.prefetchBlocks = Math.max(0, Math.min(params.get(FabricParams.HCA_MTT_PREFETCH_BLOCKS), cap / n - 2));
    }

    /** The create-QP command writes the context of queue pair number {@code key} through the cache. */
    void preloadContext(int key) {
        qpc.preload(key);
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
                    .attr(TraceKey.CACHE, "qpc").attr(TraceKey.KEY, (long) qp.cacheKey)
                    .attr(TraceKey.PENALTY_PS, qpcPenalty));
        }
        return qpcPenalty;
    }

    /**
     * Looks up every page of {@code [address, address + len)} in order, the first at {@code at} and each later one
     * after the stalls before it; returns the stall of the misses. A miss reads the page's block and stalls a
     * penalty; an entry whose read has not returned yet stalls the rest of its read. A miss, and a lookup of the first
     * page of a block, read the next blocks ahead, up to the page holding byte {@code limit - 1}.
     *
     * @param address the first byte
     * @param len the bytes
     * @param ep the queue pair the DMA is for, for the trace
     * @param wr the operation, for the trace
     * @param at when the DMA of these bytes would start without a stall, ps
     * @param limit the end of the DMA's buffer (its segment or remote range): no prefetch goes past it
     * @return the stall in picoseconds
     */
    long mttCost(long address, long len, String ep, WorkRequest wr, long at, long limit) {
        if (mtt.capacity() == 0 || len <= 0) {
            return 0;
        }
        long cost = 0;
        long last = (address + len - 1) >>> pageShift;
        long lastPrefetch = (limit - 1) >>> pageShift;
        for (long page = address >>> pageShift; page <= last; page++) {
            long t = at + cost;
            long wait = mtt.lookup(page, t, t + mttPenalty);
            if (wait < 0) {
                int fetched = 1 + fillBlock(page, t + mttPenalty);
                prefetch(page, t, lastPrefetch);
                cost += mttPenalty;
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), Hca.CACHE_MISS, hostName).ep(ep).op(wr.opId)
                            .attr(TraceKey.CACHE, "mtt").attr(TraceKey.KEY, page << pageShift)
                            .attr(TraceKey.PENALTY_PS, mttPenalty)
                            .attr(TraceKey.FETCHED, fetched));
                }
                continue;
            }
            if (wait > 0) {
                cost += wait;
                if (trace.isEnabled()) {
                    trace.fire(TraceEvent.of(sim.now(), Hca.CACHE_MISS, hostName).ep(ep).op(wr.opId)
                            .attr(TraceKey.CACHE, "mtt").attr(TraceKey.KEY, page << pageShift)
                            .attr(TraceKey.PENALTY_PS, wait)
                            .attr(TraceKey.IN_FLIGHT, true));
                }
            }
            if (page % fetchEntries == 0) {
                prefetch(page, t, lastPrefetch);
            }
        }
        return cost;
    }

    /**
     * The rest of a missed page's block, read with it: its entries after the page, then those before it, no more
     * than {@link #blockFill}, usable at {@code readyAt}. Returns how many were not cached.
     */
    private int fillBlock(long page, long readyAt) {
        int left = blockFill;
        if (left == 0) {
            return 0;
        }
        long first = page - page % fetchEntries;
        long end = first + fetchEntries;
        int inserted = 0;
        for (long q = page + 1; q < end && left > 0; q++, left--) {
            inserted += mtt.fill(q, readyAt) ? 1 : 0;
        }
        for (long q = first; q < page && left > 0; q++, left--) {
            inserted += mtt.fill(q, readyAt) ? 1 : 0;
        }
        return inserted;
    }

    /**
     * Reads ahead, at {@code t}, the entries of the {@link #prefetchBlocks} blocks after the page's, up to page
     * {@code lastPage}, that are not cached: usable a miss penalty later.
     */
    private void prefetch(long page, long t, long lastPage) {
        if (prefetchBlocks == 0) {
            return;
        }
        long from = page - page % fetchEntries + fetchEntries;
        long to = Math.min(lastPage, from + prefetchBlocks * fetchEntries - 1);
        long readyAt = t + mttPenalty;
        for (long q = from; q <= to; q++) {
            mtt.fill(q, readyAt);
        }
    }

    /**
     * Looks up the pages of message bytes {@code [off, off + len)} of a work request's local segments, on behalf of
     * the queue pair named {@code ep} (a receive of a shared receive queue belongs to no queue pair of its own), as
     * {@link #mttCost} from {@code at}; no prefetch goes past a segment's end.
     */
    long mttCostLocal(WorkRequest wr, long off, long len, String ep, long at) {
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
            long base = wr.segAddress[s];
            cost += mttCost(base + skip, n, ep, wr, at + cost, base + wr.segLength[s]);
            left -= n;
            skip = 0;
        }
        return cost;
    }
}
