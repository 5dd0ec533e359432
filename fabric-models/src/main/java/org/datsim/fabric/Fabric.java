package org.datsim.fabric;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.datsim.core.engine.PartitionedSimulator;
import org.datsim.core.engine.PartitionedTrace;
import org.datsim.core.engine.Simulator;
import org.datsim.core.param.Params;
import org.datsim.core.random.RandomStreams;
import org.datsim.core.stats.StatsRegistry;
import org.datsim.core.time.DataRate;
import org.datsim.core.trace.TraceEvent;
import org.datsim.core.trace.TraceSource;
import org.datsim.fabric.dat.DatHost;
import org.datsim.fabric.dat.DatProvider;
import org.datsim.fabric.hca.Hca;
import org.datsim.fabric.link.FlowControl;
import org.datsim.fabric.link.NetworkNode;
import org.datsim.fabric.link.PacketPool;
import org.datsim.fabric.link.PartitionPools;
import org.datsim.fabric.link.Port;
import org.datsim.fabric.memory.Coherence;
import org.datsim.fabric.memory.HostMemory;
import org.datsim.fabric.sw.EcnMarker;
import org.datsim.fabric.sw.IntStamper;
import org.datsim.fabric.sw.RouteTable;
import org.datsim.fabric.sw.SharedBuffer;
import org.datsim.fabric.sw.StaticBuffer;
import org.datsim.fabric.sw.Switch;
import org.datsim.fabric.topology.LinkSpec;
import org.datsim.fabric.topology.Topology;

/**
 * A built fabric: hosts (memory, HCA, provider state), switches and links wired on a validated topology, with routes
 * computed, and the DAT provider over them. Built once before the run and not changed after.
 */
public final class Fabric {

    private final Simulator sim;
    private final Params params;
    private final Topology topology;
    private final TraceSource<TraceEvent> trace;
    /** On a partitioned engine with a trace, each partition's source, merged into {@link #trace}; else null. */
    private final PartitionedTrace<TraceEvent> partitionedTrace;
    private final List<DatHost> hosts = new ArrayList<>();
    private final Map<String, Switch> switches = new LinkedHashMap<>();
    private final List<Port> ports = new ArrayList<>();
    private final DatProvider provider;
    private final PacketPool packetPool = new PacketPool();
    /** The partitioned engine and its per-partition packet pools, or null on one simulator. */
    private final PartitionedSimulator engine;
    private final PartitionPools pools;
    private long ccBaseRttPs;
    private long ccWindowBytes;

    /**
     * Sets what the models consult where the rules allow more than one order (see {@link ChoicePoints}); by
     * default the timing model's choice everywhere. Set before the run.
     *
     * @param choices the choice source
     */
    public void setChoices(org.datsim.core.choice.ChoiceSource choices) {
        sim.setChoices(choices);
        for (DatHost h : hosts) {
            h.memory().setChoices(choices, h.name());
        }
    }

    /**
     * Builds a fabric.
     *
     * @param sim the simulator it runs on
     * @param topology the validated topology
     * @param params the fabric parameters
     * @param trace the trace source every model publishes to
     */
    public Fabric(Simulator sim, Topology topology, Params params, TraceSource<TraceEvent> trace) {
        this(sim, topology, params, Map.of(), new RandomStreams(1), trace);
    }

    /**
     * Builds a fabric whose hosts may differ.
     *
     * @param sim the simulator it runs on
     * @param topology the validated topology
     * @param params the fabric parameters
     * @param hostParams the parameters of the hosts that override some of them, by host name
     * @param random the run's random streams; each model draws from its own named stream
     * @param trace the trace source every model publishes to
     */
    public Fabric(Simulator sim, Topology topology, Params params, Map<String, Params> hostParams,
            RandomStreams random, TraceSource<TraceEvent> trace) {
        this(sim, null, topology, params, hostParams, random, trace);
    }

