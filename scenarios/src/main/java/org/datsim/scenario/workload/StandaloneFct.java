package org.datsim.scenario.workload;

import java.math.BigInteger;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.datsim.core.param.Params;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;

/**
 * HPCC's standalone FCT, a <b>formula, not a simulation</b>: what HPCC's simulator writes as the last column of its
 * FCT file ({@code standalone_fct} in {@code qp_finish} of its {@code scratch/third.cc}), computed the same way on a
 * datsim topology:
 *
 * <pre>
 *   standalone = base_rtt(src, dst) + total_bytes x 8 / bottleneck_rate(src, dst)
 *   base_rtt   = 2 x (one-way propagation delay) + one packet's payload (hca.mtu bytes, no headers) transmitted at
 *                each hop's link rate, once, one way
 *   total_bytes = size + ceil(size / hca.mtu) x 48
 * </pre>
 *
 * The path is a shortest one (fewest hops), found breadth-first from the destination as HPCC's
 * {@code CalculateRoute} does, with hosts never transit nodes; when several shortest paths exist the first found
 * counts (neighbours in the topology's link order; HPCC's order is that of its node pointers), which only matters
 * if they differ in delay or rate. The bottleneck rate is the slowest link of that path. The 48 header bytes are
 * HPCC's without INT: Ethernet 14, IPv4 20, UDP 8 and its own 6. The propagation delays are datsim's link latencies
 * (a link's own, else {@code link.latency}), the rates its link rates (a link's own, else {@code link.bandwidth}).
 *
 * <p>It leaves out everything but propagation and serialisation: switch latency ({@code switch.latency}), the PHYs
 * ({@code hca.phy_latency}), the host (doorbell, WQE fetch, PCIe, DMA, completion) and the ACK's own transmission;
 * and it counts 48 header bytes per packet where datsim's RoCE packets have 82 (preamble and gap included). So a
 * datsim flow alone takes longer than this, and fct / standalone is above 1 even for a flow alone on an idle fabric;
 * it is HPCC's yardstick, kept to compare with HPCC's figures, not datsim's ideal (see {@link FlowRunner}).
 *
 * <p>Integer picoseconds, each division truncated; HPCC computes in integer nanoseconds (truncating each hop's
 * transmission time and the message's), so its figure x 1000 is at most this and within 1000 ps per hop + 1000 ps
 * below it.
 */
public final class StandaloneFct {

    /** HPCC's header bytes per packet without INT: Ethernet 14 + IPv4 20 + UDP 8 + its own 6. */
    public static final int HEADER_BYTES = 14 + 20 + 8 + 6;

    private static final BigInteger PS_PER_S = BigInteger.valueOf(1_000_000_000_000L);

    private final int hostCount;
    private final long mtu;
    private final int[] ends;
    private final int[][] adj;
    private final long[] bps;
    private final long[] latency;
    /** The last destination searched, and its search: {oneWayDelay, txDelay, bottleneck} per host. */
    private int lastDst = -1;
    private long[][] lastSearch;

    /**
     * Prepares the formula for a topology.
     *
     * @param topology the topology
     * @param params the fabric parameters ({@code hca.mtu}, {@code link.bandwidth}, {@code link.latency}; a host's
     *     own {@code hca.mtu} is not used: HPCC has one packet size)
     */
    public StandaloneFct(Topology topology, Params params) {
        Map<String, Integer> index = new HashMap<>();
        for (String h : topology.hosts()) {
            index.put(h, index.size());
        }
        for (String s : topology.switches()) {
            index.put(s, index.size());
        }
        hostCount = topology.hosts().size();
        mtu = params.get(FabricParams.HCA_MTU);
        long defaultBps = params.rate(FabricParams.LINK_BANDWIDTH).bitsPerSecond();
        long defaultLatency = params.get(FabricParams.LINK_LATENCY);
        List<LinkSpec> links = topology.links();
        int n = index.size();
        ends = new int[2 * links.size()];
        bps = new long[links.size()];
        latency = new long[links.size()];
        int[] deg = new int[n];
        for (int i = 0; i < links.size(); i++) {
            LinkSpec l = links.get(i);
            ends[2 * i] = index.get(l.a());
            ends[2 * i + 1] = index.get(l.b());
            deg[ends[2 * i]]++;
            deg[ends[2 * i + 1]]++;
            bps[i] = l.bandwidthBps() > 0 ? l.bandwidthBps() : defaultBps;
            latency[i] = l.latencyPs() >= 0 ? l.latencyPs() : defaultLatency;
        }
        adj = new int[n][];
        for (int v = 0; v < n; v++) {
            adj[v] = new int[deg[v]];
            deg[v] = 0;
        }
        for (int i = 0; i < links.size(); i++) {
            adj[ends[2 * i]][deg[ends[2 * i]]++] = i;
            adj[ends[2 * i + 1]][deg[ends[2 * i + 1]]++] = i;
        }
    }

