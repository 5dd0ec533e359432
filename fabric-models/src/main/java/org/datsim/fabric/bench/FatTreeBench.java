package org.datsim.fabric.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.commons.math3.random.RandomGenerator;
import org.datsim.core.engine.PartitionedSimulator;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.Fabric;
import org.datsim.fabric.FabricParams;
import org.datsim.fabric.FabricPartition;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.hca.QueuePair;
import org.datsim.fabric.hca.WorkRequest;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.topology.Topology;
import org.datsim.fabric.topology.TopologyBuilder;

/**
 * {@code datsim bench fattree}: a three-level k-ary fat-tree; at time 0 every host RDMA-Writes a message to each of
 * P peers drawn at random (distinct, never itself) from the run's seed, one connected queue pair per (host, peer).
 * Every write of a host to its peers lands in one target buffer of the peer, so resident memory stays small; the
 * check at the end is that every write completed successfully and every target buffer holds the pattern.
 */
public final class FatTreeBench {

    private FatTreeBench() {
    }

    /**
     * The figures of one run.
     *
     * @param hosts the hosts
     * @param switches the switches
     * @param writes the writes posted
     * @param completed the writes completed successfully
     * @param failed the writes that failed, plus target buffers not holding the pattern
     * @param packets packets transmitted by all ports (each hop counts)
     * @param events simulator events executed
     * @param endPs simulated time of the last event, ps
     * @param buildNanos wall-clock nanoseconds to build the fabric and post the writes
     * @param runNanos wall-clock nanoseconds of the run
     * @param maxStallPs the longest flow-control stall summed over one port
     * @param pooledPackets the packets the pool ever created (the most in flight at once)
     */
    public record Result(int hosts, int switches, long writes, long completed, long failed, long packets,
            long events, long endPs, long buildNanos, long runNanos, long maxStallPs, int pooledPackets,
            org.datsim.core.engine.WindowStats windows, long lookaheadPs) {
    }