    /**
     * Builds the fabric on a partitioned engine ({@link FabricPartition}): each host and switch is an owner (its
     * events run in its partition), links between partitions hand packets over, and each partition has its own
     * packet pool. The engine must have been made with {@link FabricPartition#owners}, a map from {@link
     * FabricPartition#byPods} (or another map of the same owners) and {@link FabricPartition#lookaheadPs}. Not
     * supported yet, and refused here: the port sampler (one event for every switch). A trace is one stream: each
     * partition's models fire into their partition's source, merged into {@code trace} in (time, key) order at the
     * end of every window ({@link PartitionedTrace}; call {@link #startTrace()} after subscribing its sinks).
     *
     * @param engine the partitioned engine
     * @param topology the topology
     * @param params the parameters
     * @param hostParams per-host parameters
     * @param random the random streams (every stream is created here, before the run)
     * @param trace the trace source the merged records are fired into
     * @throws IllegalArgumentException if the engine does not fit the topology or a feature is not supported
     */
    public Fabric(PartitionedSimulator engine, Topology topology, Params params, Map<String, Params> hostParams,
            RandomStreams random, TraceSource<TraceEvent> trace) {
        this(engine.partition(0), engine, topology, params, hostParams, random, trace);
    }

    /**
     * Builds a fabric on the engine a bench asks for: with {@code partitions} 0 or 1, the sequential engine (one
     * {@link Simulator} with the fabric's owners, {@link FabricPartition#owners}); else a partitioned engine split by
     * pods ({@link FabricPartition#engine}) with {@code threads} threads. Events of equal time are ordered by owner
     * keys on both, so a run's outputs do not depend on the choice.
     *
     * @param topology the topology
     * @param params the parameters
     * @param hostParams per-host parameters
     * @param random the random streams
     * @param trace the trace source (partitioned: the merged records, see {@link #startTrace()})
     * @param partitions 0 or 1 for the sequential engine, else 2 to the hosts (at most 64)
     * @param threads 1 to {@code partitions}
     * @return the fabric, its engine in {@link #sim()} and {@link #engine()}
     * @throws IllegalArgumentException as {@link FabricPartition#engine} and the partitioned constructor
     */
    public static Fabric onEngine(Topology topology, Params params, Map<String, Params> hostParams,
            RandomStreams random, TraceSource<TraceEvent> trace, int partitions, int threads) {
        if (partitions > 1) {
            return new Fabric(FabricPartition.engine(topology, params, hostParams, partitions, threads), topology,
                    params, hostParams, random, trace);
        }
        return new Fabric(new Simulator(FabricPartition.owners(topology)), topology, params, hostParams, random,
                trace);
    }

