package org.datsim.scenario.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.stats.LatencyRecorder;
import org.datsim.core.time.SimTime;
import org.datsim.scenario.load.Step;

/**
 * The simulated time each iteration of every repeat block took, per process, from the block's start (or the end of
 * the previous iteration) to the end of the iteration: the loop a benchmark like perftest times. A block whose
 * iteration posts exactly one Send and waits on an EVD (a ping-pong: {@code ib_send_lat}) is a round trip, and its
 * half, the one-way latency perftest reports, is given too. Blocks are kept in the order they first ended an
 * iteration (the run's order: deterministic).
 */
final class RepeatTimes {

    /** One block of one process. */
    private static final class Block {
        final String process;
        final Step begin;
        final boolean roundTrip;
        final LatencyRecorder times;

        Block(String process, Step begin, boolean roundTrip) {
            this.process = process;
            this.begin = begin;
            this.roundTrip = roundTrip;
            this.times = new LatencyRecorder(process + " " + begin.path());
        }
    }

    private final Map<String, Block> blocks = new LinkedHashMap<>();

    /**
     * Records one iteration of a block.
     *
     * @param process the process's name
     * @param begin the block's {@link Step#REPEAT_BEGIN} step
     * @param steps the process's steps
     * @param ps the iteration's simulated time
     */
    void iteration(String process, Step begin, List<Step> steps, long ps) {
        String key = process + "\u0000" + begin.index();
        Block b = blocks.get(key);
        if (b == null) {
            b = new Block(process, begin, roundTrip(begin, steps));
            blocks.put(key, b);
        }
        b.times.record(ps);
    }

    /** Whether a block's own calls (not those of blocks inside it) post one Send and wait on an EVD. */
    static boolean roundTrip(Step begin, List<Step> steps) {
        int sends = 0;
        int waits = 0;
        for (int i = begin.index() + 1; i < begin.partner(); i++) {
            Step s = steps.get(i);
            if (s.kind() == Step.REPEAT_BEGIN) {
                i = s.partner();
                continue;
            }
            String call = s.spec().name();
            if ("dat_ep_post_send".equals(call)) {
                sends++;
            } else if ("dat_evd_wait".equals(call)) {
                waits++;
            }
        }
        return sends == 1 && waits >= 1;
    }

    /** The printed lines, one per block. */
    List<String> lines() {
        List<String> out = new ArrayList<>();
        for (Block b : blocks.values()) {
            LatencyRecorder r = b.times;
            String line = String.format("  repeat %s %s: %d iterations, p50=%s min=%s max=%s each", b.process,
                    b.begin.path(), r.count(), SimTime.formatExact(r.percentile(50)), SimTime.formatExact(r.min()),
                    SimTime.formatExact(r.max()));
            if (b.roundTrip) {
                line += "; a round trip (one Send, its answer awaited): half round trip p50="
                        + half(r.percentile(50));
            }
            out.add(line);
        }
        return out;
    }

    /** Writes the blocks into summary.json's {@code repeats} object, by process and path. */
    void write(ObjectNode repeats) {
        for (Block b : blocks.values()) {
            LatencyRecorder r = b.times;
            ObjectNode o = repeats.with(b.process).putObject(b.begin.path());
            o.put("iterations", r.count());
            o.put("min_ps", r.min());
            o.put("mean_ps", r.meanRounded());
            o.put("p50_ps", r.percentile(50));
            o.put("max_ps", r.max());
            o.put("percentiles_precision", r.percentilePrecision());
            o.put("round_trip", b.roundTrip);
            if (b.roundTrip) {
                o.put("half_round_trip_p50_ps", r.percentile(50) / 2.0);
            }
        }
    }

    /** Whether any block ended an iteration. */
    boolean isEmpty() {
        return blocks.isEmpty();
    }

    /** Half a time, exactly, in nanoseconds (a half picosecond shows as .0005). */
    static String half(long ps) {
        return new BigDecimal(ps).divide(BigDecimal.valueOf(2000)).stripTrailingZeros().toPlainString() + "ns";
    }
}