    /**
     * Returns the standalone FCT of each flow.
     *
     * @param topology the topology
     * @param params the fabric parameters
     * @param flows the flows; host indices refer to {@code topology.hosts()}
     * @return each flow's standalone FCT, ps, or -1 if its hosts are not connected
     */
    public static long[] of(Topology topology, Params params, List<Flow> flows) {
        StandaloneFct s = new StandaloneFct(topology, params);
        long[] out = new long[flows.size()];
        // by destination, so that each destination is searched once and only one search is held
        Integer[] order = new Integer[out.length];
        for (int i = 0; i < out.length; i++) {
            order[i] = i;
        }
        Arrays.sort(order, (a, b) -> Integer.compare(flows.get(a).dst(), flows.get(b).dst()));
        for (int i : order) {
            Flow f = flows.get(i);
            out[i] = s.fctPs(f.src(), f.dst(), f.sizeBytes());
        }
        return out;
    }

    /**
     * Returns HPCC's base RTT of a pair: twice the one-way propagation delay plus one hca.mtu payload's transmission
     * at each hop, ps; -1 if the hosts are not connected.
     *
     * @param src the source host's index
     * @param dst the destination host's index
     * @return the base RTT, ps
     */
    public long baseRttPs(int src, int dst) {
        long[][] d = search(dst);
        return d[2][src] == 0 ? -1 : 2 * d[0][src] + d[1][src];
    }

    /**
     * Returns the slowest link rate along the pair's path, bits per second; 0 if the hosts are not connected.
     *
     * @param src the source host's index
     * @param dst the destination host's index
     * @return the bottleneck rate
     */
    public long bottleneckBps(int src, int dst) {
        return search(dst)[2][src];
    }

    /**
     * Returns the standalone FCT of a flow: base RTT + (size + packets x 48) x 8 / bottleneck rate.
     *
     * @param src the source host's index
     * @param dst the destination host's index
     * @param sizeBytes the flow's size, at least 1
     * @return the standalone FCT, ps; -1 if the hosts are not connected
     */
    public long fctPs(int src, int dst, long sizeBytes) {
        long rate = bottleneckBps(src, dst);
        if (rate <= 0) {
            return -1;
        }
        long packets = (Math.max(1, sizeBytes) - 1) / mtu + 1;
        BigInteger bits = BigInteger.valueOf(sizeBytes).add(BigInteger.valueOf(packets).multiply(
                BigInteger.valueOf(HEADER_BYTES))).multiply(BigInteger.valueOf(8));
        return baseRttPs(src, dst) + bits.multiply(PS_PER_S).divide(BigInteger.valueOf(rate)).longValueExact();
    }

    /**
     * Breadth-first from a destination host, as HPCC's CalculateRoute: for each host, the one-way propagation delay,
     * the summed transmission times of one payload and the slowest rate along the first shortest path found (rate 0:
     * not reached).
     */
    private long[][] search(int dst) {
        if (dst == lastDst) {
            return lastSearch;
        }
        int n = adj.length;
        long[] delay = new long[n];
        long[] tx = new long[n];
        long[] rate = new long[n];
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        int head = 0;
        int tail = 0;
        queue[tail++] = dst;
        seen[dst] = true;
        rate[dst] = Long.MAX_VALUE;
        long payloadBits = mtu * 8;
        while (head < tail) {
            int v = queue[head++];
            for (int li : adj[v]) {
                int w = ends[2 * li] == v ? ends[2 * li + 1] : ends[2 * li];
                if (seen[w]) {
                    continue;
                }
                seen[w] = true;
                delay[w] = delay[v] + latency[li];
                tx[w] = tx[v] + BigInteger.valueOf(payloadBits).multiply(PS_PER_S)
                        .divide(BigInteger.valueOf(bps[li])).longValueExact();
                rate[w] = Math.min(rate[v], bps[li]);
                if (w >= hostCount) {
                    queue[tail++] = w; // hosts are not transit nodes
                }
            }
        }
        long[][] out = {Arrays.copyOf(delay, hostCount), Arrays.copyOf(tx, hostCount), Arrays.copyOf(rate, hostCount)};
        out[2][dst] = 0; // a host to itself: no path
        lastDst = dst;
        lastSearch = out;
        return out;
    }
}