    private Fabric(Simulator sim, PartitionedSimulator engine, Topology topology, Params params,
            Map<String, Params> hostParams, RandomStreams random, TraceSource<TraceEvent> trace) {
        this.sim = sim;
        this.engine = engine;
        if (engine != null) {
            FabricPartition.check(engine, topology, params);
            pools = new PartitionPools(engine.partitions());
            for (int q = 0; q < engine.partitions(); q++) {
                engine.setWindowListener(q, pools.listener(q));
            }
            partitionedTrace = trace != null ? new PartitionedTrace<>(engine, trace) : null;
        } else {
            pools = null;
            partitionedTrace = null;
        }
        boolean owned = engine != null || sim.owners() > 0;
        this.params = params;
        this.topology = topology;
        this.trace = trace;
        Map<String, NetworkNode> nodes = new LinkedHashMap<>();
        Map<String, Integer> hostIds = new LinkedHashMap<>();
        List<String> hostNames = topology.hosts();
        for (int i = 0; i < hostNames.size(); i++) {
            String name = hostNames.get(i);
            Params hp = hostParams.getOrDefault(name, params);
            HostMemory memory = new HostMemory(hp.get(FabricParams.MEMORY_MAX_RESIDENT),
                    Coherence.of(hp.choice(FabricParams.MEMORY_COHERENCE)));
            int owner = owned ? FabricPartition.hostOwner(i) : 0;
            Hca hca = new Hca(simOfOwner(owner), name, i, memory, hp, traceOfOwner(owner));
            hca.setPacketPool(engine != null ? pools.pool(engine.partitionOf(owner)) : packetPool);
            if (engine != null) {
                hca.setPayloadByValue(); // the placing host may run on another thread
            }
            hca.setRandom(random.stream("hca/" + name + "/read_jitter"));
            hca.setAckTimerRandom(random.stream("hca/" + name + "/ack_timer"));
            hca.setCacheRandom(random.stream("hca/" + name + "/qpc_cache"),
                    random.stream("hca/" + name + "/mtt_cache"));
            hosts.add(DatProvider.newHost(name, i, hca, memory));
            nodes.put(name, hca);
            hostIds.put(name, i);
        }
        Switch.Mode mode = "cut_through".equals(params.choice(FabricParams.SWITCH_MODE)) ? Switch.Mode.CUT_THROUGH
                : Switch.Mode.STORE_AND_FORWARD;
        FlowControl fc = FlowControl.of(params.choice(FabricParams.LINK_FLOW_CONTROL));
        long buffer = fc == FlowControl.NONE ? Long.MAX_VALUE : params.get(FabricParams.SWITCH_BUFFER);
        Map<String, Switch.Builder> builders = new LinkedHashMap<>();
        Map<String, Integer> owners = new LinkedHashMap<>();
        for (int i = 0; i < hostNames.size(); i++) {
            owners.put(hostNames.get(i), owned ? FabricPartition.hostOwner(i) : 0);
        }
        for (String s : topology.switches()) {
            owners.put(s, owned ? FabricPartition.nodeOwner(owners.size()) : 0);
        }
        for (String s : topology.switches()) {
            builders.put(s, Switch.builder(s, simOfOwner(owners.get(s))).latency(params.get(FabricParams.SWITCH_LATENCY)).mode(mode)
                    .trace(traceOfOwner(owners.get(s)), hostNames));
        }
        // Every link's two ports, then each switch built with its ports and policies, then the ports connected
        List<int[]> portIndex = new ArrayList<>();
        Set<String> portNames = new HashSet<>();
        long hostBps = Long.MAX_VALUE;
        for (LinkSpec l : topology.links()) {
            DataRate rate = l.bandwidthBps() > 0 ? DataRate.ofBitsPerSecond(l.bandwidthBps())
                    : params.rate(FabricParams.LINK_BANDWIDTH);
            boolean aHost = hostIds.containsKey(l.a());
            boolean bHost = hostIds.containsKey(l.b());
            // The cable's delay, plus the PHY of each HCA at an end (a switch's PHYs are in its switch.latency).
            long latency = linkLatencyPs(l, aHost, bHost, hostParams, params);
            Port ab = new Port(simOfOwner(owners.get(l.a())), rate, latency);
            Port ba = new Port(simOfOwner(owners.get(l.b())), rate, latency);
            ab.setTimeResolution(params.get(FabricParams.LINK_TIME_RESOLUTION));
            ba.setTimeResolution(params.get(FabricParams.LINK_TIME_RESOLUTION));
            ab.setPfcFrameBytes(params.get(FabricParams.LINK_PFC_FRAME_BYTES));
            ba.setPfcFrameBytes(params.get(FabricParams.LINK_PFC_FRAME_BYTES));
            boolean everywhere = params.get(FabricParams.LINK_CONTROL_PRIORITY) != 0;
            boolean atHca = params.get(FabricParams.HCA_CONTROL_FIRST) != 0;
            boolean heldByPause = params.get(FabricParams.HCA_CONTROL_PAUSED) != 0;
            if (everywhere || atHca && aHost) {
                ab.prioritiseControl();
                if (heldByPause && aHost) {
                    ab.pauseControl();
                }
            }
            if (everywhere || atHca && bHost) {
                ba.prioritiseControl();
                if (heldByPause && bHost) {
                    ba.pauseControl();
                }
            }
            ab.setName(portName(l.a(), l.b(), portNames));
            ba.setName(portName(l.b(), l.a(), portNames));
            ab.pairWith(ba);
            ports.add(ab);
            ports.add(ba);
            int ia = attach(nodes, builders, l.a(), ab, ba);
            int ib = attach(nodes, builders, l.b(), ba, ab);
            if (!bHost) {
                ab.setFlowControl(fc, buffer);
            }
            if (!aHost) {
                ba.setFlowControl(fc, buffer);
            }
            if (aHost || bHost) {
                hostBps = Math.min(hostBps, rate.bitsPerSecond());
            }
            portIndex.add(new int[] {ia, ib});
            if (trace != null && params.get(FabricParams.TRACE_PORT_EVENTS) != 0) {
                ab.setTrace(traceOfOwner(owners.get(l.a())), l.a(), !aHost);
                ba.setTrace(traceOfOwner(owners.get(l.b())), l.b(), !bHost);
            }
        }
        for (Map.Entry<String, Switch.Builder> e : builders.entrySet()) {
            Switch sw = buildSwitch(e.getValue(), switches.size(), fc, buffer, hostBps, random);
            switches.put(e.getKey(), sw);
            nodes.put(e.getKey(), sw);
        }
        for (int i = 0; i < portIndex.size(); i++) {
            LinkSpec l = topology.links().get(i);
            ports.get(2 * i).connect(nodes.get(l.b()), portIndex.get(i)[1]);
            ports.get(2 * i + 1).connect(nodes.get(l.a()), portIndex.get(i)[0]);
            if (owned) {
                int oa = owners.get(l.a());
                int ob = owners.get(l.b());
                long lead = engine != null && engine.partitionOf(oa) != engine.partitionOf(ob) ? engine.lookaheadPs()
                        : 0;
                ports.get(2 * i).setOwners(oa, ob, lead);
                ports.get(2 * i + 1).setOwners(ob, oa, lead);
            }
        }
        long interval = params.get(FabricParams.TRACE_PORT_SAMPLE_INTERVAL);
        if (interval > 0 && !switches.isEmpty()) {
            new org.datsim.fabric.sw.PortSampler(sim, List.copyOf(switches.values()), interval, trace).start();
        }
        org.datsim.fabric.cc.CongestionControl cc = org.datsim.fabric.cc.CongestionControl.fromParams(params);
        if (cc.algorithm() != org.datsim.fabric.cc.CongestionControl.Algorithm.NONE) {
            long[] rttBdp = maxRttAndBdp(topology, params);
            ccBaseRttPs = cc.baseRttPs(rttBdp[0]);
            ccWindowBytes = cc.windowBytes(rttBdp[1]);
            for (DatHost h : hosts) {
                h.hca().setCongestionControl(cc, rttBdp[0], rttBdp[1]);
            }
        }
        Topology.Routes routes = topology.equalCostRoutes();
        int si = 0;
        for (Map.Entry<String, Switch> e : switches.entrySet()) {
            int[][] linkSets = routes.sets()[si];
            int[][] portSets = new int[linkSets.length][];
            for (int k = 0; k < linkSets.length; k++) {
                portSets[k] = new int[linkSets[k].length];
                for (int c = 0; c < linkSets[k].length; c++) {
                    int link = linkSets[k][c];
                    int[] idx = portIndex.get(link);
                    portSets[k][c] = topology.links().get(link).a().equals(e.getKey()) ? idx[0] : idx[1];
                }
            }
            e.getValue().routes().setRoutes(routes.setOf()[si], portSets);
            si++;
        }
        if ("hpcc".equals(params.choice(FabricParams.SWITCH_ECMP)) && !switches.isEmpty()) {
            org.datsim.fabric.sw.HpccEcmp.configure(topology, switches, portIndex);
        }
        this.provider = new DatProvider(sim, trace, hosts, params);
    }

