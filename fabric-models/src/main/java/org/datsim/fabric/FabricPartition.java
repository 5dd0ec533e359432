package org.datsim.fabric;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.engine.PartitionedSimulator;
import org.datsim.core.param.Params;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;

/**
 * How a fabric is split over a {@link PartitionedSimulator}: its owners (0 for set-up, then every host in the
 * topology's order, then every switch), a map of owners to partitions that keeps each pod together, and the
 * lookahead that map allows.
 *
 * <pre>{@code
 * PartitionedSimulator engine = FabricPartition.engine(topology, params, hostParams, partitions, threads);
 * Fabric fabric = new Fabric(engine, topology, params, hostParams, random, trace);
 * }</pre>
 */
public final class FabricPartition {

    private FabricPartition() {
    }

    /** Returns the owner of a node: its index among the hosts, or the host count plus its index among switches. */
    public static int nodeOwner(int nodeIndex) {
        return 1 + nodeIndex;
    }

    /** Returns the owner of host {@code i}. */
    public static int hostOwner(int i) {
        return nodeOwner(i);
    }

    /** Returns the number of owners of a topology's fabric: set-up, the hosts and the switches. */
    public static int owners(Topology topology) {
        return 1 + topology.hosts().size() + topology.switches().size();
    }

    /**
     * Splits a fabric's owners into partitions: the hosts in contiguous blocks of the topology's order (a fat-tree's
     * hosts are numbered pod by pod, so a block is whole pods when the partitions divide the pods), then each switch,
     * nearest the hosts first, into the partition most of its already placed neighbours are in; a tie (a core switch
     * linked to every pod alike) goes to the partition with the fewest switches so far; last, each host joins the
     * partition of the switch it hangs from, so that no host link is cut. Set-up (owner 0) is in partition 0.
     *
     * @param topology the topology
     * @param partitions the number of partitions, 1 to the number of hosts
     * @return the map from owner to partition
     * @throws IllegalArgumentException if there are more partitions than hosts
     */
    public static int[] byPods(Topology topology, int partitions) {
        List<String> hosts = topology.hosts();
        List<String> switches = topology.switches();
        int h = hosts.size();
        if (partitions < 1 || partitions > h) {
            throw new IllegalArgumentException("cannot split a fabric of " + h + " hosts into " + partitions
                    + " partitions");
        }
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < h; i++) {
            index.put(hosts.get(i), i);
        }
        for (int j = 0; j < switches.size(); j++) {
            index.put(switches.get(j), h + j);
        }
        int n = h + switches.size();
        int[] part = new int[n];
        java.util.Arrays.fill(part, -1);
        for (int i = 0; i < h; i++) {
            part[i] = (int) ((long) i * partitions / h);
        }
        List<List<Integer>> adj = new java.util.ArrayList<>();
        for (int v = 0; v < n; v++) {
            adj.add(new java.util.ArrayList<>());
        }
        for (LinkSpec l : topology.links()) {
            int a = index.get(l.a());
            int b = index.get(l.b());
            adj.get(a).add(b);
            adj.get(b).add(a);
        }
        // breadth first from the hosts: switches in order of their distance from them
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        boolean[] seen = new boolean[n];
        for (int i = 0; i < h; i++) {
            queue[tail++] = i;
            seen[i] = true;
        }
        int[] load = new int[partitions];
        while (head < tail) {
            int v = queue[head++];
            if (v >= h) {
                int[] votes = new int[partitions];
                for (int w : adj.get(v)) {
                    if (part[w] >= 0) {
                        votes[part[w]]++;
                    }
                }
                int best = 0;
                for (int q = 1; q < partitions; q++) {
                    if (votes[q] > votes[best] || votes[q] == votes[best] && load[q] < load[best]) {
                        best = q;
                    }
                }
                part[v] = best;
                load[best]++;
            }
            for (int w : adj.get(v)) {
                if (!seen[w]) {
                    seen[w] = true;
                    queue[tail++] = w;
                }
            }
        }
        // a host goes with the switch it hangs from: host links, the busiest, are never cut
        for (int i = 0; i < h; i++) {
            for (int w : adj.get(i)) {
                if (w >= h && part[w] >= 0) {
                    part[i] = part[w];
                    break;
                }
            }
        }
        int[] map = new int[1 + n];
        for (int v = 0; v < n; v++) {
            map[1 + v] = part[v] < 0 ? 0 : part[v]; // a switch no host reaches: anywhere
        }
        return map;
    }

    /**
     * Returns the lookahead a map allows: the smallest propagation delay of a link between two partitions, less 1 ps
     * (a packet is handed over that long before it arrives, after its start, when it can no longer be taken back).
     * Without such a link, the smallest propagation delay of any link less 1 ps.
     *
     * @param topology the topology
     * @param params the parameters
     * @param hostParams per-host parameters
     * @param map the map from owner to partition
     * @return the lookahead, ps
     * @throws IllegalArgumentException if a link's delay is too small (1 ps or less) to give one
     */
    public static long lookaheadPs(Topology topology, Params params, Map<String, Params> hostParams, int[] map) {
        List<String> hosts = topology.hosts();
        Map<String, Integer> owner = new HashMap<>();
        for (int i = 0; i < hosts.size(); i++) {
            owner.put(hosts.get(i), nodeOwner(i));
        }
        for (String s : topology.switches()) {
            owner.put(s, nodeOwner(owner.size()));
        }
        long cut = Long.MAX_VALUE;
        long any = Long.MAX_VALUE;
        for (LinkSpec l : topology.links()) {
            long d = Fabric.linkLatencyPs(l, owner.get(l.a()) <= hosts.size(), owner.get(l.b()) <= hosts.size(),
                    hostParams, params);
            any = Math.min(any, d);
            if (map[owner.get(l.a())] != map[owner.get(l.b())]) {
                cut = Math.min(cut, d);
            }
        }
        long d = cut != Long.MAX_VALUE ? cut : any;
        if (d == Long.MAX_VALUE) {
            return 1_000_000; // no link at all: nothing crosses
        }
        if (d <= 1) {
            throw new IllegalArgumentException("a link between partitions has a propagation delay of " + d
                    + " ps: a partitioned run needs at least 2 ps (raise link.latency, or run with --threads 1)");
        }
        return d - 1;
    }

    /**
     * Makes the partitioned engine for a topology: its owners split {@link #byPods}, with the lookahead that split
     * allows.
     *
     * @param topology the topology
     * @param params the parameters
     * @param hostParams per-host parameters
     * @param partitions the number of partitions, 1 to the number of hosts
     * @param threads 1 to {@code partitions}
     * @return the engine, for {@link Fabric#Fabric(PartitionedSimulator, Topology, Params, Map,
     *     org.datsim.core.random.RandomStreams, org.datsim.core.trace.TraceSource)}
     */
    public static PartitionedSimulator engine(Topology topology, Params params, Map<String, Params> hostParams,
            int partitions, int threads) {
        int[] map = byPods(topology, partitions);
        return new PartitionedSimulator(map, partitions, lookaheadPs(topology, params, hostParams, map), threads);
    }

    /**
     * Checks that a fabric can run on an engine: its owners, and no feature a partitioned run does not support yet.
     *
     * @throws IllegalArgumentException with one message naming what does not fit
     */
    static void check(PartitionedSimulator engine, Topology topology, Params params) {
        if (engine.owners() != owners(topology)) {
            throw new IllegalArgumentException("the partitioned engine has " + engine.owners() + " owners; this fabric"
                    + " needs " + owners(topology) + " (FabricPartition.owners)");
        }
        if (params.get(FabricParams.TRACE_PORT_SAMPLE_INTERVAL) > 0) {
            throw new IllegalArgumentException("trace.port_sample_interval cannot be sampled by a partitioned run yet"
                    + " (one event samples every switch): run with --threads 1");
        }
    }
}
