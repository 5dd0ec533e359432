package org.datsim.fabric.topology;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jgrapht.Graph;
import org.jgrapht.GraphPath;
import org.jgrapht.alg.connectivity.ConnectivityInspector;
import org.jgrapht.alg.shortestpath.BFSShortestPath;
import org.jgrapht.graph.builder.GraphTypeBuilder;

/**
 * The fabric's shape: hosts and switches as vertices, links as edges (identified by their index in the link list,
 * so parallel links stay distinct), in a JGraphT multigraph. Vertex and edge sets
 * keep insertion order, so every query below is deterministic.
 */
public final class Topology {

    private final List<String> hosts;
    private final List<String> switches;
    private final List<LinkSpec> links;
    private final Graph<String, Integer> graph;

    private Topology(List<String> hosts, List<String> switches, List<LinkSpec> links, Graph<String, Integer> g) {
        this.hosts = hosts;
        this.switches = switches;
        this.links = links;
        this.graph = g;
    }

    /**
     * Builds and validates a topology. Every problem is reported, each naming what is wrong.
     *
     * @param hosts host names, in id order
     * @param switches switch names
     * @param links the links
     * @param problems receives one message per problem; the topology is returned only if none was added
     * @return the topology, or null if there were problems
     */
    public static Topology build(List<String> hosts, List<String> switches, List<LinkSpec> links,
            List<String> problems) {
        int before = problems.size();
        Graph<String, Integer> g = GraphTypeBuilder.<String, Integer>undirected().allowingMultipleEdges(true)
                .allowingSelfLoops(false).weighted(false).buildGraph();
        Set<String> names = new LinkedHashSet<>();
        for (String h : hosts) {
            if (!names.add(h)) {
                problems.add("node name \"" + h + "\" is used twice");
            }
            g.addVertex(h);
        }
        for (String s : switches) {
            if (!names.add(s)) {
                problems.add("node name \"" + s + "\" is used twice");
            }
            g.addVertex(s);
        }
        for (int i = 0; i < links.size(); i++) {
            LinkSpec l = links.get(i);
            boolean ok = true;
            for (String end : new String[] {l.a(), l.b()}) {
                if (!names.contains(end)) {
                    problems.add("links[" + i + "]: no host or switch is named \"" + end + "\"");
                    ok = false;
                }
            }
            if (ok && l.a().equals(l.b())) {
                problems.add("links[" + i + "]: a link cannot join \"" + l.a() + "\" to itself");
                ok = false;
            }
            if (ok) {
                g.addEdge(l.a(), l.b(), i); // the link's index: parallel links stay distinct edges
            }
        }
        for (String h : hosts) {
            int degree = g.degreeOf(h);
            if (degree != 1) {
                problems.add("host \"" + h + "\" has " + degree + " links; each host has one single-port HCA and"
                        + " needs exactly one link");
            }
        }
        if (problems.size() == before && !names.isEmpty()) {
            List<Set<String>> parts = new ConnectivityInspector<>(g).connectedSets();
            if (parts.size() > 1) {
                List<String> desc = new ArrayList<>();
                for (Set<String> p : parts) {
                    desc.add(p.toString());
                }
                problems.add("the fabric is not connected: its parts are " + String.join(", ", desc));
            }
        }
        if (problems.size() > before) {
            return null;
        }
        return new Topology(List.copyOf(hosts), List.copyOf(switches), List.copyOf(links), g);
    }

    /** Returns the host names in id order. */
    public List<String> hosts() {
        return hosts;
    }

    /** Returns the switch names. */
    public List<String> switches() {
        return switches;
    }

    /** Returns the links in declaration order. */
    public List<LinkSpec> links() {
        return links;
    }

    /**
     * Returns the first link of a shortest path (fewest hops) from a node to a host.
     *
     * @param from the node the packet is at
     * @param toHost the destination host
     * @return the link to take, or null if from equals toHost
     */
    public LinkSpec nextHop(String from, String toHost) {
        GraphPath<String, Integer> path = new BFSShortestPath<>(graph).getPath(from, toHost);
        if (path == null || path.getEdgeList().isEmpty()) {
            return null;
        }
        return links.get(path.getEdgeList().get(0));
    }

    /**
     * Returns the index of the first link of a shortest path (fewest hops) from a node to a host.
     *
     * @param from the node the packet is at
     * @param toHost the destination host
     * @return the link's index in {@link #links()}, or -1 if from equals toHost
     */
    public int nextHopIndex(String from, String toHost) {
        GraphPath<String, Integer> path = new BFSShortestPath<>(graph).getPath(from, toHost);
        if (path == null || path.getEdgeList().isEmpty()) {
            return -1;
        }
        return path.getEdgeList().get(0);
    }
}
