package org.datsim.scenario.workload;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.random.RandomStreams;

/**
 * Generates the flows of a workload as HPCC's {@code traffic_gen.py} does: each sending host starts flows at
 * Poisson arrivals whose mean gap makes its offered bytes {@code load} of its link's capacity (mean gap = mean size x
 * 8 / (rate x load)); sizes are drawn from a {@link FlowSizeCdf}; arrivals after the duration are not generated.
 *
 * <p>Destinations: {@code uniform} draws one per flow uniformly among the other hosts (HPCC's choice);
 * {@code permutation} gives every host one fixed destination, a random single cycle through all hosts (so none sends to itself);
 * {@code incast} makes {@code senders} hosts (drawn at random, not the target) send to one target, with arrivals
 * at {@code load} of the target's link capacity in total, each flow's sender drawn uniformly among them.
 *
 * <p>Each host draws from its own seeded streams ({@code workload/arrivals/h}, {@code workload/sizes/h},
 * {@code workload/destinations/h}), so a host's flows do not depend on the others' and a seed gives the same flows
 * every time. The flows are returned in start order (ties by sender, then by draw order).
 */
public final class FlowGenerator {

    /** The most flows one workload may generate. */
    public static final int MAX_FLOWS = 10_000_000;

    /** How destinations are chosen. */
    public enum Pattern {
        /** A uniformly random other host per flow. */
        UNIFORM,
        /** A fixed random derangement of the hosts. */
        PERMUTATION,
        /** N senders to one target. */
        INCAST
    }

    private FlowGenerator() {
    }

    /**
     * Generates flows.
     *
     * @param cdf the size distribution
     * @param pattern the destination pattern
     * @param hostRateBps the link rate of each host, bits per second, in host order
     * @param load the offered load, a fraction in (0, 1]
     * @param startPs the time of the first possible arrival, ps
     * @param durationPs how long arrivals are generated, ps
     * @param incastTarget the target host of an incast (ignored otherwise)
     * @param incastSenders the senders of an incast, 1 to hosts-1 (ignored otherwise)
     * @param random the run's random streams
     * @return the flows in start order
     * @throws IllegalArgumentException if the workload would have more than {@link #MAX_FLOWS} flows
     */
    public static List<Flow> generate(FlowSizeCdf cdf, Pattern pattern, long[] hostRateBps, double load,
            long startPs, long durationPs, int incastTarget, int incastSenders, RandomStreams random) {
        int n = hostRateBps.length;
        double mean = cdf.mean();
        List<Flow> flows = new ArrayList<>();
        int[] fixed = null;
        int[] senders;
        if (pattern == Pattern.INCAST) {
            RandomGenerator pick = random.stream("workload/incast_senders");
            int[] others = new int[n - 1];
            for (int i = 0, j = 0; i < n; i++) {
                if (i != incastTarget) {
                    others[j++] = i;
                }
            }
            for (int c = 0; c < incastSenders; c++) { // partial Fisher-Yates: distinct senders
                int k = c + pick.nextInt(others.length - c);
                int t = others[k];
                others[k] = others[c];
                others[c] = t;
            }
            senders = java.util.Arrays.copyOf(others, incastSenders);
            java.util.Arrays.sort(senders);
            // one arrival process at the target's link: load x its rate in total
            arrivals(flows, cdf, mean, hostRateBps[incastTarget], load, startPs, durationPs, "incast", random,
                    (rng) -> senders[rng.nextInt(senders.length)], (src, rng) -> incastTarget);
        } else {
            if (pattern == Pattern.PERMUTATION) {
                fixed = derangement(n, random.stream("workload/permutation"));
            }
            final int[] perm = fixed;
            for (int h = 0; h < n; h++) {
                final int src = h;
                arrivals(flows, cdf, mean, hostRateBps[h], load, startPs, durationPs, "h" + h, random, (rng) -> src,
                        perm != null ? (s, rng) -> perm[s] : (s, rng) -> {
                            int d = rng.nextInt(n - 1);
                            return d >= s ? d + 1 : d;
                        });
            }
        }
        flows.sort(Comparator.comparingLong(Flow::startPs)); // stable: ties keep sender and draw order
        return flows;
    }

    private interface Sender {
        int next(RandomGenerator rng);
    }

    private interface Destination {
        int of(int src, RandomGenerator rng);
    }

    private static void arrivals(List<Flow> out, FlowSizeCdf cdf, double mean, long rateBps, double load,
            long startPs, long durationPs, String stream, RandomStreams random, Sender sender, Destination dest) {
        RandomGenerator gaps = random.stream("workload/arrivals/" + stream);
        RandomGenerator sizes = random.stream("workload/sizes/" + stream);
        RandomGenerator dsts = random.stream("workload/destinations/" + stream);
        double meanGapPs = mean * 8 / (rateBps * load) * 1e12;
        double t = startPs;
        long end = startPs + durationPs;
        while (true) {
            t += -Math.log(1 - gaps.nextDouble()) * meanGapPs;
            if (t > end) {
                return;
            }
            if (out.size() >= MAX_FLOWS) {
                throw new IllegalArgumentException("the workload would have more than " + MAX_FLOWS + " flows;"
                        + " shorten the duration or lower the load");
            }
            int src = sender.next(dsts);
            out.add(new Flow(src, dest.of(src, dsts), cdf.sample(sizes.nextDouble()), (long) t));
        }
    }

    /** A random permutation of 0..n-1 with no fixed point: one n-cycle, uniform among those (Sattolo's algorithm). */
    static int[] derangement(int n, RandomGenerator rng) {
        int[] p = new int[n];
        for (int i = 0; i < n; i++) {
            p[i] = i;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = rng.nextInt(i);
            int t = p[i];
            p[i] = p[j];
            p[j] = t;
        }
        return p;
    }
}