    /**
     * Chooses a switch's policies from the fabric parameters, its ports known: the buffer (a static share per input
     * with PFC thresholds, or {@code switch.buffer_mode shared}: HPCC's shared buffer, each input's headroom and alpha
     * shift from its link), the route table ({@code switch.ecmp}), ECN marking ({@code ecn.*}, thresholds scaled to
     * each port's rate) and in-band telemetry ({@code cc.int}).
     *
     * @param b the switch's builder, with its ports
     * @param index the switch's index (its ECMP salt)
     * @param fc the flow control of the links into switches
     * @param share each input's buffer share (static buffer)
     * @param hostBps the slowest host link's rate (the shared buffer's alpha scaling)
     * @param random the run's random streams
     * @return the switch
     */
    private Switch buildSwitch(Switch.Builder b, int index, FlowControl fc, long share, long hostBps,
            RandomStreams random) {
        List<Port> swPorts = b.ports();
        int n = swPorts.size();
        long[] bps = new long[n];
        for (int i = 0; i < n; i++) {
            bps[i] = swPorts.get(i).rate().bitsPerSecond();
        }
        if ("shared".equals(params.choice(FabricParams.SWITCH_BUFFER_MODE))) {
            if (fc != FlowControl.PFC) {
                throw new IllegalStateException("a shared buffer needs PFC");
            }
            long fixed = params.get(FabricParams.PFC_HEADROOM);
            long minimum = 2 * FabricParams.largestPacket(params);
            long[] headroom = new long[n];
            int[] shift = new int[n];
            for (int i = 0; i < n; i++) {
                // HPCC's third.cc: 3 x rate x delay (in bytes), for the input of this port's link
                headroom[i] = SharedBuffer.headroomOf(fixed, minimum, bps[i], swPorts.get(i).propagationPs());
                shift[i] = SharedBuffer.alphaShiftOf((int) params.get(FabricParams.PFC_ALPHA_SHIFT), bps[i], hostBps);
            }
            b.buffer(new SharedBuffer(params.get(FabricParams.SWITCH_SHARED_BUFFER),
                    params.get(FabricParams.PFC_RESERVE), params.get(FabricParams.PFC_RESUME_OFFSET), headroom, shift));
        } else {
            b.buffer(StaticBuffer.uniform(fc, n, share, params.get(FabricParams.PFC_XOFF),
                    params.get(FabricParams.PFC_XON)));
        }
        b.routes("hpcc".equals(params.choice(FabricParams.SWITCH_ECMP)) ? RouteTable.hpcc(index)
                : RouteTable.ecmp(index));
        if (params.get(FabricParams.ECN_ENABLED) != 0) {
            b.ecn(EcnMarker.scaled(random.stream("switch/" + b.name() + "/ecn"), params.get(FabricParams.ECN_KMIN),
                    params.get(FabricParams.ECN_KMAX), params.get(FabricParams.ECN_PMAX_PERCENT) / 100.0, bps));
        }
        if (params.get(FabricParams.CC_INT) != 0) {
            b.intStamping(new IntStamper(bps));
        }
        return b.build();
    }

