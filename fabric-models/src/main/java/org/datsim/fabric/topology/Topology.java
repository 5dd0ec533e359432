package org.datsim.fabric.topology;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.datsim.core.util.LongTable;
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
        // Each switch's distinct choice lists, interned by a hash of their links: for every (switch, host) pair the
        // lookup costs the list's length, with no boxing (a List<Integer> key per pair took about 6 s at k=32).
        List<LongTable<int[]>> interned = new ArrayList<>();
        for (int s = 0; s < ns; s++) {
            sets.add(new ArrayList<>());
            interned.add(new LongTable<>());
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
                setOf[s][h] = intern(sets.get(s), interned.get(s), buf, k);
            }
        }
        int[][][] out = new int[ns][][];
        for (int s = 0; s < ns; s++) {
            out[s] = sets.get(s).toArray(new int[0][]);
        }
        return new Routes(setOf, out);
    }

    /**
     * The index of the choice list {@code buf[0..k)} among a switch's lists, adding it if it is new.
     *
     * @param lists the switch's distinct lists, in the order they were found
     * @param byHash the indexes of the lists with each hash (almost always one)
     */
    static int intern(List<int[]> lists, LongTable<int[]> byHash, int[] buf, int k) {
        return intern(lists, byHash, buf, k, hash(buf, k));
    }

    /** A hash of {@code buf[0..k)}. */
    static long hash(int[] buf, int k) {
        long hash = k;
        for (int i = 0; i < k; i++) {
            hash = (hash + buf[i] + 1) * 0x9E3779B97F4A7C15L;
        }
        return hash;
    }

    /** {@link #intern(List, LongTable, int[], int)} with the hash given (tests give colliding ones). */
    static int intern(List<int[]> lists, LongTable<int[]> byHash, int[] buf, int k, long hash) {
        int[] ids = byHash.get(hash);
        if (ids != null) {
            for (int id : ids) {
                int[] list = lists.get(id);
                if (java.util.Arrays.equals(list, 0, list.length, buf, 0, k)) {
                    return id;
                }
            }
        }
        int id = lists.size();
        lists.add(java.util.Arrays.copyOf(buf, k));
        if (ids == null) {
            byHash.put(hash, new int[] {id});
        } else {
            int[] more = java.util.Arrays.copyOf(ids, ids.length + 1);
            more[ids.length] = id;
            byHash.put(hash, more);
        }
        return id;
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
