package org.datsim.scenario.workload;

import java.util.ArrayList;
import java.util.List;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;

/**
 * A scenario's validated {@code workload} section: either flows generated from a size distribution (drawn when the
 * run starts, from the run's seed) or flows imported from an HPCC flow file.
 *
 * @param cdf the size distribution, or null for imported flows
 * @param pattern the destination pattern (generated flows)
 * @param load the offered load, a fraction in (0, 1] (generated flows)
 * @param startPs the earliest arrival, ps (generated flows)
 * @param durationPs how long arrivals are generated, ps (generated flows)
 * @param incastTarget the incast's target host index, or -1
 * @param incastSenders the incast's number of senders, or 0
 * @param send true if each flow is a Send, false for an RDMA Write
 * @param imported the imported flows, or null for generated ones
 * @param ideal true to compute each flow's ideal FCT (the flow alone, congestion control off) for the slowdowns
 */
public record Workload(FlowSizeCdf cdf, FlowGenerator.Pattern pattern, double load, long startPs, long durationPs,
        int incastTarget, int incastSenders, boolean send, List<Flow> imported, boolean ideal) {

    /**
     * Returns the flows: the imported ones, or those generated from the run's streams.
     *
     * @param topology the topology
     * @param params the fabric parameters (for the default link rate)
     * @param random the run's random streams
     * @return the flows in start order
     */
    public List<Flow> flows(Topology topology, Params params, RandomStreams random) {
        if (imported != null) {
            List<Flow> sorted = new ArrayList<>(imported);
            sorted.sort(java.util.Comparator.comparingLong(Flow::startPs));
            return sorted;
        }
        return FlowGenerator.generate(cdf, pattern, hostRates(topology, params), load, startPs, durationPs,
                incastTarget, incastSenders, random);
    }

    /** The rate of each host's link (its first link), bits per second, in host order. */
    static long[] hostRates(Topology topology, Params params) {
        List<String> hosts = topology.hosts();
        long[] rates = new long[hosts.size()];
        long dflt = params.rate(FabricParams.LINK_BANDWIDTH).bitsPerSecond();
        java.util.Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
            index.put(hosts.get(i), i);
        }
        for (LinkSpec l : topology.links()) {
            for (String end : new String[] {l.a(), l.b()}) {
                Integer h = index.get(end);
                if (h != null && rates[h] == 0) {
                    rates[h] = l.bandwidthBps() > 0 ? l.bandwidthBps() : dflt;
                }
            }
        }
        for (int i = 0; i < rates.length; i++) {
            if (rates[i] == 0) {
                rates[i] = dflt;
            }
        }
        return rates;
    }
}