    /**
     * Returns the base RTT the congestion controllers use (cc.base_rtt, or the fabric's largest unloaded round trip:
     * see {@link #maxRttAndBdp}), picoseconds; 0 without congestion control.
     */
    public long ccBaseRttPs() {
        return ccBaseRttPs;
    }

    /**
     * Returns the window at line rate the congestion controllers use (cc.window, or the fabric's largest
     * bandwidth-delay product), bytes; 0 without congestion control.
     */
    public long ccWindowBytes() {
        return ccWindowBytes;
    }

    /**
     * The largest unloaded round-trip time between two hosts and the largest bandwidth-delay product that the
     * congestion controllers use (HPCC's maxRtt and maxBdp, GLOBAL_T 1), for the round trip this fabric models.
     *
     * <p>HPCC's {@code third.cc} takes, along a shortest path (fewest hops, found breadth-first), twice the
     * propagation delays plus one MTU's transmission time at each hop: all its NIC and switches add. datsim's hosts
     * and switches add more to the round trip a window must cover, from the moment the send engine chooses a packet
     * (when the controller counts it in flight) to the moment its ACK reaches the controller: the payload read of a
     * read request ({@code pcie.max_read_request} at {@code pcie.bandwidth}, the read-ahead unit of the packet
     * arbiter), the forwarding latency of every switch both ways ({@code switch.latency}), the HCAs' PHYs
     * ({@code hca.phy_latency}, four crossings) and the receive pipeline at both ends ({@code hca.rx_process}: the data
     * packet's, then the ACK's). Left out as HPCC leaves them out: the ACK's own transmission times (under 1% of the
     * round trip on HPCC's fat-tree). With none of these costs (preset {@code hpcc-ns3}) it is HPCC's figure. A window
     * of HPCC's figure on datsim's host model would cap a flow alone far below line rate (a 10 MB flow under hpcc took
     * 3.6 times as long as under none on a k=4 fat-tree of roce-100g).
     *
     * @return {maxRttPs, maxBdpBytes}
     */
    static long[] maxRttAndBdp(Topology topology, Params params) {
        List<String> hostNames = topology.hosts();
        Map<String, Integer> index = new LinkedHashMap<>();
        for (String h : hostNames) {
            index.put(h, index.size());
        }
        for (String s : topology.switches()) {
            index.put(s, index.size());
        }
        int n = index.size();
        List<LinkSpec> links = topology.links();
        int[][] adj = new int[n][];
        int[] deg = new int[n];
        int[] ends = new int[2 * links.size()];
        for (int i = 0; i < links.size(); i++) {
            ends[2 * i] = index.get(links.get(i).a());
            ends[2 * i + 1] = index.get(links.get(i).b());
            deg[ends[2 * i]]++;
            deg[ends[2 * i + 1]]++;
        }
        for (int v = 0; v < n; v++) {
            adj[v] = new int[deg[v]];
            deg[v] = 0;
        }
        for (int i = 0; i < links.size(); i++) {
            int a = ends[2 * i];
            int b = ends[2 * i + 1];
            adj[a][deg[a]++] = i;
            adj[b][deg[b]++] = i;
        }
        long mtu = params.get(FabricParams.HCA_MTU);
        long defaultBps = params.rate(FabricParams.LINK_BANDWIDTH).bitsPerSecond();
        long defaultLatency = params.get(FabricParams.LINK_LATENCY);
        long perSwitch = 2 * params.get(FabricParams.SWITCH_LATENCY);
        long hostPart = hostRoundTripPs(params);
        int hostCount = hostNames.size();
        long maxRtt = 0;
        long maxBdp = 0;
        long[] oneWay = new long[n];
        long[] minBps = new long[n];
        boolean[] seen = new boolean[n];
        int[] queue = new int[n];
        for (int src = 0; src < hostCount; src++) {
            java.util.Arrays.fill(seen, false);
            int head = 0;
            int tail = 0;
            queue[tail++] = src;
            seen[src] = true;
            oneWay[src] = 0;
            minBps[src] = Long.MAX_VALUE;
            while (head < tail) {
                int v = queue[head++];
                if (v != src && v < hostCount) {
                    long rtt = oneWay[v] + hostPart;
                    maxRtt = Math.max(maxRtt, rtt);
                    maxBdp = Math.max(maxBdp, (long) ((double) rtt * minBps[v] / 8e12));
                    continue; // hosts are not transit nodes
                }
                for (int li : adj[v]) {
                    LinkSpec l = links.get(li);
                    int w = ends[2 * li] == v ? ends[2 * li + 1] : ends[2 * li];
                    if (seen[w]) {
                        continue;
                    }
                    seen[w] = true;
                    long bps = l.bandwidthBps() > 0 ? l.bandwidthBps() : defaultBps;
                    long latency = l.latencyPs() >= 0 ? l.latencyPs() : defaultLatency;
                    oneWay[w] = oneWay[v] + 2 * latency + org.datsim.fabric.cc.RateController.txTimePs(mtu, bps)
                            + (w >= hostCount ? perSwitch : 0);
                    minBps[w] = Math.min(minBps[v], bps);
                    queue[tail++] = w;
                }
            }
        }
        return new long[] {maxRtt, maxBdp};
    }

