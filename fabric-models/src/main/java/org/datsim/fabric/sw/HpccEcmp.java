package org.datsim.fabric.sw;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;

/**
 * {@code switch.ecmp hpcc}: the switches choose among equal-cost ports as HPCC's simulator does, so that every flow
 * takes the path it takes there. Its {@code third.cc} numbers the nodes of its topology file (hosts {@code h<N>} and
 * switches {@code s<N>} here), gives host N the IP 0x0b000001 + (N &lt;&lt; 8), and finds each switch's next hops
 * towards a host breadth-first from that host ({@code CalculateRoute}): a node's neighbours are visited in its
 * {@code std::map} of neighbours, keyed by the nodes' addresses, hosts are never transit nodes, and a switch lists a
 * neighbour one hop nearer the host as a next hop in the order the search reached it. The addresses fall as the node
 * numbers rise (the nodes are created in number order; glibc's allocator on x86-64 hands them out downwards), so the
 * map visits neighbours from the highest number down: checked against HPCC's own packet trace on its fat-tree, where
 * every one of the 24 flows the trace shows leaving ToR switch 320 took the uplink this order predicts, and none the
 * uplink the ascending order would. Between two nodes joined by several links, HPCC keeps the last one. A topology whose
 * nodes are not all named {@code h<N>} or {@code s<N>} (numbers unique) is numbered hosts first, then switches, in
 * its own order.
 */
public final class HpccEcmp {

    private static final Pattern NUMBERED = Pattern.compile("[hs](\\d{1,9})");

    private HpccEcmp() {
    }

    /**
     * Configures every switch of a fabric for HPCC's ECMP.
     *
     * @param topology the topology
     * @param switches the switches, by name, in the topology's switch order
     * @param portIndex for each link of the topology, its port index on its end a and on its end b
     */
    public static void configure(Topology topology, Map<String, Switch> switches, List<int[]> portIndex) {
        List<String> hosts = topology.hosts();
        List<String> names = new ArrayList<>(hosts);
        names.addAll(topology.switches());
        int n = names.size();
        int[] number = numbers(names);
        Map<String, Integer> index = new HashMap<>();
        for (int i = 0; i < n; i++) {
            index.put(names.get(i), i);
        }
        // neighbours of each node from the highest node number down, with the port towards each (the last of
        // parallel links)
        List<Map<Integer, Integer>> byNumber = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byNumber.add(new java.util.TreeMap<>(java.util.Comparator.reverseOrder()));
        }
        List<LinkSpec> links = topology.links();
        for (int li = 0; li < links.size(); li++) {
            int a = index.get(links.get(li).a());
            int b = index.get(links.get(li).b());
            byNumber.get(a).put(number[b], portIndex.get(li)[0]);
            byNumber.get(b).put(number[a], portIndex.get(li)[1]);
        }
        Map<Integer, Integer> nodeByNumber = new HashMap<>();
        for (int i = 0; i < n; i++) {
            nodeByNumber.put(number[i], i);
        }
        int[][] nbr = new int[n][];
        int[][] nbrPort = new int[n][];
        for (int i = 0; i < n; i++) {
            Map<Integer, Integer> m = byNumber.get(i);
            nbr[i] = new int[m.size()];
            nbrPort[i] = new int[m.size()];
            int k = 0;
            for (Map.Entry<Integer, Integer> e : m.entrySet()) {
                nbr[i][k] = nodeByNumber.get(e.getKey());
                nbrPort[i][k] = e.getValue();
                k++;
            }
        }
        int hostCount = hosts.size();
        int[] ip = new int[hostCount];
        for (int h = 0; h < hostCount; h++) {
            ip[h] = 0x0b000001 + (number[h] << 8);
        }
        int switchCount = n - hostCount;
        int[][][] routes = new int[switchCount][hostCount][];
        int[] dist = new int[n];
        int[] queue = new int[n];
        int[] found = new int[n]; // per switch: next hops found so far for this host
        int[][] hops = new int[n][];
        for (int i = hostCount; i < n; i++) {
            hops[i] = new int[nbr[i].length];
        }
        Map<String, int[]> shared = new HashMap<>();
        for (int h = 0; h < hostCount; h++) {
            java.util.Arrays.fill(dist, -1);
            java.util.Arrays.fill(found, 0);
            int head = 0;
            int tail = 0;
            queue[tail++] = h;
            dist[h] = 0;
            while (head < tail) {
                int now = queue[head++];
                int d = dist[now];
                for (int k = 0; k < nbr[now].length; k++) {
                    int next = nbr[now][k];
                    if (dist[next] < 0) {
                        dist[next] = d + 1;
                        if (next >= hostCount) {
                            queue[tail++] = next;
                        }
                    }
                    if (d + 1 == dist[next] && next >= hostCount) {
                        // next's port towards now
                        hops[next][found[next]++] = portTo(nbr[next], nbrPort[next], now);
                    }
                }
            }
            for (int s = hostCount; s < n; s++) {
                int[] r = java.util.Arrays.copyOf(hops[s], found[s]);
                int[] same = shared.putIfAbsent(java.util.Arrays.toString(r), r);
                routes[s - hostCount][h] = same != null ? same : r;
            }
        }
        int s = 0;
        for (String name : topology.switches()) {
            switches.get(name).routes().setHpccRoutes(number[hostCount + s], ip, routes[s]);
            s++;
        }
    }

    private static int portTo(int[] nbr, int[] ports, int node) {
        for (int k = 0; k < nbr.length; k++) {
            if (nbr[k] == node) {
                return ports[k];
            }
        }
        throw new IllegalStateException("no link to node " + node);
    }

    /** The nodes' HPCC numbers: those of their names if every name is h<N> or s<N> with unique N, else their order. */
    static int[] numbers(List<String> names) {
        int[] number = new int[names.size()];
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < number.length; i++) {
            Matcher m = NUMBERED.matcher(names.get(i));
            if (!m.matches() || !seen.add(Integer.parseInt(m.group(1)))) {
                for (int j = 0; j < number.length; j++) {
                    number[j] = j;
                }
                return number;
            }
            number[i] = Integer.parseInt(m.group(1));
        }
        return number;
    }
}