    /**
     * The parameters: defaults, 100 Gb/s links, a 4 KiB MTU, plus overrides.
     *
     * @param overrides alternating names and values
     * @return the parameters
     * @throws IllegalArgumentException if an override is invalid
     */
    public static Params params(String... overrides) {
        Map<String, String> map = new LinkedHashMap<>();
        map.put(FabricParams.LINK_BANDWIDTH.name(), "100Gbps");
        map.put(FabricParams.HCA_MTU.name(), "4KiB");
        for (int i = 0; i + 1 < overrides.length; i += 2) {
            map.put(overrides[i], overrides[i + 1]);
        }
        List<String> problems = new ArrayList<>();
        Params p = Params.defaults(FabricParams.ALL).with(map, problems);
        problems.addAll(FabricParams.crossCheck(p));
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException(String.join("; ", problems));
        }
        return p;
    }

    /**
     * Runs the benchmark.
     *
     * @param p the parameters
     * @param k the fat-tree radix (even)
     * @param peers the peers of each host (fewer than the hosts)
     * @param bytes the size of each write
     * @param seed the seed that draws the peers
     * @return the figures
     */
    public static Result run(Params p, int k, int peers, long bytes, long seed) {
        return run(p, k, peers, bytes, seed, sim -> { });
    }

    /**
     * Runs the benchmark, handing its simulator to {@code started} before it runs (for a progress display on
     * another thread, which only reads the clock and the event count).
     *
     * @param p the parameters
     * @param k the fat-tree radix (even)
     * @param peers the peers of each host (fewer than the hosts)
     * @param bytes the size of each write
     * @param seed the seed that draws the peers
     * @param started told the simulator before the run
     * @return the figures
     */
    public static Result run(Params p, int k, int peers, long bytes, long seed,
            java.util.function.Consumer<Simulator> started) {
        return run(p, k, peers, bytes, seed, 1, 1, started);
    }

    /**
     * Runs the bench on the sequential engine ({@code partitions} 1: one {@link Simulator} with the fabric's owners)
     * or partitioned ({@link FabricPartition#byPods}) on a {@link PartitionedSimulator} with {@code threads}
     * threads. Events of equal time are ordered by owner keys on both, so every output but the build and run times
     * and the pooled packets is the same for any number of partitions and threads.
     *
     * @param partitions 1 for the sequential engine, else 2 to the hosts
     * @param threads 1 to {@code partitions}
     * @param started told the simulator before the run (partition 0's when partitioned: progress only)
     */
    public static Result run(Params p, int k, int peers, long bytes, long seed, int partitions, int threads,
            java.util.function.Consumer<Simulator> started) {
        long start = System.nanoTime();
        TopologyBuilder shape = TopologyBuilder.fatTree("h", k, 3);
        List<String> problems = new ArrayList<>();
        Topology topology = shape.build(problems);
        if (topology == null) {
            throw new IllegalStateException(problems.toString());
        }
        int n = shape.hosts().size();
        if (peers >= n) {
            throw new IllegalArgumentException("a host of " + n + " can have at most " + (n - 1) + " peers");
        }
        TraceSource<TraceEvent> trace = new TraceSource<>("bench");
        RandomStreams streams = new RandomStreams(seed);
        Fabric fabric = Fabric.onEngine(topology, p, Map.of(), streams, trace, partitions, threads);
        PartitionedSimulator engine = fabric.engine();
        Simulator sim = fabric.sim();
        started.accept(sim);
        Hca[] hca = new Hca[n];
        long[] src = new long[n];
        long[] dst = new long[n];
        byte[] pattern = new byte[(int) bytes];
        for (int i = 0; i < pattern.length; i++) {
            pattern[i] = (byte) (i * 131 + 17);
        }
        List<DatHost> hosts = fabric.hosts(); // a copy: taken once, not per host
        for (int h = 0; h < n; h++) {
            hca[h] = hosts.get(h).hca();
            src[h] = hca[h].memory().allocate(bytes);
            dst[h] = hca[h].memory().allocate(bytes);
            hca[h].memory().cpuWrite(src[h], pattern);
        }
        RandomGenerator rng = streams.stream("bench/fattree/peers");
        // One listener pair per host: completions are counted by each host's partition, summed after the run.
        BenchQueuePair[] requesters = new BenchQueuePair[n];
        BenchQueuePair[] responders = new BenchQueuePair[n];
        Simulator[] simOf = new Simulator[n];
        for (int h = 0; h < n; h++) {
            simOf[h] = fabric.simOfHost(h);
            requesters[h] = new BenchQueuePair(simOf[h]);
            responders[h] = new BenchQueuePair(simOf[h]);
        }
        int[] others = new int[n - 1];
        boolean[] targeted = new boolean[n];
        long op = 0;
        List<WorkRequest> posts = new ArrayList<>();
        for (int h = 0; h < n; h++) {
            for (int i = 0, j = 0; i < n; i++) {
                if (i != h) {
                    others[j++] = i;
                }
            }
            for (int c = 0; c < peers; c++) { // partial Fisher-Yates: distinct peers
                int pick = c + rng.nextInt(others.length - c);
                int peer = others[pick];
                others[pick] = others[c];
                others[c] = peer;
                targeted[peer] = true;
                setUpAs(simOf[h], h);
                QueuePair qa = hca[h].createQueuePair("h" + h + "_" + peer);
                setUpAs(simOf[peer], peer);
                QueuePair qb = hca[peer].createQueuePair("h" + peer + "_" + h);
                qa.setListener(requesters[h]);
                qb.setListener(responders[peer]);
                qa.connect(qb);
                qb.connect(qa);
                posts.add(new WorkRequest(op, WorkRequest.RDMA_WRITE, qa, op, 0, new long[] {src[h]},
                        new long[] {bytes}, dst[peer], 1));
                op++;
            }
        }
        for (WorkRequest wr : posts) {
            int h = wr.qp.hca().hostId();
            setUpAs(simOf[h], h);
            wr.qp.hca().postRequest(wr);
        }
        for (int h = 0; h < n; h++) {
            setUpAs(simOf[h], -1);
        }
        posts = null;
        long built = System.nanoTime();
        if (engine != null) {
            engine.run();
        } else {
            sim.run();
        }
        long ran = System.nanoTime();
        long events = fabric.eventsExecuted();
        long end = fabric.lastEventPs();
        long packets = 0;
        long maxStall = 0;
        for (Port port : fabric.ports()) {
            packets += port.packetsSent();
            maxStall = Math.max(maxStall, port.counters().stallPs());
        }
        long failed = 0;
        long completed = 0;
        for (int h = 0; h < n; h++) {
            failed += requesters[h].failed + responders[h].failed;
            completed += requesters[h].completed;
        }
        byte[] landed = new byte[(int) bytes];
        for (int h = 0; h < n; h++) {
            hca[h].memory().dmaRead(dst[h], landed, 0, landed.length);
            if (targeted[h] && !java.util.Arrays.equals(landed, pattern)) {
                failed++;
            }
        }
        List<Switch> sws = fabric.switches();
        return new Result(n, sws.size(), op, completed, failed, packets, events, end, built - start, ran - built,
                maxStall, fabric.packetsCreated(), engine != null ? engine.stats() : null,
                engine != null ? engine.lookaheadPs() : 0);
    }

    /** Set-up acting as host h's owner (-1: as set-up again). */
    private static void setUpAs(Simulator sim, int h) {
        sim.setUpAs(h < 0 ? 0 : FabricPartition.hostOwner(h));
    }
}