    /**
     * The part of an unloaded round trip that the two hosts add, beyond the links and switches (see
     * {@link #maxRttAndBdp}): one payload read request at the PCIe rate at the sender, four PHY crossings, and the
     * receive pipeline of the data packet and of its ACK.
     *
     * @param params the fabric parameters
     * @return picoseconds
     */
    static long hostRoundTripPs(Params params) {
        long read = params.rate(FabricParams.PCIE_BANDWIDTH).transmitTimePs(
                params.get(FabricParams.PCIE_MAX_READ_REQUEST));
        return read + 4 * params.get(FabricParams.HCA_PHY_LATENCY) + 2 * params.get(FabricParams.HCA_RX_PROCESS);
    }

    /**
     * Returns true if any congestion feature is on (shared buffer, ECN, in-band telemetry, port sampling): then
     * summary.json's ports also carry ECN marks, pause time and utilisation.
     */
    public boolean congestionFeatures() {
        return "shared".equals(params.choice(FabricParams.SWITCH_BUFFER_MODE))
                || params.get(FabricParams.ECN_ENABLED) != 0 || params.get(FabricParams.CC_INT) != 0
                || params.get(FabricParams.TRACE_PORT_SAMPLE_INTERVAL) > 0;
    }

    /**
     * The name of a link direction's sending port, {@code FROM->TO}, with {@code #2}, {@code #3}, ... for the second,
     * third, ... port from the same node to the same node (parallel links), in link order: unique, so that the
     * switches' drop lines and summary.json's ports name a port alike.
     */
    private static String portName(String from, String to, Set<String> taken) {
        String base = from + "->" + to;
        String name = base;
        for (int k = 2; !taken.add(name); k++) {
            name = base + "#" + k;
        }
        return name;
    }

