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
     * Computes the equal-cost routes of every switch: for each destination host, the links that start a shortest
     * path (fewest hops) to it, in link order. Hosts are never transit nodes. Identical choice lists of a switch are
     * stored once, so a fat-tree's tables stay small. Costs one breadth-first search per host.
     *
     * @return the routes, switches in {@link #switches()} order
     */
    public Routes equalCostRoutes() {
        int nh = hosts.size();
        int ns = switches.size();
        int n = nh + ns;
        java.util.Map<String, Integer> index = new java.util.HashMap<>();
        for (int i = 0; i < nh; i++) {
            index.put(hosts.get(i), i);
        }
        for (int i = 0; i < ns; i++) {
            index.put(switches.get(i), nh + i);
        }
        int[] degree = new int[n];
        int[] ea = new int[links.size()];
        int[] eb = new int[links.size()];
        for (int l = 0; l < links.size(); l++) {
            ea[l] = index.get(links.get(l).a());
            eb[l] = index.get(links.get(l).b());
            degree[ea[l]]++;
            degree[eb[l]]++;
        }
        int[][] adjLink = new int[n][];
        for (int v = 0; v < n; v++) {
            adjLink[v] = new int[degree[v]];
        }
        int[] fill = new int[n];
        for (int l = 0; l < links.size(); l++) {
            adjLink[ea[l]][fill[ea[l]]++] = l;
            adjLink[eb[l]][fill[eb[l]]++] = l;
        }
        int[][] setOf = new int[ns][nh];
        List<List<int[]>> sets = new ArrayList<>();
        List<java.util.Map<java.util.List<Integer>, Integer>> interned = new ArrayList<>();
        for (int s = 0; s < ns; s++) {
            sets.add(new ArrayList<>());
            interned.add(new java.util.HashMap<>());
        }
        int[] dist = new int[n];
        int[] queue = new int[n];
        int[] buf = new int[n];
        for (int h = 0; h < nh; h++) {
            java.util.Arrays.fill(dist, -1);
            dist[h] = 0;
            int head = 0;
            int tail = 0;
            queue[tail++] = h;
            while (head < tail) {
                int v = queue[head++];
                if (v != h && v < nh) {
                    continue; // hosts are not transit nodes
                }
                for (int l : adjLink[v]) {
                    int w = ea[l] == v ? eb[l] : ea[l];
                    if (dist[w] < 0) {
                        dist[w] = dist[v] + 1;
                        queue[tail++] = w;
                    }
                }
            }
            for (int s = 0; s < ns; s++) {
                int v = nh + s;
                int k = 0;
                if (dist[v] > 0) {
                    for (int l : adjLink[v]) {
                        int w = ea[l] == v ? eb[l] : ea[l];
                        if (dist[w] == dist[v] - 1 && (w >= nh || w == h)) {
                            buf[k++] = l;
                        }
                    }
                }
                List<Integer> key = new ArrayList<>(k);
                for (int i = 0; i < k; i++) {
                    key.add(buf[i]);
                }
                Integer id = interned.get(s).get(key);
                if (id == null) {
                    id = sets.get(s).size();
                    interned.get(s).put(key, id);
                    sets.get(s).add(java.util.Arrays.copyOf(buf, k));
                }
                setOf[s][h] = id;
            }
        }
        int[][][] out = new int[ns][][];
        for (int s = 0; s < ns; s++) {
            out[s] = sets.get(s).toArray(new int[0][]);
        }
        return new Routes(setOf, out);
    }

    /**
     * Equal-cost routes of every switch.
     *
     * @param setOf for each switch and destination host, the index of its choice list
     * @param sets for each switch, its distinct choice lists of link indexes (empty list: unreachable)
     */
    public record Routes(int[][] setOf, int[][][] sets) {
    }
}
