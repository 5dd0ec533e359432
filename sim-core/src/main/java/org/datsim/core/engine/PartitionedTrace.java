package org.datsim.core.engine;

import org.datsim.core.trace.TraceSink;
import org.datsim.core.trace.TraceSource;

/**
 * One trace for a {@link PartitionedSimulator}, the same stream as a sequential run's: each partition's models fire into
 * the partition's own source ({@link #of}), which holds the records of the window with the time and key of the event
 * that fired them; at the end of every window (the engine's window-end action, one thread) the partitions' records are
 * merged by (time, key) and fired into the one source whose sinks write the outputs. A sequential keyed run executes
 * its events in (time, key) order and its records in firing order within an event, so the merged stream is that run's,
 * record for record, whatever the partitions and threads.
 *
 * <p>Records fired outside a run (set-up, or after it) go straight through, in program order, as on one simulator.
 *
 * <pre>{@code
 * PartitionedTrace<TraceEvent> pt = new PartitionedTrace<>(engine, trace); // trace: the sinks' source
 * ... models of partition q fire into pt.of(q) ...
 * trace.subscribe(writer);                                               // then, before the run:
 * pt.attach();
 * }</pre>
 *
 * @param <T> the record type
 */
public final class PartitionedTrace<T> {

    private final PartitionedSimulator engine;
    private final TraceSource<T> out;
    private final TraceSource<T>[] sources;
    private final Buffer<T>[] buffers;
    /** The merge's position in each partition's buffer (reused every window). */
    private final int[] at;
    private boolean attached;

    /**
     * Makes a source per partition and registers the merge as the engine's window-end action.
     *
     * @param engine the engine (set-up: not running)
     * @param out the source the merged records are fired into (the one the output sinks subscribe to)
     */
    @SuppressWarnings("unchecked")
    public PartitionedTrace(PartitionedSimulator engine, TraceSource<T> out) {
        this.engine = engine;
        this.out = out;
        int p = engine.partitions();
        sources = (TraceSource<T>[]) new TraceSource<?>[p];
        buffers = (Buffer<T>[]) new Buffer<?>[p];
        for (int q = 0; q < p; q++) {
            sources[q] = new TraceSource<>(out.name() + "#" + q);
            buffers[q] = new Buffer<>(engine.partition(q), engine, out);
        }
        at = new int[p];
        engine.setWindowEndAction(this::merge);
    }

    /**
     * The source a partition's models fire into.
     *
     * @param partition 0 to the engine's partitions - 1
     * @return its source; enabled once {@link #attach()} found sinks on the output source
     */
    public TraceSource<T> of(int partition) {
        return sources[partition];
    }

    /**
     * Connects each partition's source to the output source if it has sinks (subscribe them first), so that models
     * build records only when someone reads them. Call before the run; calling it again does nothing.
     */
    public void attach() {
        if (attached || !out.isEnabled()) {
            return;
        }
        attached = true;
        for (int q = 0; q < sources.length; q++) {
            engine.partition(q).keepCurrentKey();
            sources[q].subscribe(buffers[q]);
        }
    }

    /** The records held, over every partition (0 between windows). */
    int held() {
        int n = 0;
        for (Buffer<T> b : buffers) {
            n += b.count;
        }
        return n;
    }

    /**
     * Fires the window's records into the output source in (time, key) order: a P-way merge of the partitions'
     * buffers, each already in that order (a partition executes its events in it), records of one event in firing
     * order. Keys are unique to an event, so no two partitions hold records of the same (time, key).
     */
    private void merge() {
        Buffer<T>[] b = buffers;
        int p = b.length;
        java.util.Arrays.fill(at, 0);
        while (true) {
            int best = -1;
            long bt = 0;
            long bk = 0;
            for (int q = 0; q < p; q++) {
                int i = at[q];
                if (i < b[q].count) {
                    long t = b[q].time[i];
                    long k = b[q].key[i];
                    if (best < 0 || t < bt || t == bt && k < bk) {
                        best = q;
                        bt = t;
                        bk = k;
                    }
                }
            }
            if (best < 0) {
                break;
            }
            // every record of that event, in firing order
            Buffer<T> src = b[best];
            int i = at[best];
            do {
                T r = src.record(i);
                src.records[i] = null;
                out.fire(r);
                i++;
            } while (i < src.count && src.time[i] == bt && src.key[i] == bk);
            at[best] = i;
        }
        for (Buffer<T> x : b) {
            x.count = 0;
        }
    }

    /** One partition's records of the window, with the time and key of the event that fired each. */
    private static final class Buffer<T> implements TraceSink<T> {
        private final Simulator sim;
        private final PartitionedSimulator engine;
        private final TraceSource<T> out;
        private Object[] records = new Object[64];
        private long[] time = new long[64];
        private long[] key = new long[64];
        private int count;

        Buffer(Simulator sim, PartitionedSimulator engine, TraceSource<T> out) {
            this.sim = sim;
            this.engine = engine;
            this.out = out;
        }

        /** Record i: only records of type T are stored (by {@link #accept}). */
        @SuppressWarnings("unchecked")
        T record(int i) {
            return (T) records[i];
        }

        @Override
        public void accept(T record) {
            if (!engine.inRun()) {
                out.fire(record); // set-up, or after the run: program order, as on one simulator
                return;
            }
            int n = count;
            if (n == time.length) {
                records = java.util.Arrays.copyOf(records, 2 * n);
                time = java.util.Arrays.copyOf(time, 2 * n);
                key = java.util.Arrays.copyOf(key, 2 * n);
            }
            records[n] = record;
            time[n] = sim.now();
            key[n] = sim.currentKey();
            count = n + 1;
        }
    }
}