    /** A link's propagation delay: the cable's, plus the PHY of each HCA at an end (a switch's are in its latency). */
    static long linkLatencyPs(LinkSpec l, boolean aHost, boolean bHost, Map<String, Params> hostParams,
            Params params) {
        return (l.latencyPs() >= 0 ? l.latencyPs() : params.get(FabricParams.LINK_LATENCY))
                + phyLatency(aHost, l.a(), hostParams, params) + phyLatency(bHost, l.b(), hostParams, params);
    }

    /** The PHY latency of a link end: its host's hca.phy_latency, or 0 for a switch (not a host). */
    private static long phyLatency(boolean host, String name, Map<String, Params> hostParams, Params params) {
        return host ? hostParams.getOrDefault(name, params).get(FabricParams.HCA_PHY_LATENCY) : 0;
    }

    /**
     * Attaches a link's port to the node at its end: to a host's HCA, or as the next port of a switch being built
     * (with the peer's port sending into it).
     *
     * @return the node's index of the port
     */
    private static int attach(Map<String, NetworkNode> nodes, Map<String, Switch.Builder> switches, String node,
            Port sending, Port receiving) {
        Switch.Builder b = switches.get(node);
        if (b == null) {
            ((Hca) nodes.get(node)).attach(sending);
            return 0;
        }
        int index = b.portCount();
        b.port(sending, receiving);
        return index;
    }

    /** Returns the simulator. */
    public Simulator sim() {
        return sim;
    }

    /** The simulator of an owner: its partition's on a partitioned engine, else the one simulator. */
    private Simulator simOfOwner(int owner) {
        return engine != null ? engine.simulatorOf(owner) : sim;
    }

