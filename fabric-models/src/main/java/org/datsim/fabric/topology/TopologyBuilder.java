package org.datsim.fabric.topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Generates the node and link lists of the standard topologies; {@link Topology#build} then validates them and
 * makes the JGraphT graph. Host names are a prefix and an index ({@code h0}, {@code h1}, ...), in the order the
 * hosts hang off their switches, so host {@code i} of a fat-tree is under edge switch {@code i / (k/2)}.
 *
 * @param hosts the host names, in id order
 * @param switches the switch names
 * @param links the links (fabric-wide bandwidth and latency)
 */
public record TopologyBuilder(List<String> hosts, List<String> switches, List<LinkSpec> links) {

    /** The largest k of a three-level fat-tree (8192 hosts, 1280 switches). */
    public static final int MAX_K_THREE_LEVELS = 32;
    /** The largest k of a two-level fat-tree (2048 hosts, 96 switches). */
    public static final int MAX_K_TWO_LEVELS = 64;
    /** The most hosts on a single switch. */
    public static final int MAX_SINGLE_SWITCH_HOSTS = 4096;

    /**
     * Two hosts joined by one link.
     *
     * @param prefix the host name prefix
     * @return hosts {@code prefix0} and {@code prefix1}
     */
    public static TopologyBuilder backToBack(String prefix) {
        return new TopologyBuilder(List.of(prefix + 0, prefix + 1), List.of(),
                List.of(new LinkSpec(prefix + 0, prefix + 1, 0, -1)));
    }

    /**
     * Hosts each linked to one switch named {@code s0}.
     *
     * @param prefix the host name prefix
     * @param hosts the number of hosts, 1 to {@link #MAX_SINGLE_SWITCH_HOSTS}
     * @return the topology's lists
     */
    public static TopologyBuilder singleSwitch(String prefix, int hosts) {
        List<String> h = new ArrayList<>();
        List<LinkSpec> l = new ArrayList<>();
        for (int i = 0; i < hosts; i++) {
            h.add(prefix + i);
            l.add(new LinkSpec(prefix + i, "s0", 0, -1));
        }
        return new TopologyBuilder(h, List.of("s0"), l);
    }

    /**
     * A k-ary fat-tree of k-port switches.
     *
     * <p>Three levels (Al-Fares et al., SIGCOMM 2008): k pods, each of k/2 edge switches {@code edge_P_I} and k/2
     * aggregation switches {@code agg_P_I}; every edge switch links to k/2 hosts and to every aggregation switch of
     * its pod; aggregation switch I of every pod links to the k/2 core switches {@code core_I_J}. k^3/4 hosts, 5k^2/4
     * switches.
     *
     * <p>Two levels (leaf and spine): k leaf switches {@code leaf_I}, each with k/2 hosts and one link to each of
     * the k/2 spine switches {@code spine_J}. k^2/2 hosts, 3k/2 switches.
     *
     * @param prefix the host name prefix
     * @param k the switch radix, even, at least 2
     * @param levels 2 or 3
     * @return the topology's lists
     */
    public static TopologyBuilder fatTree(String prefix, int k, int levels) {
        if (k < 2 || k % 2 != 0 || (levels != 2 && levels != 3)) {
            throw new IllegalArgumentException("a fat-tree needs an even k >= 2 and 2 or 3 levels");
        }
        int half = k / 2;
        List<String> hosts = new ArrayList<>();
        List<String> switches = new ArrayList<>();
        List<LinkSpec> links = new ArrayList<>();
        if (levels == 2) {
            for (int j = 0; j < half; j++) {
                switches.add("spine_" + j);
            }
            for (int i = 0; i < k; i++) {
                String leaf = "leaf_" + i;
                switches.add(leaf);
                for (int h = 0; h < half; h++) {
                    String host = prefix + hosts.size();
                    hosts.add(host);
                    links.add(new LinkSpec(host, leaf, 0, -1));
                }
                for (int j = 0; j < half; j++) {
                    links.add(new LinkSpec(leaf, "spine_" + j, 0, -1));
                }
            }
            return new TopologyBuilder(hosts, switches, links);
        }
        for (int i = 0; i < half; i++) {
            for (int j = 0; j < half; j++) {
                switches.add("core_" + i + "_" + j);
            }
        }
        for (int p = 0; p < k; p++) {
            for (int i = 0; i < half; i++) {
                switches.add("agg_" + p + "_" + i);
            }
            for (int e = 0; e < half; e++) {
                String edge = "edge_" + p + "_" + e;
                switches.add(edge);
                for (int h = 0; h < half; h++) {
                    String host = prefix + hosts.size();
                    hosts.add(host);
                    links.add(new LinkSpec(host, edge, 0, -1));
                }
                for (int i = 0; i < half; i++) {
                    links.add(new LinkSpec(edge, "agg_" + p + "_" + i, 0, -1));
                }
            }
            for (int i = 0; i < half; i++) {
                for (int j = 0; j < half; j++) {
                    links.add(new LinkSpec("agg_" + p + "_" + i, "core_" + i + "_" + j, 0, -1));
                }
            }
        }
        return new TopologyBuilder(hosts, switches, links);
    }

    /**
     * Validates the lists and builds the topology.
     *
     * @param problems receives one message per problem
     * @return the topology, or null if there were problems
     */
    public Topology build(List<String> problems) {
        return Topology.build(hosts, switches, links, problems);
    }
}