    /** The trace an owner's models fire into: its partition's on a partitioned engine, else {@link #trace()}. */
    private TraceSource<TraceEvent> traceOfOwner(int owner) {
        return partitionedTrace != null ? partitionedTrace.of(engine.partitionOf(owner)) : trace;
    }

    /**
     * Returns the trace a host's models fire into (a consumer of the host, such as a workload's flows, fires there
     * too): on a partitioned engine its partition's, merged into {@link #trace()} at the end of every window; else
     * {@link #trace()}.
     *
     * @param host the host's index
     * @return its trace source
     */
    public TraceSource<TraceEvent> traceOfHost(int host) {
        return traceOfOwner(FabricPartition.hostOwner(host));
    }

    /**
     * Call after subscribing the sinks of {@link #trace()} and before the run: on a partitioned engine, connects each
     * partition's trace to it (models then build records only if it has sinks). Does nothing on one simulator.
     */
    public void startTrace() {
        if (partitionedTrace != null) {
            partitionedTrace.attach();
        }
    }

    /**
     * Returns the simulator a host's events run on: its partition's on a partitioned engine, else {@link #sim()}.
     *
     * @param host the host's index
     * @return its simulator
     */
    public Simulator simOfHost(int host) {
        return engine != null ? engine.simulatorOf(FabricPartition.hostOwner(host)) : sim;
    }

    /** Returns the partitioned engine the fabric runs on, or null for one simulator. */
    public PartitionedSimulator engine() {
        return engine;
    }

    /** Returns the packets created in every pool (the most in use at once, per pool, summed over partitions). */
    public int packetsCreated() {
        return pools != null ? pools.created() : packetPool.created();
    }

    /**
     * Returns the events the fabric's engine has executed, over every partition, without the handovers (which a
     * sequential run has not): the same count on every engine.
     *
     * @return the events executed
     */
    public long eventsExecuted() {
        return engine != null ? engine.eventsExecuted() - handovers() : sim.eventsExecuted();
    }

    /**
     * Returns the time of the engine's last executed event (a sequential run: its present, which a run ending on a
     * time limit moves there).
     *
     * @return the time, ps
     */
    public long lastEventPs() {
        return engine != null ? engine.lastEventPs() : sim.now();
    }

    /**
     * Returns the packets the ports handed over to another partition: events a partitioned run executes that a
     * sequential one does not (subtract them to compare event counts).
     *
     * @return the handovers
     */
    public long handovers() {
        long n = 0;
        for (Port p : ports) {
            n += p.handovers();
        }
        return n;
    }

    /** Returns the fabric parameters. */
    public Params params() {
        return params;
    }

    /** Returns the topology. */
    public Topology topology() {
        return topology;
    }

    /** Returns the trace source the models publish to. */
    public TraceSource<TraceEvent> trace() {
        return trace;
    }

    /** Returns the DAT provider. */
    public DatProvider provider() {
        return provider;
    }

    /** Returns the hosts in id order. */
    public List<DatHost> hosts() {
        return List.copyOf(hosts);
    }

    /** Returns every link direction's sending port, two per link in link order. */
    public List<Port> ports() {
        return List.copyOf(ports);
    }

    /** Returns the pool every packet of this fabric comes from. */
    public PacketPool packetPool() {
        return packetPool;
    }

    /**
     * Registers every port's counters ({@link org.datsim.fabric.link.PortCounters}) under {@code port.} and the port's
     * name ({@code FROM->TO}, {@code #2}, {@code #3}, ... for parallel links), in link order.
     *
     * @param registry the run's statistics
     */
    public void registerStats(StatsRegistry registry) {
        for (Port p : ports) {
            registry.register("port." + p.name(), p.counters());
        }
    }

    /** Returns the switches in declaration order. */
    public List<Switch> switches() {
        return List.copyOf(switches.values());
    }
}
